package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.core.ErrlogConf;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Builds a cycle, nginx's {@code ngx_init_cycle()}: fresh module instances in their order, the core modules'
 * confs, the {@code -g} directives and the configuration file parsed, the core confs initialised, the error log
 * opened, {@code initModule} called. Any failure leaves the old cycle as it was.
 *
 * <p>A master's cycle ({@link #build} for {@code RUN}) records a {@link ConfSnapshot}; a worker's cycle
 * ({@link #attach}) is built from it in attach mode, where nginx's worker would simply have the master's cycle
 * after {@code fork()}.
 */
public final class CycleBuilder {

    /** nginx's {@code NGX_ERROR_LOG_PATH}, relative to the prefix. */
    static final String DEFAULT_ERROR_LOG = "logs/error.log";

    private CycleBuilder() {
    }

    /**
     * Builds a cycle. A cycle built to serve ({@link CycleOptions.Purpose#RUN}) loads its {@code load_module} jars
     * from the module cache and carries the {@link KernelCycle#snapshot() snapshot} its workers are built from.
     *
     * @param options the command line's choices; not {@link CycleOptions.Purpose#WORKER}, which is
     *     {@link #attach}'s
     * @param old the cycle in force, or null at start
     * @return the new cycle
     * @throws ConfException with nginx's text and, where it has one, the place
     */
    public static KernelCycle build(CycleOptions options, KernelCycle old) throws ConfException {
        if (options.purpose() == CycleOptions.Purpose.WORKER) {
            throw new IllegalArgumentException("a worker's cycle is built by attach()");
        }
        boolean serving = options.purpose() == CycleOptions.Purpose.RUN;
        boolean inMemory = options.purpose() == CycleOptions.Purpose.MEMORY;
        SnapshotRecorder recorder = serving ? new SnapshotRecorder(options.prefix()) : null;
        KernelCycle cycle;
        try {
            cycle = parse(options, old, serving ? recorder : FileSource.disk(), Map.of());
        } catch (RuntimeException | Error e) {
            throw unexpected(e);
        }
        if (options.purpose() == CycleOptions.Purpose.SIGNAL) {
            // nginx's signaller stops here too: it needs the pid file's name, nothing opened
            return cycle;
        }
        try {
            ListeningSockets.cloneReuseport(cycle);
            cycle.log(openLog(cycle, options));
        } catch (RuntimeException | Error e) {
            throw unexpected(e);
        }
        try {
            if (serving) {
                // nginx's order: the temporary files' paths, shared zones, then listening sockets, then init_module
                CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
                TempPaths.create(cycle.paths(), core == null ? -1 : core.uid);
                cycle.initSharedZones(old);
                ListeningSockets.open(cycle, old);
            } else if (inMemory) {
                cycle.initSharedZones(old);
            }
            for (LoadedModule m : cycle.modules()) {
                initModule(cycle, m);
            }
            if (serving) {
                cycle.snapshot(recorder.seal(cycle, options));
            }
        } catch (ConfException | RuntimeException | Error e) {
            if (serving) {
                ListeningSockets.closeOpened(cycle);
            }
            if (serving || inMemory) {
                cycle.releaseSharedZones();
            }
            cycle.log().close();
            throw e instanceof ConfException ce ? ce : unexpected(e);
        }
        return cycle;
    }

    /**
     * A failure no module reported as a configuration error, an {@code Error} included (issue #35): one
     * {@code [emerg]} line for {@code -t}, and a reload that keeps the cycle in force, instead of a stack trace or a
     * master gone (issue #36). Where in the file it
     * happened is unknown here; errors inside a directive's handler are placed by the parser already.
     */
    static ConfException unexpected(Throwable e) {
        return new ConfException("unexpected error while processing the configuration (" + e + ")", e);
    }

    /**
     * Builds a worker's cycle from its master's snapshot, in attach mode: the snapshot's bytes parsed as the
     * master parsed the files, its cached jars loaded, the core confs initialised and then given the values the
     * master resolved, the error log opened; no {@code initModule} (the master's work), no socket opened: each
     * listening socket takes the inherited descriptor at its position. Nothing is read from the configuration on
     * disk.
     *
     * @param options {@link ConfSnapshot#workerOptions}
     * @param listeningFds the inherited descriptors, one per listening socket of the snapshot in its order
     *     ({@link ConfSnapshot#listening()}); -1 for one this worker does not receive
     * @return the cycle, ready for {@code initProcess}
     * @throws ConfException when the snapshot was written by another Jinx, or does not match the configuration it
     *     is replayed into (files, patterns, jars, listening sockets), or the configuration fails as it would
     */
    public static KernelCycle attach(CycleOptions options, int[] listeningFds) throws ConfException {
        return attach(options, listeningFds, Map.of());
    }

    /**
     * Builds a worker's cycle as {@link #attach(CycleOptions, int[])} does, writing to the master's files
     * ({@link OpenFiles}): a worker reloading in place after it dropped its privileges.
     *
     * @param options {@link ConfSnapshot#workerOptions}
     * @param listeningFds the listening sockets' descriptors, as for {@link #attach(CycleOptions, int[])}
     * @param files the master's descriptors of the files the snapshot names ({@link ConfSnapshot#openFiles()}),
     *     by path; the cycle's until {@link OpenFiles#closePassed}
     * @return the cycle, ready for {@code initProcess}
     * @throws ConfException as {@link #attach(CycleOptions, int[])}
     */
    public static KernelCycle attach(CycleOptions options, int[] listeningFds, Map<Path, Integer> files)
        throws ConfException {
        ConfSnapshot snapshot = options.snapshot();
        if (options.purpose() != CycleOptions.Purpose.WORKER) {
            throw new IllegalArgumentException("attach() builds a worker's cycle: purpose WORKER");
        }
        if (!snapshot.jinxVersion().equals(Versions.JINX)) {
            throw new ConfException("configuration snapshot of jinx/" + snapshot.jinxVersion() + " in jinx/"
                + Versions.JINX);
        }
        SnapshotReplay replay = new SnapshotReplay(snapshot);
        KernelCycle cycle = parse(options, null, replay, files);
        replay.checkUsed();
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        if (core != null && snapshot.resolved() != null) {
            snapshot.resolved().apply(core);
        }
        ListeningSockets.cloneReuseport(cycle);
        replay.attachListening(cycle, listeningFds);
        cycle.log(openLog(cycle, options));
        return cycle;
    }

    /** The part every purpose shares: modules, {@code -g}, the file, the core confs initialised. */
    private static KernelCycle parse(CycleOptions options, KernelCycle old, FileSource source,
                                     Map<Path, Integer> files) throws ConfException {
        ErrorLog log = old != null ? old.log() : options.log();
        ModuleIndexes indexes = old != null ? old.indexes().copy() : new ModuleIndexes();
        boolean test = options.purpose() == CycleOptions.Purpose.TEST
                       || options.purpose() == CycleOptions.Purpose.SIGNAL;
        KernelCycle cycle = new KernelCycle(options.prefix(), options.confFile(), indexes, options.builtinOrder(),
            test, log, source);
        if (!files.isEmpty()) {
            cycle.openFiles().pass(files);
        }
        cycle.addModules(options.staticModules().get(), null);
        ConfParser parser = new ConfParser(cycle, mainScope(cycle));
        if (options.params() != null) {
            parser.parseParam(options.params());
        }
        parser.parseFile(options.confFile());
        if (options.parsed() != null) {
            options.parsed().run();
        }
        for (LoadedModule m : cycle.modules(ModuleType.CORE)) {
            if (m.module().context() instanceof CoreModule core) {
                initConf(cycle, m, core);
            }
        }
        return cycle;
    }

    private static void initConf(KernelCycle cycle, LoadedModule m, CoreModule core) throws ConfException {
        try {
            core.initConf(cycle, cycle.coreConf(m));
        } catch (RuntimeException e) {
            throw new ConfException("module \"" + m.name() + "\" failed to initialise its conf (" + e + ")", e);
        }
    }

    /** A loaded module's failure names its {@code load_module} line, where the operator can act on it. */
    private static void initModule(KernelCycle cycle, LoadedModule m) throws ConfException {
        KernelCycle.Place at = cycle.loadedAt(m);
        try {
            m.module().initModule(cycle);
        } catch (ConfException e) {
            throw at == null ? e : e.locate(at.file(), at.line());
        } catch (Exception | Error e) {
            // an Error too (issue #35): a module that cannot start in this cycle must not take the master down
            ConfException failed = new ConfException("module \"" + m.name() + "\" failed to initialise (" + e + ")",
                e);
            throw at == null ? failed : failed.locate(at.file(), at.line());
        }
    }

    private static ConfScope mainScope(KernelCycle cycle) {
        return new ConfScope() {
            @Override
            public Ctx ctx() {
                return Ctx.MAIN;
            }

            @Override
            public ModuleType moduleType() {
                return ModuleType.CORE;
            }

            @Override
            public Object conf(JinxModule module, Class<?> type) {
                Object conf = cycle.coreConf(cycle.entry(module));
                return type.isInstance(conf) ? conf : null;
            }
        };
    }

    /** The {@code error_log} targets, else {@code -e}, else nginx's default file at level {@code error}. */
    private static ErrorLog openLog(KernelCycle cycle, CycleOptions options) throws ConfException {
        ErrlogConf conf = cycle.conf(ErrlogCoreModule.NAME, ErrlogConf.class);
        List<ErrorLog.Target> targets = new ArrayList<>();
        if (conf != null) {
            targets.addAll(conf.targets);
        }
        if (targets.isEmpty()) {
            String name = options.errorLog() != null ? options.errorLog() : DEFAULT_ERROR_LOG;
            Path file = name.equals("stderr") ? null : options.prefix().resolve(name);
            targets.add(new ErrorLog.Target(file, LogLevel.ERROR));
        }
        try {
            return ErrorLog.open(targets, options.stderr(), cycle);
        } catch (IOException e) {
            throw new ConfException(e.getMessage(), e);
        }
    }
}
