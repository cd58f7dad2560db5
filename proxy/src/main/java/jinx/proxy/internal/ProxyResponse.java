package jinx.proxy.internal;

import java.util.List;
import java.util.Locale;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;

/**
 * The upstream's response header made the client's: nginx's {@code ngx_http_upstream_process_headers()} with
 * the header handlers of {@code ngx_http_upstream_headers_in[]}. Hop-by-hop lines ({@code Connection},
 * {@code Keep-Alive}, {@code Transfer-Encoding}, and {@code Upgrade} outside a 101) and the hidden ones
 * ({@code proxy_hide_header} plus nginx's defaults {@code Date}, {@code Server}, {@code X-Pad},
 * {@code X-Accel-*}, less {@code proxy_pass_header}) are dropped; {@code Content-Type}, {@code Content-Length},
 * {@code Last-Modified}, {@code Location}, {@code ETag}, {@code Content-Encoding} and {@code Server} go to their
 * fields; {@code Location} and {@code Refresh} pass through {@code proxy_redirect}.
 */
final class ProxyResponse {

    private ProxyResponse() {
    }

    /**
     * Copies the lines; answers false when the response cannot be passed (a Content-Length that is no number).
     */
    static boolean copy(HttpRequest r, ProxyLocConf plcf, ProxyRequest p, List<String[]> lines) {
        HeadersOut out = r.headersOut;
        out.status = p.in.status;
        out.statusLine = p.in.statusLine;
        for (String[] line : lines) {
            String name = line[0];
            String value = line[1];
            String lc = name.toLowerCase(Locale.ROOT);
            switch (lc) {
                case "connection", "keep-alive", "transfer-encoding" -> {
                    continue;
                }
                case "upgrade" -> {
                    if (p.in.status != 101) {
                        continue;
                    }
                }
                default -> {
                }
            }
            if (plcf.hidden.contains(lc)) {
                continue;
            }
            switch (lc) {
                case "content-type" -> out.contentType = value;
                case "content-length" -> out.contentLengthN = p.in.length;
                // nginx keeps the upstream's line among the others (headers_out.last_modified is set), so the
                // header filter sends it in its place rather than at Last-Modified's own
                case "last-modified" -> out.headers.add(name, value);
                case "location" -> {
                    String v = ProxyRedirect.rewrite(r, plcf, p, value, false);
                    HttpHeaders.Entry e = out.headers.add(name, v);
                    out.location = e;
                }
                case "refresh" -> out.headers.add(name, ProxyRedirect.rewrite(r, plcf, p, value, true));
                case "etag" -> out.etag = out.headers.add(name, value);
                case "set-cookie" -> out.headers.add(name,
                    ProxyCookies.active(plcf) ? ProxyCookies.rewrite(r, plcf, value) : value);
                case "content-encoding" -> out.contentEncoding = out.headers.add(name, value);
                case "server" -> {
                    // passed (proxy_pass_header Server): in its place among the lines, the core's own not sent
                    out.headers.add(name, value);
                    HttpHeaders.Entry none = new HttpHeaders.Entry(name, value);
                    none.removed = true;
                    out.server = none;
                }
                default -> out.headers.add(name, value);
            }
        }
        return true;
    }
}
