package jinx.event.epoll.bind;

import jnr.ffi.types.intptr_t;

/**
 * The epoll calls, mirroring their C prototypes (glibc, {@code <sys/epoll.h>}). A {@code struct epoll_event *}
 * is a raw native address ({@code @intptr_t long}) into memory the caller preallocated, never a jnr
 * {@code Struct} or {@code Pointer}: one made per call would be garbage on the hot path. errno is saved after
 * every call (no {@code @IgnoreError}: {@code epoll_wait} must tell EINTR from a failure).
 *
 * <p>Not API: see the package.
 */
public interface LibEpoll {

    /**
     * {@code int epoll_create1(int flags);}
     *
     * @param flags 0 or {@code EPOLL_CLOEXEC}
     * @return the new epoll descriptor, or -1 with errno set
     */
    int epoll_create1(int flags);

    /**
     * {@code int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event);}
     *
     * @param epfd the epoll descriptor
     * @param op {@code EPOLL_CTL_ADD}, {@code EPOLL_CTL_MOD} or {@code EPOLL_CTL_DEL}
     * @param fd the watched descriptor
     * @param event the address of one {@code struct epoll_event} (ignored, may be 0, for {@code EPOLL_CTL_DEL})
     * @return 0, or -1 with errno set
     */
    int epoll_ctl(int epfd, int op, int fd, @intptr_t long event);

    /**
     * {@code int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);}
     *
     * @param epfd the epoll descriptor
     * @param events the address of an array of {@code maxevents} {@code struct epoll_event}
     * @param maxevents the array's length, at least 1
     * @param timeout the longest wait in ms, -1 for no limit
     * @return the number of entries filled, 0 on timeout, or -1 with errno set
     */
    int epoll_wait(int epfd, @intptr_t long events, int maxevents, int timeout);
}
