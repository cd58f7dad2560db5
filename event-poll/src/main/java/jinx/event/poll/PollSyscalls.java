package jinx.event.poll;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

import jinx.event.poll.bind.LibPoll;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;

/**
 * The facade over {@link LibPoll}, the module's only caller of it, following the kernel's rules
 * ({@code jinx.kernel.os}): every failure but one throws {@link NativeIoException} named {@code poll()} with errno
 * and its text, and nothing returns a raw -1.
 *
 * <p>The exception is {@code EINTR}: it is not retried but returned as {@link Rc#AGAIN}, because the wait is the
 * loop's only sleep and a signal must reach the loop's cycle, as in nginx's {@code ngx_poll_process_events()},
 * which returns on {@code EINTR} after logging {@code poll() failed (4: Interrupted system call)} at info.
 */
final class PollSyscalls {

    /** What the loop logs, at info, when the wait was interrupted: nginx's words. */
    static final String INTERRUPTED = "poll() failed (" + Errors.EINTR + ": " + Errors.text(Errors.EINTR) + ")";

    /** libc, loaded on first use: every symbol resolved at load ({@code failImmediately}), errno saved. */
    private static final class Native {
        static final LibPoll LIB = LibraryLoader.create(LibPoll.class).failImmediately().load("c");
        static final Runtime RUNTIME = Runtime.getRuntime(LIB);
    }

    private PollSyscalls() {
    }

    /**
     * Waits: {@code poll(fds, nfds, timeout)}. Allocates nothing.
     *
     * @param fds the address of the {@code struct pollfd} array, 0 when {@code nfds} is 0
     * @param nfds the number of entries
     * @param timeout the longest wait in ms, -1 for none
     * @return the number of entries with {@code revents} set (0 on timeout), or {@link Rc#AGAIN} when a signal
     *     interrupted the wait
     * @throws NativeIoException {@code poll() failed (22: Invalid argument)}
     */
    static int poll(long fds, int nfds, int timeout) throws NativeIoException {
        int n = Native.LIB.poll(fds, nfds, timeout);
        if (n >= 0) {
            return n;
        }
        int errno = Native.RUNTIME.getLastError();
        if (errno == Errors.EINTR) {
            return Rc.AGAIN;
        }
        throw new NativeIoException("poll()", errno, Errors.text(errno));
    }

    /**
     * Tells whether {@code poll()} works here: a real {@code poll(NULL, 0, 0)}.
     *
     * @return true when the call links and succeeds
     */
    static boolean usable() {
        try {
            return poll(0, 0, 0) >= 0;
        } catch (NativeIoException | LinkageError e) {
            return false;
        }
    }
}
