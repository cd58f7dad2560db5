/**
 * The poll(2) event method, nginx's {@code src/event/modules/ngx_poll_module.c}: {@link
 * jinx.event.poll.PollEventModule} (the module, {@code use poll;}) and its level-triggered table, with a notify
 * eventfd nginx's poll lacks. Nothing here is exported; the module is found through
 * {@link java.util.ServiceLoader} as any third-party module would be.
 */
package jinx.event.poll;
