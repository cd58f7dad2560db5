package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;

/**
 * One reload in the master (HUP or {@code jinx -s reload}), nginx's reconfigure step made asynchronous: a new
 * cycle is built from the one in force (a broken configuration logs the error and changes nothing) and its snapshot
 * sealed. Where it can ({@link InPlace}), the reload then happens inside the running workers (issue #35): the new
 * cycle is in force at once and each worker builds it in its own JVM ({@link #inPlace}). Otherwise (a changed
 * module jar, user, worker count...) {@code worker_processes} new workers are spawned; the master goes on waiting,
 * and {@link #check} decides once per wake-up: when every new worker reported {@code READY} on its channel the old
 * workers get QUIT and the new cycle is in force; when one exits first (code 2 included), or the 10 s deadline passes, or the master is
 * stopping, the reload is abandoned: the new workers get TERMINATE and the old ones go on serving.
 */
final class MasterReload {

    /** How long new workers may take to report ready. */
    static final long READY_TIMEOUT_NS = 10_000_000_000L;

    /** The master's side of a reload. */
    interface Master {
        /** The children. */
        MasterChildren children();

        /** Puts {@code fresh} in force, with its snapshot. */
        void inForce(KernelCycle fresh, int snapshotFd);
    }

    final KernelCycle old;
    final KernelCycle fresh;
    final long deadlineNs;
    /**
     * When quiet workers still not ready are lifted ({@link WorkerInit#lift}): to the normal policy at nice 19,
     * then to their {@code worker_priority}. A machine with no idle CPU would otherwise starve them.
     */
    private final long[] liftNs = new long[2];
    private int lifted;
    private boolean rearm;
    private final long timeoutMs;
    private final int snapshotFd;
    private final List<ProcessTable.Entry> started;

    private MasterReload(KernelCycle old, KernelCycle fresh, int snapshotFd, List<ProcessTable.Entry> started,
        long warmUpMs) {
        this.old = old;
        this.fresh = fresh;
        this.snapshotFd = snapshotFd;
        this.started = started;
        // the warm-up comes on top of a JVM's start
        long now = System.nanoTime();
        this.timeoutMs = READY_TIMEOUT_NS / 1_000_000L + warmUpMs;
        this.deadlineNs = now + timeoutMs * 1_000_000L;
        this.liftNs[0] = now + READY_TIMEOUT_NS * 3 / 10;
        this.liftNs[1] = now + READY_TIMEOUT_NS * 6 / 10;
        // without a quiet worker there is nothing to lift, and no reason to wake for it
        this.lifted = started.stream().anyMatch(e -> e.quiet) ? 0 : liftNs.length;
    }

    /**
     * Builds the new cycle and starts its workers.
     *
     * @return the reload under way, or null when the configuration is broken (logged)
     */
    static MasterReload start(Master master, KernelCycle old, CycleOptions options) {
        old.log().notice("reconfiguring");
        KernelCycle fresh;
        try {
            fresh = CycleBuilder.build(options, old);
        } catch (ConfException e) {
            old.log().emerg(e.getMessage());
            return null;
        } catch (RuntimeException | Error e) {
            old.log().emerg("reload failed: " + e);
            return null;
        }
        int snapshotFd;
        try {
            snapshotFd = writeSnapshot(fresh);
        } catch (IOException e) {
            old.log().emerg(e.getMessage());
            discard(master.children(), fresh);
            return null;
        }
        List<ProcessTable.Entry> running = running(master.children(), old);
        String refusal = InPlace.refusal(old, fresh, running.size());
        if (refusal == null) {
            inPlace(master, old, fresh, snapshotFd, running);
            return null;
        }
        old.log().notice("starting new worker processes: " + refusal);
        CoreConf core = fresh.conf(MainCoreModule.NAME, CoreConf.class);
        List<ProcessTable.Entry> started = master.children().start(fresh, Math.max(1, core.workerProcesses),
            snapshotFd, true);
        return new MasterReload(old, fresh, snapshotFd, started, core.warmUp);
    }

    /** The workers of {@code old} that serve and are not told to stop. */
    private static List<ProcessTable.Entry> running(MasterChildren children, KernelCycle old) {
        return children.table().workersOf(old).stream().filter(e -> e.alive() && !e.exiting).toList();
    }

    /**
     * The reload inside the running workers (issue #35, DESIGN 9c): the new cycle is in force at once; each worker
     * gets {@code RELOAD} with the new cycle's descriptors ({@link WorkerReload}) and builds it in its own JVM,
     * reporting {@code READY} (logged with the time it took) or {@code RELOAD_FAILED}, upon which, as when the
     * message cannot be sent, a new JVM replaces it ({@link MasterChildren#replace}).
     */
    private static void inPlace(Master master, KernelCycle old, KernelCycle fresh, int snapshotFd,
                                List<ProcessTable.Entry> running) {
        // the workers are the new cycle's before it comes into force: the old one is released at once, not kept
        // for workers that no longer serve it
        for (ProcessTable.Entry e : running) {
            e.cycle = fresh;
        }
        commit(master, old, fresh, snapshotFd);
        MasterChildren children = master.children();
        for (ProcessTable.Entry e : running) {
            e.ready = false;
            e.reload++;
            e.reloadNs = System.nanoTime();
            boolean sent = false;
            try {
                sent = e.channel != -1 && ProcessChannel.write(e.channel, ProcessChannel.RELOAD, e.reload,
                    WorkerReload.descriptors(fresh, snapshotFd, e.slot));
            } catch (NativeIoException ex) {
                fresh.log().log(LogLevel.DEBUG, "channel of " + e.pid + ": " + ex.getMessage());
            }
            if (sent) {
                fresh.log().notice("reconfiguring " + e.name + " " + e.pid + " in place");
            } else {
                children.replace(e, "did not take the reload on its channel");
            }
        }
    }

    /** Seals a cycle's snapshot into a memfd the workers inherit. */
    static int writeSnapshot(KernelCycle c) throws IOException {
        int fd = Files.memfdCreate("jinx-snapshot", Platform.MFD_CLOEXEC);
        try {
            c.snapshot().writeTo(fd);
        } catch (IOException | RuntimeException e) {
            ProcessChannel.close(fd);
            throw e;
        }
        return fd;
    }

    /**
     * Decides the reload if it can be decided now.
     *
     * @param stopping whether the master is stopping
     * @return whether the reload is over (in force or abandoned)
     */
    boolean check(Master master, boolean stopping) {
        String failure = null;
        int ready = 0;
        for (ProcessTable.Entry e : started) {
            if (e.exited || e.pid == -1) {
                failure = "a new worker process exited before it was ready";
                break;
            }
            ready += e.ready ? 1 : 0;
        }
        if (failure == null && ready == started.size()) {
            commit(master);
            return true;
        }
        if (failure == null && stopping) {
            failure = "the master is stopping";
        }
        if (failure == null && System.nanoTime() - deadlineNs > 0) {
            failure = "the new worker processes were not ready in " + (timeoutMs + 999) / 1000 + "s";
        }
        if (failure == null && lifted < liftNs.length && System.nanoTime() - liftNs[lifted] > 0) {
            lift();
        }
        if (failure == null) {
            return false;
        }
        old.log().alert("reload abandoned: " + failure);
        for (ProcessTable.Entry e : started) {
            e.respawn = false;
        }
        master.children().signal(Platform.SIGTERM, e -> e.cycle == fresh);
        ProcessChannel.close(snapshotFd);
        discard(master.children(), fresh);
        return true;
    }

    /** When the master should wake for this reload next: the lift, then the deadline. */
    long nextWakeNs() {
        return lifted < liftNs.length ? liftNs[lifted] : deadlineNs;
    }

    /** Tells, once, that {@link #nextWakeNs()} moved. */
    boolean takeRearm() {
        boolean r = rearm;
        rearm = false;
        return r;
    }

    /** A quiet worker not ready yet: the normal policy at nice 19 after 3 s, its own nice after 6 s. */
    private void lift() {
        lifted++;
        rearm = true;
        CoreConf core = fresh.conf(MainCoreModule.NAME, CoreConf.class);
        int target = lifted == 1 ? 19 : WorkerInit.targetNice(core, ProcessSetup.nice());
        for (ProcessTable.Entry e : started) {
            if (e.quiet && !e.ready && e.pid > 0) {
                WorkerInit.lift(e.pid, target, old.log());
            }
        }
    }

    /** The new workers serve: the old ones finish what they have and go; the old cycle's files close. */
    private void commit(Master master) {
        master.children().signal(Platform.SIGQUIT, e -> e.cycle != fresh);
        commit(master, old, fresh, snapshotFd);
    }

    /** {@code fresh} in force in the master: the old cycle's sockets it dropped and its files close. */
    private static void commit(Master master, KernelCycle old, KernelCycle fresh, int snapshotFd) {
        master.inForce(fresh, snapshotFd);
        ListeningSockets.closeUnused(old, fresh);
        // nginx closes the old cycle's files once the new one is in force; its error log stays for the reaps
        for (LoadedModule m : old.modules()) {
            m.module().exitMaster(old);
        }
        master.children().retire(old);
    }

    /** A new cycle that did not come into force: the sockets it opened itself closed, its files and zones. */
    private static void discard(MasterChildren children, KernelCycle fresh) {
        ListeningSockets.closeOpened(fresh);
        for (LoadedModule m : fresh.modules()) {
            m.module().exitMaster(fresh);
        }
        children.discard(fresh);
        fresh.log().close();
    }
}
