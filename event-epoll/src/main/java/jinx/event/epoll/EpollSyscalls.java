package jinx.event.epoll;

import jinx.event.epoll.bind.EpollLibrary;
import jinx.event.epoll.bind.LibEpoll;
import jinx.event.epoll.bind.LibEpollIo;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;

/**
 * The facade over {@link LibEpoll}, following the kernel's rules (see {@code jinx.kernel.os}): {@code EINTR} is
 * retried, every other failure throws {@link NativeIoException} worded as nginx words it
 * ({@code epoll_ctl(1, 12) failed (9: Bad file descriptor)}), nothing returns a raw -1, and nothing allocates
 * unless a call fails. The exception is {@link #wait}: as nginx's {@code ngx_epoll_process_events()}, an
 * interrupted wait is logged at {@code info} and counts as no events, so that the loop turns (and a signal's
 * work is seen) instead of sleeping again.
 */
final class EpollSyscalls {

    private static final LibEpoll EPOLL = EpollLibrary.EPOLL;
    private static final LibEpollIo IO = EpollLibrary.IO;
    private static final int EINTR = Errors.EINTR;

    private EpollSyscalls() {
    }

    /**
     * Creates an epoll instance.
     *
     * @param flags 0 or {@code Platform.EPOLL_CLOEXEC}
     * @return the epoll descriptor
     * @throws NativeIoException {@code epoll_create1() failed (24: Too many open files)}
     */
    static int create1(int flags) throws NativeIoException {
        for (;;) {
            int ep = EPOLL.epoll_create1(flags);
            if (ep >= 0) {
                return ep;
            }
            int errno = EpollLibrary.lastError();
            if (errno != EINTR) {
                throw failure("epoll_create1()", errno);
            }
        }
    }

    /**
     * Adds, changes or removes a descriptor's registration.
     *
     * @param ep the epoll descriptor
     * @param op {@code EPOLL_CTL_ADD}, {@code EPOLL_CTL_MOD} or {@code EPOLL_CTL_DEL}
     * @param fd the descriptor
     * @param event the address of one {@code struct epoll_event} (see {@link EpollEventArray})
     * @throws NativeIoException {@code epoll_ctl(1, 12) failed (9: Bad file descriptor)}: op and fd as numbers,
     *     as nginx's {@code "epoll_ctl(%d, %d) failed"}
     */
    static void ctl(int ep, int op, int fd, long event) throws NativeIoException {
        while (EPOLL.epoll_ctl(ep, op, fd, event) != 0) {
            int errno = EpollLibrary.lastError();
            if (errno != EINTR) {
                throw failure("epoll_ctl(" + op + ", " + fd + ")", errno);
            }
        }
    }

    /**
     * Waits for events: nginx's call and error handling in {@code ngx_epoll_process_events()}.
     *
     * @param ep the epoll descriptor
     * @param events the address of the result array
     * @param maxevents the array's length
     * @param timeout the longest wait in ms, -1 for no limit
     * @param preread the address of a read-ahead block ({@code struct jinx_preread}, see {@link EpollPreread}),
     *     whose reads are made in the same native call after the wait; 0 to read nothing ahead. A block needs
     *     libjinxio ({@link #canPreread()})
     * @param log where an interrupted or empty wait is reported
     * @return the number of entries filled; 0 on timeout, and 0 when a signal interrupted the wait (logged at
     *     {@code info}: {@code epoll_wait() failed (4: Interrupted system call)}) or the wait returned nothing
     *     without a timeout (logged at {@code alert}, as nginx)
     * @throws NativeIoException {@code epoll_wait() failed (9: Bad file descriptor)} for any other errno
     */
    static int wait(int ep, long events, int maxevents, int timeout, long preread, ErrorLog log)
        throws NativeIoException {
        return wait(IO, ep, events, maxevents, timeout, preread, log);
    }

    /**
     * Tells whether the wait can read ahead: libjinxio was found.
     *
     * @return whether {@link #wait} may be given a read-ahead block
     */
    static boolean canPreread() {
        return IO != null;
    }

    /**
     * {@link #wait} through libjinxio's binding, or libc's when {@code io} is null; with the reads ahead of
     * {@code preread} when it is not 0 (libjinxio's only).
     */
    static int wait(LibEpollIo io, int ep, long events, int maxevents, int timeout, long preread, ErrorLog log)
        throws NativeIoException {
        int n;
        if (preread != 0) {
            n = io.epoll_wait_preread(ep, events, maxevents, timeout, preread);
        } else if (io != null) {
            n = io.epoll_wait(ep, events, maxevents, timeout);
        } else {
            n = EPOLL.epoll_wait(ep, events, maxevents, timeout);
        }
        if (n > 0) {
            return n;
        }
        if (n == 0) {
            if (timeout == -1) {
                log.alert("epoll_wait() returned no events without timeout");
            }
            return 0;
        }
        int errno = io != null ? -n : EpollLibrary.lastError();
        if (errno == EINTR) {
            log.log(LogLevel.INFO, "epoll_wait() failed (" + errno + ": " + Errors.text(errno) + ")");
            return 0;
        }
        throw failure("epoll_wait()", errno);
    }

    private static NativeIoException failure(String call, int errno) {
        return new NativeIoException(call, errno, Errors.text(errno));
    }
}
