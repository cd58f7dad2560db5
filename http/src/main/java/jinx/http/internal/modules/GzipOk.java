package jinx.http.internal.modules;

import java.util.List;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.parse.HttpTime;
import jinx.http.internal.request.CoreRequest;

/**
 * nginx's {@code ngx_http_gzip_ok()} of {@code ngx_http_core_module.c}, which the gzip filter and
 * {@code gzip_static} share: the client accepts gzip ({@code Accept-Encoding} with nginx's own scan and its
 * {@code q=} arithmetic), the request is not a {@code gzip_disable msie6} one, it is at least
 * {@code gzip_http_version}, a request with {@code Via} passes {@code gzip_proxied}, and no {@code gzip_disable}
 * regex matches its {@code User-Agent}. The answer is kept on the request ({@code r->gzip_tested},
 * {@code r->gzip_ok}).
 */
final class GzipOk {

    private GzipOk() {
    }

    /**
     * Tells whether the response may be gzipped, testing once per request.
     *
     * @param r the request
     * @return true when it may
     */
    static boolean test(HttpRequest r) {
        if (!(r instanceof CoreRequest cr)) {
            return false;
        }
        if (cr.gzipTested) {
            return cr.gzipOk;
        }
        cr.gzipTested = true;
        cr.gzipOk = ok(cr);
        return cr.gzipOk;
    }

    private static boolean ok(CoreRequest r) {
        HttpHeaders.Entry ae = r.headersIn.headers.entry("Accept-Encoding");
        if (ae == null || ae.value.length() < 4) {
            return false;
        }
        if (!ae.value.startsWith("gzip,") && !acceptEncoding(ae.value)) {
            return false;
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (r.msie6 && clcf.gzipDisableMsie6 == 1) {
            return false;
        }
        if (r.httpVersion < clcf.gzipHttpVersion) {
            return false;
        }
        if (r.headersIn.headers.entry("Via") != null && !proxied(r, clcf.gzipProxied)) {
            return false;
        }
        List<HttpRegex> disable = clcf.gzipDisable;
        if (disable != null && !disable.isEmpty() && r.headersIn.userAgent != null) {
            String ua = r.headersIn.userAgent.value;
            for (int i = 0, n = disable.size(); i < n; i++) {
                if (disable.get(i).matches(ua)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The {@code gzip_proxied} part of {@code ngx_http_gzip_ok()} for a request that came through a proxy. */
    private static boolean proxied(HttpRequest r, int p) {
        if ((p & HttpCoreLocConf.GZIP_PROXIED_OFF) != 0) {
            return false;
        }
        if ((p & HttpCoreLocConf.GZIP_PROXIED_ANY) != 0) {
            return true;
        }
        if (r.headersIn.authorization != null && (p & HttpCoreLocConf.GZIP_PROXIED_AUTH) != 0) {
            return true;
        }
        HttpHeaders.Entry e = r.headersOut.expires;
        if (e != null && !e.removed) {
            if ((p & HttpCoreLocConf.GZIP_PROXIED_EXPIRED) == 0) {
                return false;
            }
            long expires = HttpTime.parse(e.value);
            if (expires == -1) {
                return false;
            }
            HttpHeaders.Entry d = r.headersOut.headers.entry("Date");
            long date = d != null ? HttpTime.parse(d.value) : r.loop().wallMillis() / 1000;
            return date != -1 && expires < date;
        }
        HttpHeaders.Entry cc = r.headersOut.cacheControl;
        if (cc != null && !cc.removed) {
            return (p & HttpCoreLocConf.GZIP_PROXIED_NO_CACHE) != 0 && token(cc, "no-cache")
                || (p & HttpCoreLocConf.GZIP_PROXIED_NO_STORE) != 0 && token(cc, "no-store")
                || (p & HttpCoreLocConf.GZIP_PROXIED_PRIVATE) != 0 && token(cc, "private");
        }
        if ((p & HttpCoreLocConf.GZIP_PROXIED_NO_LM) != 0 && r.headersOut.lastModifiedTime != -1) {
            return false;
        }
        return (p & HttpCoreLocConf.GZIP_PROXIED_NO_ETAG) == 0 || r.headersOut.etag == null
               || r.headersOut.etag.removed;
    }

    /**
     * nginx's {@code ngx_http_parse_multi_header_lines()}: {@code name} as a token of one of the lines, after the
     * start, a comma or a space and before the end, a comma, a semicolon, an equals sign or a space.
     */
    static boolean token(HttpHeaders.Entry first, String name) {
        for (HttpHeaders.Entry h = first; h != null; h = h.next) {
            if (h.removed) {
                continue;
            }
            String v = h.value;
            int from = 0;
            int n = name.length();
            while (from + n <= v.length()) {
                int p = indexOfIgnoreCase(v, name, from);
                if (p < 0) {
                    break;
                }
                boolean before = p == 0 || v.charAt(p - 1) == ',' || v.charAt(p - 1) == ' ';
                int end = p + n;
                boolean after = end == v.length() || ",;= ".indexOf(v.charAt(end)) >= 0;
                if (before && after) {
                    return true;
                }
                from = p + 1;
            }
        }
        return false;
    }

    /** nginx's {@code ngx_http_gzip_accept_encoding()}: a {@code gzip} token whose {@code q} is not zero. */
    static boolean acceptEncoding(String ae) {
        int last = ae.length();
        int p;
        int start = 0;
        for (;;) {
            p = indexOfIgnoreCase(ae, "gzip", start);
            if (p < 0) {
                return false;
            }
            if (p == 0 || ae.charAt(p - 1) == ',' || ae.charAt(p - 1) == ' ') {
                break;
            }
            start = p + 4;
        }
        p += 4;
        while (p < last) {
            char c = ae.charAt(p++);
            if (c == ',') {
                return true;
            }
            if (c == ';') {
                return quantity(ae, p, last);
            }
            if (c != ' ') {
                return false;
            }
        }
        return true;
    }

    /** The part of {@code ngx_http_gzip_accept_encoding()} after the semicolon. */
    private static boolean quantity(String ae, int p, int last) {
        while (p < last) {
            char c = ae.charAt(p++);
            if (c == 'q' || c == 'Q') {
                if (p + 2 > last || ae.charAt(p++) != '=') {
                    return false;
                }
                return quantityValue(ae, p, last) != 0;
            }
            if (c != ' ') {
                return false;
            }
        }
        return true;
    }

    /**
     * nginx's {@code ngx_http_gzip_quantity()}, as it computes it: the fraction's digits are added, not weighed,
     * so only zero is zero and more than 100 is refused.
     */
    static int quantityValue(String s, int p, int last) {
        char c = s.charAt(p++);
        if (c != '0' && c != '1') {
            return 0;
        }
        int q = (c - '0') * 100;
        if (p == last) {
            return q;
        }
        c = s.charAt(p++);
        if (c == ',' || c == ' ') {
            return q;
        }
        if (c != '.') {
            return 0;
        }
        int n = 0;
        while (p < last) {
            c = s.charAt(p++);
            if (c == ',' || c == ' ') {
                break;
            }
            if (c >= '0' && c <= '9') {
                q += c - '0';
                n++;
                continue;
            }
            return 0;
        }
        if (q > 100 || n > 3) {
            return 0;
        }
        return q;
    }

    private static int indexOfIgnoreCase(String s, String what, int from) {
        int n = what.length();
        for (int i = from, end = s.length() - n; i <= end; i++) {
            if (s.regionMatches(true, i, what, 0, n)) {
                return i;
            }
        }
        return -1;
    }
}
