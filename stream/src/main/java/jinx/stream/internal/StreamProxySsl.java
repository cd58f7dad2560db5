package jinx.stream.internal;

import java.nio.ByteBuffer;

import jinx.kernel.Connection;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TlsClient;
import jinx.proxy.upstream.Upstream;
import jinx.proxy.upstream.UpstreamSsl;
import jinx.stream.StreamSession;

/**
 * {@code proxy_ssl on}: nginx's {@code ngx_stream_proxy_send_proxy_protocol()} (the PROXY header goes out in the
 * clear, before TLS), {@code ngx_stream_proxy_ssl_init_connection()}, {@code ngx_stream_proxy_ssl_name()} and
 * {@code ngx_stream_proxy_ssl_handshake()}, through the kernel's {@link TlsClient}. The relay starts once the
 * handshake is done and accepted; a failure tries the next upstream.
 */
final class StreamProxySsl {

    /** A peer of a group: the key its TLS session is kept under. */
    private record SessionKey(Upstream upstream, String peer) {
    }

    private StreamProxySsl() {
    }

    /**
     * nginx's {@code ngx_stream_proxy_send_proxy_protocol()}: the header in one write, or the session ends.
     *
     * @return whether it went out whole
     */
    static boolean sendProxyProtocol(StreamProxy p, Connection u) {
        ByteBuffer header = ProxyProtocolWriter.prefixHeaderOnly(p.s);
        if (header == null) {
            return true;
        }
        int want = header.remaining();
        int n = u.io().send(u, header);
        if (n == Rc.ERROR) {
            p.nextUpstream();
            return false;
        }
        if (n != want) {
            p.s.log(LogLevel.ERROR, 0, "could not send PROXY protocol header at once");
            p.finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return false;
        }
        return true;
    }

    /** nginx's {@code ngx_stream_proxy_ssl_init_connection()}. */
    static void start(StreamProxy p) {
        Connection u = p.pc.connection;
        UpstreamSsl<StreamValue> conf = p.pscf.ssl;
        // nginx's ngx_stream_proxy_ssl_name(): proxy_ssl_name evaluated, else the upstream's host
        String name = UpstreamSsl.name(conf.name != null ? conf.name.evaluate(p.s) : p.upstream.name);
        p.sslName = name;
        String sni = conf.serverNameFor(name);
        // a group made for one session (a proxy_pass of variables naming an address) keeps no session
        Object key = conf.sessionReuse == 1 && p.upstream.file != null
            ? new SessionKey(p.upstream, p.pc.name) : null;
        p.s.logAction("SSL handshaking to upstream");
        int rc = conf.client.connect(u, sni, key, ev -> handshake(p, u));
        if (rc == Rc.AGAIN) {
            if (!u.write.timerSet()) {
                u.loop().addTimer(u.write, p.pscf.connectTimeout);
            }
            return;
        }
        handshake(p, u);
    }

    /** nginx's {@code ngx_stream_proxy_ssl_handshake()}. */
    private static void handshake(StreamProxy p, Connection u) {
        if (p.pc.connection != u) {
            return;
        }
        TlsClient client = p.pscf.ssl.client;
        if (client.handshaked(u)) {
            String failure = client.verify(u, p.sslName);
            if (failure != null) {
                p.s.log(LogLevel.ERROR, 0, "upstream " + failure);
                p.nextUpstream();
                return;
            }
            if (u.write.timerSet()) {
                u.loop().deleteTimer(u.write);
            }
            p.secured();
            return;
        }
        p.nextUpstream();
    }
}
