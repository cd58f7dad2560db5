package jinx.proxy.internal;

import java.util.function.Function;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.kernel.ConfException;

/**
 * The proxy's variables: {@code $proxy_host}, {@code $proxy_port}, {@code $proxy_add_x_forwarded_for} (nginx's
 * {@code ngx_http_proxy_vars[]}) and the upstream's {@code $upstream_addr}, {@code $upstream_status},
 * {@code $upstream_connect_time}, {@code $upstream_header_time}, {@code $upstream_response_time},
 * {@code $upstream_bytes_received} and {@code $upstream_http_*} (nginx's {@code ngx_http_upstream_vars[]}). A
 * request that was not proxied has none of them (not found).
 */
final class ProxyVariables {

    private final int ctxIndex;
    private int remoteAddr;

    ProxyVariables(int ctxIndex) {
        this.ctxIndex = ctxIndex;
    }

    void register(HttpConfig cf) throws ConfException {
        remoteAddr = cf.variableIndex("remote_addr");
        cf.addVariable("proxy_host", (r, n) -> proxyHost(r), HttpConfig.VAR_NOCACHEABLE);
        cf.addVariable("proxy_port", (r, n) -> pass(r, p -> Integer.toString(p.port())),
            HttpConfig.VAR_NOCACHEABLE);
        cf.addVariable("proxy_add_x_forwarded_for", (r, n) -> forwardedFor(r), HttpConfig.VAR_NOCACHEABLE);
        upstream(cf, "upstream_addr", ProxyVars::addr);
        upstream(cf, "upstream_status", ProxyVars::status);
        upstream(cf, "upstream_connect_time", ProxyVars::connectTime);
        upstream(cf, "upstream_header_time", ProxyVars::headerTime);
        upstream(cf, "upstream_response_time", ProxyVars::responseTime);
        upstream(cf, "upstream_bytes_received", ProxyVars::bytesReceived);
        upstream(cf, "upstream_bytes_sent", ProxyVars::bytesSent);
        upstream(cf, "upstream_response_length", ProxyVars::responseLength);
        cf.addVariable("upstream_cookie_", this::upstreamCookie, HttpConfig.VAR_PREFIX | HttpConfig.VAR_NOCACHEABLE);
        cf.addVariable("upstream_http_", this::upstreamHeader,
            HttpConfig.VAR_PREFIX | HttpConfig.VAR_NOCACHEABLE);
        // nginx 1.13.10's $upstream_trailer_NAME reads u->headers_in.trailers, which only its gRPC module fills: the
        // HTTP proxy's chunked parser skips an upstream's trailers (they are not passed to the client either), so
        // for a proxied request the variable is not found, as in nginx (ProxyDifferentialIT compares it)
        cf.addVariable("upstream_trailer_", (r, n) -> null, HttpConfig.VAR_PREFIX | HttpConfig.VAR_NOCACHEABLE);
    }

    private void upstream(HttpConfig cf, String name, Function<ProxyVars, String> f) throws ConfException {
        cf.addVariable(name, (r, n) -> {
            ProxyRequest p = upstreamOf(r);
            return p == null ? null : f.apply(p.vars);
        }, HttpConfig.VAR_NOCACHEABLE);
    }

    private ProxyRequest request(HttpRequest r) {
        Object o = r.ctx(ctxIndex);
        return o instanceof ProxyRequest p ? p : null;
    }

    /**
     * The request's last upstream, kept across internal redirects: {@code $upstream_*} still name it in a location
     * an {@code error_page} or {@code X-Accel-Redirect} led to, as nginx's {@code r->upstream} does.
     */
    private ProxyRequest upstreamOf(HttpRequest r) {
        Object o = r.keptCtx(ctxIndex);
        return o instanceof ProxyRequest p ? p : null;
    }

    private String pass(HttpRequest r, Function<ProxyPass, String> f) {
        ProxyRequest p = request(r);
        return p == null ? null : f.apply(p.pass);
    }

    private String proxyHost(HttpRequest r) {
        return pass(r, ProxyPass::hostHeader);
    }

    private String forwardedFor(HttpRequest r) {
        String addr = r.variable(remoteAddr);
        HttpHeaders.Entry xff = r.headersIn.xForwardedFor;
        if (xff == null || xff.value == null || xff.value.isEmpty()) {
            return addr;
        }
        StringBuilder sb = new StringBuilder(xff.value);
        for (HttpHeaders.Entry e = xff.next; e != null; e = e.next) {
            sb.append(", ").append(e.value);
        }
        return sb.append(", ").append(addr).toString();
    }

    /**
     * The client's address as bytes, for ip_hash: 4 for IPv4, 16 for IPv6, empty for a unix socket.
     *
     * @param r the request
     * @return the bytes
     */
    static byte[] clientAddress(HttpRequest r) {
        String text = r.connection().addrText();
        if (text == null || text.startsWith("unix:")) {
            return new byte[0];
        }
        int colon = text.lastIndexOf(':');
        String host = text.startsWith("[") ? text.substring(1, text.indexOf(']')) : colon > 0 ? text.substring(0, colon)
            : text;
        try {
            // a literal: no name is looked up
            return java.net.InetAddress.getByName(host).getAddress();
        } catch (java.net.UnknownHostException e) {
            return new byte[0];
        }
    }

    /**
     * {@code $upstream_cookie_NAME}: the value of the cookie NAME in the upstream's {@code Set-Cookie} lines
     * (nginx's {@code ngx_http_upstream_cookie_variable()} over {@code ngx_http_parse_set_cookie_lines()}: the first
     * line whose cookie has that name, compared without regard to case).
     */
    private String upstreamCookie(HttpRequest r, String name) {
        ProxyRequest p = upstreamOf(r);
        if (p == null || p.in.status == 0) {
            return null;
        }
        String want = name.substring("upstream_cookie_".length());
        for (String[] l : p.in.lines) {
            if (!l[0].equalsIgnoreCase("Set-Cookie")) {
                continue;
            }
            String v = l[1];
            int eq = v.indexOf('=');
            if (eq < 0 || !v.substring(0, eq).trim().equalsIgnoreCase(want)) {
                continue;
            }
            int end = v.indexOf(';', eq);
            return v.substring(eq + 1, end < 0 ? v.length() : end).trim();
        }
        return null;
    }

    private String upstreamHeader(HttpRequest r, String name) {
        ProxyRequest p = upstreamOf(r);
        if (p == null || p.in.status == 0) {
            return null;
        }
        String want = name.substring("upstream_http_".length()).replace('_', '-');
        return p.headerValue(want);
    }
}
