package jinx.proxy.internal;

import jinx.http.HttpRequest;
import jinx.kernel.Connection;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TlsClient;
import jinx.proxy.upstream.Upstream;

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
        ProxySslConf conf = p.plcf.ssl;
        HttpRequest r = p.r;
        String name = name(p);
        p.sslName = name;
        String sni = conf.serverName == 1 ? serverName(name) : null;
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

    /**
     * nginx's {@code ngx_http_upstream_ssl_name()}: {@code proxy_ssl_name} evaluated, else the upstream's host,
     * without a port (a name from {@code $http_host} may carry one).
     */
    private static String name(ProxyRequest p) {
        ProxySslConf conf = p.plcf.ssl;
        String name = conf.name != null ? conf.name.evaluate(p.r) : p.pass.host();
        if (name == null || name.isEmpty()) {
            return "";
        }
        int from = 0;
        if (name.charAt(0) == '[') {
            int close = name.indexOf(']');
            from = close < 0 ? 0 : close;
        }
        int colon = name.indexOf(':', from);
        return colon < 0 ? name : name.substring(0, colon);
    }

    /**
     * The TLS server name, or null: as RFC 6066 wants, no IP address literal (nginx's {@code ngx_inet_addr()}
     * test and the {@code [} of an IPv6 one).
     */
    private static String serverName(String name) {
        if (name.isEmpty() || name.charAt(0) == '[' || ipv4(name)) {
            return null;
        }
        return name;
    }

    /** nginx's {@code ngx_inet_addr() != INADDR_NONE}: four decimal octets. */
    static boolean ipv4(String s) {
        int octets = 0;
        int value = -1;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= '0' && ch <= '9') {
                value = (value < 0 ? 0 : value * 10) + (ch - '0');
                if (value > 255) {
                    return false;
                }
            } else if (ch == '.' && value >= 0) {
                octets++;
                value = -1;
            } else {
                return false;
            }
        }
        return value >= 0 && octets == 3;
    }
}
