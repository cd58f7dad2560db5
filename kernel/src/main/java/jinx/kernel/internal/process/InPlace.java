package jinx.kernel.internal.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import jinx.kernel.CoreConf;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.ConfSnapshot;
import jinx.kernel.internal.cycle.KernelCycle;

/**
 * Whether a reload can happen inside the running workers (issue #35, DESIGN 9c) or needs a new JVM per worker, as
 * before. A worker JVM keeps what it set up for its process when it started: its modules' classes (a changed
 * {@code load_module} jar needs a new JVM, as a binary upgrade would), its user, working directory, limits,
 * priority, CPU affinity, timer and environment; and there must be one running worker per slot to reload. Any
 * difference in those means new JVMs, whose start costs what the in-place reload saves, but only then. A worker that
 * runs as another user than the master is reloaded in place too: what the new cycle needs privileges for, the master
 * opened (listening sockets, shared zones, log files) and sends along ({@link WorkerReload}).
 */
final class InPlace {

    private InPlace() {
    }

    /**
     * Tells why {@code fresh} needs new worker JVMs.
     *
     * @param old the cycle in force
     * @param fresh the new cycle, built and sealed
     * @param running how many workers of {@code old} serve and are not told to stop
     * @return the reason, for the log; null when the running workers can take {@code fresh} in place
     */
    static String refusal(KernelCycle old, KernelCycle fresh, int running) {
        ConfSnapshot a = old.snapshot();
        ConfSnapshot b = fresh.snapshot();
        if (a == null || b == null) {
            return "no configuration snapshot";
        }
        if (!hashes(a.jars()).equals(hashes(b.jars()))) {
            return "the module jars changed";
        }
        if (!Objects.equals(a.resolved(), b.resolved())) {
            return "worker_processes, user or worker_cpu_affinity changed";
        }
        CoreConf o = old.conf(MainCoreModule.NAME, CoreConf.class);
        CoreConf n = fresh.conf(MainCoreModule.NAME, CoreConf.class);
        if (!sameProcess(o, n)) {
            return "a worker process's own settings changed";
        }
        for (Path file : b.openFiles()) {
            if (fresh.openFiles().fd(file) == -1) {
                return "the new cycle's file \"" + file + "\" is closed";
            }
        }
        if (running != Math.max(1, n.workerProcesses)) {
            return running + " worker processes run, " + Math.max(1, n.workerProcesses) + " wanted";
        }
        int fds = 1 + fresh.listening().size() + b.openFiles().size() + fresh.sharedZones().size();
        if (fds > ProcessChannel.MAX_FDS) {
            return fds + " descriptors are more than one message carries";
        }
        return null;
    }

    private static List<String> hashes(List<ConfSnapshot.ModuleJar> jars) {
        return jars.stream().map(ConfSnapshot.ModuleJar::sha256).toList();
    }

    /** What {@code ngx_worker_process_init()} applies to the process once, and the environment of its spawn. */
    private static boolean sameProcess(CoreConf o, CoreConf n) {
        return Objects.equals(o.workingDirectory, n.workingDirectory)
            && o.prioritySet == n.prioritySet && o.priority == n.priority
            && o.rlimitNofile == n.rlimitNofile && o.rlimitCore == n.rlimitCore
            && o.timerResolution == n.timerResolution
            && o.cpuAffinityAuto == n.cpuAffinityAuto
            && o.env.equals(n.env);
    }
}
