package jinx.stream.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.proxy.upstream.Resolution;
import jinx.proxy.upstream.Upstream;
import jinx.stream.StreamSession;

/**
 * A host that {@code proxy_pass} with variables named, looked up through the server's {@code resolver}: the part of
 * nginx's {@code ngx_stream_proxy_handler()} that starts the lookup, and {@code ngx_stream_proxy_resolve_handler()}.
 * The addresses become a group of their own for the session, round robin with an implicit upstream's defaults
 * ({@code ngx_stream_upstream_create_round_robin_peer()}); a failure is logged in nginx's words
 * ({@code x could not be resolved (3: Host not found)}) and ends the session with 500, as nginx 1.22 does. A
 * session that ends while the lookup runs cancels it.
 */
final class StreamProxyResolve {

    private final StreamProxy proxy;
    private final Session s;
    private final StreamProxySrvConf pscf;
    private final String host;
    private final int port;
    private Resolution ctx;

    StreamProxyResolve(StreamProxy proxy, Session s, StreamProxySrvConf pscf, String host, int port) {
        this.proxy = proxy;
        this.s = s;
        this.pscf = pscf;
        this.host = host;
        this.port = port;
    }

    /** Starts the lookup; a cached answer continues at once. */
    void start(EventLoop loop) {
        Resolution r = pscf.resolver.resolve(loop, host, pscf.resolverTimeout, res -> {
            // an answer given at once (cached) is taken below
            if (ctx == res) {
                resolved(res);
            }
        });
        if (r.state() == Resolution.PENDING) {
            ctx = r;
            return;
        }
        resolved(r);
    }

    /** nginx's {@code ngx_stream_proxy_resolve_handler()}. */
    private void resolved(Resolution r) {
        ctx = null;
        r.cancel();
        if (r.state() != 0) {
            s.log(LogLevel.ERROR, 0, r.failure());
            // nginx 1.22, the differential oracle, ends the session 500 here (later versions: 502)
            proxy.finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        String name = host + ":" + port;
        Upstream u = new Upstream(host, true, null, 0);
        for (InetAddress a : r.addresses()) {
            u.peer(new InetSocketAddress(a, port), name);
        }
        proxy.begin(u);
    }

    /** The session ends: a lookup still running is cancelled. */
    void cancel() {
        Resolution r = ctx;
        ctx = null;
        if (r != null) {
            r.cancel();
        }
    }
}
