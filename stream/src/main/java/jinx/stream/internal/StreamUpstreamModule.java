package jinx.stream.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.proxy.upstream.HealthCheck;
import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.Upstream;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_upstream_module} with the balancers' directives
 * ({@code ngx_stream_upstream_hash_module}, {@code ngx_stream_upstream_least_conn_module},
 * {@code ngx_stream_upstream_random_module}): {@code upstream name { server address [weight= max_fails=
 * fail_timeout= max_conns= backup down]; hash key [consistent]; least_conn; random [two [least_conn]]; }}. The
 * groups and balancers are {@code jinx.proxy.upstream}'s, the same as HTTP's; the {@code $upstream_*} variables.
 */
public final class StreamUpstreamModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_upstream";

    /** The groups of one block. */
    static final class MainConf {
        final Map<String, Upstream> blocks = new LinkedHashMap<>();
        /** The upstream zones by name. */
        final Map<String, PeerZone> zones = new LinkedHashMap<>();
        /** {@code match} blocks by name. */
        final Map<String, StreamHealthChecks.Match> matches = new LinkedHashMap<>();
        /** {@code health_check}s as read, and as resolved. */
        final List<StreamHealthChecks.Pending> pendingChecks = new ArrayList<>();
        final List<HealthCheck> checks = new ArrayList<>();
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("upstream", Set.of(MAIN), Arity.BLOCK | Arity.TAKE1, MainConf.class,
            StreamUpstreamModule::block).multi().syntax("name { ... }")
            .describe("Defines a group of servers."),
        Directive.of("server", Set.of(UPS), Arity.ONE_MORE, Upstream.class, StreamUpstreamModule::server)
            .multi().syntax("address [parameters]").describe("Defines the address and other parameters of a server."),
        Directive.of("hash", Set.of(UPS), Arity.TAKE12, Upstream.class, StreamUpstreamModule::hash)
            .syntax("key [consistent]").describe("Chooses the server by a hashed key."),
        Directive.of("least_conn", Set.of(UPS), Arity.NOARGS, Upstream.class,
            (cf, u) -> method(cf, u, Upstream.Method.LEAST_CONN)).syntax("")
            .describe("Passes a connection to the server with the least number of active connections."),
        Directive.of("random", Set.of(UPS), Arity.NOARGS | Arity.TAKE123, Upstream.class,
                (cf, u) -> method(cf, u, u.randomMethod(cf.args())))
            .syntax("[two [least_conn | peak_ewma [decay=time]]]")
            .describe("Passes a connection to a randomly selected server; with two, the less loaded of two "
                + "(peak_ewma: lower connect time times connections)."),
        Directive.of("zone", Set.of(UPS), Arity.TAKE12, Upstream.class,
                (cf, u) -> PeerZone.directive(cf, u, PeerZone.STREAM_TAG, mainConf(cf).zones))
            .syntax("name [size]")
            .describe("Keeps the group's peer state in a shared memory zone that every worker uses."),
        Directive.of("match", Set.of(MAIN), Arity.BLOCK | Arity.TAKE1, MainConf.class, StreamHealthChecks::match)
            .multi().syntax("name { ... }")
            .describe("Defines what a health check sends (send) and expects back (expect string or ~ regex)."));

    /** This configuration's groups, one set per stream block. */
    private final List<MainConf> confs = new ArrayList<>();

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamUpstreamModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        MainConf c = new MainConf();
        confs.add(c);
        return c;
    }

    /** The block is merged: every health check finds its upstream. */
    @Override
    public void postconfiguration(StreamConfig cf) throws ConfException {
        for (MainConf c : confs) {
            StreamHealthChecks.resolve(c);
        }
    }

    /** The master's part: the zones' records. */
    @Override
    public void initModule(Cycle cycle) throws Exception {
        for (MainConf c : confs) {
            StreamHealthChecks.initZones(c);
        }
    }

    /** A worker's part: its peers bound to the zones, its health checks started. */
    @Override
    public void initProcess(Cycle cycle) {
        for (MainConf c : confs) {
            StreamHealthChecks.start(c, cycle);
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        for (MainConf c : confs) {
            StreamHealthChecks.stop(c);
        }
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        StreamVariables.addUpstream(cf);
    }

    /** The groups of the block a directive stands in. */
    static MainConf mainConf(ConfContext cf) {
        BlockScope scope = (BlockScope) cf.scope();
        return (MainConf) scope.block.mainConfs[cf.cycle().module(NAME).typeIndex()];
    }

    private static void block(ConfContext cf, MainConf conf) throws ConfException {
        String name = cf.arg(1);
        if (conf.blocks.containsKey(name)) {
            throw new ConfException("duplicate upstream \"" + name + "\"");
        }
        Upstream u = new Upstream(name, false, cf.file(), cf.line());
        conf.blocks.put(name, u);
        BlockScope outer = (BlockScope) cf.scope();
        cf.parseBlock(new BlockScope(UPS, outer.block, outer.srvConfs, u));
        if (!u.hasServers()) {
            throw new ConfException("no servers are inside upstream");
        }
    }

    /** nginx's {@code ngx_stream_upstream_server()}: a stream server needs a port. */
    private static void server(ConfContext cf, Upstream u) throws ConfException {
        List<String> args = cf.args().subList(1, cf.args().size());
        checkPort(args.get(0));
        u.server(args);
    }

    /** nginx's {@code ngx_parse_url()} for a stream peer: {@code no port in upstream "x"}. */
    static void checkPort(String address) throws ConfException {
        if (address.startsWith("unix:")) {
            return;
        }
        int colon = address.lastIndexOf(':');
        int bracket = address.lastIndexOf(']');
        boolean v6 = address.startsWith("[");
        if (colon < 0 || v6 && colon < bracket || !v6 && address.indexOf(':') != colon) {
            throw new ConfException("no port in upstream \"" + address + "\"");
        }
    }

    private static void hash(ConfContext cf, Upstream u) throws ConfException {
        boolean consistent = cf.args().size() == 3;
        if (consistent && !cf.arg(2).equals("consistent")) {
            throw new ConfException("invalid parameter \"" + cf.arg(2) + "\"");
        }
        method(cf, u, consistent ? Upstream.Method.HASH_CONSISTENT : Upstream.Method.HASH);
        u.hashKey = StreamValue.compile(StreamConfig.of(cf), cf.arg(1));
    }

    private static void method(ConfContext cf, Upstream u, Upstream.Method m) {
        if (u.method != Upstream.Method.ROUND_ROBIN) {
            cf.log(LogLevel.WARN, "load balancing method redefined");
        }
        u.method = m;
    }
}
