package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;

/**
 * The request line and header sent to the upstream: nginx's {@code ngx_http_proxy_create_request()}. The
 * request line takes {@code proxy_method} or the client's method, the URI by nginx's rules (below) and
 * {@code proxy_http_version}; then the header lines of {@code proxy_set_header} and nginx's defaults
 * ({@code Host: $proxy_host}, {@code Connection: close}, the body's {@code Content-Length}; a line whose value is
 * empty is not sent), then the client's lines except those names (with {@code proxy_pass_request_headers on}).
 *
 * <p>The URI: without a URI part in {@code proxy_pass}, the client's URI as it came when nothing changed it,
 * else the current URI escaped, with its arguments; with a URI part, that part in place of the location's prefix.
 */
final class ProxyRequestHeader {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private ProxyRequestHeader() {
    }

    /** The URI sent, nginx's rules; a URI part made from variables is sent as it is, without the arguments. */
    static String uri(HttpRequest r, ProxyPass pass, boolean variables) {
        if (variables && pass.uri() != null) {
            return pass.uri();
        }
        if (pass.uri() == null) {
            if (r.validUnparsedUri() && r.unparsedUri != null) {
                return r.unparsedUri;
            }
            return withArgs(r, escapeIf(r, r.uri));
        }
        String loc = pass.location();
        String tail = r.uri;
        String prefix = pass.uri();
        if (loc != null && !loc.isEmpty() && r.uri.startsWith(loc)) {
            tail = r.uri.substring(loc.length());
        } else {
            prefix = "";
        }
        return withArgs(r, prefix + escapeIf(r, tail));
    }

    private static String withArgs(HttpRequest r, String uri) {
        return r.args == null || r.args.isEmpty() ? uri : uri + "?" + r.args;
    }

    private static String escapeIf(HttpRequest r, String s) {
        return r.quotedUri() || r.internal ? escape(s) : s;
    }

    /** nginx's {@code ngx_escape_uri(NGX_ESCAPE_URI)}: space, {@code #}, {@code %}, {@code ?}, controls, 8-bit. */
    static String escape(String s) {
        int n = s.length();
        StringBuilder sb = null;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            boolean esc = c <= 0x20 || c >= 0x7f || c == '#' || c == '%' || c == '?';
            if (!esc) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(n + 16).append(s, 0, i);
            }
            int b = c & 0xff;
            sb.append('%').append((char) HEX[b >> 4]).append((char) HEX[b & 0xf]);
        }
        return sb == null ? s : sb.toString();
    }

    /** The whole header (and {@code proxy_set_body}'s body), as bytes in a direct buffer ready to send. */
    static ByteBuffer create(HttpRequest r, ProxyLocConf plcf, ProxyRequest p, long bodyLength, String body) {
        StringBuilder sb = new StringBuilder(512);
        String method = plcf.method != null ? plcf.method.evaluate(r) : r.methodName;
        sb.append(method).append(' ').append(p.uri).append(' ')
            .append(plcf.httpVersion == HttpRequest.VERSION_11 ? "HTTP/1.1" : "HTTP/1.0").append("\r\n");
        for (ProxyLocConf.HeaderLine h : plcf.headers) {
            String v = switch (h.kind()) {
                case ProxyLocConf.PROXY_HOST -> p.pass.hostHeader();
                // nginx's $proxy_internal_body_length: the body's length, or no line
                case ProxyLocConf.BODY_LENGTH -> bodyLength < 0 ? null : Long.toString(bodyLength);
                case ProxyLocConf.CHUNKED -> p.streamsChunked() ? "chunked" : null;
                default -> h.value().evaluate(r);
            };
            if (v == null || v.isEmpty()) {
                continue;
            }
            sb.append(h.name()).append(": ").append(v).append("\r\n");
        }
        if (plcf.passRequestHeaders == 1) {
            for (HttpHeaders.Entry e : r.headersIn.headers.entries()) {
                if (e.removed || plcf.headerNames.contains(e.lowcaseName)) {
                    continue;
                }
                sb.append(e.name).append(": ").append(e.value).append("\r\n");
            }
        }
        sb.append("\r\n");
        if (body != null) {
            sb.append(body);
        }
        // a pooled direct buffer of the next power of two: allocateDirect per request costs more than the rest
        int n = sb.length();
        ByteBuffer b = ProxyBuffers.get(Math.max(1024, Integer.highestOneBit(n - 1) << 1));
        for (int i = 0; i < n; i++) {
            b.put((byte) sb.charAt(i));
        }
        return b.flip();
    }
}
