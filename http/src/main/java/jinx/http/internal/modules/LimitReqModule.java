package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpEvents;
import jinx.http.internal.request.PhaseRunner;
import jinx.http.internal.request.RequestEvents;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Cycle;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;
import jinx.kernel.ZoneLock;
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
 * The {@code http_limit_req} module, nginx's {@code ngx_http_limit_req_module.c}: {@code limit_req_zone key
 * zone=name:size rate=N r/s|r/m} keeps a {@link LeakyBucket} per key in a shared zone, so every worker counts
 * against the same buckets; {@code limit_req zone=name [burst=N] [nodelay | delay=N]} in PREACCESS rejects a
 * request over the burst with {@code limit_req_status} (503) and delays one over {@code delay} by a timer on the
 * connection's write event, as nginx does; {@code limit_req_dry_run} only logs and sets {@code $limit_req_status}
 * (PASSED, DELAYED, REJECTED, DELAYED_DRY_RUN, REJECTED_DRY_RUN). Log lines are nginx's: {@code limiting requests,
 * excess: 0.500 by zone "one"} at {@code limit_req_log_level}, {@code delaying request, excess: ..., by zone ...}
 * one level lower.
 */
public final class LimitReqModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_limit_req";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final String[] STATUS = {"PASSED", "DELAYED", "REJECTED", "DELAYED_DRY_RUN", "REJECTED_DRY_RUN"};
    private static final int PASSED = 1;
    private static final int DELAYED = 2;
    private static final int REJECTED = 3;
    private static final int DELAYED_DRY_RUN = 4;
    private static final int REJECTED_DRY_RUN = 5;
    /** nginx's {@code NGX_MAX_INT_T_VALUE / 1000}, what {@code nodelay} sets {@code delay} to. */
    private static final long NODELAY = Long.MAX_VALUE / 1000;
    private static final LoopLocal<LeakyBucket.Scratch> SCRATCH = new LoopLocal<>(LeakyBucket.Scratch::new);

    /** One {@code limit_req}: nginx's {@code ngx_http_limit_req_limit_t}. */
    static final class Limit {
        final String name;
        final long burst;
        final long delay;
        final Map<String, LimitZone> zones;
        LimitZone zone;

        Limit(String name, long burst, long delay, Map<String, LimitZone> zones) {
            this.name = name;
            this.burst = burst;
            this.delay = delay;
            this.zones = zones;
        }

        LimitZone zone() {
            LimitZone z = zone;
            if (z == null) {
                z = zones.get(name);
                zone = z;
            }
            return z;
        }
    }

    /** The location conf: nginx's {@code ngx_http_limit_req_conf_t}. */
    static final class ReqConf extends LimitZone.Conf<Limit> {
    }

    private final List<Directive<?>> directives;
    private final LimitZones zones = new LimitZones(NAME, " in limit_req zone \"", false);
    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public LimitReqModule() {
        directives = List.of(
            Directive.of("limit_req_zone", Set.of(HttpCtx.MAIN), Arity.TAKE3, this::zone).multi()
                .syntax("key zone=name:size rate=rate").describe("Sets parameters for a shared memory zone "
                    + "that will keep states for various keys."),
            Directive.of("limit_req", MSL, Arity.TAKE123, ReqConf.class, this::limit).multi()
                .syntax("zone=name [burst=number] [nodelay | delay=number]").describe("Sets the shared memory zone "
                    + "and the maximum burst size of requests."),
            Directive.of("limit_req_log_level", MSL, Arity.TAKE1, ReqConf.class, Slots.oneOf(LimitConnModule.LEVELS,
                (ReqConf c, Integer v) -> c.logLevel = v)).syntax("info | notice | warn | error").defaults("error")
                .describe("Sets the desired logging level for cases when the server refuses to process requests due "
                    + "to rate exceeding, or delays request processing."),
            Directive.of("limit_req_status", MSL, Arity.TAKE1, ReqConf.class, (ConfContext cf, ReqConf c) ->
                c.status = LimitConnModule.status(cf, c.status)).syntax("code").defaults("503")
                .describe("Sets the status code to return in response to rejected requests."),
            Directive.of("limit_req_dry_run", MSL, Arity.FLAG, ReqConf.class,
                Slots.flag((ReqConf c, boolean on) -> c.dryRun = on ? 1 : 0)).syntax("on | off").defaults("off")
                .describe("Enables the dry run mode: requests processing rate is not limited, but the number of "
                    + "excessive requests is accounted."));
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
        return new ReqConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        ((ReqConf) child).merge((ReqConf) parent);
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        zones.preconfiguration(cf, "limit_req_status",
            (r, n) -> r instanceof CoreRequest cr && cr.limitReqStatus != 0 ? STATUS[cr.limitReqStatus - 1] : null);
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

    /** {@code limit_req_zone}: nginx's {@code ngx_http_limit_req_zone()}. */
    private void zone(ConfContext cf, Void unused) throws ConfException {
        var key = HttpDirectives.compile(cf, cf.arg(1));
        LimitZone.Arg zone = null;
        long rate = 1;
        long scale = 1;
        for (String v : cf.args().subList(2, cf.args().size())) {
            if (v.startsWith("zone=")) {
                zone = LimitZone.parse(v);
            } else if (v.startsWith("rate=")) {
                String n = v.substring(5);
                if (n.endsWith("r/s")) {
                    n = n.substring(0, n.length() - 3);
                } else if (n.endsWith("r/m")) {
                    scale = 60;
                    n = n.substring(0, n.length() - 3);
                }
                rate = ConfValues.parseNumber(n);
                if (rate <= 0) {
                    throw new ConfException("invalid rate \"" + v + "\"");
                }
            } else {
                throw new ConfException("invalid parameter \"" + v + "\"");
            }
        }
        if (zone == null) {
            throw new ConfException("\"" + cf.name() + "\" must have \"zone\" parameter");
        }
        zones.add(cf, zone, key, rate * 1000 / scale, LeakyBucket.PAYLOAD);
    }

    /** {@code limit_req}: nginx's {@code ngx_http_limit_req()}. */
    private void limit(ConfContext cf, ReqConf conf) throws ConfException {
        String name = null;
        long burst = 0;
        long delay = 0;
        for (String v : cf.args().subList(1, cf.args().size())) {
            if (v.startsWith("zone=")) {
                name = v.substring(5);
                cf.cycle().sharedZone(name, 0, NAME);
            } else if (v.startsWith("burst=")) {
                burst = ConfValues.parseNumber(v.substring(6));
                if (burst <= 0) {
                    throw new ConfException("invalid burst value \"" + v + "\"");
                }
            } else if (v.startsWith("delay=")) {
                delay = ConfValues.parseNumber(v.substring(6));
                if (delay <= 0) {
                    throw new ConfException("invalid delay value \"" + v + "\"");
                }
            } else if (v.equals("nodelay")) {
                delay = NODELAY;
            } else {
                throw new ConfException("invalid parameter \"" + v + "\"");
            }
        }
        if (name == null) {
            throw new ConfException("\"" + cf.name() + "\" must have \"zone\" parameter");
        }
        if (conf.limits == null) {
            conf.limits = new ArrayList<>(1);
        }
        for (Limit l : conf.limits) {
            if (l.name.equals(name)) {
                throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
            }
        }
        conf.limits.add(new Limit(name, burst * 1000, delay * 1000, zones.byName()));
    }

    /**
     * The PREACCESS handler: nginx's {@code ngx_http_limit_req_handler()}.
     *
     * @param r the request
     * @return {@link Rc#DECLINED}, {@link Rc#AGAIN} while delayed, or the rejection's status
     */
    int handler(HttpRequest r) {
        if (!(r instanceof CoreRequest cr) || cr.limitReqStatus != 0) {
            return Rc.DECLINED;
        }
        ReqConf conf = (ReqConf) r.locConf(ctxIndex);
        List<Limit> limits = conf.limits;
        if (limits == null || limits.isEmpty()) {
            return Rc.DECLINED;
        }
        LeakyBucket.Scratch s = SCRATCH.get();
        s.clear(limits.size());
        int rc = LeakyBucket.DECLINED;
        int n;
        Limit limit = null;
        long now = System.nanoTime() / 1_000_000;
        for (n = 0; n < limits.size(); n++) {
            limit = limits.get(n);
            LimitZone z = limit.zone();
            String key = z.key.evaluate(r);
            if (key == null || key.isEmpty()) {
                continue;
            }
            if (key.length() > 65535) {
                CoreOutput.log(r, LogLevel.ERROR, 0, "the value of the \"" + z.key.source()
                    + "\" key is more than 65535 bytes: \"" + key + "\"");
                continue;
            }
            int hash = ShmTable.crc32(key);
            ZoneLock lock = z.table.zone().lock();
            lock.lock();
            try {
                rc = LeakyBucket.lookup(z, limit.burst, hash, key, s, n, n == limits.size() - 1, now,
                    r.loop().log());
            } finally {
                lock.unlock();
            }
            if (rc != LeakyBucket.AGAIN) {
                break;
            }
        }
        if (rc == LeakyBucket.DECLINED) {
            return Rc.DECLINED;
        }
        boolean dryRun = conf.dryRun == 1;
        if (rc == LeakyBucket.BUSY || rc == LeakyBucket.ERROR) {
            if (rc == LeakyBucket.BUSY) {
                CoreOutput.log(r, LogLevel.values()[conf.logLevel], 0, "limiting requests"
                    + (dryRun ? ", dry run" : "") + ", excess: " + thousandths(s.excess) + " by zone \""
                    + limit.name + "\"");
            }
            unlock(limits, n, s);
            cr.limitReqStatus = dryRun ? REJECTED_DRY_RUN : REJECTED;
            return dryRun ? Rc.DECLINED : conf.status;
        }
        long excess = rc == LeakyBucket.AGAIN ? 0 : s.excess;
        // nginx's ngx_http_limit_req_account(): the delay of the limit that asks for the longest
        long maxDelay = LeakyBucket.delay(excess, limit.delay, limit.zone().rate);
        for (int i = n - 1; i >= 0; i--) {
            long node = s.nodes[i];
            if (node == 0) {
                continue;
            }
            Limit l = limits.get(i);
            ZoneLock lock = l.zone().table.zone().lock();
            lock.lock();
            long e;
            try {
                e = LeakyBucket.account(l.zone(), node, System.nanoTime() / 1_000_000);
            } finally {
                lock.unlock();
            }
            s.nodes[i] = 0;
            long d = LeakyBucket.delay(e, l.delay, l.zone().rate);
            if (d > maxDelay) {
                maxDelay = d;
                excess = e;
                limit = l;
            }
        }
        if (maxDelay == 0) {
            cr.limitReqStatus = PASSED;
            return Rc.DECLINED;
        }
        LogLevel level = LogLevel.values()[conf.logLevel];
        CoreOutput.log(r, level == LogLevel.INFO ? level : LogLevel.values()[level.ordinal() + 1], 0,
            "delaying request" + (dryRun ? ", dry run" : "") + ", excess: " + thousandths(excess) + ", by zone \""
            + limit.name + "\"");
        if (dryRun) {
            cr.limitReqStatus = DELAYED_DRY_RUN;
            return Rc.DECLINED;
        }
        cr.limitReqStatus = DELAYED;
        return delay(cr, maxDelay);
    }

    /** Parks the request for {@code ms}: its write event's timer, the read side watched for a client gone. */
    private static int delay(CoreRequest r, long ms) {
        Connection c = r.connection();
        if (c.read.ready) {
            r.loop().post(c.read);
        } else if (HttpEvents.handleRead(c.read, 0) != Rc.OK) {
            return 500;
        }
        r.readEventHandler = RequestEvents::testReading;
        r.writeEventHandler = LimitReqModule::delayed;
        c.write.delayed = true;
        r.loop().addTimer(c.write, ms);
        return Rc.AGAIN;
    }

    /** nginx's {@code ngx_http_limit_req_delay()}: once the timer fired, the phases go on. */
    private static void delayed(CoreRequest r) {
        Event wev = r.connection().write;
        if (wev.delayed) {
            if (HttpEvents.handleWrite(wev) != Rc.OK) {
                r.finalizeRequest(500);
            }
            return;
        }
        if (HttpEvents.handleRead(r.connection().read, 0) != Rc.OK) {
            r.finalizeRequest(500);
            return;
        }
        r.readEventHandler = RequestEvents::blockReading;
        r.writeEventHandler = PhaseRunner::runPhases;
        PhaseRunner.runPhases(r);
    }

    /** nginx's {@code ngx_http_limit_req_unlock()}: the lookups before the limit that refused are given back. */
    private static void unlock(List<Limit> limits, int n, LeakyBucket.Scratch s) {
        for (int i = n - 1; i >= 0; i--) {
            long node = s.nodes[i];
            if (node == 0) {
                continue;
            }
            LimitZone z = limits.get(i).zone();
            z.table.zone().lock().lock();
            try {
                LeakyBucket.release(z, node);
            } finally {
                z.table.zone().lock().unlock();
            }
            s.nodes[i] = 0;
        }
    }

    /** nginx's {@code "%ui.%03ui", excess / 1000, excess % 1000}. */
    static String thousandths(long excess) {
        long frac = excess % 1000;
        return excess / 1000 + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
    }
}
