package jinx.kernel.internal.process;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.SharedZone;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.Signals;
import jinx.kernel.os.SpawnSpec;

/**
 * nginx's {@code ngx_spawn_process()} for a worker JVM ({@link WorkerMain}): {@code posix_spawnp} with the
 * server's signals blocked and exactly these descriptors: the snapshot at {@link MasterProcess#SNAPSHOT_FD}, the
 * worker's end of its channel at {@link MasterProcess#CHANNEL_FD}, the listening sockets from
 * {@link MasterProcess#FIRST_LISTENING_FD} in the cycle's order, then the shared zones; everything else closed.
 * The worker starts ten nice values below its {@code worker_priority} and takes that as it reports ready
 * ({@link WorkerInit#settlePriority}), so that a reload on a busy machine is not a wait for a starved JVM; but a
 * reload's worker that warms up ({@code worker_warmup}) starts quiet instead, under {@code SCHED_IDLE}, since the
 * old workers serve meanwhile and should lose no CPU to it ({@link WorkerInit#canBeQuiet}).
 */
final class WorkerSpawner {

    private WorkerSpawner() {
    }

    /**
     * Spawns the worker of table entry {@code e} from its cycle, with a new channel.
     *
     * @param e the entry: its pid, channel and spawn time are set
     * @param snapshot the descriptor of the cycle's sealed snapshot
     * @param log where {@code start worker process N} goes
     * @return whether it started
     */
    static boolean spawn(ProcessTable.Entry e, int snapshot, ErrorLog log) {
        KernelCycle c = e.cycle;
        List<Listening> listening = c.listening();
        List<SharedZone> zones = c.sharedZones();
        List<String> argv = new ArrayList<>(javaCommand());
        StringBuilder zoneNames = new StringBuilder();
        for (SharedZone z : zones) {
            zoneNames.append(zoneNames.length() > 0 ? "," : "").append(z.name());
        }
        argv.add(Integer.toString(e.slot));
        argv.add(Integer.toString(listening.size()));
        argv.add(zoneNames.toString());
        int masterNice = ProcessSetup.nice();
        int target = WorkerInit.targetNice(c.conf(MainCoreModule.NAME, CoreConf.class), masterNice);
        argv.add(Integer.toString(target));
        argv.add(Long.toString(e.warmUp ? warmUpMs(c) : 0));
        List<String> env = WorkerCommand.environment(c.conf(MainCoreModule.NAME, CoreConf.class).env);
        int[] channel = null;
        try (SigSet mask = Signals.serverSet()) {
            channel = ProcessChannel.open();
            SpawnSpec spec = SpawnSpec.command(argv.toArray(new String[0])).withEnv(env).withSigmask(mask)
                .withDup2(snapshot, MasterProcess.SNAPSHOT_FD).withDup2(channel[1], MasterProcess.CHANNEL_FD);
            int fd = MasterProcess.FIRST_LISTENING_FD;
            for (Listening ls : listening) {
                // another worker's reuseport clone leaves its number unused: each socket keeps a fixed descriptor
                if (ls.worker == -1 || ls.worker == e.slot) {
                    spec = spec.withDup2(ls.fd(), fd);
                }
                fd++;
            }
            for (SharedZone z : zones) {
                spec = spec.withDup2(z.fd(), fd++);
            }
            spec = spec.withCloseFrom(fd);
            e.spawnedNs = System.nanoTime();
            // a spawned process starts at its parent thread's nice value: this thread's, for the spawn only
            // a reload's worker that warms up starts quiet: SCHED_IDLE, inherited by every thread of its JVM
            boolean quiet = e.warmUp && warmUpMs(c) > 0
                && WorkerInit.canBeQuiet(c.conf(MainCoreModule.NAME, CoreConf.class), target)
                && WorkerInit.scheduler(0, Platform.SCHED_IDLE);
            int start = quiet ? target : WorkerInit.startNice(target);
            boolean reniced = start != masterNice && renice(start);
            try {
                e.pid = Processes.spawn(spec);
            } finally {
                if (reniced) {
                    renice(masterNice);
                }
                if (quiet) {
                    WorkerInit.scheduler(0, Platform.SCHED_OTHER);
                }
            }
            e.quiet = quiet;
            e.channel = channel[0];
            channel[0] = -1;
            e.exited = false;
            e.exiting = false;
            e.ready = false;
            e.started = false;
            e.reload = 0;
            log.notice("start " + e.name + " " + e.pid);
            return true;
        } catch (NativeIoException ex) {
            log.alert("could not spawn " + e.name + ": " + ex.getMessage());
            return false;
        } finally {
            if (channel != null) {
                ProcessChannel.close(channel[0]);
                ProcessChannel.close(channel[1]);
            }
        }
    }

    private static long warmUpMs(KernelCycle c) {
        return c.conf(MainCoreModule.NAME, CoreConf.class).warmUp;
    }

    /** Sets this thread's nice value; false when it could not (lowering it needs root). */
    private static boolean renice(int nice) {
        try {
            ProcessSetup.setpriority(nice);
            return true;
        } catch (NativeIoException ex) {
            return false;
        }
    }

    /** The worker JVM's command: {@link WorkerCommand}. */
    static List<String> javaCommand() {
        return WorkerCommand.javaCommand();
    }
}
