package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Signals;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.Conf;

/**
 * What a worker does to itself once its cycle is attached and before it drops its privileges, from nginx's
 * {@code ngx_worker_process_init()}: its number ({@code ngx_worker}), {@code worker_rlimit_nofile},
 * {@code worker_rlimit_core} and {@code worker_cpu_affinity}; and {@code worker_priority} as it reports ready
 * ({@link #settlePriority}: the master starts it ten nice values higher). As in nginx, a failure is logged
 * ({@code setrlimit(RLIMIT_NOFILE, 100000) failed (1: Operation not permitted)}) and the worker goes on.
 *
 * <p>Threads: Linux applies {@code setpriority} and {@code sched_setaffinity} to one thread. The priority is the
 * whole worker's in nginx, so every thread the JVM has started is given it (threads started later inherit it from
 * their creator); the affinity binds the calling thread, which must be the one that will turn the event loop.
 */
public final class WorkerInit {

    /** {@code CAP_SYS_RESOURCE}'s bit (linux/capability.h: 24, fixed by the ABI). */
    private static final int CAP_SYS_RESOURCE = 24;

    /** {@code S_IFMT} and {@code S_IFSOCK} of {@code st_mode} (sys/stat.h, fixed by the ABI). */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    private WorkerInit() {
    }

    /**
     * Applies the worker's settings to this process; call it on the thread that will run the event loop.
     *
     * @param cycle the worker's cycle, attached
     * @param worker the worker's number, its slot in the master's table
     */
    public static void apply(KernelCycle cycle, int worker) {
        cycle.worker(worker);
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        ErrorLog log = cycle.log();
        if (core.rlimitNofile != Conf.UNSET) {
            rlimit(Platform.RLIMIT_NOFILE, core.rlimitNofile, log);
        }
        if (core.rlimitCore != Conf.UNSET_LONG) {
            rlimit(Platform.RLIMIT_CORE, core.rlimitCore, log);
        }
        BitSet cpus = cpuAffinity(core, worker);
        if (cpus != null) {
            affinity(cpus, log);
        }
    }

    /**
     * Gives HotSpot's attach socket to the worker's user before privileges are dropped. Under {@code -Xrs} the
     * JVM starts its attach listener at start-up ({@code AttachListener::init_at_startup()}), as root here, at
     * {@code /tmp/.java_pid<pid>}; once the worker runs as {@code user} it cannot remove that socket at exit
     * ({@code /tmp} is sticky) and every worker left one behind (issue #36). Owned by the user, it is removed at
     * exit, and {@code jcmd} run as that user still attaches. Only a socket owned by root is touched, never
     * through a symbolic link: {@code /tmp} is anyone's to write.
     *
     * @param core the worker's core configuration ({@code user})
     * @param log where a failure is logged
     */
    static void giveAttachSocket(CoreConf core, ErrorLog log) {
        Path socket = Path.of("/tmp/.java_pid" + ProcessHandle.current().pid());
        try {
            Map<String, Object> a = Files.readAttributes(socket, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
            if ((Integer) a.get("uid") != 0 || ((Integer) a.get("mode") & S_IFMT) != S_IFSOCK) {
                return;
            }
            Files.setAttribute(socket, "unix:gid", core.gid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(socket, "unix:uid", core.uid, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            // no attach listener (-XX:+DisableAttachMechanism), or not started yet: then it starts as the user
        } catch (IOException | UnsupportedOperationException e) {
            log.alert("chown(\"" + socket + "\", " + core.uid + ") failed (" + e.getMessage() + ")");
        }
    }

    /**
     * The nice value a worker of this cycle runs at: {@code worker_priority}, or the master's own.
     *
     * @param core the cycle's core configuration
     * @param masterNice the master's nice value
     * @return -20 to 19
     */
    static int targetNice(CoreConf core, int masterNice) {
        return core.prioritySet ? core.priority : masterNice;
    }

    /**
     * The nice value the master gives a worker it spawns: ten below its target (a JVM starting on a machine busy
     * serving is otherwise starved for seconds: a reload would wait on it), at most -20.
     *
     * @param target the worker's {@link #targetNice}
     * @return the start nice value
     */
    static int startNice(int target) {
        return Math.max(-20, target - 10);
    }

    /**
     * Run first in a worker the master started boosted ({@link #startNice}): every thread but the calling one
     * (the JIT compilers, the collector, the JVM's own) goes to the worker's {@code target} at once, a raise that
     * needs no privilege. The boost is for reading the snapshot and opening the loop; left on the compiler
     * threads, it starved the old workers in a reload's first second (p99 of a hello load in that second
     * 107-166 ms; 34-104 ms without). Threads started later by the calling one inherit its boost until
     * {@link #settlePriority}.
     *
     * @param target the worker's {@link #targetNice}
     * @param log where a failure goes
     */
    static void unboostOtherThreads(int target, ErrorLog log) {
        if (isQuiet()) {
            return;
        }
        priority("self", target, Signals.gettid(), log);
    }

    /**
     * Gives every thread of this worker its nice value ({@code worker_priority}) and the normal policy as it
     * reports ready: the boost of its start, or the quiet ({@code SCHED_IDLE}) of a reload's warm-up, ends before
     * the master tells the old workers to quit. From a boost it is a raise, which needs no privilege; from quiet
     * it needs the {@code RLIMIT_NICE} that {@link #allowReturnFromQuiet} set before {@code setuid}. A failure is
     * nginx's one alert.
     *
     * @param target the worker's {@link #targetNice}
     * @param log where a failure goes
     */
    static void settlePriority(int target, ErrorLog log) {
        priority("self", target, 0, log);
    }

    /**
     * Tells whether the master can bring a quiet worker back ({@link #lift}): as root, with the capability to set
     * any thread's policy.
     *
     * @return true for root
     */
    static boolean canBeQuiet() {
        return Syscalls.geteuid() == 0;
    }

    /**
     * Tells whether the master may start a reload's worker of {@code core} quiet: as root ({@link #canBeQuiet}),
     * and when the worker can take its priority back by itself: it stays root, or may raise its own
     * {@code RLIMIT_NICE} before it drops privileges ({@code CAP_SYS_RESOURCE}, which a container may withhold),
     * or that limit allows it already.
     *
     * @param core the new cycle's core configuration
     * @param target the worker's {@link #targetNice}
     * @return whether to start it quiet
     */
    static boolean canBeQuiet(CoreConf core, int target) {
        if (!canBeQuiet()) {
            return false;
        }
        if (core.uid <= 0 || hasCapability(CAP_SYS_RESOURCE)) {
            return true;
        }
        try {
            return Syscalls.getrlimit(Platform.RLIMIT_NICE).hard() >= 20 - target;
        } catch (NativeIoException e) {
            return false;
        }
    }

    /**
     * Run by a quiet worker as root before it drops its privileges: an {@code RLIMIT_NICE} that lets it take its
     * {@code worker_priority} and the normal policy back once it is warm. When it cannot (logged), it leaves
     * quiet at once: a worker that served under {@code SCHED_IDLE} would starve.
     *
     * @param core the worker's core configuration ({@code user})
     * @param target the worker's {@link #targetNice}
     * @param log where a failure goes
     */
    static void allowReturnFromQuiet(CoreConf core, int target, ErrorLog log) {
        if (!isQuiet() || Syscalls.geteuid() != 0 || core.uid <= 0) {
            return;
        }
        try {
            Syscalls.Rlimit now = Syscalls.getrlimit(Platform.RLIMIT_NICE);
            long want = 20 - target;
            if (now.soft() >= want) {
                return;
            }
            Syscalls.setrlimit(Platform.RLIMIT_NICE, new Syscalls.Rlimit(want, Math.max(want, now.hard())));
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
            priority("self", target, 0, log);
        }
    }

    /** Whether this process's effective capabilities ({@code CapEff} of /proc/self/status) hold {@code cap}. */
    private static boolean hasCapability(int cap) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring(7).strip(), 16) >>> cap & 1) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }

    /**
     * Tells whether the calling thread runs quiet ({@code SCHED_IDLE}).
     *
     * @return true when it does
     */
    static boolean isQuiet() {
        try {
            return ProcessSetup.scheduler(0) == Platform.SCHED_IDLE;
        } catch (NativeIoException e) {
            return false;
        }
    }

    /**
     * Sets one thread's scheduling policy.
     *
     * @param tid the thread, 0 for the calling one
     * @param policy the policy
     * @return whether it was set
     */
    static boolean scheduler(int tid, int policy) {
        try {
            ProcessSetup.setScheduler(tid, policy);
            return true;
        } catch (NativeIoException e) {
            return false;
        }
    }

    /**
     * The master's hand on a quiet worker that is not ready in time, starved by a machine that has no idle CPU:
     * every thread of it back to the normal policy, at {@code target}.
     *
     * @param pid the worker
     * @param target the worker's {@link #targetNice}
     * @param log where a failure goes
     */
    static void lift(int pid, int target, ErrorLog log) {
        priority(Integer.toString(pid), target, 0, log);
    }

    /** Every thread of {@code process} but {@code skip} (0: none) to nice {@code prio} and the normal policy. */
    private static void priority(String process, int prio, int skip, ErrorLog log) {
        try {
            for (int tid : threads(process)) {
                if (tid == skip) {
                    continue;
                }
                try {
                    ProcessSetup.setpriority(tid, prio);
                    if (ProcessSetup.scheduler(tid) == Platform.SCHED_IDLE) {
                        ProcessSetup.setScheduler(tid, Platform.SCHED_OTHER);
                    }
                } catch (NativeIoException e) {
                    if (e.errno() != Errors.ESRCH) {
                        // nginx: one message, the worker goes on
                        log.alert(e.getMessage());
                        return;
                    }
                }
            }
        } catch (IOException e) {
            log.alert("setpriority(" + prio + ") failed (" + e.getMessage() + ")");
        }
    }

    /** The ids of a process's threads ({@code self} or a pid). */
    private static List<Integer> threads(String process) throws IOException {
        List<Integer> tids = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", process, "task"))) {
            tasks.forEach(p -> tids.add(Integer.parseInt(p.getFileName().toString())));
        }
        return tids;
    }

    /** nginx sets the soft and the hard limit to the value. */
    private static void rlimit(int resource, long value, ErrorLog log) {
        try {
            Syscalls.setrlimit(resource, new Syscalls.Rlimit(value, value));
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
        }
    }

    /** nginx's {@code ngx_setaffinity()}. */
    private static void affinity(BitSet cpus, ErrorLog log) {
        for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
            log.notice("sched_setaffinity(): using cpu #" + cpu);
        }
        try {
            ProcessSetup.setAffinity(cpus);
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
        }
    }

    /**
     * Returns worker {@code n}'s CPUs, nginx's {@code ngx_get_cpu_affinity()}: with {@code auto}, the n-th CPU of
     * the (last) mask, counting round; otherwise the n-th mask, the last one serving every worker beyond.
     *
     * @param core the core conf
     * @param n the worker's number
     * @return the CPUs, or null when {@code worker_cpu_affinity} is not set or its {@code auto} mask is empty
     */
    static BitSet cpuAffinity(CoreConf core, int n) {
        List<BitSet> masks = core.cpuAffinity;
        if (masks.isEmpty()) {
            return null;
        }
        BitSet last = masks.get(masks.size() - 1);
        if (!core.cpuAffinityAuto) {
            return (BitSet) (n < masks.size() ? masks.get(n) : last).clone();
        }
        int count = last.cardinality();
        if (count == 0) {
            return null;
        }
        int cpu = last.nextSetBit(0);
        for (int i = n % count; i > 0; i--) {
            cpu = last.nextSetBit(cpu + 1);
        }
        BitSet one = new BitSet();
        one.set(cpu);
        return one;
    }
}
