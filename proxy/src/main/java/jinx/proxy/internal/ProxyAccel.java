package jinx.proxy.internal;

import java.util.Locale;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpResponses;

/**
 * The upstream's {@code X-Accel-*} lines, as nginx's upstream header handlers take them
 * ({@code ngx_http_upstream_process_headers()}, {@code ngx_http_upstream_process_limit_rate()},
 * {@code ngx_http_upstream_process_buffering()}), each unless {@code proxy_ignore_headers} names it:
 * {@code X-Accel-Redirect} moves the request to another URI or named location, {@code X-Accel-Limit-Rate} sets
 * the response's rate, {@code X-Accel-Buffering: yes|no} turns buffering on or off for this response.
 * {@code X-Accel-Expires} only matters to a cache and {@code X-Accel-Charset} to the charset filter, neither of
 * which Jinx has: they are hidden from the client, as in nginx, and otherwise ignored.
 */
final class ProxyAccel {

    /** nginx's {@code NGX_HTTP_UPSTREAM_IGN_*} bits of {@code proxy_ignore_headers}. */
    static final int IGN_XA_REDIRECT = 0x2;
    static final int IGN_XA_EXPIRES = 0x4;
    static final int IGN_EXPIRES = 0x8;
    static final int IGN_CACHE_CONTROL = 0x10;
    static final int IGN_SET_COOKIE = 0x20;
    static final int IGN_XA_LIMIT_RATE = 0x40;
    static final int IGN_XA_BUFFERING = 0x80;
    static final int IGN_XA_CHARSET = 0x100;
    static final int IGN_VARY = 0x200;

    /** The lines nginx copies to the client's response before following an {@code X-Accel-Redirect}. */
    private static final String[] REDIRECT_KEEPS = {"set-cookie", "content-disposition", "cache-control",
        "expires", "accept-ranges"};

    private ProxyAccel() {
    }

    /** The {@code X-Accel-Redirect} target to follow, or null. */
    static String redirectTarget(UpstreamHeader in, ProxyLocConf plcf) {
        if ((plcf.ignoreHeaders & IGN_XA_REDIRECT) != 0) {
            return null;
        }
        String v = in.value("X-Accel-Redirect");
        return v == null || v.isEmpty() ? null : v;
    }

    /**
     * Follows {@code X-Accel-Redirect}: the lines nginx marks {@code redirect} go to the client's response first
     * ({@code Content-Type} to its field), then the request moves. The upstream is already released.
     */
    static void redirect(HttpRequest r, UpstreamHeader in, ProxyLocConf plcf, String target) {
        for (String[] l : in.lines) {
            String lc = l[0].toLowerCase(Locale.ROOT);
            if (lc.equals("content-type")) {
                r.headersOut.contentType = l[1];
                continue;
            }
            for (String keep : REDIRECT_KEEPS) {
                if (lc.equals(keep)) {
                    boolean cookie = lc.equals("set-cookie") && ProxyCookies.active(plcf);
                    r.headersOut.headers.add(l[0], cookie ? ProxyCookies.rewrite(r, plcf, l[1]) : l[1]);
                    break;
                }
            }
        }
        HttpResponses.redirectUnsafe(r, target);
    }

    /** {@code proxy_buffering}, or what {@code X-Accel-Buffering} says instead (exactly "yes" or "no", any case). */
    static boolean buffering(UpstreamHeader in, ProxyLocConf plcf) {
        boolean on = plcf.buffering == 1;
        if ((plcf.ignoreHeaders & IGN_XA_BUFFERING) != 0) {
            return on;
        }
        String v = in.value("X-Accel-Buffering");
        if (v == null) {
            return on;
        }
        if (v.equalsIgnoreCase("no")) {
            return false;
        }
        return v.equalsIgnoreCase("yes") || on;
    }

    /**
     * {@code X-Accel-Limit-Rate}: a number of bytes per second sets the response's rate; anything else is ignored.
     * An unbuffered response has no rate, as nginx's {@code ngx_http_upstream_send_response()} clears it.
     */
    static void limitRate(HttpRequest r, UpstreamHeader in, ProxyLocConf plcf, boolean buffering) {
        if ((plcf.ignoreHeaders & IGN_XA_LIMIT_RATE) == 0) {
            long n = number(in.value("X-Accel-Limit-Rate"));
            if (n >= 0) {
                r.limitRate(n);
            }
        }
        if (!buffering) {
            r.limitRate(0);
        }
    }

    /** nginx's {@code ngx_atoi()}: digits only, else -1. */
    private static long number(String v) {
        if (v == null || v.isEmpty() || v.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            n = n * 10 + (ch - '0');
        }
        return n;
    }
}
