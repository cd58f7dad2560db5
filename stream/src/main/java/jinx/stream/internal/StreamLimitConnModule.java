package jinx.stream.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.SharedZone;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_limit_conn_module}: {@code limit_conn_zone key zone=name:size;} counts the sessions of
 * each key in a shared zone (every worker sees the same counts), {@code limit_conn zone number;} refuses a session
 * beyond the number in the preaccess phase ({@code limiting connections by zone "x"}, status 503), and the count
 * is given back when the session ends. {@code limit_conn_log_level}, {@code limit_conn_dry_run} and
 * {@code $limit_conn_status} as nginx's.
 */
public final class StreamLimitConnModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_limit_conn";

    /** The zones of one block. */
    static final class MainConf {
        final Map<String, ZoneConf> zones = new LinkedHashMap<>();
    }

    /** A {@code limit_conn_zone}. */
    static final class ZoneConf {
        SharedZone zone;
        StreamValue key;
    }

    /** A server's limits. */
    static final class SrvConf {
        List<Limit> limits;
        LogLevel logLevel;
        int dryRun = -1;
    }

    record Limit(String zoneName, ZoneConf zone, int conn) {
    }

    private static final Map<String, LogLevel> LEVELS = Map.of("info", LogLevel.INFO, "notice", LogLevel.NOTICE,
        "warn", LogLevel.WARN, "error", LogLevel.ERROR);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("limit_conn_zone", Set.of(MAIN), Arity.TAKE2, MainConf.class, StreamLimitConnModule::zone)
            .multi().syntax("key zone=name:size").describe("Sets parameters for a shared memory zone that will keep "
                + "states for various keys."),
        Directive.of("limit_conn", Set.of(MAIN, SRV), Arity.TAKE2, SrvConf.class, StreamLimitConnModule::limit)
            .multi().syntax("zone number").describe("Sets the shared memory zone and the maximum allowed number of "
                + "connections for a given key value."),
        Directive.of("limit_conn_log_level", Set.of(MAIN, SRV), Arity.TAKE1, SrvConf.class,
            Slots.oneOf(LEVELS, (c, v) -> c.logLevel = v)).syntax("info | notice | warn | error").defaults("error")
            .describe("Sets the desired logging level for cases when the server limits the number of connections."),
        Directive.of("limit_conn_dry_run", Set.of(MAIN, SRV), Arity.FLAG, SrvConf.class,
            Slots.flag((c, v) -> c.dryRun = v ? 1 : 0)).syntax("on | off").defaults("off")
            .describe("Enables the dry run mode."));

    private int index;
    private MainConf main;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamLimitConnModule() {
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
        if (c.limits == null) {
            c.limits = p.limits;
        }
        c.logLevel = c.logLevel != null ? c.logLevel : p.logLevel != null ? p.logLevel : LogLevel.ERROR;
        c.dryRun = c.dryRun != -1 ? c.dryRun : p.dryRun != -1 ? p.dryRun : 0;
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        cf.addVariable("limit_conn_status", s -> ((Session) s).limitConnStatus);
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.PREACCESS, this::handler);
    }

    /** The master lays out new zones; a kept zone keeps its counts. */
    @Override
    public void initModule(Cycle cycle) {
        if (main == null) {
            return;
        }
        for (ZoneConf z : main.zones.values()) {
            if (z.zone != null && z.zone.isMapped() && !z.zone.reused() && z.zone.slab().data() == 0) {
                ConnTable.init(z.zone);
            }
        }
    }

    private static void zone(ConfContext cf, MainConf conf) throws ConfException {
        String z = cf.arg(2);
        if (!z.startsWith("zone=")) {
            throw new ConfException("invalid parameter \"" + z + "\"");
        }
        int colon = z.lastIndexOf(':');
        if (colon < 0 || colon == 5) {
            throw new ConfException("invalid zone size \"" + z + "\"");
        }
        String name = z.substring(5, colon);
        long size = ConfValues.parseSize(z.substring(colon + 1));
        if (size < 0) {
            throw new ConfException("invalid zone size \"" + z + "\"");
        }
        if (size < 8 * 4096) {
            throw new ConfException("zone \"" + z + "\" is too small");
        }
        ZoneConf zc = conf.zones.computeIfAbsent(name, n -> new ZoneConf());
        if (zc.key != null) {
            throw new ConfException("duplicate zone \"" + name + "\"");
        }
        zc.key = StreamValue.compile(StreamConfig.of(cf), cf.arg(1));
        zc.zone = cf.cycle().sharedZone(name, size, NAME);
    }

    private static void limit(ConfContext cf, SrvConf conf) throws ConfException {
        String name = cf.arg(1);
        BlockScope scope = (BlockScope) cf.scope();
        MainConf mc = (MainConf) scope.block.mainConfs[cf.cycle().module(NAME).typeIndex()];
        ZoneConf zc = mc.zones.computeIfAbsent(name, n -> new ZoneConf());
        if (zc.zone == null) {
            zc.zone = cf.cycle().sharedZone(name, 0, NAME);
        }
        if (conf.limits == null) {
            conf.limits = new ArrayList<>();
        }
        for (Limit l : conf.limits) {
            if (l.zoneName().equals(name)) {
                throw new ConfException("\"limit_conn\" directive is duplicate");
            }
        }
        int n = ConfValues.parseNumber(cf.arg(2));
        if (n <= 0) {
            throw new ConfException("invalid number of connections \"" + cf.arg(2) + "\"");
        }
        if (n > 65535) {
            throw new ConfException("connection limit must be less 65536");
        }
        conf.limits.add(new Limit(name, zc, n));
    }

    /** nginx's {@code ngx_stream_limit_conn_handler()}. */
    private int handler(StreamSession s) {
        SrvConf conf = (SrvConf) ((Session) s).srvConf(index);
        if (conf.limits == null) {
            return Rc.DECLINED;
        }
        Session session = (Session) s;
        for (Limit l : conf.limits) {
            String key = l.zone().key.evaluate(s);
            if (key.isEmpty()) {
                continue;
            }
            if (key.length() > ConnTable.KEY_MAX) {
                s.log(LogLevel.ERROR, 0, "the value of the \"" + key + "\" key is more than 255 bytes: \"" + key
                    + "\"");
                continue;
            }
            session.limitConnStatus = "PASSED";
            int rc = conf.dryRun == 1 ? 1 : ConnTable.acquire(l.zone().zone, key, l.conn());
            if (rc == 1) {
                if (conf.dryRun != 1) {
                    SharedZone zone = l.zone().zone;
                    session.addCleanup(() -> ConnTable.release(zone, key));
                }
                continue;
            }
            session.limitConnStatus = "REJECTED";
            s.log(conf.logLevel, 0, "limiting connections by zone \"" + l.zoneName() + "\"");
            return StreamSession.STATUS_SERVICE_UNAVAILABLE;
        }
        return Rc.DECLINED;
    }
}
