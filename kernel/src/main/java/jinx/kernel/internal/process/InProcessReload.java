package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Event;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.spi.JinxModule;

/**
 * Reload inside one process ({@code master_process off}, HUP), and the module start/stop steps a serving
 * process shares with it.
 *
 * <p>The design: each cycle has its own event loop, and a loop is only ever turned by one thread at a time. On
 * HUP the serving thread builds the new cycle with {@link CycleBuilder#build} from the one in force (listening
 * sockets with the same address keep their descriptor, as in the master's reload; a broken configuration logs
 * the error and changes nothing) and runs its modules' {@code initProcess}, which builds the new loop and
 * registers the listening sockets in it. The serving thread then turns the new loop. The old loop is handed to a
 * daemon thread of its own that does what a worker told QUIT does: takes the listening sockets out of the old
 * loop (the new loop keeps accepting on the same descriptors, so no connection in the kernel's queue is lost),
 * closes those the new cycle did not take over, closes idle keep-alive connections at once, arms the old
 * cycle's {@code worker_shutdown_timeout}, and turns the old loop until its last connection is done; then it runs
 * the old modules' {@code exitProcess} (which closes the old cycle's log files), releases its zones and closes
 * its error log. So in-flight requests finish on the old configuration with {@code Connection: close}, and new
 * connections get the new one. A graceful stop (QUIT) waits for the draining cycles; TERM does not.
 */
final class InProcessReload {

    /** A new cycle whose modules started. */
    record Fresh(KernelCycle cycle, List<JinxModule> modules) {
    }

    /** A module's {@code initProcess} failed (logged); the ones started before it were stopped. */
    static final class StartFailure extends Exception {
        private static final long serialVersionUID = 1L;

        StartFailure(Throwable cause) {
            super(cause);
        }

        /** What the module threw, an {@code Error} given as the cause of an exception. */
        Exception cause() {
            return getCause() instanceof Exception e ? e : new IllegalStateException(getCause().toString(),
                getCause());
        }
    }

    private final KernelCycle initial;
    private final List<Thread> draining = new ArrayList<>();
    private int generation;

    InProcessReload(KernelCycle initial) {
        this.initial = initial;
    }

    /**
     * Runs every module's {@code initProcess} in order.
     *
     * @return the modules started
     * @throws StartFailure when one failed: those started before it got {@code exitProcess}; the listening sockets
     *     are left open
     */
    static List<JinxModule> initProcess(KernelCycle c) throws StartFailure {
        List<JinxModule> started = new ArrayList<>();
        try {
            for (LoadedModule m : c.modules()) {
                m.module().initProcess(c);
                started.add(m.module());
            }
        } catch (Exception | Error e) {
            // an Error too (issue #35): the cycle in force serves on, and what started is stopped
            LoadedModule failed = c.modules().get(started.size());
            KernelCycle.Place at = c.loadedAt(failed);
            Object why = e instanceof Error ? e : e.getMessage();
            c.log().emerg("module \"" + failed.name() + "\" failed to start: " + why + (at != null ? " in " + at : ""));
            // the listening sockets stay: a reload's new cycle shares the descriptors of the one in force, which
            // serves on (the caller closes what is the new cycle's own)
            exitModules(c, started);
            throw new StartFailure(e);
        }
        return started;
    }

    /** Every started module's {@code exitProcess}, in reverse order, then the listening sockets closed. */
    static void exitProcess(KernelCycle c, List<JinxModule> modules) {
        exitModules(c, modules);
        ListeningSockets.closeAll(c);
    }

    private static void exitModules(KernelCycle c, List<JinxModule> modules) {
        for (int i = modules.size() - 1; i >= 0; i--) {
            try {
                modules.get(i).exitProcess(c);
            } catch (RuntimeException | Error e) {
                c.log().alert("module \"" + modules.get(i).name() + "\" failed to exit: " + e);
            }
        }
    }

    /**
     * USR1: the error log and every module's files reopened, and the log the command line opened before the
     * configuration was read (nginx's default error log is one of the cycle's open files too).
     */
    static void reopen(KernelCycle c, CycleOptions options) {
        try {
            c.log().reopen();
            if (options != null && options.log() != null && options.log() != c.log()) {
                options.log().reopen();
            }
        } catch (IOException e) {
            c.log().emerg("reopening the error log failed (" + IoErrors.reason(e) + ")");
        }
        ownFiles(c, c.log());
        if (options != null && options.log() != null && options.log() != c.log()) {
            ownFiles(c, options.log());
        }
        for (LoadedModule m : c.modules()) {
            try {
                m.module().reopenFiles(c);
            } catch (RuntimeException e) {
                c.log().alert("module \"" + m.name() + "\" failed to reopen its files: " + e);
            }
        }
    }

    private static void ownFiles(KernelCycle c, ErrorLog log) {
        for (ErrorLog.Target t : log.targets()) {
            if (t.file() != null) {
                c.ownReopenedFile(t.file());
            }
        }
    }

    /**
     * Builds the next cycle and starts its modules.
     *
     * @return the new cycle, or null when it cannot serve (logged; nothing changed)
     */
    Fresh build(CycleOptions options, KernelCycle old) {
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
        try {
            return new Fresh(fresh, initProcess(fresh));
        } catch (StartFailure e) {
            old.log().emerg("reload failed: " + (e.getCause() instanceof Error err ? err : e.cause().getMessage()));
            discard(fresh);
            return null;
        }
    }

    /** A new cycle that will not serve after all. */
    void abandon(Fresh f) {
        exitModules(f.cycle(), f.modules());
        discard(f.cycle());
    }

    private static void discard(KernelCycle fresh) {
        ListeningSockets.closeOpened(fresh);
        for (LoadedModule m : fresh.modules()) {
            m.module().exitMaster(fresh);
        }
        fresh.releaseSharedZones();
        fresh.log().close();
    }

    /**
     * Hands the old cycle's loop to a thread of its own that drains it (see the class comment).
     *
     * @param old the cycle going out
     * @param modules its started modules
     * @param fresh the cycle now in force
     * @param worker whether this is a worker, whose new cycle has descriptors of its own for the same listening
     *     sockets ({@link WorkerReload}): the old cycle's are closed, all of them, and no unix socket's file is
     *     removed (the master owns those)
     */
    void drain(KernelCycle old, List<JinxModule> modules, KernelCycle fresh, boolean worker) {
        Thread t = new Thread(() -> drainLoop(old, modules, fresh, worker), "jinx-old-cycle-" + (++generation));
        t.setDaemon(true);
        synchronized (draining) {
            draining.add(t);
        }
        t.start();
    }

    private void drainLoop(KernelCycle old, List<JinxModule> modules, KernelCycle fresh, boolean worker) {
        EventLoop loop = old.eventLoop();
        try {
            SingleProcess.startExiting(old, loop, new Event());
            if (worker) {
                ListeningSockets.closeAll(old, true);
            } else {
                ListeningSockets.closeUnused(old, fresh);
            }
            while (!(loop.noTimersLeft() && loop.activeConnections() == 0)) {
                SingleProcess.turn(loop);
            }
        } finally {
            exitModules(old, modules);
            old.releaseSharedZones();
            if (old != initial) {
                old.log().close();
            }
            synchronized (draining) {
                draining.remove(Thread.currentThread());
            }
        }
    }

    /** A graceful stop waits for the cycles still draining. */
    void awaitDrained() {
        for (;;) {
            Thread t;
            synchronized (draining) {
                if (draining.isEmpty()) {
                    return;
                }
                t = draining.get(0);
            }
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
