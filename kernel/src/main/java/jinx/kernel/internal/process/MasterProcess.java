package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.CoreConf;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.SharedZone;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.SignalInfo;
import jinx.kernel.os.Signals;
import jinx.kernel.os.SpawnSpec;
import jinx.kernel.os.Syscalls;
import jinx.kernel.os.WaitStatus;

/**
 * The master process of {@code master_process on}: nginx's {@code ngx_master_process_cycle()}, reduced. It
 * writes the configuration snapshot into a memfd, spawns {@code worker_processes} worker JVMs
 * ({@link WorkerMain}) with {@code posix_spawnp}, the server's signals blocked and exactly these descriptors:
 * the snapshot at {@link #SNAPSHOT_FD}, the listening sockets from {@link #FIRST_LISTENING_FD} in the cycle's
 * order, then the shared zones; and then waits on its signalfd. It never accepts.
 *
 * <p>CHLD reaps every finished child and respawns it in the same slot unless it exited with code 2 or the
 * master is stopping; TERM/INT and QUIT are passed on to the workers as signals and the master exits once every
 * worker was reaped; USR1 reopens the master's log and is passed on. HUP (reload) is not built: it is logged and
 * refused. Workers get {@code SIGQUIT} when the master dies ({@code PR_SET_PDEATHSIG}), standing for nginx's
 * channel reaching end of file. Not built either: the channel, binary upgrade, WINCH, SIGKILL escalation.
 */
public final class MasterProcess {

    /** The snapshot's descriptor in a worker. */
    public static final int SNAPSHOT_FD = 3;
    /** The first listening socket's descriptor in a worker. */
    public static final int FIRST_LISTENING_FD = 4;

    /** One slot of the process table. */
    private static final class Worker {
        int pid = -1;
        boolean respawn = true;
    }

    private final KernelCycle cycle;
    private final Worker[] workers;
    private int snapshotFd = -1;
    private boolean terminate;
    private boolean quit;

    private MasterProcess(KernelCycle cycle, int n) {
        this.cycle = cycle;
        this.workers = new Worker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker();
        }
    }

    /**
     * Tells whether this thread blocks the server's signal set: the {@code jinx} command's process, not an
     * embedding JVM, which cannot be a master.
     *
     * @return whether the master can run here
     */
    public static boolean ownsSignals() {
        try (SigSet set = Signals.serverSet(); SigSet mask = Signals.threadMask()) {
            for (int signo : set.signals()) {
                if (!mask.contains(signo)) {
                    return false;
                }
            }
            return true;
        } catch (NativeIoException e) {
            return false;
        }
    }

    /**
     * Runs the master until it is stopped; the server's signals must be blocked ({@link #ownsSignals()}).
     *
     * @param cycle a cycle built to serve (sockets open, zones created)
     * @return the exit code
     */
    public static int run(KernelCycle cycle) {
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        MasterProcess master = new MasterProcess(cycle, Math.max(1, core.workerProcesses));
        Path pid = core.pid;
        try {
            Files.writeString(pid, ProcessHandle.current().pid() + "\n", StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            cycle.log().emerg("open() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            return 1;
        }
        try {
            return master.serve();
        } finally {
            for (LoadedModule m : cycle.modules()) {
                m.module().exitMaster(cycle);
            }
            ListeningSockets.closeAll(cycle);
            try {
                Files.deleteIfExists(pid);
            } catch (IOException e) {
                cycle.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            }
            cycle.log().notice("exit");
        }
    }

    private int serve() {
        int signalFd;
        try (SigSet set = Signals.serverSet()) {
            signalFd = Signals.signalfd(-1, set, Platform.SFD_CLOEXEC);
            snapshotFd = jinx.kernel.os.Files.memfdCreate("jinx-snapshot", Platform.MFD_CLOEXEC);
            cycle.snapshot().writeTo(snapshotFd);
        } catch (IOException e) {
            cycle.log().emerg(e.getMessage());
            return 1;
        }
        for (int i = 0; i < workers.length; i++) {
            spawn(i);
        }
        NativeMemory memory = new NativeMemory();
        SignalInfo info = new SignalInfo(memory, 16);
        while (live() > 0 || !(terminate || quit)) {
            try {
                Signals.read(signalFd, info);
            } catch (NativeIoException e) {
                cycle.log().alert(e.getMessage());
                return 1;
            }
            for (int i = 0; i < info.count(); i++) {
                signal(info.signo(i), info.pid(i));
            }
        }
        return 0;
    }

    private int live() {
        int n = 0;
        for (Worker w : workers) {
            n += w.pid != -1 ? 1 : 0;
        }
        return n;
    }

    /** nginx's {@code ngx_signal_handler()} and the master cycle's reaction, in one. */
    private void signal(int signo, int from) {
        String action = "";
        if (signo == Platform.SIGTERM || signo == Platform.SIGINT) {
            action = ", exiting";
        } else if (signo == Platform.SIGQUIT) {
            action = ", shutting down";
        } else if (signo == Platform.SIGUSR1) {
            action = ", reopening logs";
        } else if (signo == Platform.SIGHUP) {
            action = ", reconfiguring";
        }
        cycle.log().notice("signal " + signo + " (" + Signals.name(signo) + ")"
            + (from != 0 ? " received from " + from : " received") + action);
        if (signo == Platform.SIGCHLD) {
            reap();
        } else if (signo == Platform.SIGTERM || signo == Platform.SIGINT) {
            terminate = true;
            tellWorkers(Platform.SIGTERM);
        } else if (signo == Platform.SIGQUIT) {
            quit = true;
            cycle.log().notice("gracefully shutting down");
            tellWorkers(Platform.SIGQUIT);
            ListeningSockets.closeAll(cycle);
        } else if (signo == Platform.SIGUSR1) {
            cycle.log().notice("reopening logs");
            try {
                cycle.log().reopen();
            } catch (IOException e) {
                cycle.log().emerg("reopening the error log failed (" + IoErrors.reason(e) + ")");
            }
            tellWorkers(Platform.SIGUSR1);
        } else if (signo == Platform.SIGHUP) {
            cycle.log().notice("reconfiguring");
            cycle.log().warn("reload is not supported by the master process yet");
        }
    }

    private void tellWorkers(int signo) {
        for (Worker w : workers) {
            if (w.pid != -1) {
                try {
                    Syscalls.kill(w.pid, signo);
                } catch (NativeIoException e) {
                    cycle.log().alert("kill(" + w.pid + ", " + signo + ") failed: " + e.getMessage());
                }
            }
        }
    }

    /** nginx's {@code ngx_process_get_status()} and {@code ngx_reap_children()}. */
    private void reap() {
        List<WaitStatus> done;
        try {
            done = Processes.reap();
        } catch (NativeIoException e) {
            cycle.log().alert(e.getMessage());
            return;
        }
        for (WaitStatus ws : done) {
            String text = ws.describe("worker process");
            if (ws.termSig() != 0) {
                cycle.log().alert(text);
            } else {
                cycle.log().notice(text);
            }
            cycle.unlockSharedZones(ws.pid());
            for (int i = 0; i < workers.length; i++) {
                Worker w = workers[i];
                if (w.pid != ws.pid()) {
                    continue;
                }
                w.pid = -1;
                if (ws.termSig() == 0 && ws.exitCode() == 2 && w.respawn) {
                    cycle.log().alert("worker process " + ws.pid()
                        + " exited with fatal code 2 and cannot be respawned");
                    w.respawn = false;
                }
                if (w.respawn && !terminate && !quit) {
                    spawn(i);
                }
                break;
            }
        }
    }

    /** nginx's {@code ngx_spawn_process()}: a worker JVM in slot {@code slot}. */
    private void spawn(int slot) {
        List<Listening> listening = cycle.listening();
        List<SharedZone> zones = cycle.sharedZones();
        List<String> argv = new ArrayList<>(javaCommand());
        StringBuilder zoneNames = new StringBuilder();
        for (SharedZone z : zones) {
            zoneNames.append(zoneNames.length() > 0 ? "," : "").append(z.name());
        }
        argv.add(Integer.toString(slot));
        argv.add(Integer.toString(listening.size()));
        argv.add(zoneNames.toString());
        List<String> env = new ArrayList<>();
        for (String e : Processes.environment()) {
            if (!e.startsWith("_JAVA_SR_SIGNUM=") && !e.startsWith("JINX=")) {
                env.add(e);
            }
        }
        env.add("_JAVA_SR_SIGNUM=39");
        try (SigSet mask = Signals.serverSet()) {
            SpawnSpec spec = SpawnSpec.command(argv.toArray(new String[0])).withEnv(env).withSigmask(mask)
                .withDup2(snapshotFd, SNAPSHOT_FD);
            int fd = FIRST_LISTENING_FD;
            for (Listening ls : listening) {
                spec = spec.withDup2(ls.fd(), fd++);
            }
            for (SharedZone z : zones) {
                spec = spec.withDup2(z.fd(), fd++);
            }
            spec = spec.withCloseFrom(fd);
            int pid = Processes.spawn(spec);
            workers[slot].pid = pid;
            cycle.log().notice("start worker process " + pid);
        } catch (NativeIoException e) {
            cycle.log().alert("could not spawn worker process: " + e.getMessage());
        }
    }

    /** The worker JVM's command: this JVM's binary and path, {@code -Xrs}, {@link WorkerMain}. */
    private static List<String> javaCommand() {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> argv = new ArrayList<>(List.of(java, "-Xrs", "-XX:+ExitOnOutOfMemoryError",
            "-XX:-UsePerfData"));
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && WorkerMain.class.getModule().isNamed()) {
            argv.addAll(List.of("-p", modulePath, "--add-modules", "ALL-MODULE-PATH", "-m",
                WorkerMain.class.getModule().getName() + "/" + WorkerMain.class.getName()));
        } else {
            argv.addAll(List.of("-cp", System.getProperty("java.class.path"), WorkerMain.class.getName()));
        }
        return argv;
    }
}
