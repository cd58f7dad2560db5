package jinx.proxy.internal;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.Connection;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TlsClient;
import jinx.proxy.upstream.Upstream;
import jinx.proxy.upstream.UpstreamSsl;

/**
 * TLS to an {@code https://} upstream: nginx's {@code ngx_http_upstream_ssl_init_connection()},
 * {@code ngx_http_upstream_ssl_name()}, {@code ngx_http_upstream_ssl_handshake_handler()} and
 * {@code ngx_http_upstream_ssl_handshake()}, through the kernel's {@link TlsClient}. The handshake runs between the
 * connect and the request, so {@code $upstream_connect_time} includes it, as nginx's does; a connection from the
 * keep-alive cache is secured already.
 */
final class ProxySsl {

    /** A peer of a group: the key its TLS session is kept under. */
    private record SessionKey(Upstream upstream, String peer) {
    }

    private ProxySsl() {
    }

    /** nginx's {@code ngx_http_upstream_ssl_init_connection()}, the connect tested already. */
    static void start(ProxyRequest p) {
        Connection c = p.pc.connection;
        UpstreamSsl<ComplexValue> conf = p.plcf.ssl;
        HttpRequest r = p.r;
        // nginx's ngx_http_upstream_ssl_name(): proxy_ssl_name evaluated, else the upstream's host
        String name = UpstreamSsl.name(conf.name != null ? conf.name.evaluate(r) : p.pass.host());
        p.sslName = name;
        String sni = conf.serverNameFor(name);
        // the session is the peer's, whatever location connects to it, as nginx keeps it; a group made for one
        // request (a URL of variables naming an address) keeps none, as nginx's temporary peers keep none
        Object key = conf.sessionReuse == 1 && p.upstream.file != null
            ? new SessionKey(p.upstream, p.pc.name) : null;
        r.logAction("SSL handshaking to upstream");
        int rc = conf.client.connect(c, sni, key, ev -> handler(p, c));
        if (rc == Rc.AGAIN) {
            if (!c.write.timerSet()) {
                p.loop.addTimer(c.write, p.plcf.connectTimeout);
            }
            return;
        }
        handshake(p, c);
    }

    /** nginx's {@code ngx_http_upstream_ssl_handshake_handler()}: the handshake's end, then what it posted. */
    private static void handler(ProxyRequest p, Connection c) {
        if (p.pc.connection != c || p.isFinalized()) {
            return;
        }
        handshake(p, c);
        p.runPosted();
    }

    /** nginx's {@code ngx_http_upstream_ssl_handshake()}. */
    private static void handshake(ProxyRequest p, Connection c) {
        TlsClient client = p.plcf.ssl.client;
        if (client.handshaked(c)) {
            String failure = client.verify(c, p.sslName);
            if (failure != null) {
                p.r.log(LogLevel.ERROR, 0, "upstream " + failure);
                p.next(ProxyLocConf.FT_ERROR);
                return;
            }
            p.secured();
            return;
        }
        if (c.write.timedout) {
            p.next(ProxyLocConf.FT_TIMEOUT);
            return;
        }
        p.next(ProxyLocConf.FT_ERROR);
    }
}
