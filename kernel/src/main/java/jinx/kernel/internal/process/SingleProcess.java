package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import jinx.kernel.CoreConf;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.spi.JinxModule;

/**
 * The single serving process of {@code master_process off}: nginx's {@code ngx_single_process_cycle()}. It runs
 * in the calling thread ({@link #run}) or, for tests and embedding, in a thread of its own ({@link #start})
 * stopped through {@link #stop()}.
 */
public final class SingleProcess {

    private final KernelCycle cycle;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile Exception failure;
    private Thread thread;

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
        try {
            return process.serve();
        } finally {
            try {
                Files.deleteIfExists(pid);
            } catch (IOException e) {
                cycle.log().alert("unlink() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")");
            }
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
            cycle.log().emerg("module \"" + cycle.modules().get(initialised.size()).name()
                + "\" failed to start: " + e.getMessage());
            failure = e;
            started.countDown();
            exit(initialised);
            return 2;
        }
        started.countDown();
        EventLoop loop = cycle.eventLoop();
        try {
            while (!stopping) {
                turn(loop);
            }
        } finally {
            exit(initialised);
        }
        return 0;
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
