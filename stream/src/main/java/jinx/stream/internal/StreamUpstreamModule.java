package jinx.stream.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
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
        Directive.of("random", Set.of(UPS), Arity.NOARGS | Arity.TAKE12, Upstream.class, StreamUpstreamModule::random)
            .syntax("[two [method]]").describe("Passes a connection to a randomly selected server."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamUpstreamModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        return new MainConf();
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

    private static void random(ConfContext cf, Upstream u) throws ConfException {
        List<String> a = cf.args();
        for (int i = 1; i < a.size(); i++) {
            if (!a.get(i).equals(i == 1 ? "two" : "least_conn")) {
                throw new ConfException("invalid parameter \"" + a.get(i) + "\"");
            }
        }
        method(cf, u, a.size() > 1 ? Upstream.Method.RANDOM_TWO : Upstream.Method.RANDOM);
    }

    private static void method(ConfContext cf, Upstream u, Upstream.Method m) {
        if (u.method != Upstream.Method.ROUND_ROBIN) {
            cf.log(LogLevel.WARN, "load balancing method redefined");
        }
        u.method = m;
    }
}
