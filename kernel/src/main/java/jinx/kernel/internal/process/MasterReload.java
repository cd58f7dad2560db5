package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.Files;
import jinx.kernel.os.Platform;

/**
 * One reload in the master (HUP or {@code jinx -s reload}), nginx's reconfigure step made asynchronous: a new
 * cycle is built from the one in force (a broken configuration logs the error and changes nothing), its snapshot
 * sealed, {@code worker_processes} new workers spawned; the master goes on waiting, and {@link #check} decides
 * once per wake-up: when every new worker reported {@code READY} on its channel the old workers get QUIT and the
 * new cycle is in force; when one exits first (code 2 included), or the 10 s deadline passes, or the master is
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
    private final int snapshotFd;
    private final List<ProcessTable.Entry> started;

    private MasterReload(KernelCycle old, KernelCycle fresh, int snapshotFd, List<ProcessTable.Entry> started) {
        this.old = old;
        this.fresh = fresh;
        this.snapshotFd = snapshotFd;
        this.started = started;
        this.deadlineNs = System.nanoTime() + READY_TIMEOUT_NS;
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
        } catch (RuntimeException e) {
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
        CoreConf core = fresh.conf(MainCoreModule.NAME, CoreConf.class);
        List<ProcessTable.Entry> started = master.children().start(fresh, Math.max(1, core.workerProcesses),
            snapshotFd);
        return new MasterReload(old, fresh, snapshotFd, started);
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
            failure = "the new worker processes were not ready in 10s";
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

    /** The new workers serve: the old ones finish what they have and go; the old cycle's files close. */
    private void commit(Master master) {
        master.children().signal(Platform.SIGQUIT, e -> e.cycle != fresh);
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
