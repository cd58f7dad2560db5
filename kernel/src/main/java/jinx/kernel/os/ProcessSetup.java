package jinx.kernel.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * The facade over what a process does to itself as it starts (nginx's {@code ngx_worker_process_init()} and
 * {@code ngx_daemon()}): session, working directory, credentials, priority, CPU affinity, parent-death signal;
 * with {@link Syscalls}' rules and nginx's wording ({@code setuid(65534) failed (1: Operation not permitted)}).
 *
 * <p>Threads matter in a JVM. glibc applies {@code setuid}, {@code setgid} and {@code initgroups} to every thread
 * of the process. On Linux, {@link #setpriority(int)} and {@link #setAffinity(BitSet)} change only the calling
 * thread (and the threads it starts afterwards), so a worker calls them on its loop thread.
 */
public final class ProcessSetup {

    private static final long SYS_PRCTL = Platform.get("SYS_prctl");

    private ProcessSetup() {
    }

    /**
     * Starts a new session with this process as its leader, detached from the terminal ({@code daemon on}).
     *
     * @return the session id (this pid)
     * @throws NativeIoException {@code setsid() failed (1: Operation not permitted)} for a group leader
     */
    public static int setsid() throws NativeIoException {
        int sid = Native.C.setsid();
        if (sid < 0) {
            throw Errors.failure("setsid()", Errors.last());
        }
        return sid;
    }

    /**
     * Changes the working directory ({@code working_directory}). It is the whole JVM's: relative paths everywhere
     * resolve against it afterwards.
     *
     * @param path the directory
     * @throws NativeIoException {@code chdir("/srv") failed (2: No such file or directory)}
     */
    public static void chdir(String path) throws NativeIoException {
        if (Native.C.chdir(CStrings.bytes(path)) != 0) {
            throw Errors.failure("chdir(\"" + path + "\")", Errors.last());
        }
    }

    /**
     * Sets the real, effective and saved group ids (as root), for every thread.
     *
     * @param gid the group
     * @throws NativeIoException {@code setgid(65534) failed (...)}
     */
    public static void setgid(int gid) throws NativeIoException {
        if (Native.C.setgid(gid) != 0) {
            throw Errors.failure("setgid(" + gid + ")", Errors.last());
        }
    }

    /**
     * Sets the supplementary groups to the user's groups plus {@code gid}, for every thread.
     *
     * @param user the user's name
     * @param gid a group to add (the user's primary group)
     * @throws NativeIoException {@code initgroups(nobody, 65534) failed (...)}
     */
    public static void initgroups(String user, int gid) throws NativeIoException {
        if (Native.C.initgroups(CStrings.bytes(user), gid) != 0) {
            throw Errors.failure("initgroups(" + user + ", " + gid + ")", Errors.last());
        }
    }

    /**
     * Sets the real, effective and saved user ids (as root: for good), for every thread. Call it last, after
     * {@link #setgid} and {@link #initgroups}, which need root.
     *
     * @param uid the user
     * @throws NativeIoException {@code setuid(65534) failed (...)}
     */
    public static void setuid(int uid) throws NativeIoException {
        if (Native.C.setuid(uid) != 0) {
            throw Errors.failure("setuid(" + uid + ")", Errors.last());
        }
    }

    /**
     * Sets the nice value ({@code worker_priority}): {@code setpriority(PRIO_PROCESS, 0, prio)}. On Linux this is
     * the calling thread's, not the process's; threads it starts later inherit it.
     *
     * @param prio -20 (most favoured) to 19; lowering it needs root
     * @throws NativeIoException {@code setpriority(-5) failed (13: Permission denied)}
     */
    public static void setpriority(int prio) throws NativeIoException {
        if (Native.C.setpriority(Platform.PRIO_PROCESS, 0, prio) != 0) {
            throw Errors.failure("setpriority(" + prio + ")", Errors.last());
        }
    }

    /**
     * Returns the calling thread's nice value, from {@code /proc/thread-self/stat} (field 19): {@code getpriority}
     * cannot tell its result -1 from a failure.
     *
     * @return -20 to 19; 0 when the file cannot be read
     */
    public static int nice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            // the command name (field 2) may hold spaces and parentheses: count fields after its closing one
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[19 - 3]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Sets the nice value of one thread of this process: {@code setpriority(PRIO_PROCESS, tid, prio)}, which on
     * Linux names a thread. A worker gives every thread the JVM started before its loop the same
     * {@code worker_priority}, as nginx's one-threaded worker has it for the whole process.
     *
     * @param tid the thread's id (an entry of {@code /proc/self/task}), 0 for the calling thread
     * @param prio -20 (most favoured) to 19; lowering it needs root
     * @throws NativeIoException {@code setpriority(-5) failed (13: Permission denied)}; ESRCH for a thread that
     *     has exited meanwhile
     */
    public static void setpriority(int tid, int prio) throws NativeIoException {
        if (Native.C.setpriority(Platform.PRIO_PROCESS, tid, prio) != 0) {
            throw Errors.failure("setpriority(" + prio + ")", Errors.last());
        }
    }

    /**
     * Sets one thread's scheduling policy, {@code SCHED_OTHER} or {@code SCHED_IDLE}:
     * {@code sched_setscheduler(tid, policy, {0})}. Leaving {@code SCHED_IDLE} without {@code CAP_SYS_NICE} needs
     * an {@code RLIMIT_NICE} that allows the thread's nice value.
     *
     * @param tid the thread's id, 0 for the calling thread
     * @param policy the policy
     * @throws NativeIoException {@code sched_setscheduler(5) failed (1: Operation not permitted)}; ESRCH for a
     *     thread that has exited meanwhile
     */
    public static void setScheduler(int tid, int policy) throws NativeIoException {
        if (Native.C.sched_setscheduler(tid, policy, new int[1]) != 0) {
            throw Errors.failure("sched_setscheduler(" + policy + ")", Errors.last());
        }
    }

    /**
     * Returns one thread's scheduling policy: {@code sched_getscheduler(tid)}.
     *
     * @param tid the thread's id, 0 for the calling thread
     * @return the policy
     * @throws NativeIoException {@code sched_getscheduler() failed (3: No such process)}
     */
    public static int scheduler(int tid) throws NativeIoException {
        int policy = Native.C.sched_getscheduler(tid);
        if (policy < 0) {
            throw Errors.failure("sched_getscheduler()", Errors.last());
        }
        return policy;
    }

    /**
     * Binds the calling thread to CPUs ({@code worker_cpu_affinity}): {@code sched_setaffinity(0, size, mask)}.
     *
     * @param cpus the CPUs, by number, below {@code 8 * SIZEOF_CPU_SET_T}
     * @throws NativeIoException {@code sched_setaffinity() failed (22: Invalid argument)} (no allowed CPU)
     */
    public static void setAffinity(BitSet cpus) throws NativeIoException {
        int bits = Platform.SIZEOF_CPU_SET_T * 8;
        if (cpus.length() > bits) {
            throw new IllegalArgumentException("CPU " + (cpus.length() - 1) + ": at most " + (bits - 1));
        }
        long mask = NativeMemory.allocateTemporary(Platform.SIZEOF_CPU_SET_T);
        try {
            // cpu_set_t is an array of unsigned long: CPU n is bit n % 64 of word n / 64 (CPU_SET)
            long[] words = cpus.toLongArray();
            for (int i = 0; i < words.length; i++) {
                NativeMemory.putLong(mask + (long) i * Long.BYTES, words[i]);
            }
            if (Native.C.sched_setaffinity(0, Platform.SIZEOF_CPU_SET_T, mask) != 0) {
                throw Errors.failure("sched_setaffinity()", Errors.last());
            }
        } finally {
            NativeMemory.freeTemporary(mask);
        }
    }

    /**
     * Returns the CPUs the calling thread may run on: {@code sched_getaffinity(0, size, mask)}.
     *
     * @return the CPUs
     * @throws NativeIoException {@code sched_getaffinity() failed (...)}
     */
    public static BitSet affinity() throws NativeIoException {
        long mask = NativeMemory.allocateTemporary(Platform.SIZEOF_CPU_SET_T);
        try {
            if (Native.C.sched_getaffinity(0, Platform.SIZEOF_CPU_SET_T, mask) != 0) {
                throw Errors.failure("sched_getaffinity()", Errors.last());
            }
            long[] words = new long[Platform.SIZEOF_CPU_SET_T / Long.BYTES];
            for (int i = 0; i < words.length; i++) {
                words[i] = NativeMemory.getLong(mask + (long) i * Long.BYTES);
            }
            return BitSet.valueOf(words);
        } finally {
            NativeMemory.freeTemporary(mask);
        }
    }

    /**
     * Asks for a signal when the parent dies: {@code prctl(PR_SET_PDEATHSIG, sig)} (through
     * {@code syscall(SYS_prctl)}). Linux sends it when the <em>thread</em> that started this process exits, not
     * only the whole parent, and clears it on a set-user-ID exec; 0 clears it.
     *
     * @param sig the signal, or 0
     * @throws NativeIoException {@code prctl(PR_SET_PDEATHSIG, 9) failed (...)}
     */
    public static void setParentDeathSignal(int sig) throws NativeIoException {
        if (Native.C.syscall(SYS_PRCTL, Platform.PR_SET_PDEATHSIG, sig, 0) != 0) {
            throw Errors.failure("prctl(PR_SET_PDEATHSIG, " + sig + ")", Errors.last());
        }
    }
}
