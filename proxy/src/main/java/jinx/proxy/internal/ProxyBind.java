package jinx.proxy.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import jinx.http.HttpRequest;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;

/**
 * {@code proxy_bind}: the local address of connections to the upstream, nginx's
 * {@code ngx_http_upstream_set_local()} over {@code ngx_parse_addr_port()}. An address is a literal (IPv4, or IPv6
 * in brackets when a port follows), with an optional port; a value made from variables that is empty binds
 * nothing, one that is no address is logged and binds nothing.
 */
final class ProxyBind {

    private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.%\\[\\]]+");

    private ProxyBind() {
    }

    /** Sets {@code pc.local} for the request, or leaves it null. */
    static void apply(HttpRequest r, ProxyLocConf plcf, PeerConnection pc) {
        pc.local = null;
        pc.transparent = plcf.bindTransparent;
        if (plcf.bind == null) {
            return;
        }
        String v = plcf.bind.evaluate(r);
        if (v == null || v.isEmpty()) {
            return;
        }
        InetSocketAddress local = parse(v);
        if (local == null) {
            r.log(LogLevel.ERROR, 0, "invalid local address \"" + v + "\"");
            return;
        }
        pc.local = local;
    }

    /** nginx's {@code ngx_parse_addr_port()}: a literal address, a port after it or not; null when it is none. */
    static InetSocketAddress parse(String text) {
        if (!LITERAL.matcher(text).matches()) {
            return null;
        }
        String host = text;
        int port = 0;
        int bracket = text.lastIndexOf(']');
        int colon = text.lastIndexOf(':');
        boolean v6 = text.startsWith("[");
        if (v6) {
            if (bracket < 0) {
                return null;
            }
            host = text.substring(1, bracket);
            if (bracket + 1 < text.length()) {
                if (text.charAt(bracket + 1) != ':') {
                    return null;
                }
                port = port(text.substring(bracket + 2));
            }
        } else if (colon >= 0 && text.indexOf(':') == colon) {
            host = text.substring(0, colon);
            port = port(text.substring(colon + 1));
        } else if (colon < 0 && text.chars().filter(ch -> ch == '.').count() != 3) {
            return null;
        }
        if (port < 0 || host.isEmpty()) {
            return null;
        }
        try {
            // a literal only (the pattern allows no name), so no lookup happens
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static int port(String p) {
        try {
            int n = Integer.parseInt(p);
            return n < 1 || n > 65535 ? -1 : n;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
