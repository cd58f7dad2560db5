package jinx.http.internal.modules;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;
import jinx.kernel.SharedZone;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_limit_conn} module, nginx's {@code ngx_http_limit_conn_module.c}: {@code limit_conn_zone key
 * zone=name:size} counts, per key and across every worker (a shared zone's {@link ShmTable}), the requests being
 * processed; {@code limit_conn zone N} in PREACCESS refuses one more with {@code limit_conn_status} (503) and
 * {@code limiting connections by zone "x"} at {@code limit_conn_log_level}; the count goes down when the request is
 * freed. {@code limit_conn_dry_run} only logs; {@code $limit_conn_status} is PASSED, REJECTED or
 * REJECTED_DRY_RUN. A key that finds no room in its zone is refused as nginx refuses it, after the slab
 * allocator's {@code ngx_slab_alloc() failed: no memory in limit_conn_zone "x"}.
 */
public final class LimitConnModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_limit_conn";

    /** The levels of {@code limit_req_log_level} and {@code limit_conn_log_level}, as {@link LogLevel} ordinals. */
    static final Map<String, Integer> LEVELS = Map.of("info", LogLevel.INFO.ordinal(), "notice",
        LogLevel.NOTICE.ordinal(), "warn", LogLevel.WARN.ordinal(), "error", LogLevel.ERROR.ordinal());

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final String[] STATUS = {"PASSED", "REJECTED", "REJECTED_DRY_RUN"};
    private static final int PASSED = 1;
    private static final int REJECTED = 2;
    private static final int REJECTED_DRY_RUN = 3;
    private static final int CONN = ShmTable.PAYLOAD;
    private static final LoopLocal<ArrayDeque<Held>> SPARE = new LoopLocal<>(ArrayDeque::new);

    /** One {@code limit_conn}: nginx's {@code ngx_http_limit_conn_limit_t}. */
    record Limit(String name, int conn, Map<String, LimitZone> zones) {
    }

    /** The location conf: nginx's {@code ngx_http_limit_conn_conf_t}. */
    static final class ConnConf extends LimitZone.Conf<Limit> {
    }

    /** The counts a request holds, given back when it is freed: nginx's pool cleanups. */
    static final class Held implements Runnable {
        private final List<LimitZone> zones = new ArrayList<>(2);
        private long[] nodes = new long[2];

        void add(LimitZone z, long node) {
            if (zones.size() == nodes.length) {
                nodes = java.util.Arrays.copyOf(nodes, nodes.length * 2);
            }
            nodes[zones.size()] = node;
            zones.add(z);
        }

        /** nginx's {@code ngx_http_limit_conn_cleanup()} for each: the count down, the key gone at zero. */
        void releaseAll() {
            for (int i = 0; i < zones.size(); i++) {
                ShmTable t = zones.get(i).table;
                SharedZone m = t.zone();
                m.lock().lock();
                try {
                    long c = m.getLong(nodes[i] + CONN) - 1;
                    m.putLong(nodes[i] + CONN, c);
                    if (c == 0) {
                        t.remove(nodes[i]);
                    }
                } finally {
                    m.lock().unlock();
                }
            }
            zones.clear();
        }

        @Override
        public void run() {
            releaseAll();
            ArrayDeque<Held> spare = SPARE.get();
            if (spare.size() < 1024) {
                spare.addFirst(this);
            }
        }
    }

    private final List<Directive<?>> directives;
    private final LimitZones zones = new LimitZones(NAME, " in limit_conn_zone \"", true);
    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public LimitConnModule() {
        directives = List.of(
            Directive.of("limit_conn_zone", Set.of(HttpCtx.MAIN), Arity.TAKE2, this::zone).multi()
                .syntax("key zone=name:size").describe("Sets parameters for a shared memory zone that will keep "
                    + "states for various keys."),
            Directive.of("limit_conn", MSL, Arity.TAKE2, ConnConf.class, this::limit).multi()
                .syntax("zone number").describe("Sets the shared memory zone and the maximum allowed number of "
                    + "connections for a given key value."),
            Directive.of("limit_conn_log_level", MSL, Arity.TAKE1, ConnConf.class, Slots.oneOf(LEVELS,
                (ConnConf c, Integer v) -> c.logLevel = v)).syntax("info | notice | warn | error")
                .defaults("error").describe("Sets the desired logging level for cases when the server limits the "
                    + "number of connections."),
            Directive.of("limit_conn_status", MSL, Arity.TAKE1, ConnConf.class, (ConfContext cf, ConnConf c) ->
                c.status = status(cf, c.status)).syntax("code").defaults("503")
                .describe("Sets the status code to return in response to rejected requests."),
            Directive.of("limit_conn_dry_run", MSL, Arity.FLAG, ConnConf.class,
                Slots.flag((ConnConf c, boolean on) -> c.dryRun = on ? 1 : 0)).syntax("on | off").defaults("off")
                .describe("Enables the dry run mode: the number of connections is not limited, but the number of "
                    + "excessive connections is accounted."));
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
        return directives;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createLocConf() {
        return new ConnConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        ((ConnConf) child).merge((ConnConf) parent);
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        zones.preconfiguration(cf, "limit_conn_status",
            (r, n) -> r instanceof CoreRequest cr && cr.limitConnStatus != 0 ? STATUS[cr.limitConnStatus - 1] : null);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        zones.postconfiguration(cf, this::handler);
    }

    @Override
    public void initModule(Cycle cycle) {
        zones.init();
    }

    /** {@code limit_req_status} and {@code limit_conn_status}: nginx's number slot bounded to 400..599. */
    static int status(ConfContext cf, int old) throws ConfException {
        if (old != Conf.UNSET) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        int n = ConfValues.parseNumber(cf.arg(1));
        if (n == -1) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid number");
        }
        if (n < 400 || n > 599) {
            throw new ConfException("value must be between 400 and 599");
        }
        return n;
    }

    /** {@code limit_conn_zone}: nginx's {@code ngx_http_limit_conn_zone()}. */
    private void zone(ConfContext cf, Void unused) throws ConfException {
        var key = HttpDirectives.compile(cf, cf.arg(1));
        String v = cf.arg(2);
        if (!v.startsWith("zone=")) {
            throw new ConfException("invalid parameter \"" + v + "\"");
        }
        LimitZone.Arg zone = LimitZone.parse(v);
        zones.add(cf, zone, key, 0, 8);
    }

    /** {@code limit_conn}: nginx's {@code ngx_http_limit_conn()}. */
    private void limit(ConfContext cf, ConnConf conf) throws ConfException {
        String name = cf.arg(1);
        cf.cycle().sharedZone(name, 0, NAME);
        if (conf.limits == null) {
            conf.limits = new ArrayList<>(1);
        }
        for (Limit l : conf.limits) {
            if (l.name().equals(name)) {
                throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
            }
        }
        int n = ConfValues.parseNumber(cf.arg(2));
        if (n <= 0) {
            throw new ConfException("invalid number of connections \"" + cf.arg(2) + "\"");
        }
        if (n > 65535) {
            throw new ConfException("connection limit must be less 65536");
        }
        conf.limits.add(new Limit(name, n, zones.byName()));
    }

    /**
     * The PREACCESS handler: nginx's {@code ngx_http_limit_conn_handler()}.
     *
     * @param r the request
     * @return {@link Rc#DECLINED}, or the rejection's status
     */
    int handler(HttpRequest r) {
        if (!(r instanceof CoreRequest cr) || cr.limitConnStatus != 0) {
            return Rc.DECLINED;
        }
        ConnConf conf = (ConnConf) r.locConf(ctxIndex);
        List<Limit> limits = conf.limits;
        if (limits == null) {
            return Rc.DECLINED;
        }
        Held held = null;
        for (int i = 0, size = limits.size(); i < size; i++) {
            Limit limit = limits.get(i);
            LimitZone z = limit.zones().get(limit.name());
            String key = z.key.evaluate(r);
            if (key == null || key.isEmpty()) {
                continue;
            }
            if (key.length() > 255) {
                CoreOutput.log(r, LogLevel.ERROR, 0, "the value of the \"" + z.key.source()
                    + "\" key is more than 255 bytes: \"" + key + "\"");
                continue;
            }
            cr.limitConnStatus = PASSED;
            long node = take(z, limit.conn(), ShmTable.crc32(key), key);
            if (node <= 0) {
                if (node < 0) {
                    CoreOutput.log(r, LogLevel.values()[conf.logLevel], 0, "limiting connections"
                        + (conf.dryRun == 1 ? ", dry run," : "") + " by zone \"" + limit.name() + "\"");
                }
                if (held != null) {
                    held.releaseAll();
                }
                cr.limitConnStatus = conf.dryRun == 1 ? REJECTED_DRY_RUN : REJECTED;
                return conf.dryRun == 1 ? Rc.DECLINED : conf.status;
            }
            if (held == null) {
                held = SPARE.get().pollFirst();
                if (held == null) {
                    held = new Held();
                }
                r.addCleanup(held);
            }
            held.add(z, node);
        }
        return Rc.DECLINED;
    }

    /** One more for the key: its node, 0 when the zone has no room, -1 when the key is at its limit. */
    private static long take(LimitZone z, int max, int hash, String key) {
        ShmTable t = z.table;
        SharedZone m = t.zone();
        m.lock().lock();
        try {
            long node = t.find(hash, key);
            if (node == 0) {
                node = t.insert(hash, key);
                if (node != 0) {
                    m.putLong(node + CONN, 1);
                }
                return node;
            }
            long c = m.getLong(node + CONN);
            if (c >= max) {
                return -1;
            }
            m.putLong(node + CONN, c + 1);
            return node;
        } finally {
            m.lock().unlock();
        }
    }
}
