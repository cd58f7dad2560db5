package jinx.proxy.internal;

import java.util.List;
import java.util.Set;

import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;
import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.Upstream;

/**
 * The {@code http_upstream} module: nginx's {@code ngx_http_upstream_module} with the balancer and keep-alive
 * modules that configure an upstream ({@code ngx_http_upstream_least_conn_module},
 * {@code ngx_http_upstream_keepalive_module}). It owns {@code upstream {}} and resolves the groups that
 * {@code proxy_pass} names once {@code http {}} is read: an upstream block of that name, or else the host's
 * addresses (an implicit upstream), or nginx's {@code host not found in upstream "x" in file:line}.
 */
public final class UpstreamModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_upstream";

    private static final Set<Ctx> MAIN = Set.of(HttpCtx.MAIN);
    private static final Set<Ctx> UPS = Set.of(HttpCtx.UPS);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("upstream", MAIN, Arity.BLOCK | Arity.TAKE1, UpstreamMainConf.class, UpstreamModule::block)
            .multi().syntax("name { ... }")
            .describe("Defines a group of servers that proxy_pass can name."),
        Directive.of("server", UPS, Arity.ONE_MORE, Upstream.class, (cf, u) -> u.server(
                cf.args().subList(1, cf.args().size()))).multi()
            .syntax("address [weight=number] [max_conns=number] [max_fails=number] [fail_timeout=time] [backup] "
                + "[down]")
            .describe("Defines the address and other parameters of a server of the group."),
        Directive.of("least_conn", UPS, Arity.NOARGS, Upstream.class, UpstreamModule::leastConn)
            .syntax("").describe("Passes a request to the server with the least number of active connections, "
                + "weights considered."),
        Directive.of("hash", UPS, Arity.TAKE12, Upstream.class, UpstreamModule::hash)
            .syntax("key [consistent]")
            .describe("Chooses the server by a hashed key (with consistent: ketama, as nginx's, so keys map to the "
                + "same servers)."),
        Directive.of("ip_hash", UPS, Arity.NOARGS, Upstream.class, UpstreamModule::ipHash)
            .syntax("").describe("Chooses the server by the client's IPv4 network (first three octets) or IPv6 "
                + "address."),
        Directive.of("random", UPS, Arity.NOARGS | Arity.TAKE123, Upstream.class, UpstreamModule::random)
            .syntax("[two [least_conn | peak_ewma [decay=time]]]")
            .describe("Chooses a server at random by weight; with two, the less loaded of two: fewer connections "
                + "per weight (least_conn), or lower latency times connections (peak_ewma, decay 10s)."),
        Directive.of("zone", UPS, Arity.TAKE12, Upstream.class,
                (cf, u) -> PeerZone.directive(cf, u, PeerZone.HTTP_TAG, mainConf(cf).zones))
            .syntax("name [size]")
            .describe("Keeps the group's peer state (connections, failures, health, figures) in a shared memory "
                + "zone that every worker uses; kept across a reload when the servers are unchanged."),
        Directive.of("match", MAIN, Arity.BLOCK | Arity.TAKE1, UpstreamMainConf.class, HttpHealthChecks::match)
            .multi().syntax("name { ... }")
            .describe("Defines what a health_check's answer must be: status codes, header fields, body."),
        Directive.of("keepalive", UPS, Arity.TAKE1, Upstream.class, UpstreamModule::keepalive)
            .syntax("connections")
            .describe("Keeps up to this many idle connections to the group's servers in each worker's cache."),
        Directive.of("keepalive_requests", UPS, Arity.TAKE1, Upstream.class,
                Slots.number((Upstream u, int v) -> u.keepaliveRequests = v))
            .syntax("number").defaults("1000")
            .describe("Sets the maximum number of requests served through one keepalive connection."),
        Directive.of("keepalive_time", UPS, Arity.TAKE1, Upstream.class,
                Slots.msec((Upstream u, long v) -> u.keepaliveTime = v))
            .syntax("time").defaults("1h")
            .describe("Limits the time during which requests can be processed through one keepalive connection."),
        Directive.of("keepalive_timeout", UPS, Arity.TAKE1, Upstream.class,
                Slots.msec((Upstream u, long v) -> u.keepaliveTimeout = v))
            .syntax("timeout").defaults("60s")
            .describe("Sets how long an idle keepalive connection to an upstream server stays open."));

    /** Instantiated by the kernel, once per configuration. */
    public UpstreamModule() {
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
        return ApiVersion.CURRENT;
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    /** This cycle's main conf, for the lifecycle calls (one module object per configuration). */
    private UpstreamMainConf mainConfOf;

    @Override
    public Object createMainConf() {
        mainConfOf = new UpstreamMainConf();
        return mainConfOf;
    }

    /**
     * nginx's {@code ngx_http_upstream_init_main_conf()}: every {@code proxy_pass} reference gets its group, and
     * every implicit group its addresses.
     */
    @Override
    public void initMainConf(Object conf) throws ConfException {
        UpstreamMainConf umcf = (UpstreamMainConf) conf;
        java.util.Map<String, Upstream> implicit = new java.util.HashMap<>();
        for (UpstreamMainConf.Reference ref : umcf.references) {
            Upstream block = ref.hasPort ? null : umcf.blocks.get(ref.host);
            if (block != null) {
                ref.resolved = block;
                continue;
            }
            String key = ref.host + ":" + ref.port;
            Upstream u = implicit.get(key);
            if (u == null) {
                u = new Upstream(ref.hasPort ? key : ref.host, true, ref.file, ref.line);
                try {
                    for (java.net.SocketAddress sa : Upstream.resolve(hostPort(ref), "upstream \"" + ref.host
                        + "\"")) {
                        u.peer(sa, ref.host);
                    }
                } catch (ConfException e) {
                    throw ConfException.at(e.getMessage(), ref.file, ref.line);
                }
                implicit.put(key, u);
            }
            ref.resolved = u;
        }
        HttpHealthChecks.resolve(umcf);
    }

    /** The master's part: the zones' records (a kept zone keeps the state of unchanged upstreams). */
    @Override
    public void initModule(Cycle cycle) throws Exception {
        UpstreamMainConf umcf = cycleConf(cycle);
        if (umcf != null) {
            HttpHealthChecks.initZones(umcf);
        }
    }

    /** A worker's part: its peers bound to the zones, its health checks started. */
    @Override
    public void initProcess(Cycle cycle) {
        UpstreamMainConf umcf = cycleConf(cycle);
        if (umcf != null) {
            HttpHealthChecks.start(umcf, cycle);
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        UpstreamMainConf umcf = cycleConf(cycle);
        if (umcf != null) {
            HttpHealthChecks.stop(umcf);
        }
    }

    /** The main conf of the cycle this module object was made for (one module object per configuration). */
    private UpstreamMainConf cycleConf(Cycle cycle) {
        return mainConfOf;
    }

    private static String hostPort(UpstreamMainConf.Reference ref) {
        if (ref.host.regionMatches(true, 0, "unix:", 0, 5)) {
            return ref.host;
        }
        String h = ref.host.indexOf(':') >= 0 && !ref.host.startsWith("[") ? "[" + ref.host + "]" : ref.host;
        return h + ":" + ref.port;
    }

    /**
     * Returns the upstream module's main conf from a directive of another module of {@code http {}}.
     *
     * @param cf the directive being handled
     * @return the conf
     * @throws ConfException when the module is not loaded
     */
    static UpstreamMainConf mainConf(ConfContext cf) throws ConfException {
        LoadedModule lm = cf.cycle().module(NAME);
        Object c = lm == null ? null : cf.scope().conf(lm.module(), UpstreamMainConf.class);
        if (!(c instanceof UpstreamMainConf umcf)) {
            throw new ConfException("\"" + cf.name() + "\" needs the " + NAME + " module");
        }
        return umcf;
    }

    private static void block(ConfContext cf, UpstreamMainConf umcf) throws ConfException {
        String name = cf.arg(1);
        if (umcf.blocks.containsKey(name)) {
            throw new ConfException("duplicate upstream \"" + name + "\"");
        }
        Upstream u = new Upstream(name, false, cf.file(), cf.line());
        umcf.blocks.put(name, u);
        cf.parseBlock(new UpstreamScope(u, umcf));
        if (!u.hasServers()) {
            throw new ConfException("no servers are inside upstream");
        }
    }

    private static void leastConn(ConfContext cf, Upstream u) {
        method(cf, u, Upstream.Method.LEAST_CONN);
    }

    private static void hash(ConfContext cf, Upstream u) throws ConfException {
        boolean consistent = false;
        if (cf.args().size() == 3) {
            if (!cf.arg(2).equals("consistent")) {
                throw new ConfException("invalid parameter \"" + cf.arg(2) + "\"");
            }
            consistent = true;
        }
        method(cf, u, consistent ? Upstream.Method.HASH_CONSISTENT : Upstream.Method.HASH);
        u.hashKey = HttpDirectives.compile(cf, cf.arg(1));
    }

    private static void random(ConfContext cf, Upstream u) throws ConfException {
        method(cf, u, u.randomMethod(cf.args()));
    }

    private static void ipHash(ConfContext cf, Upstream u) {
        method(cf, u, Upstream.Method.IP_HASH);
    }

    private static void method(ConfContext cf, Upstream u, Upstream.Method m) {
        if (u.method != Upstream.Method.ROUND_ROBIN) {
            cf.log(LogLevel.WARN, "load balancing method redefined");
        }
        u.method = m;
    }

    private static void keepalive(ConfContext cf, Upstream u) throws ConfException {
        int n;
        try {
            n = Integer.parseInt(cf.arg(1));
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n <= 0) {
            throw new ConfException("invalid value \"" + cf.arg(1) + "\" in \"" + cf.name() + "\" directive");
        }
        u.keepalive = n;
    }
}
