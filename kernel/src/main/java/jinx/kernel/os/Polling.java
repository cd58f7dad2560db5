package jinx.kernel.os;

import jinx.kernel.Rc;

/**
 * The master's wait on one set: {@code poll(2)} over a few descriptors and a {@code timerfd(2)} for its deadlines
 * (nginx's {@code sigsuspend()} and {@code setitimer()}). The facade rules of {@link Syscalls} apply. Not hot:
 * the master calls these a few times per signal or channel message.
 */
public final class Polling {

    private static final int EINTR = Errors.EINTR;

    private Polling() {
    }

    /**
     * Waits for events on {@code count} {@code struct pollfd} entries at {@code fds} (filled by the caller with
     * {@link Platform#OFFSETOF_POLLFD_FD} and {@link Platform#OFFSETOF_POLLFD_EVENTS}).
     *
     * @param fds the array of {@code struct pollfd}
     * @param count its length
     * @param timeoutMs milliseconds, -1 for none
     * @return how many entries have events; 0 on timeout or when a signal interrupted the wait
     * @throws NativeIoException {@code poll() failed (...)}
     */
    public static int poll(long fds, int count, int timeoutMs) throws NativeIoException {
        int n = Native.C.poll(fds, count, timeoutMs);
        if (n >= 0) {
            return n;
        }
        int errno = Errors.last();
        if (errno == EINTR) {
            // the caller recomputes its deadlines and waits again
            return 0;
        }
        throw Errors.failure("poll()", errno);
    }

    /**
     * Creates a monotonic, non-blocking, close-on-exec timerfd.
     *
     * @return the descriptor
     * @throws NativeIoException {@code timerfd_create() failed (...)}
     */
    public static int timerfd() throws NativeIoException {
        int fd = Native.C.timerfd_create(Platform.CLOCK_MONOTONIC, Platform.TFD_CLOEXEC | Platform.TFD_NONBLOCK);
        if (fd < 0) {
            throw Errors.failure("timerfd_create()", Errors.last());
        }
        return fd;
    }

    /**
     * Arms a timerfd once, {@code ms} from now (at least 1 ms), or disarms it ({@code ms < 0}).
     *
     * @param fd the timerfd
     * @param ms the delay, or a negative value to disarm
     * @throws NativeIoException {@code timerfd_settime() failed (...)}
     */
    public static void arm(int fd, long ms) throws NativeIoException {
        long spec = NativeMemory.allocateTemporary(Platform.SIZEOF_ITIMERSPEC);
        try {
            for (int i = 0; i < Platform.SIZEOF_ITIMERSPEC; i++) {
                NativeMemory.putByte(spec + i, (byte) 0);
            }
            if (ms >= 0) {
                long delay = Math.max(1, ms);
                NativeMemory.putUnsigned(spec + Platform.OFFSETOF_IT_VALUE_SEC, Platform.SIZEOF_IT_VALUE_SEC,
                    delay / 1000);
                NativeMemory.putUnsigned(spec + Platform.OFFSETOF_IT_VALUE_NSEC, Platform.SIZEOF_IT_VALUE_NSEC,
                    (delay % 1000) * 1_000_000L);
            }
            if (Native.C.timerfd_settime(fd, 0, spec, 0) != 0) {
                throw Errors.failure("timerfd_settime()", Errors.last());
            }
        } finally {
            NativeMemory.freeTemporary(spec);
        }
    }

    /**
     * Reads a timerfd's expiration count, which also clears its readiness.
     *
     * @param fd the timerfd
     * @return expirations since the last read, or {@link Rc#AGAIN} when it has not expired
     * @throws NativeIoException {@code read() timerfd 5 failed (...)}
     */
    public static long expirations(int fd) throws NativeIoException {
        long buf = NativeMemory.allocateTemporary(8);
        try {
            for (;;) {
                long n = Native.C.read(fd, buf, 8);
                if (n == 8) {
                    return NativeMemory.getLong(buf);
                }
                int errno = n < 0 ? Errors.last() : Errors.EINVAL;
                if (Errors.isAgain(errno)) {
                    return Rc.AGAIN;
                }
                if (errno != EINTR) {
                    throw Errors.failure("read() timerfd " + fd, errno);
                }
            }
        } finally {
            NativeMemory.freeTemporary(buf);
        }
    }
}
