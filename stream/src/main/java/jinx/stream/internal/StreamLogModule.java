package jinx.stream.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.Rc;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_log_module}: {@code log_format name [escape=default|json|none] string ...} and
 * {@code access_log path format [buffer=size] [flush=time] [if=condition] | off}, one line per session written in
 * the log phase. The file is opened with {@code O_APPEND} as the configuration is read (so {@code -t} reports an
 * {@code open()} that fails) and reopened on {@code USR1}. Lines are written at once: {@code buffer=} and
 * {@code flush=} are checked as nginx checks them and otherwise not applied (a departure: no line waits in memory);
 * {@code gzip} and {@code syslog:} are refused.
 */
public final class StreamLogModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_log";

    /** The formats and the files of one block. */
    static final class MainConf {
        final Map<String, LogFormat> formats = new LinkedHashMap<>();
        final Map<java.nio.file.Path, AccessLogFile> files = new LinkedHashMap<>();
    }

    /** A server's logs. */
    static final class SrvConf {
        List<Log> logs;
        boolean off;
    }

    record Log(AccessLogFile file, LogFormat format, StreamValue filter) {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("log_format", Set.of(MAIN), Arity.TWO_MORE, MainConf.class, StreamLogModule::logFormat)
            .multi().syntax("name [escape=default|json|none] string ...")
            .describe("Specifies the log format."),
        Directive.of("access_log", Set.of(MAIN, SRV), Arity.ONE_MORE, SrvConf.class, StreamLogModule::accessLog)
            .multi().syntax("path format [buffer=size] [flush=time] [if=condition]", "off").defaults("off")
            .describe("Sets the path, format, and configuration for a buffered log write."));

    private int index;
    private MainConf main;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamLogModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        main = new MainConf();
        return main;
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) {
        SrvConf c = (SrvConf) child;
        SrvConf p = (SrvConf) parent;
        if (c.logs != null || c.off) {
            return;
        }
        c.logs = p.logs;
        c.off = p.off;
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.LOG, this::handler);
    }

    @Override
    public void reopenFiles(Cycle cycle) {
        if (main != null) {
            for (AccessLogFile f : main.files.values()) {
                f.reopen(cycle);
            }
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        exitMaster(cycle);
    }

    @Override
    public void exitMaster(Cycle cycle) {
        if (main != null) {
            for (AccessLogFile f : main.files.values()) {
                f.close();
            }
        }
    }

    private static void logFormat(ConfContext cf, MainConf conf) throws ConfException {
        String name = cf.arg(1);
        if (conf.formats.containsKey(name.toLowerCase(Locale.ROOT))) {
            throw new ConfException("duplicate \"log_format\" name \"" + name + "\"");
        }
        LogFormat f = LogFormat.compile(StreamConfig.of(cf), name, cf.args().subList(2, cf.args().size()));
        conf.formats.put(name.toLowerCase(Locale.ROOT), f);
    }

    private static void accessLog(ConfContext cf, SrvConf conf) throws ConfException {
        List<String> a = cf.args();
        if (a.get(1).equals("off")) {
            conf.off = true;
            if (a.size() == 2) {
                return;
            }
            throw new ConfException("invalid parameter \"" + a.get(2) + "\"");
        }
        if (a.get(1).startsWith("syslog:")) {
            throw new ConfException("invalid parameter \"" + a.get(1) + "\"");
        }
        if (a.size() < 3) {
            throw new ConfException("log format is not specified");
        }
        BlockScope scope = (BlockScope) cf.scope();
        MainConf mc = (MainConf) scope.block.mainConfs[cf.cycle().module(NAME).typeIndex()];
        LogFormat format = mc.formats.get(a.get(2).toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new ConfException("unknown log format \"" + a.get(2) + "\"");
        }
        long size = 0;
        long flush = 0;
        StreamValue filter = null;
        for (String v : a.subList(3, a.size())) {
            if (v.startsWith("buffer=")) {
                size = ConfValues.parseSize(v.substring(7));
                if (size <= 0) {
                    throw new ConfException("invalid buffer size \"" + v.substring(7) + "\"");
                }
            } else if (v.startsWith("flush=")) {
                flush = ConfValues.parseTime(v.substring(6), false);
                if (flush <= 0) {
                    throw new ConfException("invalid flush time \"" + v.substring(6) + "\"");
                }
            } else if (v.startsWith("if=")) {
                filter = StreamValue.compile(StreamConfig.of(cf), v.substring(3));
            } else {
                throw new ConfException("invalid parameter \"" + v + "\"");
            }
        }
        if (flush > 0 && size == 0) {
            throw new ConfException("no buffer is defined for access_log \"" + a.get(1) + "\"");
        }
        java.nio.file.Path path = cf.resolve(a.get(1));
        AccessLogFile file = mc.files.get(path);
        if (file == null) {
            file = AccessLogFile.open(cf.cycle(), path);
            mc.files.put(path, file);
        }
        if (conf.logs == null) {
            conf.logs = new ArrayList<>();
        }
        conf.logs.add(new Log(file, format, filter));
    }

    /** nginx's {@code ngx_stream_log_handler()}. */
    private int handler(StreamSession s) {
        SrvConf conf = (SrvConf) ((Session) s).srvConf(index);
        if (conf.off || conf.logs == null || s.connection().warmUp) {
            return Rc.OK;
        }
        for (Log l : conf.logs) {
            if (l.filter() != null) {
                String v = l.filter().evaluate(s);
                if (v.isEmpty() || v.equals("0")) {
                    continue;
                }
            }
            l.file().write(l.format().line(s));
        }
        return Rc.OK;
    }
}
