/**
 * The epoll(7) event method, nginx's {@code src/event/modules/ngx_epoll_module.c}: the module and its
 * {@code epoll_events} directive ({@link jinx.event.epoll.EpollEventModule}), the method's table
 * ({@link jinx.event.epoll.EpollEventActions}), its eventfd wake-up ({@link jinx.event.epoll.EpollNotify}), the
 * native event array ({@link jinx.event.epoll.EpollEventArray}), the reads ahead in the wait, which nginx does not
 * need ({@link jinx.event.epoll.EpollPreread}), and the facade over the binding
 * ({@link jinx.event.epoll.EpollSyscalls}). Nothing here is exported; the kernel
 * finds the module through {@code ServiceLoader}.
 */
package jinx.event.epoll;
