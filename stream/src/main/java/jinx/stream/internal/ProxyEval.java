package jinx.stream.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;

import jinx.kernel.LogLevel;
import jinx.proxy.upstream.Upstream;

/**
 * {@code proxy_pass} with variables, evaluated per session: nginx's {@code ngx_stream_proxy_eval()} and the part of
 * {@code ngx_stream_proxy_handler()} that looks the value up: the name of an {@code upstream {}} of the block, else
 * an address. A host name is looked up by the server's {@code resolver} ({@link StreamProxyResolve}); without one
 * the session ends with 500 and nginx's {@code no resolver defined to resolve x}.
 */
final class ProxyEval {

    private ProxyEval() {
    }

    /** What a session proxies to: a group, or a host to resolve and its port. */
    record Target(Upstream upstream, String host, int port) {
    }

    /** The target for this session, or null (logged) for a 500. */
    static Target eval(Session s, StreamProxySrvConf pscf) {
        String value = pscf.upstreamValue.evaluate(s);
        Upstream named = pscf.upstreams.blocks.get(value);
        if (named != null) {
            return new Target(named, null, 0);
        }
        if (value.startsWith("unix:")) {
            Upstream u = new Upstream(value, true, null, 0);
            u.peer(UnixDomainSocketAddress.of(value.substring(5)), value);
            return new Target(u, null, 0);
        }
        int colon = value.lastIndexOf(':');
        boolean v6 = value.startsWith("[");
        if (colon < 0 || v6 && colon < value.indexOf(']')) {
            s.log(LogLevel.ERROR, 0, "no port in upstream \"" + value + "\"");
            return null;
        }
        String host = value.substring(0, colon);
        if (host.isEmpty()) {
            s.log(LogLevel.ERROR, 0, "no host in upstream \"" + value + "\"");
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            s.log(LogLevel.ERROR, 0, "invalid port in upstream \"" + value + "\"");
            return null;
        }
        String literal = v6 ? host.substring(1, host.length() - 1) : host;
        if (!literal.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
            if (pscf.resolver == null) {
                s.log(LogLevel.ERROR, 0, "no resolver defined to resolve " + host);
                return null;
            }
            return new Target(null, host, port);
        }
        try {
            Upstream u = new Upstream(value, true, null, 0);
            InetSocketAddress sa = new InetSocketAddress(InetAddress.getByName(literal), port);
            u.peer(sa, value);
            return new Target(u, null, 0);
        } catch (UnknownHostException e) {
            s.log(LogLevel.ERROR, 0, "invalid host in upstream \"" + value + "\"");
            return null;
        }
    }
}
