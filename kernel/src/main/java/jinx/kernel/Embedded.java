package jinx.kernel;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.process.SingleProcess;
import jinx.kernel.spi.JinxModule;

/**
 * Jinx inside another program's JVM: one {@code master_process off} server built from a configuration file,
 * with the built-in modules and the modules the caller adds, as the module test kit ({@code jinx.testkit}) and an
 * application embedding Jinx use it. It never re-executes the JVM, never changes its signal mask and reads no
 * signal: it is stopped by {@link #close()} (DESIGN 6a, point 7).
 *
 * <p>Two ways to serve:
 * <ul>
 *   <li>with sockets ({@link Builder#build()}, then {@link #start()}): the listening sockets of the configuration
 *       are opened and the event loop turns in a thread of its own, as {@code jinx} with
 *       {@code master_process off} would;</li>
 *   <li>in memory ({@link Builder#inMemory()}): nothing is opened; {@link #start()} runs the modules'
 *       {@code initProcess} on the calling thread, which then turns the loop itself ({@link #turn(long)}) and
 *       talks to the servers through {@link MemoryConnection#accept}. Shared memory zones are created all the
 *       same.</li>
 * </ul>
 *
 * <p>The cycle is built as {@code jinx} builds it, so a bad configuration fails {@link Builder#build()} with the
 * {@link ConfException} {@code jinx -t} would print.
 */
public final class Embedded implements AutoCloseable {

    private final KernelCycle cycle;
    private final boolean inMemory;
    private final List<JinxModule> initialised = new ArrayList<>();
    private final Event tick = new Event();
    private SingleProcess process;
    private boolean closed;

    private Embedded(KernelCycle cycle, boolean inMemory) {
        this.cycle = cycle;
        this.inMemory = inMemory;
        tick.handler = ev -> { };
    }

    /**
     * Starts describing a server whose prefix ({@code -p}) is {@code prefix}.
     *
     * @param prefix the absolute prefix: relative paths in the configuration resolve against it
     * @return the builder
     */
    public static Builder builder(Path prefix) {
        return new Builder(prefix);
    }

    /**
     * Returns the cycle the configuration built.
     *
     * @return the cycle
     */
    public Cycle cycle() {
        return cycle;
    }

    /**
     * Tells whether the server serves in memory ({@link Builder#inMemory()}).
     *
     * @return true in memory
     */
    public boolean inMemory() {
        return inMemory;
    }

    /**
     * Returns the event loop, or null before {@link #start()}.
     *
     * @return the loop
     */
    public EventLoop loop() {
        return cycle.eventLoop();
    }

    /**
     * Starts serving: with sockets, the loop's own thread runs every module's {@code initProcess} and then turns
     * the loop, and this method returns once it turns; in memory, {@code initProcess} runs on the calling thread.
     *
     * @throws Exception what a module's {@code initProcess} threw; the modules already started are stopped
     * @throws IllegalStateException when called twice
     */
    public void start() throws Exception {
        if (process != null || !initialised.isEmpty() || closed) {
            throw new IllegalStateException("the server was started already");
        }
        if (!inMemory) {
            process = SingleProcess.start(cycle, "jinx-embedded");
            return;
        }
        try {
            for (LoadedModule m : cycle.modules()) {
                m.module().initProcess(cycle);
                initialised.add(m.module());
            }
        } catch (Exception e) {
            cycle.log().emerg("module \"" + cycle.modules().get(initialised.size()).name()
                + "\" failed to start: " + e.getMessage());
            exitModules();
            throw e;
        }
    }

    /**
     * Turns the loop of an in-memory server once, waiting at most {@code waitMs} for an event or a timer: the
     * calling thread is the loop's thread.
     *
     * @param waitMs the longest wait
     * @throws IOException when waiting fails
     * @throws IllegalStateException for a server with sockets, whose loop has a thread of its own
     */
    public void turn(long waitMs) throws IOException {
        if (!inMemory) {
            throw new IllegalStateException("the loop of a server with sockets turns in its own thread");
        }
        EventLoop loop = loop();
        loop.addTimer(tick, waitMs);
        try {
            loop.processEventsAndTimers();
        } finally {
            loop.deleteTimer(tick);
        }
    }

    /**
     * Stops the server: the loop finishes its turn, every started module's {@code exitProcess} runs, the listening
     * sockets and shared zones are released and the error log closed. Idempotent.
     *
     * @throws InterruptedException when interrupted while waiting for the loop's thread (10 s at most)
     */
    @Override
    public void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (process != null) {
                process.stop(10_000);
            } else {
                exitModules();
            }
        } finally {
            cycle.releaseSharedZones();
            cycle.log().close();
        }
    }

    private void exitModules() {
        for (int i = initialised.size() - 1; i >= 0; i--) {
            initialised.get(i).exitProcess(cycle);
        }
        initialised.clear();
    }

    /**
     * What an embedded server is built from.
     */
    public static final class Builder {

        private final Path prefix;
        private Path confFile;
        private PrintStream stderr = System.err;
        private boolean inMemory;
        private boolean builtins = true;
        private final List<Supplier<? extends JinxModule>> modules = new ArrayList<>();

        private Builder(Path prefix) {
            this.prefix = Objects.requireNonNull(prefix, "prefix").toAbsolutePath();
        }

        /**
         * Sets the main configuration file; {@code conf/jinx.conf} under the prefix by default.
         *
         * @param file the file, relative to the prefix or absolute
         * @return this builder
         */
        public Builder confFile(Path file) {
            confFile = prefix.resolve(file);
            return this;
        }

        /**
         * Sets the stream that stands for stderr: {@code error_log stderr} writes there.
         *
         * @param stream the stream
         * @return this builder
         */
        public Builder stderr(PrintStream stream) {
            stderr = Objects.requireNonNull(stream, "stream");
            return this;
        }

        /**
         * Adds a module as if it were built in (it is listed as static). The supplier is called once per cycle,
         * for a fresh instance, as the kernel instantiates every module per cycle. A module the kernel discovered
         * already (same name) is not added twice.
         *
         * @param module makes the module
         * @return this builder
         */
        public Builder module(Supplier<? extends JinxModule> module) {
            modules.add(Objects.requireNonNull(module, "module"));
            return this;
        }

        /**
         * Leaves out the discovered built-in modules: only those given with {@link #module} are loaded (a kernel
         * test that wants nothing but its own modules).
         *
         * @return this builder
         */
        public Builder withoutBuiltins() {
            builtins = false;
            return this;
        }

        /**
         * Serves in memory: no socket is opened and the caller turns the loop.
         *
         * @return this builder
         */
        public Builder inMemory() {
            inMemory = true;
            return this;
        }

        /**
         * Builds the cycle: reads the configuration, creates the shared zones, opens the listening sockets (not
         * in memory) and calls every module's {@code initModule}, as the master of {@code jinx} does.
         *
         * @return the server, not started
         * @throws ConfException the configuration's error, with nginx's text and place
         */
        public Embedded build() throws ConfException {
            Path conf = confFile != null ? confFile : prefix.resolve("conf/jinx.conf");
            CycleOptions.Purpose purpose = inMemory ? CycleOptions.Purpose.MEMORY : CycleOptions.Purpose.RUN;
            CycleOptions options = new CycleOptions(prefix, conf, null, "stderr", purpose, this::instances,
                BuiltinOrder.NAMES, stderr, ErrorLog.early(stderr, null), null);
            return new Embedded(CycleBuilder.build(options, null), inMemory);
        }

        private List<JinxModule> instances() {
            List<JinxModule> list = new ArrayList<>(builtins ? Main.discover() : List.of());
            Set<String> names = new HashSet<>();
            for (JinxModule m : list) {
                names.add(m.name());
            }
            for (Supplier<? extends JinxModule> s : modules) {
                JinxModule m = s.get();
                if (names.add(m.name())) {
                    list.add(m);
                }
            }
            return list;
        }
    }
}
