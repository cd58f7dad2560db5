package jinx.kernel.os;

/**
 * Room for {@code struct signalfd_siginfo} records ({@link Platform#SIZEOF_SIGNALFD_SIGINFO} = 128 bytes each) and
 * the fields Jinx reads from them; {@link Signals#read(int, SignalInfo)} fills it. Reused for every read, it
 * allocates nothing per signal: the accessors read the native record in place. Offsets come from the probe:
 *
 * <pre>
 * struct signalfd_siginfo {
 *     uint32_t ssi_signo;    // 0
 *     int32_t  ssi_errno;
 *     int32_t  ssi_code;     // 8: SI_USER (kill), SI_TKILL (tgkill), CLD_EXITED/CLD_KILLED (SIGCHLD) ...
 *     uint32_t ssi_pid;      // 12: the sender; for SIGCHLD, the child
 *     uint32_t ssi_uid;      // 16: the sender's real uid
 *     ...
 *     int32_t  ssi_status;   // 40: SIGCHLD: the exit code (CLD_EXITED) or the signal (CLD_KILLED)
 *     ...                    // padding to 128 bytes
 * };
 * </pre>
 *
 * <p>Several signals can arrive in one read (one per pending signal number: standard signals do not queue, so
 * one SIGCHLD can stand for several children, and the master reaps with {@code waitpid} until 0). Not
 * thread-safe: it belongs to the loop that reads the signalfd.
 */
public final class SignalInfo {

    /** {@code sizeof(struct signalfd_siginfo)}. */
    public static final int SIZE = Platform.SIZEOF_SIGNALFD_SIGINFO;

    private final long buffer;
    private final int capacity;
    private int count;

    /**
     * Room for {@code capacity} records in memory the caller's {@link NativeMemory} owns.
     *
     * @param memory where to allocate {@code capacity * SIZE} bytes
     * @param capacity how many records one read can return, at least 1
     */
    public SignalInfo(NativeMemory memory, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.buffer = memory.allocate((long) capacity * SIZE);
        this.capacity = capacity;
    }

    /**
     * Returns the records' memory.
     *
     * @return the address of {@code capacity() * SIZE} bytes
     */
    public long buffer() {
        return buffer;
    }

    /**
     * Returns how many records one read can return.
     *
     * @return the capacity
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Returns how many records the last read returned.
     *
     * @return the count, 0 after a read that found none
     */
    public int count() {
        return count;
    }

    /**
     * Returns a record's signal number ({@code ssi_signo}).
     *
     * @param i the record, below {@link #count()}
     * @return the signal
     */
    public int signo(int i) {
        return NativeMemory.getInt(record(i) + Platform.OFFSETOF_SSI_SIGNO);
    }

    /**
     * Returns a record's sender ({@code ssi_pid}): the process that sent it, or for SIGCHLD the child that
     * changed state.
     *
     * @param i the record
     * @return the pid, 0 when the kernel sent it
     */
    public int pid(int i) {
        return NativeMemory.getInt(record(i) + Platform.OFFSETOF_SSI_PID);
    }

    /**
     * Returns a record's sender's real uid ({@code ssi_uid}).
     *
     * @param i the record
     * @return the uid
     */
    public int uid(int i) {
        return NativeMemory.getInt(record(i) + Platform.OFFSETOF_SSI_UID);
    }

    /**
     * Returns a record's origin ({@code ssi_code}): {@link Platform#SI_USER} for {@code kill},
     * {@link Platform#SI_TKILL} for {@code tgkill}, {@link Platform#CLD_EXITED} or {@link Platform#CLD_KILLED} for
     * a SIGCHLD.
     *
     * @param i the record
     * @return the code
     */
    public int code(int i) {
        return NativeMemory.getInt(record(i) + Platform.OFFSETOF_SSI_CODE);
    }

    /**
     * Returns a SIGCHLD record's status ({@code ssi_status}): the exit code when {@link #code(int)} is
     * {@link Platform#CLD_EXITED}, the signal when it is {@link Platform#CLD_KILLED}. Not a {@code waitpid} status;
     * the master still reaps with {@link Processes#reap()}.
     *
     * @param i the record
     * @return the status
     */
    public int status(int i) {
        return NativeMemory.getInt(record(i) + Platform.OFFSETOF_SSI_STATUS);
    }

    void filled(int n) {
        count = n;
    }

    private long record(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("record " + i + " of " + count);
        }
        return buffer + (long) i * SIZE;
    }
}
