/**
 * Serving processes. For now the single process of {@code master_process off}: it builds the cycle, runs every
 * module's {@code initProcess}, and turns the event loop until stopped. Follows nginx's
 * {@code ngx_single_process_cycle()} in {@code src/os/unix/ngx_process_cycle.c}.
 */
package jinx.kernel.internal.process;
