package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.core.ErrlogConf;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Builds a cycle, nginx's {@code ngx_init_cycle()}: fresh module instances in their order, the core modules'
 * confs, the {@code -g} directives and the configuration file parsed, the core confs initialised, the error log
 * opened, {@code initModule} called. Any failure leaves the old cycle as it was.
 */
public final class CycleBuilder {

    /** nginx's {@code NGX_ERROR_LOG_PATH}, relative to the prefix. */
    static final String DEFAULT_ERROR_LOG = "logs/error.log";

    private CycleBuilder() {
    }

    /**
     * Builds a cycle.
     *
     * @param options the command line's choices
     * @param old the cycle in force, or null at start
     * @return the new cycle
     * @throws ConfException with nginx's text and, where it has one, the place
     */
    public static KernelCycle build(CycleOptions options, KernelCycle old) throws ConfException {
        ErrorLog log = old != null ? old.log() : options.log();
        ModuleIndexes indexes = old != null ? old.indexes().copy() : new ModuleIndexes();
        KernelCycle cycle = new KernelCycle(options.prefix(), options.confFile(), indexes, options.builtinOrder(),
            options.purpose() != CycleOptions.Purpose.RUN, log);
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
        if (options.purpose() == CycleOptions.Purpose.SIGNAL) {
            // nginx's signaller stops here too: it needs the pid file's name, nothing opened
            return cycle;
        }
        cycle.log(openLog(cycle, options));
        boolean serving = options.purpose() == CycleOptions.Purpose.RUN;
        try {
            if (serving) {
                ListeningSockets.open(cycle, old);
            }
            for (LoadedModule m : cycle.modules()) {
                initModule(cycle, m.module());
            }
        } catch (ConfException e) {
            if (serving) {
                ListeningSockets.closeOpened(cycle);
            }
            cycle.log().close();
            throw e;
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

    private static void initModule(KernelCycle cycle, JinxModule module) throws ConfException {
        try {
            module.initModule(cycle);
        } catch (ConfException e) {
            throw e;
        } catch (Exception e) {
            throw new ConfException("module \"" + module.name() + "\" failed to initialise (" + e + ")", e);
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
            return ErrorLog.open(targets, options.stderr());
        } catch (IOException e) {
            throw new ConfException(e.getMessage(), e);
        }
    }
}
