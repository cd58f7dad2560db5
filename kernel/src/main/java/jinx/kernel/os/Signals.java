package jinx.kernel.os;

import jnr.constants.platform.Signal;

import jinx.kernel.Rc;

/**
 * The facade over signal masks and {@code signalfd}, with {@link Syscalls}' rules: how a JVM receives signals
 * (DESIGN section 6a). The server's signals are blocked in every thread and read from a signalfd; nothing here
 * installs a handler.
 *
 * <p>Masks are per thread. {@link #block}, {@link #unblock}, {@link #setMask} and {@link #threadMask} act on the
 * calling thread ({@code pthread_sigmask}); a thread the JVM starts later inherits the mask of the thread that
 * starts it, and a program started with {@code posix_spawnp} gets the mask its {@link SpawnSpec} names. A
 * process-directed signal ({@code kill}) goes to any one thread that does not block it, so a JVM receives it
 * reliably only when every thread blocks it; a thread-directed one ({@link #tgkill}) stays pending on its thread.
 * A signalfd reads the signals pending for the process and for the thread that reads it.
 */
public final class Signals {

    private static final long SYS_GETTID = Platform.get("SYS_gettid");
    private static final long SYS_TGKILL = Platform.get("SYS_tgkill");

    /** The names nginx prints, before jnr-constants' aliases (SIGCLD, SIGPOLL, SIGIOT). */
    private static final Signal[] PREFERRED = {
        Signal.SIGHUP, Signal.SIGINT, Signal.SIGQUIT, Signal.SIGABRT, Signal.SIGKILL, Signal.SIGUSR1,
        Signal.SIGSEGV, Signal.SIGUSR2, Signal.SIGPIPE, Signal.SIGALRM, Signal.SIGTERM, Signal.SIGCHLD,
        Signal.SIGWINCH, Signal.SIGIO, Signal.SIGSYS,
    };

    private Signals() {
    }

    /**
     * Returns a new set of the signals a Jinx process blocks in every thread and reads from its signalfd: HUP,
     * QUIT, TERM, INT, USR1, USR2, WINCH, CHLD, ALRM, IO.
     *
     * @return the set, to close
     */
    public static SigSet serverSet() {
        return SigSet.of(Platform.SIGHUP, Platform.SIGQUIT, Platform.SIGTERM, Platform.SIGINT, Platform.SIGUSR1,
                         Platform.SIGUSR2, Platform.SIGWINCH, Platform.SIGCHLD, Platform.SIGALRM, Platform.SIGIO);
    }

    /**
     * Adds signals to the calling thread's mask: {@code pthread_sigmask(SIG_BLOCK, set, NULL)}.
     *
     * @param set the signals
     * @throws NativeIoException {@code pthread_sigmask() failed (...)}
     */
    public static void block(SigSet set) throws NativeIoException {
        pthreadSigmask(Platform.SIG_BLOCK, set.address(), 0);
    }

    /**
     * Removes signals from the calling thread's mask: {@code pthread_sigmask(SIG_UNBLOCK, set, NULL)}. A pending
     * signal that becomes unblocked is delivered at once (to its default action when it has no handler).
     *
     * @param set the signals
     * @throws NativeIoException {@code pthread_sigmask() failed (...)}
     */
    public static void unblock(SigSet set) throws NativeIoException {
        pthreadSigmask(Platform.SIG_UNBLOCK, set.address(), 0);
    }

    /**
     * Replaces the calling thread's mask: {@code pthread_sigmask(SIG_SETMASK, set, NULL)}.
     *
     * @param set the new mask
     * @throws NativeIoException {@code pthread_sigmask() failed (...)}
     */
    public static void setMask(SigSet set) throws NativeIoException {
        pthreadSigmask(Platform.SIG_SETMASK, set.address(), 0);
    }

    /**
     * Returns the calling thread's mask: {@code pthread_sigmask(SIG_BLOCK, NULL, old)}.
     *
     * @return a new set, to close
     * @throws NativeIoException {@code pthread_sigmask() failed (...)}
     */
    public static SigSet threadMask() throws NativeIoException {
        SigSet old = SigSet.empty();
        try {
            pthreadSigmask(Platform.SIG_BLOCK, 0, old.address());
        } catch (NativeIoException e) {
            old.close();
            throw e;
        }
        return old;
    }

    /**
     * {@code pthread_sigmask(how, set, oldset)} on native sets.
     *
     * @param how {@link Platform#SIG_BLOCK}, {@link Platform#SIG_UNBLOCK} or {@link Platform#SIG_SETMASK}
     * @param set a {@code sigset_t}, or 0 to change nothing
     * @param oldset receives the previous mask, or 0
     * @throws NativeIoException {@code pthread_sigmask() failed (22: Invalid argument)}
     */
    public static void pthreadSigmask(int how, long set, long oldset) throws NativeIoException {
        int rc = Native.C.pthread_sigmask(how, set, oldset);
        if (rc != 0) {
            throw Errors.failure("pthread_sigmask()", rc);
        }
    }

    /**
     * {@code sigprocmask(how, set, oldset)} on native sets. POSIX leaves it unspecified in a threaded process;
     * glibc changes the calling thread's mask, exactly as {@link #pthreadSigmask}.
     *
     * @param how {@link Platform#SIG_BLOCK}, {@link Platform#SIG_UNBLOCK} or {@link Platform#SIG_SETMASK}
     * @param set a {@code sigset_t}, or 0 to change nothing
     * @param oldset receives the previous mask, or 0
     * @throws NativeIoException {@code sigprocmask() failed (...)}
     */
    public static void sigprocmask(int how, long set, long oldset) throws NativeIoException {
        if (Native.C.sigprocmask(how, set, oldset) != 0) {
            throw Errors.failure("sigprocmask()", Errors.last());
        }
    }

    /**
     * Opens a non-blocking, close-on-exec signalfd: {@code signalfd(-1, mask, SFD_NONBLOCK|SFD_CLOEXEC)}. The
     * signals must be blocked (in every thread, for process-directed ones), or they are delivered instead of
     * read.
     *
     * @param mask the signals to read
     * @return the descriptor
     * @throws NativeIoException {@code signalfd() failed (...)}
     */
    public static int signalfd(SigSet mask) throws NativeIoException {
        return signalfd(-1, mask, Platform.SFD_NONBLOCK | Platform.SFD_CLOEXEC);
    }

    /**
     * {@code signalfd(fd, mask, flags)}: a new signalfd, or a new mask for an existing one.
     *
     * @param fd -1, or the signalfd to change
     * @param mask the signals to read
     * @param flags {@link Platform#SFD_NONBLOCK} | {@link Platform#SFD_CLOEXEC}; without SFD_NONBLOCK a read
     *     waits for a signal (the master's {@code sigsuspend})
     * @return the descriptor
     * @throws NativeIoException {@code signalfd() failed (...)}
     */
    public static int signalfd(int fd, SigSet mask, int flags) throws NativeIoException {
        int rc = Native.C.signalfd(fd, mask.address(), flags);
        if (rc < 0) {
            throw Errors.failure("signalfd()", Errors.last());
        }
        return rc;
    }

    /**
     * Reads as many pending signals as fit into {@code into} ({@code read(2)} of whole
     * {@code struct signalfd_siginfo} records). Allocates nothing.
     *
     * @param fd the signalfd
     * @param into the records, reused
     * @return how many were read (at least 1), or {@link Rc#AGAIN} when none is pending on a non-blocking
     *     signalfd ({@code into.count()} is then 0)
     * @throws NativeIoException {@code read() signalfd 12 failed (...)}
     */
    public static int read(int fd, SignalInfo into) throws NativeIoException {
        for (;;) {
            long n = Native.C.read(fd, into.buffer(), (long) into.capacity() * SignalInfo.SIZE);
            if (n >= 0) {
                into.filled((int) (n / SignalInfo.SIZE));
                return into.count();
            }
            int errno = Errors.last();
            if (errno == Errors.EINTR) {
                continue;
            }
            into.filled(0);
            if (Errors.isAgain(errno)) {
                return Rc.AGAIN;
            }
            throw Errors.failure("read() signalfd " + fd, errno);
        }
    }

    /**
     * Returns the calling thread's kernel id ({@code gettid}, through {@code syscall(SYS_gettid)}): the pid of
     * the main thread, another number for every other thread.
     *
     * @return the thread id
     */
    public static int gettid() {
        return (int) Native.C.syscall(SYS_GETTID, 0, 0, 0);
    }

    /**
     * Sends a signal to one thread: {@code tgkill(tgid, tid, sig)} (through {@code syscall(SYS_tgkill)}).
     *
     * @param tgid the process ({@code getpid()})
     * @param tid the thread ({@link #gettid()})
     * @param sig the signal
     * @throws NativeIoException {@code tgkill(12, 14, 10) failed (3: No such process)}
     */
    public static void tgkill(int tgid, int tid, int sig) throws NativeIoException {
        while (Native.C.syscall(SYS_TGKILL, tgid, tid, sig) != 0) {
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("tgkill(" + tgid + ", " + tid + ", " + sig + ")", errno);
            }
        }
    }

    /**
     * Returns a signal's name as nginx prints it ({@code "SIGHUP"}, {@code "SIGCHLD"}), for lines such as
     * {@code signal 1 (SIGHUP) received from 12, reconfiguring}.
     *
     * @param signo the signal
     * @return its name, or its number when it has none
     */
    public static String name(int signo) {
        for (Signal s : PREFERRED) {
            if (s.defined() && s.intValue() == signo) {
                return s.name();
            }
        }
        String name = Platform.name(Signal.class, signo);
        return name.startsWith("SIG") ? name : Integer.toString(signo);
    }
}
