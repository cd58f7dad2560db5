package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import jinx.kernel.CoreConf;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.SharedZone;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.ConfException;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
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
 * worker was reaped; USR1 reopens the master's log and is passed on. HUP reloads: a new cycle is built from the
 * one in force (a broken configuration changes nothing), {@code worker_processes} new workers are spawned, and
 * once each reported ready (one byte on a pipe placed after its zones, see {@link WorkerMain}) within 10 s the
 * old workers get QUIT and the new cycle is in force; otherwise the new workers get TERM and the old cycle
 * stays. A HUP during a reload is applied after it. Workers get {@code SIGQUIT} when the master dies ({@code PR_SET_PDEATHSIG}), standing for nginx's
 * channel reaching end of file. Not built either: the channel, binary upgrade, WINCH, SIGKILL escalation.
 */
public final class MasterProcess {

    /** The snapshot's descriptor in a worker. */
    public static final int SNAPSHOT_FD = 3;
    /** The first listening socket's descriptor in a worker. */
    public static final int FIRST_LISTENING_FD = 4;

    /** One entry of the process table. */
    private static final class Worker {
        final int slot;
        final KernelCycle cycle;
        int pid = -1;
        /** The read end of the worker's readiness pipe, or -1. */
        int readyFd = -1;
        boolean ready;
        boolean respawn = true;
        boolean exiting;

        Worker(int slot, KernelCycle cycle) {
            this.slot = slot;
            this.cycle = cycle;
        }
    }

    /** How long a reload waits for its new workers to report ready. */
    private static final long READY_TIMEOUT_NS = 10_000_000_000L;

    private final CycleOptions options;
    private final KernelCycle initial;
    private KernelCycle cycle;
    private final List<Worker> workers = new ArrayList<>();
    /** Cycles replaced by a reload whose workers are still running: their zones are released after them. */
    private final List<KernelCycle> retired = new ArrayList<>();
    /** Cycles whose zones were released (identity). */
    private final java.util.Set<KernelCycle> released =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private int snapshotFd = -1;
    private int pollFd = -1;
    private boolean terminate;
    private boolean quit;
    private boolean reconfigure;
    /** The new cycle of a reload in progress, or null. */
    private KernelCycle pending;
    private int pendingSnapshotFd = -1;
    private final NativeMemory memory = new NativeMemory();
    private final long byteBuf = memory.allocate(8);

    private MasterProcess(KernelCycle cycle, CycleOptions options) {
        this.cycle = cycle;
        this.initial = cycle;
        this.options = options;
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
     * Runs the master until it is stopped, without reload (HUP is refused); see {@link #run(KernelCycle,
     * CycleOptions)}.
     *
     * @param cycle a cycle built to serve (sockets open, zones created)
     * @return the exit code
     */
    public static int run(KernelCycle cycle) {
        return run(cycle, null);
    }

    /**
     * Runs the master until it is stopped; the server's signals must be blocked ({@link #ownsSignals()}).
     *
     * @param cycle a cycle built to serve (sockets open, zones created)
     * @param options the options {@code cycle} was built with, to build the next one on HUP; null refuses HUP
     * @return the exit code
     */
    public static int run(KernelCycle cycle, CycleOptions options) {
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        MasterProcess master = new MasterProcess(cycle, options);
        Path pid = core.pid;
        try {
            Files.writeString(pid, ProcessHandle.current().pid() + "\n", StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            cycle.log().emerg("open() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            return 1;
        }
        try {
            return master.serve(Math.max(1, core.workerProcesses));
        } finally {
            KernelCycle last = master.cycle;
            for (LoadedModule m : last.modules()) {
                m.module().exitMaster(last);
            }
            ListeningSockets.closeAll(last);
            try {
                Files.deleteIfExists(pid);
            } catch (IOException e) {
                last.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            }
            last.log().notice("exit");
            if (last != master.initial) {
                last.log().close();
            }
        }
    }

    private int serve(int n) {
        int signalFd;
        try (SigSet set = Signals.serverSet()) {
            signalFd = Signals.signalfd(-1, set, Platform.SFD_CLOEXEC);
            // the same signals, read without blocking while a reload waits for its workers
            pollFd = Signals.signalfd(-1, set, Platform.SFD_CLOEXEC | Platform.SFD_NONBLOCK);
            snapshotFd = writeSnapshot(cycle);
        } catch (IOException e) {
            cycle.log().emerg(e.getMessage());
            return 1;
        }
        for (int i = 0; i < n; i++) {
            Worker w = new Worker(i, cycle);
            workers.add(w);
            spawn(w, snapshotFd);
        }
        SignalInfo info = new SignalInfo(memory, 16);
        while (live() > 0 || !(terminate || quit)) {
            if (reconfigure && !terminate && !quit) {
                reconfigure = false;
                reload(info);
                continue;
            }
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

    private static int writeSnapshot(KernelCycle c) throws IOException {
        int fd = jinx.kernel.os.Files.memfdCreate("jinx-snapshot", Platform.MFD_CLOEXEC);
        c.snapshot().writeTo(fd);
        return fd;
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
            if (options == null) {
                cycle.log().notice("reconfiguring");
                cycle.log().warn("reload is not supported here");
            } else {
                // acted upon by the loop; one that arrives during a reload is applied after it
                reconfigure = true;
            }
        }
    }

    /**
     * nginx's reconfigure step: a new cycle, new workers (just_spawn), and once they report ready, QUIT to the
     * old ones. A broken configuration or new workers that do not start change nothing.
     */
    private void reload(SignalInfo info) {
        KernelCycle old = cycle;
        old.log().notice("reconfiguring");
        KernelCycle fresh;
        try {
            fresh = CycleBuilder.build(options, old);
        } catch (ConfException e) {
            old.log().emerg(e.getMessage());
            return;
        } catch (RuntimeException e) {
            old.log().emerg("reload failed: " + e);
            return;
        }
        try {
            pendingSnapshotFd = writeSnapshot(fresh);
        } catch (IOException e) {
            old.log().emerg(e.getMessage());
            discard(fresh);
            return;
        }
        pending = fresh;
        CoreConf core = fresh.conf(MainCoreModule.NAME, CoreConf.class);
        List<Worker> started = new ArrayList<>();
        for (int i = 0; i < Math.max(1, core.workerProcesses); i++) {
            Worker w = new Worker(i, fresh);
            workers.add(w);
            started.add(w);
            spawn(w, pendingSnapshotFd);
        }
        long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        String failure = null;
        while (failure == null) {
            int ready = 0;
            for (Worker w : started) {
                if (w.pid == -1) {
                    failure = "a new worker process exited before it was ready";
                    break;
                }
                if (!w.ready && w.readyFd != -1) {
                    try {
                        int r = Syscalls.read(w.readyFd, byteBuf, 1);
                        w.ready = r == 1;
                    } catch (NativeIoException e) {
                        failure = e.getMessage();
                    }
                }
                ready += w.ready ? 1 : 0;
            }
            if (failure != null || ready == started.size()) {
                break;
            }
            if (terminate || quit) {
                failure = "the master is stopping";
                break;
            }
            if (System.nanoTime() > deadline) {
                failure = "the new worker processes were not ready in 10s";
                break;
            }
            try {
                Signals.read(pollFd, info);
                for (int i = 0; i < info.count(); i++) {
                    signal(info.signo(i), info.pid(i));
                }
                if (info.count() == 0) {
                    Thread.sleep(5);
                }
            } catch (NativeIoException e) {
                failure = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = "interrupted";
            }
        }
        pending = null;
        if (failure != null) {
            old.log().alert("reload abandoned: " + failure);
            for (Worker w : started) {
                w.exiting = true;
                w.respawn = false;
                if (w.pid != -1) {
                    kill(w.pid, Platform.SIGTERM);
                }
            }
            closeFd(pendingSnapshotFd);
            pendingSnapshotFd = -1;
            workers.removeIf(w -> w.cycle == fresh && w.pid == -1);
            discard(fresh);
            return;
        }
        // the new workers serve: the old ones finish what they have and go
        for (Worker w : workers) {
            if (w.cycle != fresh) {
                w.exiting = true;
                w.respawn = false;
                if (w.pid != -1) {
                    kill(w.pid, Platform.SIGQUIT);
                }
            }
        }
        cycle = fresh;
        closeFd(snapshotFd);
        snapshotFd = pendingSnapshotFd;
        pendingSnapshotFd = -1;
        ListeningSockets.closeUnused(old, fresh);
        retired.add(old);
        releaseRetired();
    }

    /** A new cycle that did not come into force: the sockets it opened itself closed, its zones released. */
    private void discard(KernelCycle fresh) {
        released.add(fresh);
        ListeningSockets.closeOpened(fresh);
        fresh.releaseSharedZones();
        fresh.log().close();
    }

    /** Releases the zones of every replaced cycle none of whose workers runs any more. */
    private void releaseRetired() {
        for (Iterator<KernelCycle> it = retired.iterator(); it.hasNext();) {
            KernelCycle c = it.next();
            boolean running = false;
            for (Worker w : workers) {
                running |= w.cycle == c && w.pid != -1;
            }
            if (!running) {
                it.remove();
                released.add(c);
                c.releaseSharedZones();
                if (c != initial) {
                    c.log().close();
                }
            }
        }
    }

    private void kill(int pid, int signo) {
        try {
            Syscalls.kill(pid, signo);
        } catch (NativeIoException e) {
            cycle.log().alert("kill(" + pid + ", " + signo + ") failed: " + e.getMessage());
        }
    }

    private static void closeFd(int fd) {
        if (fd != -1) {
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                // nothing to do
            }
        }
    }

    private void tellWorkers(int signo) {
        for (Worker w : workers) {
            if (w.pid != -1) {
                kill(w.pid, signo);
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
            for (Iterator<Worker> it = workers.iterator(); it.hasNext();) {
                Worker w = it.next();
                if (w.pid != ws.pid()) {
                    continue;
                }
                if (!released.contains(w.cycle)) {
                    w.cycle.unlockSharedZones(ws.pid());
                }
                w.pid = -1;
                closeFd(w.readyFd);
                w.readyFd = -1;
                if (ws.termSig() == 0 && ws.exitCode() == 2 && w.respawn) {
                    cycle.log().alert("worker process " + ws.pid()
                        + " exited with fatal code 2 and cannot be respawned");
                    w.respawn = false;
                }
                if (w.respawn && !w.exiting && w.cycle == cycle && !terminate && !quit) {
                    spawn(w, snapshotFd);
                } else if (w.cycle != pending) {
                    // a new worker of a reload in progress stays in the table: the reload sees it gone
                    it.remove();
                }
                break;
            }
        }
        releaseRetired();
    }

    /** nginx's {@code ngx_spawn_process()}: a worker JVM for table entry {@code w}, from its cycle. */
    private void spawn(Worker w, int snapshot) {
        KernelCycle c = w.cycle;
        List<Listening> listening = c.listening();
        List<SharedZone> zones = c.sharedZones();
        List<String> argv = new ArrayList<>(javaCommand());
        StringBuilder zoneNames = new StringBuilder();
        for (SharedZone z : zones) {
            zoneNames.append(zoneNames.length() > 0 ? "," : "").append(z.name());
        }
        int readyTarget = FIRST_LISTENING_FD + listening.size() + zones.size();
        argv.add(Integer.toString(w.slot));
        argv.add(Integer.toString(listening.size()));
        argv.add(zoneNames.toString());
        argv.add(Integer.toString(readyTarget));
        List<String> env = WorkerCommand.environment(c.conf(MainCoreModule.NAME, CoreConf.class).env);
        int[] pipe = null;
        try (SigSet mask = Signals.serverSet()) {
            pipe = Syscalls.pipe(Platform.O_CLOEXEC | Platform.O_NONBLOCK);
            SpawnSpec spec = SpawnSpec.command(argv.toArray(new String[0])).withEnv(env).withSigmask(mask)
                .withDup2(snapshot, SNAPSHOT_FD);
            int fd = FIRST_LISTENING_FD;
            for (Listening ls : listening) {
                // another worker's reuseport clone leaves its number unused: each socket keeps a fixed descriptor
                if (ls.worker == -1 || ls.worker == w.slot) {
                    spec = spec.withDup2(ls.fd(), fd);
                }
                fd++;
            }
            for (SharedZone z : zones) {
                spec = spec.withDup2(z.fd(), fd++);
            }
            spec = spec.withDup2(pipe[1], fd++);
            spec = spec.withCloseFrom(fd);
            int pid = Processes.spawn(spec);
            w.pid = pid;
            w.ready = false;
            w.readyFd = pipe[0];
            pipe[0] = -1;
            cycle.log().notice("start worker process " + pid);
        } catch (NativeIoException e) {
            cycle.log().alert("could not spawn worker process: " + e.getMessage());
        } finally {
            if (pipe != null) {
                closeFd(pipe[0]);
                closeFd(pipe[1]);
            }
        }
    }

    /** The worker JVM's command: {@link WorkerCommand}. */
    private static List<String> javaCommand() {
        return WorkerCommand.javaCommand();
    }
}
