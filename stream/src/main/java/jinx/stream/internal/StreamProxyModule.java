package jinx.stream.internal;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;
import jinx.proxy.upstream.LocalAddress;
import jinx.proxy.upstream.Resolver;
import jinx.proxy.upstream.Upstream;
import jinx.proxy.upstream.UpstreamSsl;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_proxy_module}: {@code proxy_pass} to an address or an {@code upstream {}} group, with
 * {@code proxy_connect_timeout}, {@code proxy_timeout}, {@code proxy_buffer_size}, {@code proxy_next_upstream} and
 * its {@code _tries} and {@code _timeout}, {@code proxy_half_close}, {@code proxy_upload_rate},
 * {@code proxy_download_rate}, {@code proxy_socket_keepalive}, {@code proxy_protocol} (version 1) and
 * {@code proxy_ssl} with the {@code proxy_ssl_*} directives ({@link UpstreamSsl}). The session's relay is
 * {@link StreamProxy}, its TLS {@link StreamProxySsl}.
 */
public final class StreamProxyModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_proxy";

    private static List<Directive<?>> withSsl() {
        List<Directive<?>> all = new ArrayList<>(OWN);
        all.add(Directive.of("proxy_ssl", Set.of(MAIN, SRV), Arity.FLAG, StreamProxySrvConf.class,
                StreamProxyModule::ssl).syntax("on | off").defaults("off")
            .describe("Enables the SSL/TLS protocol for connections to a proxied server."));
        all.addAll(UpstreamSsl.directives(Set.of(MAIN, SRV), StreamProxySrvConf.class, c -> c.ssl,
            (cf, c) -> c.ssl.name = StreamValue.compile(StreamConfig.of(cf), cf.arg(1))));
        return all;
    }

    private static final List<Directive<?>> OWN = List.of(
        Directive.of("proxy_pass", Set.of(SRV), Arity.TAKE1, StreamProxySrvConf.class, StreamProxyModule::proxyPass)
            .syntax("address").describe("Sets the address of a proxied server: an address or a server group."),
        Directive.of("proxy_connect_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.msec((c, v) -> c.connectTimeout = v)).syntax("time").defaults("60s")
            .describe("Defines a timeout for establishing a connection with a proxied server."),
        Directive.of("proxy_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.msec((c, v) -> c.timeout = v)).syntax("timeout").defaults("10m")
            .describe("Sets the timeout between two successive read or write operations on client or proxied "
                + "server connections."),
        Directive.of("proxy_buffer_size", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.size((c, v) -> c.bufferSize = v)).syntax("size").defaults("16k")
            .describe("Sets the size of the buffer used for reading data from the proxied server and from the "
                + "client."),
        Directive.of("proxy_upload_rate", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.size((c, v) -> c.uploadRate = v)).syntax("rate").defaults("0")
            .describe("Limits the speed of reading the data from the client, in bytes per second."),
        Directive.of("proxy_download_rate", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.size((c, v) -> c.downloadRate = v)).syntax("rate").defaults("0")
            .describe("Limits the speed of reading the data from the proxied server, in bytes per second."),
        Directive.of("proxy_next_upstream", Set.of(MAIN, SRV), Arity.FLAG, StreamProxySrvConf.class,
            Slots.flag((c, v) -> c.nextUpstream = v ? 1 : 0)).syntax("on | off").defaults("on")
            .describe("When a connection to the proxied server cannot be established, determines whether a "
                + "client connection will be passed to the next server."),
        Directive.of("proxy_next_upstream_tries", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.number((c, v) -> c.nextUpstreamTries = v)).syntax("number").defaults("0")
            .describe("Limits the number of possible tries for passing a connection to the next server."),
        Directive.of("proxy_next_upstream_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.msec((c, v) -> c.nextUpstreamTimeout = v)).syntax("time").defaults("0")
            .describe("Limits the time allowed to pass a connection to the next server."),
        Directive.of("proxy_half_close", Set.of(MAIN, SRV), Arity.FLAG, StreamProxySrvConf.class,
            Slots.flag((c, v) -> c.halfClose = v ? 1 : 0)).syntax("on | off").defaults("off")
            .describe("Enables or disables closing each direction of a TCP connection independently."),
        Directive.of("proxy_socket_keepalive", Set.of(MAIN, SRV), Arity.FLAG, StreamProxySrvConf.class,
            Slots.flag((c, v) -> c.socketKeepalive = v ? 1 : 0)).syntax("on | off").defaults("off")
            .describe("Configures the TCP keepalive behavior for outgoing connections to a proxied server."),
        Directive.of("proxy_bind", Set.of(MAIN, SRV), Arity.TAKE12, StreamProxySrvConf.class,
            StreamProxyModule::bind).syntax("address [transparent] | off")
            .describe("Makes connections to a proxied server originate from the local address given."),
        Directive.of("resolver", Set.of(MAIN, SRV), Arity.ONE_MORE, StreamProxySrvConf.class,
            (cf, c) -> c.resolver = Resolver.create(cf.args().subList(1, cf.args().size())))
            .syntax("address ... [valid=time] [ipv4=on|off] [ipv6=on|off] [status_zone=zone]")
            .describe("Configures name servers used to resolve names of upstream servers into addresses."),
        Directive.of("resolver_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.msec((c, v) -> c.resolverTimeout = v)).syntax("time").defaults("30s")
            .describe("Sets a timeout for name resolution."),
        Directive.of("health_check", Set.of(SRV), Arity.ANY, StreamProxySrvConf.class, StreamHealthChecks::directive)
            .multi().syntax("[interval=time] [fails=number] [passes=number] [port=number] [match=name] [mandatory]")
            .describe("Probes the servers of the upstream this server proxies to (it needs a zone): a connection, "
                + "or match's send and expect."),
        Directive.of("health_check_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.msec((c, v) -> c.healthCheckTimeout = v)).syntax("timeout").defaults("5s")
            .describe("Overrides the proxy_timeout value for health checks."),
        Directive.of("proxy_protocol", Set.of(MAIN, SRV), Arity.FLAG, StreamProxySrvConf.class,
            Slots.flag((c, v) -> c.proxyProtocol = v ? 1 : 0)).syntax("on | off").defaults("off")
            .describe("Enables the PROXY protocol for connections to a proxied server."),
        Directive.of("proxy_requests", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.number((c, v) -> c.requests = v)).syntax("number").defaults("0")
            .describe("Sets the number of client datagrams at which binding between a client and existing UDP "
                + "stream session is dropped."),
        Directive.of("proxy_responses", Set.of(MAIN, SRV), Arity.TAKE1, StreamProxySrvConf.class,
            Slots.number((c, v) -> c.responses = v)).syntax("number")
            .describe("Sets the number of datagrams expected from the proxied server in response to a client "
                + "datagram if the UDP protocol is used."));

    private static final List<Directive<?>> DIRECTIVES = withSsl();

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamProxyModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new StreamProxySrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) throws ConfException {
        StreamProxySrvConf conf = (StreamProxySrvConf) child;
        conf.merge((StreamProxySrvConf) parent);
        conf.resolve();
    }

    /**
     * nginx's {@code ngx_stream_proxy_pass()} with {@code ngx_stream_upstream_add()}: the name of an
     * {@code upstream {}} of the block (defined before or after), else an address resolved now.
     */
    private static void proxyPass(ConfContext cf, StreamProxySrvConf conf) throws ConfException {
        String url = cf.arg(1);
        StreamUpstreamModule.MainConf umcf = StreamUpstreamModule.mainConf(cf);
        if (url.indexOf('$') >= 0) {
            // the group or address is found per session (nginx's ngx_stream_proxy_eval())
            conf.upstreamValue = StreamValue.compile(StreamConfig.of(cf), url);
            conf.upstreams = umcf;
            StreamConfig.contentHandler(cf, s -> new StreamProxy((Session) s, conf).start());
            return;
        }
        String file = cf.file();
        int line = cf.line();
        conf.upstream = () -> {
            Upstream u = umcf.blocks.get(url);
            if (u != null) {
                return u;
            }
            return implicit(url, file, line);
        };
        StreamConfig.contentHandler(cf, s -> new StreamProxy((Session) s, conf).start());
    }

    /**
     * {@code proxy_ssl}: TLS to the upstream through the cycle's client TLS; a build without one does not know the
     * directive, as nginx without {@code ngx_stream_ssl_module} does not.
     */
    private static void ssl(ConfContext cf, StreamProxySrvConf conf) throws ConfException {
        TlsClient.Provider provider = TlsClient.provider(cf.cycle());
        if (provider == null) {
            throw new ConfException("unknown directive \"proxy_ssl\"");
        }
        Slots.flag((StreamProxySrvConf c, boolean v) -> c.sslEnable = v ? 1 : 0).set(cf, conf);
        conf.ssl.provider = provider;
    }

    /** nginx's {@code ngx_stream_proxy_bind()} over {@code ngx_parse_addr_port()}. */
    private static void bind(ConfContext cf, StreamProxySrvConf conf) throws ConfException {
        if (conf.bindSet) {
            throw new ConfException("\"proxy_bind\" directive is duplicate");
        }
        conf.bindSet = true;
        Boolean transparent = LocalAddress.checkBind(cf.args());
        if (transparent != null) {
            conf.bindTransparent = transparent;
            conf.bind = StreamValue.compile(StreamConfig.of(cf), cf.arg(1));
        }
    }

    /** An address's group, resolved once: {@code host not found in upstream "x" in file:line}. */
    private static Upstream implicit(String url, String file, int line) throws ConfException {
        try {
            StreamUpstreamModule.checkPort(url);
            Upstream u = new Upstream(url, true, file, line);
            // nginx names the host alone when the name does not resolve (ngx_stream_upstream_init_round_robin)
            String host = url.substring(0, url.lastIndexOf(':'));
            for (SocketAddress sa : Upstream.resolve(url, "upstream \"" + host + "\"")) {
                u.peer(sa, url);
            }
            return u;
        } catch (ConfException e) {
            throw ConfException.at(e.text(), file, line);
        }
    }
}
