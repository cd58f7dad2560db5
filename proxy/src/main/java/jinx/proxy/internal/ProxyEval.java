package jinx.proxy.internal;

import java.net.SocketAddress;
import java.util.regex.Pattern;

import jinx.http.HttpRequest;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.proxy.upstream.Upstream;

/**
 * A {@code proxy_pass} with variables, evaluated for a request: nginx's {@code ngx_http_proxy_eval()} and the part
 * of {@code ngx_http_upstream_init_request()} that finds the group. An address (IPv4, {@code [IPv6]} or
 * {@code unix:}) becomes a group of its own; a name is looked up among the {@code upstream {}} blocks (a name
 * without a port) and the groups other {@code proxy_pass} lines made; any other name is looked up by the
 * location's {@code resolver} once the body is read ({@link ProxyRequest}), and without one is answered as nginx
 * answers: {@code no resolver defined to resolve NAME} and 502. Nothing here blocks: no name is looked up here.
 */
final class ProxyEval {

    /** What a request proxies to (a null group: the host is to be resolved), or the status that ends it. */
    record Target(ProxyPass pass, Upstream upstream, int status) {
    }

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private ProxyEval() {
    }

    static Target eval(HttpRequest r, ProxyLocConf plcf) {
        String url = plcf.passValue.evaluate(r);
        if (url == null) {
            return new Target(null, null, 500);
        }
        boolean http = url.length() > 7 && url.regionMatches(true, 0, "http://", 0, 7)
            || plcf.ssl.client != null && url.length() > 8 && url.regionMatches(true, 0, "https://", 0, 8);
        if (!http) {
            r.log(LogLevel.ERROR, 0, "invalid URL prefix in \"" + url + "\"");
            return new Target(null, null, 500);
        }
        ProxyPass pass;
        try {
            pass = ProxyPass.parse(url, null, null, 0, null, true);
        } catch (ConfException e) {
            r.log(LogLevel.ERROR, 0, e.getMessage());
            return new Target(null, null, 500);
        }
        Upstream u = find(plcf.umcf, pass);
        if (u == null && plcf.resolver == null) {
            r.log(LogLevel.ERROR, 0, "no resolver defined to resolve " + pass.host());
            return new Target(null, null, 502);
        }
        return new Target(pass, u, 0);
    }

    /** A dotted quad whose parts are bytes: the JDK then parses it without a lookup. */
    private static boolean ipv4(String host) {
        if (!IPV4.matcher(host).matches()) {
            return false;
        }
        for (String part : host.split("\\.")) {
            if (Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    private static Upstream find(UpstreamMainConf umcf, ProxyPass pass) {
        String host = pass.host();
        if (host.regionMatches(true, 0, "unix:", 0, 5) || ipv4(host) || host.startsWith("[")) {
            try {
                String address = host.regionMatches(true, 0, "unix:", 0, 5) ? host : host + ":" + pass.port();
                Upstream u = new Upstream(address, true, null, 0);
                for (SocketAddress sa : Upstream.resolve(address, "upstream \"" + address + "\"")) {
                    u.peer(sa, address);
                }
                return u;
            } catch (ConfException e) {
                return null;
            }
        }
        if (!pass.hasPort()) {
            for (var e : umcf.blocks.entrySet()) {
                if (e.getKey().equalsIgnoreCase(host)) {
                    return e.getValue();
                }
            }
        }
        for (UpstreamMainConf.Reference ref : umcf.references) {
            if (ref.host.equalsIgnoreCase(host) && ref.port == pass.port() && ref.resolved != null
                && ref.resolved.implicit) {
                return ref.resolved;
            }
        }
        return null;
    }
}
