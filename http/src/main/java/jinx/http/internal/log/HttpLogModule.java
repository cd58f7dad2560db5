package jinx.http.internal.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.LoadedModule;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Module {@code http_log}: {@code log_format} and {@code access_log}, nginx's {@code ngx_http_log_module}. The
 * files are opened once per path when the {@code http {}} block is configured; lines are written by a LOG phase
 * handler; {@link #reopen(Cycle)} reopens them for rotation ({@code USR1}); buffers are flushed at exit.
 */
public final class HttpLogModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_log";

    /** nginx's {@code combined} format. */
    static final String COMBINED_FORMAT = "$remote_addr - $remote_user [$time_local] "
        + "\"$request\" $status $body_bytes_sent \"$http_referer\" \"$http_user_agent\"";

    /** nginx's buffer size for {@code gzip} without {@code buffer=}. */
    private static final int GZIP_BUFFER = 64 * 1024;
    /** zlib's {@code Z_BEST_SPEED}, the level of a bare {@code gzip}. */
    private static final int GZIP_DEFAULT_LEVEL = 1;

    static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("log_format", Set.of(HttpCtx.MAIN), Arity.TWO_MORE, LogMainConf.class,
            HttpLogModule::logFormat).multi()
            .syntax("name [escape=default|json|none] string ...").defaults("combined \"...\"")
            .describe("Specifies a log format."),
        Directive.of("access_log", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF, HttpCtx.LMT),
            Arity.ONE_MORE, LogLocConf.class, HttpLogModule::accessLog).multi()
            .syntax("path [format [buffer=size] [flush=time] [if=condition]]", "off")
            .defaults("logs/access.log combined").describe("Sets the path, format, and configuration for a buffered "
                + "log write."));

    private LogMainConf main;
    private int ctxIndex = -1;

    /**
     * Creates the module; the kernel makes one per cycle.
     */
    public HttpLogModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
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
    public Object createMainConf() {
        main = new LogMainConf();
        return main;
    }

    @Override
    public Object createLocConf() {
        return new LogLocConf();
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        main().prefix = cf.cycle().prefix();
    }

    /**
     * nginx's {@code ngx_http_log_merge_loc_conf()}: a context without {@code access_log} takes its parent's
     * logs (or {@code off}); with none anywhere, {@code logs/access.log combined}.
     */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        LogLocConf prev = (LogLocConf) parent;
        LogLocConf conf = (LogLocConf) child;
        if (conf.logs != null || conf.off) {
            return;
        }
        conf.logs = prev.logs;
        conf.off = prev.off;
        if (conf.logs != null || conf.off) {
            return;
        }
        conf.logs = List.of(main().defaultLog());
    }

    /**
     * Compiles {@code combined} when used, opens every file, and adds the LOG phase handler: nginx's
     * {@code ngx_http_log_init()} and the opening of {@code cycle->open_files}.
     */
    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        LogMainConf lmcf = main();
        LogFormat combined = lmcf.formats.get(LogMainConf.COMBINED);
        if (lmcf.combinedUsed && combined.isEmpty()) {
            combined.compile(List.of(COMBINED_FORMAT), 0, cf::variableIndex);
        }
        ErrorLog log = cf.cycle().log();
        for (LogFile f : lmcf.files()) {
            try {
                f.open(cf.cycle(), log);
            } catch (IOException e) {
                throw f.openFailed(e);
            }
        }
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.LOG, this::handle);
    }

    /**
     * The LOG phase handler: nginx's {@code ngx_http_log_handler()}.
     *
     * @param r the request
     * @return {@link Rc#OK}
     */
    int handle(HttpRequest r) {
        LogLocConf lcf = (LogLocConf) r.locConf(ctxIndex);
        if (lcf == null || lcf.off || lcf.logs == null) {
            return Rc.OK;
        }
        for (AccessLog log : lcf.logs) {
            log.log(r);
        }
        return Rc.OK;
    }

    /**
     * Writes every buffered line of this cycle's files.
     */
    public void flush() {
        if (main != null) {
            for (LogFile f : main.files()) {
                f.flush();
            }
        }
    }

    /**
     * Reopens every file of this cycle, for log rotation ({@code USR1}), after writing what the buffers hold.
     * Failures are logged at {@code emerg}; the other files are reopened all the same.
     *
     * @param log where to report failures
     * @return true when every file was reopened
     */
    public boolean reopen(ErrorLog log) {
        boolean all = true;
        if (main != null) {
            for (LogFile f : main.files()) {
                all &= f.reopen(log);
            }
        }
        return all;
    }

    @Override
    public void reopenFiles(Cycle cycle) {
        reopen(cycle.log());
        if (main != null) {
            // in the master as root: the new files go to the workers' user, who reopens them next
            for (LogFile f : main.files()) {
                cycle.ownReopenedFile(f.path());
            }
        }
    }

    /**
     * Reopens the access logs of a cycle, if it has this module.
     *
     * @param cycle the cycle
     * @return true when every file was reopened (or there is none)
     */
    public static boolean reopen(Cycle cycle) {
        LoadedModule m = cycle.module(NAME);
        return m == null || !(m.module() instanceof HttpLogModule lm) || lm.reopen(cycle.log());
    }

    /**
     * Flushes and closes this cycle's files.
     */
    public void close() {
        if (main != null) {
            for (LogFile f : main.files()) {
                f.close();
            }
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        close();
    }

    @Override
    public void exitMaster(Cycle cycle) {
        close();
    }

    private LogMainConf main() {
        if (main == null) {
            main = new LogMainConf();
        }
        return main;
    }

    private static HttpLogModule self(ConfContext cf) {
        LoadedModule m = cf.cycle().module(NAME);
        return (HttpLogModule) m.module();
    }

    /**
     * {@code log_format name [escape=default|json|none] string ...}: nginx's {@code ngx_http_log_set_format()}.
     */
    static void logFormat(ConfContext cf, LogMainConf lmcf) throws ConfException {
        String name = cf.arg(1);
        if (lmcf.formats.containsKey(name)) {
            throw new ConfException("duplicate \"log_format\" name \"" + name + "\"");
        }
        LogFormat fmt = new LogFormat(name);
        Variables vars = Variables.of(cf);
        fmt.compile(cf.args(), 2, n -> vars.index(cf, n));
        lmcf.formats.put(name, fmt);
    }

    /**
     * {@code access_log path [format [buffer=size] [gzip[=level]] [flush=time] [if=condition]] | off}: nginx's
     * {@code ngx_http_log_set_log()}.
     */
    static void accessLog(ConfContext cf, LogLocConf llcf) throws ConfException {
        List<String> value = cf.args();
        if (value.get(1).equals("off")) {
            llcf.off = true;
            if (value.size() == 2) {
                return;
            }
            throw new ConfException("invalid parameter \"" + value.get(2) + "\"");
        }
        if (value.get(1).startsWith("syslog:")) {
            throw new ConfException("logging to syslog is not supported in \"" + value.get(1) + "\"");
        }
        LogMainConf lmcf = self(cf).main();
        String name = value.size() >= 3 ? value.get(2) : LogMainConf.COMBINED;
        LogFormat format = lmcf.format(name);
        if (format == null) {
            throw new ConfException("unknown log format \"" + name + "\"");
        }
        if (format.name().equals(LogMainConf.COMBINED)) {
            lmcf.combinedUsed = true;
        }
        Params p = params(cf, value);
        boolean script = value.get(1).indexOf('$') >= 0;
        AccessLog log;
        if (script) {
            log = AccessLog.script(Variables.of(cf).compile(cf, fullName(cf, value.get(1))), format, p.filter);
        } else {
            LogFile file = lmcf.file(cf.resolve(value.get(1)));
            file.declaredAt(cf.file(), cf.line());
            log = new AccessLog(file, format, p.filter);
        }
        if (p.flush > 0 && p.size == 0) {
            throw new ConfException("no buffer is defined for access_log \"" + value.get(1) + "\"");
        }
        if (llcf.logs == null) {
            llcf.logs = new ArrayList<>();
        }
        llcf.logs.add(log);
        if (p.size == 0) {
            return;
        }
        if (script) {
            throw new ConfException("buffered logs cannot have variables in name");
        }
        LogFile file = log.file();
        if (file.isBuffered()) {
            if (file.bufferSize() != p.size || file.flushMs() != p.flush || file.gzip() != p.gzip) {
                throw new ConfException("access_log \"" + value.get(1)
                    + "\" already defined with conflicting parameters");
            }
            return;
        }
        file.buffer((int) p.size, p.flush, p.gzip);
    }

    /** The parameters after the format's name. */
    private static final class Params {
        long size;
        long flush;
        int gzip;
        ComplexValue filter;
    }

    private static Params params(ConfContext cf, List<String> value) throws ConfException {
        Params p = new Params();
        for (int i = 3; i < value.size(); i++) {
            String v = value.get(i);
            if (v.startsWith("buffer=")) {
                String s = v.substring(7);
                p.size = ConfValues.parseSize(s);
                if (p.size <= 0 || p.size > Integer.MAX_VALUE - 8) {
                    throw new ConfException("invalid buffer size \"" + s + "\"");
                }
            } else if (v.startsWith("flush=")) {
                String s = v.substring(6);
                p.flush = ConfValues.parseTime(s, false);
                if (p.flush <= 0) {
                    throw new ConfException("invalid flush time \"" + s + "\"");
                }
            } else if (v.startsWith("gzip") && (v.length() == 4 || v.charAt(4) == '=')) {
                gzip(p, v);
            } else if (v.startsWith("if=")) {
                p.filter = Variables.of(cf).compile(cf, v.substring(3));
            } else {
                throw new ConfException("invalid parameter \"" + v + "\"");
            }
        }
        return p;
    }

    private static void gzip(Params p, String v) throws ConfException {
        if (p.size == 0) {
            p.size = GZIP_BUFFER;
        }
        if (v.length() == 4) {
            p.gzip = GZIP_DEFAULT_LEVEL;
            return;
        }
        String s = v.substring(5);
        int level = ConfValues.parseNumber(s);
        if (level < 1 || level > 9) {
            throw new ConfException("invalid compression level \"" + s + "\"");
        }
        p.gzip = level;
    }

    /**
     * nginx's {@code ngx_conf_full_name(cycle, name, 0)}: a path not starting with {@code /} is put under the
     * prefix, variables and all.
     */
    private static String fullName(ConfContext cf, String name) {
        if (name.startsWith("/")) {
            return name;
        }
        Path prefix = cf.cycle().prefix();
        String p = prefix.toString();
        return p.endsWith("/") ? p + name : p + "/" + name;
    }
}
