package jinx.kernel.os;

import java.util.ArrayList;
import java.util.List;

/**
 * A native {@code sigset_t} ({@link Platform#SIZEOF_SIGSET_T} bytes), built and read only with libc's
 * {@code sigemptyset}, {@code sigfillset}, {@code sigaddset}, {@code sigdelset} and {@code sigismember}, so its bit
 * layout is libc's business. It owns its memory until {@link #close()}, which frees it once; nothing is left to
 * the garbage collector. Not thread-safe: one owner builds it, then any thread may pass it to a call.
 *
 * <p>An invalid signal (0, {@code NSIG} or above, or one of the two real-time signals glibc reserves for itself)
 * is a programming error: {@link IllegalArgumentException} worded as nginx words a failed call.
 */
public final class SigSet implements AutoCloseable {

    private long address;

    private SigSet(long address) {
        this.address = address;
    }

    /**
     * Returns a new empty set ({@code sigemptyset}).
     *
     * @return the set, to close
     */
    public static SigSet empty() {
        SigSet set = new SigSet(NativeMemory.allocateTemporary(Platform.SIZEOF_SIGSET_T));
        set.check("sigemptyset()", Native.C.sigemptyset(set.address));
        return set;
    }

    /**
     * Returns a new set of every signal ({@code sigfillset}; glibc leaves out the two it reserves).
     *
     * @return the set, to close
     */
    public static SigSet full() {
        SigSet set = new SigSet(NativeMemory.allocateTemporary(Platform.SIZEOF_SIGSET_T));
        set.check("sigfillset()", Native.C.sigfillset(set.address));
        return set;
    }

    /**
     * Returns a new set of some signals.
     *
     * @param signals the signals ({@link Platform#SIGHUP} ...)
     * @return the set, to close
     * @throws IllegalArgumentException for an invalid signal (the set is freed)
     */
    public static SigSet of(int... signals) {
        SigSet set = empty();
        try {
            for (int signo : signals) {
                set.add(signo);
            }
        } catch (RuntimeException e) {
            set.close();
            throw e;
        }
        return set;
    }

    /**
     * Adds a signal ({@code sigaddset}).
     *
     * @param signo the signal
     * @return this set
     * @throws IllegalArgumentException {@code sigaddset(99) failed (22: Invalid argument)}
     */
    public SigSet add(int signo) {
        check("sigaddset(" + signo + ")", Native.C.sigaddset(address(), signo));
        return this;
    }

    /**
     * Removes a signal ({@code sigdelset}).
     *
     * @param signo the signal
     * @return this set
     * @throws IllegalArgumentException {@code sigdelset(99) failed (22: Invalid argument)}
     */
    public SigSet remove(int signo) {
        check("sigdelset(" + signo + ")", Native.C.sigdelset(address(), signo));
        return this;
    }

    /**
     * Returns whether a signal is in the set ({@code sigismember}).
     *
     * @param signo the signal
     * @return whether it is a member
     * @throws IllegalArgumentException {@code sigismember(99) failed (22: Invalid argument)}
     */
    public boolean contains(int signo) {
        int rc = Native.C.sigismember(address(), signo);
        check("sigismember(" + signo + ")", rc);
        return rc == 1;
    }

    /**
     * Returns the members, in ascending order (1 to {@code NSIG - 1}; the numbers glibc reserves are never
     * members as far as {@code sigismember} tells).
     *
     * @return the signals
     */
    public List<Integer> signals() {
        List<Integer> members = new ArrayList<>();
        long set = address();
        for (int signo = 1; signo < Platform.NSIG; signo++) {
            if (Native.C.sigismember(set, signo) == 1) {
                members.add(signo);
            }
        }
        return members;
    }

    /**
     * Returns the native {@code sigset_t}, valid until {@link #close()}.
     *
     * @return its address
     * @throws IllegalStateException after {@link #close()}
     */
    public long address() {
        long a = address;
        if (a == 0) {
            throw new IllegalStateException("signal set is closed");
        }
        return a;
    }

    /**
     * Frees the native set. Idempotent.
     */
    @Override
    public void close() {
        long a = address;
        address = 0;
        if (a != 0) {
            NativeMemory.freeTemporary(a);
        }
    }

    /**
     * Returns the members by name: {@code SigSet[SIGHUP, SIGINT]}.
     *
     * @return the text
     */
    @Override
    public String toString() {
        if (address == 0) {
            return "SigSet[closed]";
        }
        StringBuilder sb = new StringBuilder("SigSet[");
        for (int signo : signals()) {
            sb.append(sb.length() > 7 ? ", " : "").append(Signals.name(signo));
        }
        return sb.append(']').toString();
    }

    private void check(String call, int rc) {
        if (rc == -1) {
            throw new IllegalArgumentException(Errors.failure(call, Errors.last()).getMessage());
        }
    }
}
