package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import jinx.kernel.CoreConf;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.SignalInfo;
import jinx.kernel.os.Signals;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.JinxModule;

/**
 * The single serving process of {@code master_process off}: nginx's {@code ngx_single_process_cycle()}. It runs
 * in the calling thread ({@link #run}) or, for tests and embedding, in a thread of its own ({@link #start})
 * stopped through {@link #stop()}.
 *
 * <p>Signals (DESIGN 6a): when {@link #run} finds the server's signal set blocked on its thread (the
 * {@code jinx} command re-execs itself so), it reads them from a signalfd on a small thread of its own and hands
 * each to the loop: TERM and INT exit at once, QUIT exits gracefully (the listening sockets close, idle
 * connections close, in-flight requests finish with {@code Connection: close}, {@code worker_shutdown_timeout}
 * closes what is left), USR1 reopens the error log and every module's files ({@link JinxModule#reopenFiles}),
 * HUP is logged and refused (an in-process reload is not built). Embedded use ({@link #start}, or a JVM whose
 * mask does not block the set) never reads signals.
 */
public final class SingleProcess {

    private final KernelCycle cycle;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile Exception failure;
    private Thread thread;
    /** The signalfd of a process that owns its signals, or -1. */
    private int signalFd = -1;
    /** A worker's readiness descriptor, or -1. */
    private int readyFd = -1;
    /** Set on the loop thread by the signal handler, acted upon after the turn, as nginx's flags. */
    private boolean terminate;
    private boolean quit;
    private boolean reopen;
    private boolean reconfigure;
    private final Event shutdownTimer = new Event();

    private SingleProcess(KernelCycle cycle) {
        this.cycle = cycle;
    }

    /**
     * Serves in the calling thread until the process is killed: writes the pid file, starts the modules and turns
     * the loop.
     *
     * @param cycle a cycle built to serve
     * @return the exit code: 2 when a module could not start
     */
    public static int run(KernelCycle cycle) {
        SingleProcess process = new SingleProcess(cycle);
        Path pid = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        try {
            Files.writeString(pid, ProcessHandle.current().pid() + "\n", StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            cycle.log().emerg("open() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            return 1;
        }
        // what libraries print (slf4j-simple writes to stderr) belongs in the error log, as nginx points stderr there
        cycle.log().captureStderr();
        process.signalFd = ownSignals(cycle);
        try {
            return process.serve();
        } finally {
            try {
                Files.deleteIfExists(pid);
            } catch (IOException e) {
                cycle.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            }
            if (process.signalFd != -1) {
                cycle.log().notice("exit");
            }
        }
    }

    /**
     * Serves as a worker process: as {@link #run} without a pid file (the master owns it). The signals are
     * blocked by the master's spawn.
     *
     * @param cycle a cycle attached from the master's snapshot
     * @param readyFd where one byte tells the master the loop runs (closed then), or -1
     * @return the exit code: 2 when a module could not start
     */
    public static int runWorker(KernelCycle cycle, int readyFd) {
        SingleProcess process = new SingleProcess(cycle);
        process.readyFd = readyFd;
        cycle.log().captureStderr();
        process.signalFd = ownSignals(cycle);
        try {
            return process.serve();
        } finally {
            cycle.log().notice("exit");
        }
    }

    /**
     * Opens the signalfd when the server's signal set is blocked on this thread (so, by inheritance, in every
     * thread of the JVM), or returns -1: a JVM that does not block them does not own its signals.
     */
    private static int ownSignals(KernelCycle cycle) {
        try (SigSet set = Signals.serverSet(); SigSet mask = Signals.threadMask()) {
            for (int signo : set.signals()) {
                if (!mask.contains(signo)) {
                    return -1;
                }
            }
            // blocking: a thread of its own waits on it, as the master's sigsuspend
            return Signals.signalfd(-1, set, Platform.SFD_CLOEXEC);
        } catch (NativeIoException e) {
            cycle.log().alert(e.getMessage());
            return -1;
        }
    }

    /** Reads signals until the process exits and hands each to the loop. */
    private void readSignals(EventLoop loop) {
        NativeMemory memory = new NativeMemory();
        SignalInfo info = new SignalInfo(memory, 8);
        for (;;) {
            try {
                Signals.read(signalFd, info);
            } catch (NativeIoException e) {
                cycle.log().alert(e.getMessage());
                return;
            }
            for (int i = 0; i < info.count(); i++) {
                int signo = info.signo(i);
                int pid = info.pid(i);
                loop.notify(() -> signal(signo, pid));
            }
        }
    }

    /** nginx's {@code ngx_signal_handler()} for a single process: logs the signal and sets a flag. */
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

    /**
     * Serves in a new thread named {@code name} and returns once the loop runs.
     *
     * @param cycle a cycle built to serve
     * @param name the thread's name
     * @return the running process
     * @throws Exception what a module's {@code initProcess} threw
     */
    public static SingleProcess start(KernelCycle cycle, String name) throws Exception {
        SingleProcess process = new SingleProcess(cycle);
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
            loop.notify(() -> { });
        }
        thread.join(timeoutMs);
    }

    private int serve() {
        List<JinxModule> initialised = new ArrayList<>();
        try {
            for (LoadedModule m : cycle.modules()) {
                m.module().initProcess(cycle);
                initialised.add(m.module());
            }
        } catch (Exception e) {
            LoadedModule failed = cycle.modules().get(initialised.size());
            KernelCycle.Place at = cycle.loadedAt(failed);
            cycle.log().emerg("module \"" + failed.name() + "\" failed to start: " + e.getMessage()
                + (at != null ? " in " + at : ""));
            failure = e;
            started.countDown();
            exit(initialised);
            return 2;
        }
        started.countDown();
        EventLoop loop = cycle.eventLoop();
        if (signalFd != -1) {
            Thread reader = new Thread(() -> readSignals(loop), "jinx-signals");
            reader.setDaemon(true);
            reader.start();
        }
        if (readyFd != -1) {
            reportReady();
        }
        try {
            while (!stopping) {
                if (loop.exiting() && loop.noTimersLeft() && loop.activeConnections() == 0) {
                    cycle.log().notice("exiting");
                    break;
                }
                turn(loop);
                if (terminate) {
                    cycle.log().notice("exiting");
                    break;
                }
                actOnSignals(loop);
            }
        } finally {
            exit(initialised);
        }
        return 0;
    }

    /** Tells the master this worker serves: one byte on its readiness descriptor, which is then closed. */
    private void reportReady() {
        try (NativeMemory memory = new NativeMemory()) {
            long buf = memory.allocate(1);
            NativeMemory.putByte(buf, (byte) 1);
            Syscalls.write(readyFd, buf, 1);
        } catch (NativeIoException e) {
            cycle.log().alert("reporting ready failed: " + e.getMessage());
        }
        try {
            Syscalls.close(readyFd);
        } catch (NativeIoException e) {
            cycle.log().alert(e.getMessage());
        }
        readyFd = -1;
    }

    /** What nginx's worker cycle does after a turn with the flags its signal handler set. */
    private void actOnSignals(EventLoop loop) {
        if (quit) {
            quit = false;
            cycle.log().notice("gracefully shutting down");
            if (!loop.exiting()) {
                long timeout = cycle.conf(MainCoreModule.NAME, CoreConf.class).shutdownTimeout;
                if (timeout > 0) {
                    shutdownTimer.handler = ev -> loop.closeAllConnections();
                    shutdownTimer.log = cycle.log();
                    shutdownTimer.cancelable = true;
                    loop.addTimer(shutdownTimer, timeout);
                }
                loop.startExiting();
                ListeningSockets.closeAll(cycle);
            }
        }
        if (reconfigure) {
            reconfigure = false;
            cycle.log().notice("reconfiguring");
            cycle.log().warn("reload is not supported with \"master_process off\" yet");
        }
        if (reopen) {
            reopen = false;
            cycle.log().notice("reopening logs");
            try {
                cycle.log().reopen();
            } catch (IOException e) {
                cycle.log().emerg("reopening the error log failed (" + IoErrors.reason(e) + ")");
            }
            for (LoadedModule m : cycle.modules()) {
                try {
                    m.module().reopenFiles(cycle);
                } catch (RuntimeException e) {
                    cycle.log().alert("module \"" + m.name() + "\" failed to reopen its files: " + e);
                }
            }
        }
    }

    /** A handler's bug costs that turn, not the process: nothing a client sends may stop the server. */
    private void turn(EventLoop loop) {
        try {
            loop.processEventsAndTimers();
        } catch (IOException e) {
            cycle.log().alert(e.getMessage());
        } catch (RuntimeException e) {
            cycle.log().alert("unexpected " + e + " in the event loop");
        }
    }

    private void exit(List<JinxModule> initialised) {
        for (int i = initialised.size() - 1; i >= 0; i--) {
            initialised.get(i).exitProcess(cycle);
        }
        ListeningSockets.closeAll(cycle);
    }
}
