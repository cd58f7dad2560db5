package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import jinx.kernel.CoreConf;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Signals;
import jinx.kernel.spi.JinxModule;

/**
 * A serving process: nginx's {@code ngx_single_process_cycle()} ({@code master_process off}) and
 * {@code ngx_worker_process_cycle()} (a worker, {@link #runWorker}). It runs in the calling thread ({@link #run})
 * or, for tests and embedding, in a thread of its own ({@link #start}) stopped through {@link #stop}.
 *
 * <p>Signals (DESIGN 6a): when the server's signal set is blocked on the calling thread (the {@code jinx} command
 * re-execs itself so, and a master spawns its workers so), a signalfd is registered in the event loop beside the
 * worker's channel ({@link ProcessEvents}); their handlers only set flags, acted upon after each turn as nginx's
 * worker does: TERM and INT (or TERMINATE) exit at once, QUIT (or QUIT, or the channel's end of file: the master is
 * gone) exits gracefully (listening sockets and idle connections closed, in-flight requests finished with
 * {@code Connection: close}, {@code worker_shutdown_timeout} closes what is left), USR1 (REOPEN) reopens the
 * error log and every module's files, HUP reloads in-process ({@link InProcessReload}) when the process was
 * given its options. Embedded use ({@link #start}) never reads signals.
 *
 * <p>An {@code Error} escaping a turn ends the loop: the worker exits with code 1 and its master respawns it;
 * a {@code RuntimeException} costs that turn only (nothing a client sends may stop the server).
 */
public final class SingleProcess {

    private KernelCycle cycle;
    private final CycleOptions options;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile Exception failure;
    private Thread thread;
    /** The signalfd of a process that owns its signals, a worker's channel to its master. */
    private final OwnEvents own = new OwnEvents(this::signal, this::command);
    /** The descriptors of a {@code RELOAD} from the master not yet acted upon ({@link WorkerReload}), or null. */
    private int[] reloadFds;
    /** The number of the master's last {@code RELOAD}, which READY and RELOAD_FAILED answer. */
    private int reloadNumber;
    /** What a worker does before it reports ready: takes its nice value ({@link WorkerInit#settlePriority}). */
    private Runnable ready = () -> { };
    /** The longest warm-up before READY, 0 for none. */
    private long warmUpMs;
    /** The modules whose initProcess ran, for exitProcess. */
    private List<JinxModule> initialised = List.of();
    /* set on the loop thread by the signal and channel handlers, acted upon after the turn, as nginx's flags */
    private boolean terminate;
    private boolean quit;
    private boolean reopen;
    private boolean reconfigure;
    private final Event shutdownTimer = new Event();
    private final InProcessReload reloads;

    private SingleProcess(KernelCycle cycle, CycleOptions options) {
        this.cycle = cycle;
        this.options = options;
        this.reloads = new InProcessReload(cycle);
    }

    /**
     * Serves in the calling thread without reload: see {@link #run(KernelCycle, CycleOptions)}.
     *
     * @param cycle a cycle built to serve
     * @return the exit code
     */
    public static int run(KernelCycle cycle) {
        return run(cycle, null);
    }

    /**
     * Serves in the calling thread until the process is stopped: writes the pid file, starts the modules and turns
     * the loop.
     *
     * @param cycle a cycle built to serve
     * @param options what {@code cycle} was built with, to build the next one on HUP; null refuses HUP
     * @return the exit code: 2 when a module could not start
     */
    public static int run(KernelCycle cycle, CycleOptions options) {
        SingleProcess process = new SingleProcess(cycle, options);
        Path pid = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        try {
            Files.writeString(pid, ProcessHandle.current().pid() + "\n", StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            cycle.log().emerg("open() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            return 1;
        }
        // what libraries print (slf4j-simple writes to stderr) belongs in the error log, as nginx points stderr there
        cycle.log().captureStderr();
        process.own.signalFd(ProcessEvents.signalfd(cycle.log()));
        try {
            return process.serve();
        } finally {
            if (!process.terminate) {
                process.reloads.awaitDrained();
            }
            try {
                Files.deleteIfExists(pid);
            } catch (IOException e) {
                process.cycle.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            }
            if (process.own.signalFd() != -1) {
                process.cycle.log().notice("exit");
            }
        }
    }

    /**
     * Serves as a worker process: as {@link #run} without a pid file (the master owns it), with the channel to
     * the master. The signals are blocked by the master's spawn.
     *
     * @param cycle a cycle attached from the master's snapshot
     * @param channelFd the worker's end of its channel ({@link MasterProcess#CHANNEL_FD}), or -1
     * @param ready what to do once the loop is set up, before the warm-up and {@code READY}
     * @param warmUpMs the longest warm-up before {@code READY} ({@link WorkerWarmUp}), 0 for none
     * @return the exit code: 2 when a module could not start
     */
    public static int runWorker(KernelCycle cycle, int channelFd, Runnable ready, long warmUpMs) {
        SingleProcess process = new SingleProcess(cycle, null);
        process.own.channelFd(channelFd);
        process.ready = ready;
        process.warmUpMs = warmUpMs;
        cycle.log().captureStderr();
        process.own.signalFd(ProcessEvents.signalfd(cycle.log()));
        try {
            return process.serve();
        } finally {
            process.cycle.log().notice("exit");
        }
    }

    /**
     * Serves in a new thread named {@code name} and returns once the loop runs.
     *
     * @param cycle a cycle built to serve
     * @param name the thread's name
     * @return the running process
     * @throws Exception what a module's {@code initProcess} threw
     */
    public static SingleProcess start(KernelCycle cycle, String name) throws Exception {
        return start(cycle, name, 0);
    }

    /**
     * Serves in a new thread named {@code name} after a warm-up ({@link WorkerWarmUp}) of at most
     * {@code warmUpMs}, and returns once the modules started: the warm-up may still run.
     *
     * @param cycle a cycle built to serve
     * @param name the thread's name
     * @param warmUpMs the longest warm-up, 0 for none
     * @return the running process
     * @throws Exception what a module's {@code initProcess} threw
     */
    public static SingleProcess start(KernelCycle cycle, String name, long warmUpMs) throws Exception {
        SingleProcess process = new SingleProcess(cycle, null);
        process.warmUpMs = warmUpMs;
        process.thread = new Thread(process::serve, name);
        process.thread.start();
        process.started.await();
        if (process.failure != null) {
            process.thread.join();
            throw process.failure;
        }
        return process;
    }

    /**
     * Returns the process's loop.
     *
     * @return the loop
     */
    public EventLoop loop() {
        return cycle.eventLoop();
    }

    /**
     * Stops a process started with {@link #start}: the loop finishes its turn, the modules exit, the listening
     * sockets close.
     *
     * @param timeoutMs how long to wait for the loop's thread
     * @throws InterruptedException when interrupted while waiting
     */
    public void stop(long timeoutMs) throws InterruptedException {
        stopping = true;
        EventLoop loop = cycle.eventLoop();
        if (loop != null) {
            try {
                loop.notify(() -> { });
            } catch (IllegalStateException e) {
                // the loop saw stopping on a turn of its own and has already closed its notify channel: there is
                // nothing left to wake, only the thread to wait for
            }
        }
        thread.join(timeoutMs);
    }

    private int serve() {
        try {
            initialised = InProcessReload.initProcess(cycle);
        } catch (InProcessReload.StartFailure e) {
            ListeningSockets.closeAll(cycle);
            failure = e.cause();
            started.countDown();
            return 2;
        }
        started.countDown();
        try {
            own.add(cycle.eventLoop());
        } catch (IOException e) {
            cycle.log().emerg(e.getMessage());
            InProcessReload.exitProcess(cycle, initialised);
            return 2;
        }
        if (warmUpMs > 0) {
            WorkerWarmUp.run(cycle, warmUpMs, () -> terminate || quit || stopping);
        }
        if (own.channelFd() != -1) {
            ready.run();
            ProcessEvents.reportReady(own.channelFd(), cycle.log());
        }
        try {
            while (!stopping) {
                EventLoop loop = cycle.eventLoop();
                if (loop.exiting() && loop.noTimersLeft() && loop.activeConnections() == 0) {
                    cycle.log().notice("exiting");
                    break;
                }
                turn(loop);
                if (terminate) {
                    cycle.log().notice("exiting");
                    break;
                }
                actOnFlags(loop);
            }
        } finally {
            InProcessReload.exitProcess(cycle, initialised);
        }
        return 0;
    }

    /** nginx's {@code ngx_signal_handler()} for a serving process: logs the signal and sets a flag. */
    private void signal(int signo, int pid) {
        String action = "";
        if (signo == Platform.SIGTERM || signo == Platform.SIGINT) {
            terminate = true;
            action = ", exiting";
        } else if (signo == Platform.SIGQUIT) {
            quit = true;
            action = ", shutting down";
        } else if (signo == Platform.SIGUSR1) {
            reopen = true;
            action = ", reopening logs";
        } else if (signo == Platform.SIGHUP) {
            reconfigure = true;
            action = ", reconfiguring";
        }
        String from = pid != 0 ? " received from " + pid : " received";
        cycle.log().notice("signal " + signo + " (" + Signals.name(signo) + ")" + from + action);
    }

    /** nginx's {@code ngx_channel_handler()}: the master's commands; end of file is a graceful stop. */
    private void command(ProcessChannel.Message m) {
        if (m.eof()) {
            // a documented departure from nginx: a worker whose master is gone does not hold the port forever
            cycle.log().notice("the channel to the master process is closed");
            own.channelClosed();
            quit = true;
            return;
        }
        switch (m.command()) {
            case ProcessChannel.QUIT -> quit = true;
            case ProcessChannel.TERMINATE -> terminate = true;
            case ProcessChannel.REOPEN -> reopen = true;
            case ProcessChannel.RELOAD -> {
                // two before a turn: the later cycle is the one in force in the master
                if (reloadFds != null) {
                    ProcessChannel.closeAll(reloadFds);
                }
                reloadFds = m.fds();
                reloadNumber = m.slot();
            }
            default -> {
                // OPEN_CHANNEL, CLOSE_CHANNEL: a sibling's pid and slot; nothing talks to siblings yet
            }
        }
    }

    /** What nginx's worker cycle does after a turn with the flags its handlers set. */
    private void actOnFlags(EventLoop loop) {
        if (quit) {
            quit = false;
            cycle.log().notice("gracefully shutting down");
            if (!loop.exiting()) {
                startExiting(cycle, loop, shutdownTimer);
                ListeningSockets.closeAll(cycle);
            }
        }
        if (reconfigure) {
            reconfigure = false;
            reload(loop);
        }
        if (reloadFds != null) {
            int[] fds = reloadFds;
            reloadFds = null;
            reloadInPlace(loop, fds);
        }
        if (reopen) {
            reopen = false;
            cycle.log().notice("reopening logs");
            InProcessReload.reopen(cycle, options);
        }
    }

    /**
     * A graceful exit of {@code c}'s loop: {@code worker_shutdown_timeout} armed (cancelable, so it does not keep
     * the loop alive by itself), listening sockets out of the loop, idle connections closed.
     */
    static void startExiting(KernelCycle c, EventLoop loop, Event shutdownTimer) {
        long timeout = c.conf(MainCoreModule.NAME, CoreConf.class).shutdownTimeout;
        if (timeout > 0) {
            shutdownTimer.handler = ev -> loop.closeAllConnections();
            shutdownTimer.log = c.log();
            shutdownTimer.cancelable = true;
            loop.addTimer(shutdownTimer, timeout);
        }
        loop.startExiting();
    }

    /** HUP: a new cycle serves and the old one drains, or nothing changes. */
    private void reload(EventLoop loop) {
        cycle.log().notice("reconfiguring");
        if (options == null || loop.exiting()) {
            cycle.log().warn("reload is not supported here");
            return;
        }
        InProcessReload.Fresh fresh = reloads.build(options, cycle);
        if (fresh != null) {
            switchTo(loop, fresh);
        }
    }

    /**
     * The master's {@code RELOAD} (issue #35): the new cycle built in this JVM from the descriptors that came with
     * it ({@link WorkerReload}) serves new connections, the old one drains. Whatever goes wrong, an {@code Error}
     * included, is logged and reported ({@code RELOAD_FAILED}): the old cycle serves on until the master's new JVM
     * for this slot is ready, since a half-built cycle in this JVM is not to be trusted.
     */
    private void reloadInPlace(EventLoop loop, int[] fds) {
        if (loop.exiting()) {
            ProcessChannel.closeAll(fds);
            return;
        }
        InProcessReload.Fresh fresh;
        KernelCycle next = null;
        try {
            next = WorkerReload.attach(cycle, fds);
            fresh = new InProcessReload.Fresh(next, InProcessReload.initProcess(next));
        } catch (Throwable t) {
            if (next != null) {
                // this worker's own descriptors of the new cycle's sockets (WorkerReload)
                ListeningSockets.closeAll(next, true);
            }
            Throwable cause = t instanceof InProcessReload.StartFailure f ? f.getCause() : t;
            cycle.log().alert("reload failed in the worker process (" + cause + "), a new one replaces it");
            ProcessEvents.report(own.channelFd(), ProcessChannel.RELOAD_FAILED, reloadNumber, cycle.log());
            return;
        } finally {
            if (next != null) {
                // the modules opened their files (copies of the master's): the master's own are not needed
                next.openFiles().closePassed();
            }
        }
        boolean switched = switchTo(loop, fresh);
        ProcessEvents.report(own.channelFd(), switched ? ProcessChannel.READY : ProcessChannel.RELOAD_FAILED,
            reloadNumber, cycle.log());
    }

    /**
     * Moves this process's own descriptors into the new cycle's loop ({@link OwnEvents#moveTo}), puts the new cycle
     * in force and drains the old one ({@link InProcessReload#drain}).
     *
     * @return false when the descriptors could not move (logged; the new cycle abandoned, the old one serves)
     */
    private boolean switchTo(EventLoop loop, InProcessReload.Fresh fresh) {
        if (!own.moveTo(loop, fresh.cycle().eventLoop(), cycle.log())) {
            reloads.abandon(fresh);
            return false;
        }
        KernelCycle old = cycle;
        List<JinxModule> oldModules = initialised;
        cycle = fresh.cycle();
        initialised = fresh.modules();
        if (own.signalFd() != -1) {
            // what libraries print goes to the log in force; the old one closes once its cycle drained
            cycle.log().captureStderr();
        }
        reloads.drain(old, oldModules, cycle, own.channelFd() != -1);
        return true;
    }

    /** A handler's bug costs that turn, not the process; an Error ends the loop (see the class comment). */
    static void turn(EventLoop loop) {
        try {
            loop.processEventsAndTimers();
        } catch (IOException e) {
            loop.log().alert(e.getMessage());
        } catch (RuntimeException e) {
            loop.log().alert("unexpected " + e + " in the event loop");
        }
    }
}
