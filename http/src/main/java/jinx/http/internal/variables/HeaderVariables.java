package jinx.http.internal.variables;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.parse.HttpParser;

/**
 * The variables made of request and response headers, arguments and cookies: {@code $http_*},
 * {@code $sent_http_*}, {@code $cookie_*}, {@code $arg_*}, {@code $content_length}, {@code $content_type},
 * {@code $host}, {@code $remote_user}; and the lookups behind them, nginx's {@code ngx_http_arg()},
 * {@code ngx_http_parse_multi_header_lines()} and {@code ngx_http_auth_basic_user()}.
 */
public final class HeaderVariables {

    private HeaderVariables() {
    }

    /**
     * {@code $http_*}: the request header whose name, lower case with {@code -} as {@code _}, follows the prefix;
     * repeated lines joined with {@code ", "} ({@code "; "} for {@code Cookie}).
     *
     * @param r the request
     * @param name the variable's name, {@code http_user_agent}
     * @return the value, or null
     */
    public static String httpHeader(HttpRequest r, String name) {
        String header = name.substring("http_".length());
        return unknownHeader(r.headersIn.headers, header, "cookie".equals(header) ? "; " : ", ");
    }

    /**
     * {@code $sent_http_*}: a response header. The headers the core keeps in their own fields
     * ({@code Content-Type}, {@code Content-Length}, {@code Location}, {@code Last-Modified}, {@code Connection},
     * {@code Keep-Alive}, {@code Transfer-Encoding}, {@code ETag} ...) are answered from those, as nginx's
     * dedicated {@code sent_http_*} variables.
     *
     * @param r the request
     * @param name the variable's name, {@code sent_http_content_type}
     * @return the value, or null
     */
    public static String sentHeader(HttpRequest r, String name) {
        String header = name.substring("sent_http_".length());
        HeadersOut out = r.headersOut;
        switch (header) {
            case "content_type":
                if (out.contentType == null || out.contentType.isEmpty()) {
                    return null;
                }
                return out.charset == null || out.charset.isEmpty() ? out.contentType
                    : out.contentType + "; charset=" + out.charset;
            case "content_length":
                return out.contentLengthN >= 0 ? Long.toString(out.contentLengthN)
                    : unknownHeader(out.headers, header, ", ");
            case "last_modified":
                return out.lastModifiedTime >= 0 ? TimeFormats.http(out.lastModifiedTime)
                    : unknownHeader(out.headers, header, ", ");
            case "connection":
                return out.status == 101 ? "upgrade" : r.keepalive ? "keep-alive" : "close";
            case "keep_alive":
                long timeout = r.keepalive && r instanceof RequestFacts f ? f.keepaliveHeader() : 0;
                return timeout > 0 ? "timeout=" + timeout : null;
            case "transfer_encoding":
                return r.chunked ? "chunked" : null;
            default:
                HttpHeaders.Entry own = ownEntry(out, header);
                return own != null ? join(own, ", ") : unknownHeader(out.headers, header, ", ");
        }
    }

    private static HttpHeaders.Entry ownEntry(HeadersOut out, String header) {
        HttpHeaders.Entry e = switch (header) {
            case "location" -> out.location;
            case "etag" -> out.etag;
            case "content_encoding" -> out.contentEncoding;
            case "accept_ranges" -> out.acceptRanges;
            case "content_range" -> out.contentRange;
            case "expires" -> out.expires;
            case "cache_control" -> out.cacheControl;
            case "www_authenticate" -> out.wwwAuthenticate;
            default -> null;
        };
        return e == null || e.removed && e.next == null ? null : e;
    }

    /**
     * nginx's {@code ngx_http_variable_unknown_header()}: every line whose name matches, lower case with
     * {@code -} read as {@code _}, joined with {@code sep}.
     *
     * @param headers the header lines
     * @param var the name to match, lower case with {@code _}
     * @param sep the separator of repeated lines
     * @return the value, or null when no line matches
     */
    public static String unknownHeader(HttpHeaders headers, String var, String sep) {
        String first = null;
        StringBuilder joined = null;
        for (HttpHeaders.Entry e : headers.entries()) {
            if (e.removed || !matches(e.lowcaseName, var)) {
                continue;
            }
            if (first == null) {
                first = e.value;
                continue;
            }
            if (joined == null) {
                joined = new StringBuilder(first);
            }
            joined.append(sep).append(e.value);
        }
        return joined != null ? joined.toString() : first;
    }

    private static boolean matches(String lowcaseName, String var) {
        if (lowcaseName.length() != var.length()) {
            return false;
        }
        for (int i = 0; i < var.length(); i++) {
            char c = lowcaseName.charAt(i);
            if ((c == '-' ? '_' : c) != var.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Joins a line and the lines chained after it (nginx's {@code ngx_http_variable_headers_internal()}).
     *
     * @param first the first line, or null
     * @param sep the separator
     * @return the value, or null when there is no line left
     */
    public static String join(HttpHeaders.Entry first, String sep) {
        String value = null;
        StringBuilder joined = null;
        for (HttpHeaders.Entry e = first; e != null; e = e.next) {
            if (e.removed) {
                continue;
            }
            if (value == null) {
                value = e.value;
            } else {
                if (joined == null) {
                    joined = new StringBuilder(value);
                }
                joined.append(sep).append(e.value);
            }
        }
        return joined != null ? joined.toString() : value;
    }

    /**
     * {@code $http_cookie}: every {@code Cookie} line, joined with {@code "; "}.
     *
     * @param r the request
     * @param name ignored
     * @return the value, or null
     */
    public static String cookies(HttpRequest r, String name) {
        return join(cookieLines(r), "; ");
    }

    private static HttpHeaders.Entry cookieLines(HttpRequest r) {
        return r.headersIn.cookie != null ? r.headersIn.cookie : r.headersIn.headers.entry("cookie");
    }

    /**
     * {@code $cookie_*}: the value of the named cookie.
     *
     * @param r the request
     * @param name the variable's name, {@code cookie_sid}
     * @return the value, or null
     */
    public static String cookie(HttpRequest r, String name) {
        return cookie(cookieLines(r), name.substring("cookie_".length()));
    }

    /**
     * Finds a cookie in {@code Cookie} lines: nginx's {@code ngx_http_parse_multi_header_lines()}, as the parser
     * implements it.
     *
     * @param lines the first {@code Cookie} line, the others chained through {@code next}
     * @param name the cookie's name
     * @return the value, or null
     */
    public static String cookie(HttpHeaders.Entry lines, String name) {
        return name.isEmpty() ? null : HttpParser.parseMultiHeaderValue(lines, name);
    }

    /**
     * {@code $arg_*}: the value of the named argument.
     *
     * @param r the request
     * @param name the variable's name, {@code arg_page}
     * @return the value, or null
     */
    public static String argument(HttpRequest r, String name) {
        String arg = name.substring("arg_".length());
        return arg.isEmpty() ? null : arg(r.args, arg);
    }

    /**
     * Finds an argument: nginx's {@code ngx_http_arg()}, as the parser implements it.
     *
     * @param args the arguments, or null
     * @param name the argument's name
     * @return the value, or null when absent
     */
    public static String arg(String args, String name) {
        return HttpParser.arg(args, name);
    }

    /**
     * {@code $content_length}: the {@code Content-Length} line, or the length the core knows the body has.
     *
     * @param r the request
     * @param name ignored
     * @return the value, or null
     */
    public static String contentLength(HttpRequest r, String name) {
        if (r.headersIn.contentLength != null) {
            return r.headersIn.contentLength.value;
        }
        return r.headersIn.contentLengthN >= 0 ? Long.toString(r.headersIn.contentLengthN) : null;
    }

    /**
     * {@code $content_type}: the request's {@code Content-Type} line(s).
     *
     * @param r the request
     * @param name ignored
     * @return the value, or null
     */
    public static String contentType(HttpRequest r, String name) {
        HttpHeaders.Entry e = r.headersIn.contentType;
        return e != null ? join(e, ", ") : join(r.headersIn.headers.entry("content-type"), ", ");
    }

    /**
     * {@code $host}: the {@code Host} (or the request line's host), lower case without the port; otherwise the
     * server's name.
     *
     * @param r the request
     * @param name ignored
     * @return the value
     */
    public static String host(HttpRequest r, String name) {
        String server = r.headersIn.server;
        if (server != null && !server.isEmpty()) {
            return server;
        }
        return r instanceof RequestFacts f ? nonNull(f.serverName()) : "";
    }

    /**
     * {@code $remote_user}: the user name of an {@code Authorization: Basic} header, as nginx's
     * {@code ngx_http_auth_basic_user()} decodes it whether or not {@code auth_basic} is on.
     *
     * @param r the request
     * @param name ignored
     * @return the user, or null
     */
    public static String remoteUser(HttpRequest r, String name) {
        String auth = basicCredentials(r);
        return auth == null ? null : auth.substring(0, auth.indexOf(':'));
    }

    /**
     * Decodes the credentials of an {@code Authorization: Basic} header: nginx's {@code ngx_http_auth_basic_user()}.
     *
     * @param r the request
     * @return {@code user:password}, with a user of at least one character, or null when there are none
     */
    public static String basicCredentials(HttpRequest r) {
        HttpHeaders.Entry e = r.headersIn.authorization != null ? r.headersIn.authorization
            : r.headersIn.headers.entry("authorization");
        if (e == null) {
            return null;
        }
        String v = e.value;
        if (v.length() < 6 || !v.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        int p = 6;
        while (p < v.length() && v.charAt(p) == ' ') {
            p++;
        }
        String auth = decodeBase64(v.substring(p));
        return auth == null || auth.indexOf(':') <= 0 ? null : auth;
    }

    /**
     * Decodes base64 as nginx's {@code ngx_decode_base64()}: the standard alphabet, anything after the first
     * {@code =} ignored, a stray character or a length of 4n+1 refused.
     *
     * @param src the encoded text
     * @return the decoded bytes as ISO-8859-1 text, or null when invalid or empty
     */
    public static String decodeBase64(String src) {
        return decodeBase64(src, false);
    }

    /**
     * Decodes base64 as nginx's {@code ngx_decode_base64url()} with {@code url} (the alphabet with {@code -} and
     * {@code _}), otherwise as {@link #decodeBase64(String)}.
     *
     * @param src the encoded text
     * @param url the URL-safe alphabet
     * @return the decoded bytes as ISO-8859-1 text, or null when invalid or empty
     */
    public static String decodeBase64(String src, boolean url) {
        int len = 0;
        while (len < src.length() && src.charAt(len) != '=') {
            if (base64(src.charAt(len), url) < 0) {
                return null;
            }
            len++;
        }
        if (len == 0 || len % 4 == 1) {
            return null;
        }
        StringBuilder out = new StringBuilder(len * 3 / 4);
        int i = 0;
        for (; len - i > 3; i += 4) {
            int a = base64(src.charAt(i), url);
            int b = base64(src.charAt(i + 1), url);
            int c = base64(src.charAt(i + 2), url);
            int d = base64(src.charAt(i + 3), url);
            out.append((char) ((a << 2 | b >> 4) & 0xff));
            out.append((char) ((b << 4 | c >> 2) & 0xff));
            out.append((char) ((c << 6 | d) & 0xff));
        }
        if (len - i > 1) {
            int a = base64(src.charAt(i), url);
            int b = base64(src.charAt(i + 1), url);
            out.append((char) ((a << 2 | b >> 4) & 0xff));
            if (len - i > 2) {
                int c = base64(src.charAt(i + 2), url);
                out.append((char) ((b << 4 | c >> 2) & 0xff));
            }
        }
        return out.toString();
    }

    private static int base64(char c, boolean url) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (url) {
            return c == '-' ? 62 : c == '_' ? 63 : -1;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    }

    static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
