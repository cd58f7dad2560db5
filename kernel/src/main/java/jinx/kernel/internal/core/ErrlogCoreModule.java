package jinx.kernel.internal.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code errlog} module: {@code error_log file|stderr [level];}, nginx's {@code ngx_errlog_module}. Several
 * may be given; each target has its own level ({@code error} by default).
 */
public final class ErrlogCoreModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "errlog";

    private static final List<String> DEBUG_LEVELS = List.of(
        "debug_core", "debug_alloc", "debug_mutex", "debug_event", "debug_http", "debug_mail", "debug_stream");

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("error_log", Set.of(Ctx.MAIN), Arity.ONE_MORE, ErrlogConf.class, ErrlogCoreModule::errorLog)
            .multi()
            .syntax("file [level]").defaults("logs/error.log error").describe("Configures logging: the file (or "
                + "stderr) and the minimum severity level of the messages logged."));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new ErrlogConf();
    }

    private static void errorLog(ConfContext cf, ErrlogConf conf) throws ConfException {
        String where = cf.arg(1);
        if (where.startsWith("syslog:") || where.startsWith("memory:")) {
            throw new ConfException("\"" + where.substring(0, where.indexOf(':')) + "\" logging is not supported");
        }
        Path file = null;
        if (!where.equals("stderr")) {
            file = cf.resolve(new String(where.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
        }
        conf.targets.add(new ErrorLog.Target(file, level(cf.args())));
    }

    /** nginx's {@code ngx_log_set_levels()}: one level at most; the debug_* sublevels mean debug here. */
    private static LogLevel level(List<String> args) throws ConfException {
        LogLevel level = null;
        boolean debugSublevel = false;
        for (String word : args.subList(2, args.size())) {
            LogLevel named = LogLevel.byLabel(word);
            if (named != null) {
                // nginx's log_level is non-zero after a debug_* word too
                if (level != null || debugSublevel) {
                    throw new ConfException("duplicate log level \"" + word + "\"");
                }
                level = named;
                continue;
            }
            // nginx refuses a debug_* word after a level ("log_level & ~NGX_LOG_DEBUG_ALL")
            if (!DEBUG_LEVELS.contains(word) || level != null) {
                throw new ConfException("invalid log level \"" + word + "\"");
            }
            debugSublevel = true;
        }
        if (level == null) {
            return debugSublevel ? LogLevel.DEBUG : LogLevel.ERROR;
        }
        return level;
    }
}
