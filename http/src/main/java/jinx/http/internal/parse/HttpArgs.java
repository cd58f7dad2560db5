package jinx.http.internal.parse;

import jinx.http.HttpHeaders;

import static jinx.http.internal.parse.UriChars.lower;
import static jinx.http.internal.parse.UriChars.usual;

/**
 * Arguments, cookies and URIs from configuration or upstreams: nginx's {@code ngx_http_arg()},
 * {@code ngx_http_split_args()}, {@code ngx_http_parse_unsafe_uri()},
 * {@code ngx_http_parse_multi_header_lines()} and {@code ngx_http_parse_set_cookie_lines()}. Their input is text
 * already cut from the buffers, one char per byte.
 */
final class HttpArgs {

    private HttpArgs() {
    }

    /** nginx's {@code ngx_http_arg()}. */
    static String arg(String args, String name) {
        int len = name.length();
        if (args == null || args.isEmpty() || len == 0) {
            return null;
        }
        int last = args.length();
        for (int p = 0; p < last; p++) {
            // we need '=' after name, so the name must end before the last byte
            p = strlcasestrn(args, p, last - 1, name);
            if (p < 0) {
                return null;
            }
            if ((p == 0 || args.charAt(p - 1) == '&') && args.charAt(p + len) == '=') {
                int value = p + len + 1;
                int amp = args.indexOf('&', value);
                return args.substring(value, amp < 0 ? last : amp);
            }
        }
        return null;
    }

    /**
     * nginx's {@code ngx_strlcasestrn()}: the first index from {@code from} where {@code name} starts (ASCII case
     * ignored) and ends before {@code last}, or -1.
     */
    private static int strlcasestrn(String s, int from, int last, String name) {
        int n = name.length();
        for (int i = from; i + n <= last; i++) {
            if (regionEqualsIgnoreAsciiCase(s, i, name)) {
                return i;
            }
        }
        return -1;
    }

    /** nginx's {@code ngx_http_split_args()}. */
    static UriArgs splitArgs(String uri) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return new UriArgs(uri, "");
        }
        return new UriArgs(uri.substring(0, q), uri.substring(q + 1));
    }

    /** nginx's {@code ngx_http_parse_unsafe_uri()}; null for its {@code NGX_ERROR}. */
    static UriArgs parseUnsafeUri(String uri) {
        int len = uri.length();
        if (len == 0 || uri.charAt(0) == '?' || dotDot(uri, 0, len)) {
            return null;
        }

        boolean quoted = false;
        String args = null;
        int uriLen = len;

        for (int i = 0; i < len; i++) {
            char ch = uri.charAt(i);
            if (ch == '%') {
                quoted = true;
                continue;
            }
            if (usual(ch)) {
                continue;
            }
            if (ch == '?') {
                args = uri.substring(i + 1);
                uriLen = i;
                break;
            }
            if (ch == '\0') {
                return null;
            }
            // detect "/../" and "/.."
            if (ch == '/' && dotDot(uri, i + 1, len)) {
                return null;
            }
        }

        String path = uri.substring(0, uriLen);
        if (!quoted) {
            return new UriArgs(path, args);
        }

        path = unescape(path);
        len = path.length();
        if (len > 0 && dotDot(path, 0, len)) {
            return null;
        }
        for (int i = 0; i < len; i++) {
            char ch = path.charAt(i);
            if (ch == '\0' || (ch == '/' && dotDot(path, i + 1, len))) {
                return null;
            }
        }
        return new UriArgs(path, args);
    }

    /** Tells whether {@code ..} starts at {@code i} and ends the string or a segment. */
    private static boolean dotDot(String s, int i, int len) {
        return i + 1 < len && s.charAt(i) == '.' && s.charAt(i + 1) == '.' && (i + 2 == len || s.charAt(i + 2) == '/');
    }

    /**
     * nginx's {@code ngx_unescape_uri()} with type 0: {@code %XX} becomes its byte; a {@code %} not followed by a
     * hex digit is dropped, and a {@code %X} not followed by one is dropped with the byte after it.
     */
    private static String unescape(String s) {
        char[] d = new char[s.length()];
        int w = 0;
        int state = 0;
        int decoded = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            int h = hex(ch);
            if (state == 0) {
                if (ch == '%') {
                    state = 1;
                } else {
                    d[w++] = ch;
                }
            } else if (state == 1) {
                if (h >= 0) {
                    decoded = h;
                    state = 2;
                } else {
                    state = 0;
                    d[w++] = ch;
                }
            } else {
                state = 0;
                if (h >= 0) {
                    d[w++] = (char) ((decoded << 4) + h);
                }
            }
        }
        return new String(d, 0, w);
    }

    private static int hex(char ch) {
        if (ch >= '0' && ch <= '9') {
            return ch - '0';
        }
        int c = ch | 0x20;
        return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    }

    /** nginx's {@code ngx_http_parse_multi_header_lines()} without a value: a line holding the token. */
    static HttpHeaders.Entry multiHeaderLine(HttpHeaders.Entry headers, String name) {
        for (HttpHeaders.Entry h = headers; h != null; h = h.next) {
            String v = h.value;
            int end = v.length();
            if (h.removed || name.length() > end) {
                continue;
            }
            int start = 0;
            while (start < end) {
                if (regionEqualsIgnoreAsciiCase(v, start, name)) {
                    start = spaces(v, start + name.length(), end);
                    if (start == end || v.charAt(start) == ',') {
                        return h;
                    }
                }
                start = skip(v, start, end);
            }
        }
        return null;
    }

    /** nginx's {@code ngx_http_parse_multi_header_lines()} with a value: {@code name=value}'s value, or null. */
    static String multiHeaderValue(HttpHeaders.Entry headers, String name) {
        for (HttpHeaders.Entry h = headers; h != null; h = h.next) {
            String v = h.value;
            int end = v.length();
            if (h.removed || name.length() > end) {
                continue;
            }
            int start = 0;
            while (start < end) {
                if (regionEqualsIgnoreAsciiCase(v, start, name)) {
                    start = spaces(v, start + name.length(), end);
                    // the invalid header value (no '=') is skipped, the byte looked at included
                    if (start < end && v.charAt(start++) == '=') {
                        start = spaces(v, start, end);
                        int last = v.indexOf(';', start);
                        return v.substring(start, last < 0 ? end : last);
                    }
                }
                start = skip(v, start, end);
            }
        }
        return null;
    }

    /** nginx's {@code ngx_http_parse_set_cookie_lines()}: the value of the cookie a Set-Cookie line sets. */
    static String setCookieValue(HttpHeaders.Entry headers, String name) {
        for (HttpHeaders.Entry h = headers; h != null; h = h.next) {
            String v = h.value;
            int end = v.length();
            if (h.removed || name.length() >= end || !regionEqualsIgnoreAsciiCase(v, 0, name)) {
                continue;
            }
            int start = spaces(v, name.length(), end);
            if (start == end || v.charAt(start++) != '=') {
                continue;
            }
            start = spaces(v, start, end);
            int last = v.indexOf(';', start);
            return v.substring(start, last < 0 ? end : last);
        }
        return null;
    }

    /** nginx's {@code skip:} label: past the next ';' or ',' and the spaces after it. */
    private static int skip(String v, int start, int end) {
        while (start < end) {
            char ch = v.charAt(start++);
            if (ch == ';' || ch == ',') {
                break;
            }
        }
        return spaces(v, start, end);
    }

    private static int spaces(String v, int start, int end) {
        while (start < end && v.charAt(start) == ' ') {
            start++;
        }
        return start;
    }

    /** nginx's {@code ngx_strncasecmp(s + i, name, len) == 0}, which folds ASCII letters only. */
    private static boolean regionEqualsIgnoreAsciiCase(String s, int i, String name) {
        int n = name.length();
        if (i + n > s.length()) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (lower(s.charAt(i + k)) != lower(name.charAt(k))) {
                return false;
            }
        }
        return true;
    }
}
