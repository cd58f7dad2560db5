package jinx.event.epoll.bind;

import jnr.ffi.annotations.IgnoreError;
import jnr.ffi.types.intptr_t;

/**
 * The loop's wait in libjinxio ({@code kernel/src/main/c/jinxio.c}): {@code epoll_wait} returning {@code -errno}
 * instead of setting errno, so that jnr-ffi calls it without its errno save ({@code @IgnoreError}) and without
 * glibc's cancellation switch; the wait runs once per turn of the loop. Bound to the symbol {@code jinx_} + the
 * method's name; where the library is not found, {@link LibEpoll#epoll_wait} serves instead.
 *
 * <p>Not API: see the package.
 */
public interface LibEpollIo {

    /**
     * {@code int jinx_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);}
     *
     * @param epfd the epoll descriptor
     * @param events the address of an array of {@code maxevents} {@code struct epoll_event}
     * @param maxevents the array's length, at least 1
     * @param timeout the longest wait in ms, -1 for no limit
     * @return the number of entries filled, 0 on timeout, or {@code -errno}
     */
    @IgnoreError
    int epoll_wait(int epfd, @intptr_t long events, int maxevents, int timeout);

    /**
     * {@code int jinx_epoll_wait_preread(int epfd, struct epoll_event *events, int maxevents, int timeout,
     * struct jinx_preread *p);}: {@link #epoll_wait}, then a {@code recvfrom} for each returned event that can
     * read and whose slot's entry in {@code p}'s table is armed with the event's data, into {@code p}'s area; the
     * results in {@code p}'s array, one per event.
     *
     * @param epfd the epoll descriptor
     * @param events the address of an array of {@code maxevents} {@code struct epoll_event}
     * @param maxevents the array's length, at least 1
     * @param timeout the longest wait in ms, -1 for no limit
     * @param preread the address of the {@code struct jinx_preread}
     * @return the number of entries filled, 0 on timeout, or {@code -errno}
     */
    @IgnoreError
    int epoll_wait_preread(int epfd, @intptr_t long events, int maxevents, int timeout, @intptr_t long preread);
}
