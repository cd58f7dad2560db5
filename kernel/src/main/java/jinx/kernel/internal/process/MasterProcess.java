package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import jinx.kernel.CoreConf;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.Signals;
import jinx.kernel.os.WaitStatus;

/**
 * The master process of {@code master_process on}: nginx's {@code ngx_master_process_cycle()}. It seals the
 * configuration snapshot into a memfd, spawns {@code worker_processes} worker JVMs ({@link WorkerSpawner}), each
 * with its channel ({@link ProcessChannel}), and then waits on one set ({@link MasterWait}): its signalfd, a
 * timerfd and the channels. It never accepts.
 *
 * <p>Signals only set flags ({@link #signal}, the one place that dispatches them); the loop acts on the flags
 * in nginx's order after each wake-up: reap (CHLD: {@link MasterChildren#reap}, respawn in the same slot), exit
 * once no worker is left after TERM/INT/QUIT, TERM escalation (TERMINATE over the channels, re-sent as nginx's
 * {@code delay} doubles from 50 ms, then SIGKILL once it passes 1000 ms), QUIT (QUIT over the channels, the
 * listening sockets closed), HUP ({@link MasterReload}; one arriving during a reload is held and applied after
 * it), USR1 (the master's log reopened, REOPEN over the channels), WINCH (QUIT to the workers, which are not
 * respawned: nginx's {@code ngx_noaccept}; only a daemon, as nginx; the master stays and a HUP starts workers
 * again), USR2 ({@link BinaryUpgrade}: the pid file becomes {@code .oldbin} and a new master, a detached child
 * in the table, inherits the listening sockets; while it runs HUP restarts the workers WINCH stopped, and its
 * exit hands the pid file back).
 */
public final class MasterProcess implements MasterChildren.Policy, MasterReload.Master {

    /** The snapshot's descriptor in a worker. */
    public static final int SNAPSHOT_FD = 3;
    /** The worker's end of its channel. */
    public static final int CHANNEL_FD = 4;
    /** The first listening socket's descriptor in a worker. */
    public static final int FIRST_LISTENING_FD = 5;

    /** nginx's first TERM re-send delay; it doubles until SIGKILL once above {@link #KILL_AFTER_MS}. */
    private static final long FIRST_DELAY_MS = 50;
    private static final long KILL_AFTER_MS = 1000;

    private final CycleOptions options;
    private final KernelCycle initial;
    private KernelCycle cycle;
    private int snapshotFd = -1;
    private final MasterChildren children = new MasterChildren(this);
    private MasterReload reload;
    /** USR2: the binary upgrade, nginx's {@code ngx_new_binary}. */
    private final BinaryUpgrade upgrade = new BinaryUpgrade();

    /* nginx's sig_atomic_t flags, set by signal() and acted upon by the loop */
    private boolean reap;
    private boolean terminate;
    private boolean quit;
    private boolean reconfigure;
    private boolean reopen;
    private boolean changeBinary;
    private boolean noaccept;
    private boolean noaccepting;
    private boolean sigalrm;
    /** nginx's {@code delay}: 0 until TERM, then the current re-send interval in ms. */
    private long delay;
    private boolean quitSent;

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
     * Runs the master until it is stopped, without reload (HUP is refused).
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
            master.exit(pid);
        }
    }

    /** nginx's {@code ngx_master_process_exit()}. */
    private void exit(Path pid) {
        KernelCycle last = cycle;
        try {
            // while a new binary runs the pid file is its own: this master's is the .oldbin
            Files.deleteIfExists(upgrade.pidFileAtExit(pid));
        } catch (IOException e) {
            last.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
        }
        for (LoadedModule m : last.modules()) {
            m.module().exitMaster(last);
        }
        // a new binary inherited the sockets: their unix socket files are its own now
        ListeningSockets.closeAll(last, upgrade.running());
        last.log().notice("exit");
        if (last != initial) {
            last.log().close();
        }
    }

    private int serve(int n) {
        try (MasterWait wait = new MasterWait()) {
            snapshotFd = MasterReload.writeSnapshot(cycle);
            children.start(cycle, n, snapshotFd, false);
            return loop(wait);
        } catch (IOException e) {
            cycle.log().emerg(e.getMessage());
            return 1;
        }
    }

    private int loop(MasterWait wait) throws NativeIoException {
        for (;;) {
            MasterWait.Ready ready = wait.await(children.table().withChannel());
            for (int[] s : ready.signals) {
                signal(s[0], s[1]);
            }
            sigalrm |= ready.timer;
            for (ProcessTable.Entry e : ready.channels) {
                children.readChannel(e);
            }
            if (reap) {
                reap = false;
                children.reap();
            }
            int live = children.live();
            if (live == 0 && (terminate || quit)) {
                return 0;
            }
            if (reload != null && reload.check(this, terminate || quit)) {
                reload = null;
            }
            if (reload != null && reload.takeRearm()) {
                wait.wakeAt(reload.nextWakeNs());
            }
            if (terminate) {
                terminateWorkers(wait);
                continue;
            }
            if (quit) {
                if (!quitSent) {
                    quitSent = true;
                    children.signal(Platform.SIGQUIT, e -> true);
                    ListeningSockets.closeAll(cycle, upgrade.running());
                }
                continue;
            }
            if (reconfigure && reload == null) {
                reconfigure = false;
                if (upgrade.running()) {
                    // the binary upgrade's roll-back: the old master starts its workers again, no new cycle
                    restartWorkers();
                } else {
                    startReload(wait);
                }
            }
            if (changeBinary) {
                changeBinary = false;
                int pid = upgrade.signalled(cycle);
                if (pid > 0) {
                    children.table().addDetached(pid, BinaryUpgrade.NAME);
                }
            }
            if (reopen) {
                reopen = false;
                reopenLogs();
            }
            if (noaccept) {
                noaccept = false;
                noaccepting = true;
                children.signal(Platform.SIGQUIT, e -> true);
            }
        }
    }

    /** nginx's {@code delay} logic: TERMINATE now and at 50, 150, 350, 750 ms; SIGKILL from 1550 ms on. */
    private void terminateWorkers(MasterWait wait) throws NativeIoException {
        if (delay == 0) {
            delay = FIRST_DELAY_MS;
        } else if (sigalrm) {
            delay *= 2;
        } else {
            // woken by something else (a reap, a channel): the timer still runs
            return;
        }
        sigalrm = false;
        children.signal(delay > KILL_AFTER_MS ? Platform.SIGKILL : Platform.SIGTERM, e -> true);
        wait.wakeAt(System.nanoTime() + delay * 1_000_000L);
    }

    private void startReload(MasterWait wait) throws NativeIoException {
        if (options == null) {
            cycle.log().notice("reconfiguring");
            cycle.log().warn("reload is not supported here");
            return;
        }
        noaccepting = false;
        reload = MasterReload.start(this, cycle, options);
        if (reload != null) {
            wait.wakeAt(reload.nextWakeNs());
        }
    }

    private void reopenLogs() {
        cycle.log().notice("reopening logs");
        // nginx's ngx_reopen_files(cycle, ccf->user): the master reopens first and gives the new files to the
        // workers' user (set only when the master runs as root), then the workers reopen them
        cycle.filesOwner(cycle.conf(MainCoreModule.NAME, CoreConf.class).uid);
        InProcessReload.reopen(cycle, options);
        children.signal(Platform.SIGUSR1, e -> true);
    }

    /**
     * nginx's {@code ngx_signal_handler()} for the master: logs the signal and sets the flag the loop acts on.
     * Every signal the master handles is dispatched here (a new one, e.g. USR2, is one more case).
     */
    private void signal(int signo, int from) {
        String action = "";
        if (signo == Platform.SIGTERM || signo == Platform.SIGINT) {
            terminate = true;
            action = ", exiting";
        } else if (signo == Platform.SIGQUIT) {
            quit = true;
            action = ", shutting down";
        } else if (signo == Platform.SIGWINCH) {
            // as nginx, only a daemon: in a terminal, resizing its window must not stop the workers
            if (BinaryUpgrade.daemonized()) {
                noaccept = true;
                action = ", stop accepting connections";
            }
        } else if (signo == Platform.SIGHUP) {
            reconfigure = true;
            action = ", reconfiguring";
        } else if (signo == Platform.SIGUSR1) {
            reopen = true;
            action = ", reopening logs";
        } else if (signo == Platform.SIGUSR2) {
            action = upgrade.action();
            changeBinary = true;
        } else if (signo == Platform.SIGCHLD) {
            reap = true;
        }
        cycle.log().notice("signal " + signo + " (" + Signals.name(signo) + ")"
            + (from != 0 ? " received from " + from : " received") + action);
        if (signo == Platform.SIGQUIT) {
            cycle.log().notice("gracefully shutting down");
        }
    }

    /** The workers WINCH stopped start again in the cycle in force (nginx's {@code ngx_restart} branch). */
    private void restartWorkers() {
        if (!noaccepting) {
            return;
        }
        noaccepting = false;
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        children.start(cycle, Math.max(1, core.workerProcesses), snapshotFd, false);
    }

    @Override
    public void detachedExited(ProcessTable.Entry e, WaitStatus status) {
        if (upgrade.reaped(status, cycle) && !terminate && !quit) {
            restartWorkers();
        }
    }

    @Override
    public KernelCycle cycle() {
        return cycle;
    }

    @Override
    public int snapshotFd(KernelCycle c) {
        return snapshotFd;
    }

    @Override
    public boolean stopping() {
        return terminate || quit || noaccepting;
    }

    @Override
    public MasterChildren children() {
        return children;
    }

    @Override
    public void inForce(KernelCycle fresh, int snapshot) {
        cycle = fresh;
        ProcessChannel.close(snapshotFd);
        snapshotFd = snapshot;
    }
}
