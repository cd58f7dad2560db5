package jinx.proxy.internal;

import java.net.InetSocketAddress;

import jinx.http.HttpRequest;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.proxy.upstream.LocalAddress;

/**
 * {@code proxy_bind}: the local address of connections to the upstream, nginx's
 * {@code ngx_http_upstream_set_local()} over {@code ngx_parse_addr_port()}. An address is a literal (IPv4, or IPv6
 * in brackets when a port follows), with an optional port; a value made from variables that is empty binds
 * nothing, one that is no address is logged and binds nothing.
 */
final class ProxyBind {

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
        InetSocketAddress local = LocalAddress.parse(v);
        if (local == null) {
            r.log(LogLevel.ERROR, 0, "invalid local address \"" + v + "\"");
            return;
        }
        pc.local = local;
    }
}
