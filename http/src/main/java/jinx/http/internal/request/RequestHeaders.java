package jinx.http.internal.request;

import java.util.Locale;

import jinx.http.HeadersIn;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.Servers;
import jinx.http.internal.parse.HttpParser;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * The request's header lines: nginx's {@code ngx_http_headers_in[]} with its handlers
 * ({@code ngx_http_process_header_line()}, {@code ngx_http_process_unique_header_line()},
 * {@code ngx_http_process_host()}, {@code ngx_http_process_connection()}, {@code ngx_http_process_user_agent()}),
 * the checks of the whole header ({@code ngx_http_process_request_header()}), {@code ngx_http_validate_host()} and
 * {@code ngx_http_set_virtual_server()}.
 */
public final class RequestHeaders {

    private RequestHeaders() {
    }

    /**
     * Adds the header line just parsed to the request and runs its handler.
     *
     * @param r the request
     * @return {@link Rc#OK}, or {@link Rc#ERROR} when the request was finished (a duplicate, an invalid host)
     */
    static int processHeaderLine(CoreRequest r) {
        String name = HttpParser.headerName(r.parse, r.headerIn);
        String value = HttpParser.headerValue(r.parse, r.headerIn);
        HttpHeaders.Entry h = r.headersIn.headers.add(name, value);
        HeadersIn in = r.headersIn;
        switch (h.lowcaseName) {
            case "host":
                return host(r, h);
            case "connection":
                return connection(r, h);
            case "if-modified-since":
                if (in.ifModifiedSince != null) {
                    return duplicate(r, h, in.ifModifiedSince);
                }
                in.ifModifiedSince = h;
                return Rc.OK;
            case "if-unmodified-since":
                if (in.ifUnmodifiedSince != null) {
                    return duplicate(r, h, in.ifUnmodifiedSince);
                }
                in.ifUnmodifiedSince = h;
                return Rc.OK;
            case "if-match":
                if (in.ifMatch != null) {
                    return duplicate(r, h, in.ifMatch);
                }
                in.ifMatch = h;
                return Rc.OK;
            case "if-none-match":
                if (in.ifNoneMatch != null) {
                    return duplicate(r, h, in.ifNoneMatch);
                }
                in.ifNoneMatch = h;
                return Rc.OK;
            case "user-agent":
                return userAgent(r, h);
            case "referer":
                if (in.referer == null) {
                    in.referer = h;
                }
                return Rc.OK;
            case "content-length":
                if (in.contentLength != null) {
                    return duplicate(r, h, in.contentLength);
                }
                in.contentLength = h;
                return Rc.OK;
            case "content-range":
                HttpHeaders.Entry range = in.headers.entry("content-range");
                return range != h ? duplicate(r, h, range) : Rc.OK;
            case "content-type":
                if (in.contentType == null) {
                    in.contentType = h;
                }
                return Rc.OK;
            case "range":
                if (in.range == null) {
                    in.range = h;
                }
                return Rc.OK;
            case "if-range":
                if (in.ifRange != null) {
                    return duplicate(r, h, in.ifRange);
                }
                in.ifRange = h;
                return Rc.OK;
            case "transfer-encoding":
                if (in.transferEncoding != null) {
                    return duplicate(r, h, in.transferEncoding);
                }
                in.transferEncoding = h;
                return Rc.OK;
            case "expect":
                if (in.expect != null) {
                    return duplicate(r, h, in.expect);
                }
                in.expect = h;
                return Rc.OK;
            case "authorization":
                if (in.authorization != null) {
                    return duplicate(r, h, in.authorization);
                }
                in.authorization = h;
                return Rc.OK;
            case "x-forwarded-for":
                if (in.xForwardedFor == null) {
                    in.xForwardedFor = h;
                }
                return Rc.OK;
            case "cookie":
                if (in.cookie == null) {
                    in.cookie = h;
                }
                return Rc.OK;
            default:
                return Rc.OK;
        }
    }

    /**
     * nginx's {@code ngx_http_process_unique_header_line()} for a second line of a header that must be single:
     * 400.
     */
    private static int duplicate(CoreRequest r, HttpHeaders.Entry h, HttpHeaders.Entry previous) {
        r.log(LogLevel.INFO, "client sent duplicate header line: \"" + h.name + ": " + h.value
            + "\", previous value: \"" + previous.name + ": " + previous.value + "\"");
        r.finalizeRequest(HttpStatus.BAD_REQUEST);
        return Rc.ERROR;
    }

    /** nginx's {@code ngx_http_process_host()}. */
    private static int host(CoreRequest r, HttpHeaders.Entry h) {
        HeadersIn in = r.headersIn;
        if (in.host != null) {
            r.log(LogLevel.INFO, "client sent duplicate host header: \"" + h.name + ": " + h.value
                + "\", previous value: \"" + in.host.name + ": " + in.host.value + "\"");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        in.host = h;
        String host = validateHost(h.value);
        if (host == null) {
            r.log(LogLevel.INFO, "client sent invalid host header");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        if (in.server != null) {
            return Rc.OK;
        }
        if (setVirtualServer(r, host) == Rc.ERROR) {
            return Rc.ERROR;
        }
        in.server = host;
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_process_connection()}: {@code close} anywhere in the value wins. */
    private static int connection(CoreRequest r, HttpHeaders.Entry h) {
        String v = h.value.toLowerCase(Locale.ROOT);
        if (r.headersIn.connection == null) {
            r.headersIn.connection = h;
        }
        if (v.contains("close")) {
            r.headersIn.connectionType = HeadersIn.CONNECTION_CLOSE;
        } else if (v.contains("keep-alive")) {
            r.headersIn.connectionType = HeadersIn.CONNECTION_KEEP_ALIVE;
        }
        return Rc.OK;
    }

    /** The flags of a {@code User-Agent} value: {@link #browsers}. */
    private static final int MSIE = 1;
    private static final int MSIE6 = 2;
    private static final int OPERA = 4;
    private static final int GECKO = 8;
    private static final int CHROME = 16;
    private static final int SAFARI = 32;
    private static final int KONQUEROR = 64;

    /** A {@code User-Agent} value and its flags. */
    private record Browsers(String ua, int flags) {
    }

    /**
     * {@code User-Agent} values seen and their flags, a direct-mapped table on the value's hash: a client sends the
     * same value on each request, and the parser gives the same bytes as the same string, so one comparison of
     * references (or of the values, for a string made anew) replaces up to seven searches of a value of a hundred
     * bytes or more, and a repeated value allocates nothing. Entries are immutable and
     * published whole, so loops may share the table without a lock: a race costs a search, never wrong flags.
     */
    private static final Browsers[] BROWSERS = new Browsers[64];

    /** nginx's {@code ngx_http_process_user_agent()}: the browsers nginx works around. */
    private static int userAgent(CoreRequest r, HttpHeaders.Entry h) {
        if (r.headersIn.userAgent != null) {
            return Rc.OK;
        }
        r.headersIn.userAgent = h;
        String ua = h.value;
        int slot = ua.hashCode() & (BROWSERS.length - 1);
        Browsers known = BROWSERS[slot];
        int flags;
        // equal but not the same string: a value the string cache does not keep (over 256 bytes, or evicted)
        if (known != null && (known.ua == ua || known.ua.equals(ua))) {
            flags = known.flags;
        } else {
            flags = browsers(ua);
            BROWSERS[slot] = new Browsers(ua, flags);
        }
        r.msie = (flags & MSIE) != 0;
        r.msie6 = (flags & MSIE6) != 0;
        r.opera = (flags & OPERA) != 0;
        r.gecko = (flags & GECKO) != 0;
        r.chrome = (flags & CHROME) != 0;
        r.safari = (flags & SAFARI) != 0;
        r.konqueror = (flags & KONQUEROR) != 0;
        return Rc.OK;
    }

    /** The browsers a {@code User-Agent} value names, as nginx tells them. */
    static int browsers(String ua) {
        int flags = 0;
        int msie = ua.indexOf("MSIE ");
        if (msie >= 0 && msie + 7 < ua.length()) {
            flags |= MSIE;
            if (ua.charAt(msie + 6) == '.') {
                char v = ua.charAt(msie + 5);
                if (v == '4' || v == '5') {
                    flags |= MSIE6;
                } else if (v == '6' && ua.indexOf("SV1", msie + 8) < 0) {
                    flags |= MSIE6;
                }
            }
        }
        if (ua.contains("Opera")) {
            flags = OPERA;
        }
        if ((flags & (MSIE | OPERA)) == 0) {
            if (ua.contains("Gecko/")) {
                flags |= GECKO;
            } else if (ua.contains("Chrome/")) {
                flags |= CHROME;
            } else if (ua.contains("Safari/") && ua.contains("Mac OS X")) {
                flags |= SAFARI;
            } else if (ua.contains("Konqueror")) {
                flags |= KONQUEROR;
            }
        }
        return flags;
    }

    /**
     * nginx's {@code ngx_http_process_request_header()}: the checks of the whole header.
     *
     * @param r the request
     * @return {@link Rc#OK}, or {@link Rc#ERROR} when the request was finished
     */
    static int processRequestHeader(CoreRequest r) {
        HeadersIn in = r.headersIn;
        if (in.server == null && setVirtualServer(r, "") == Rc.ERROR) {
            return Rc.ERROR;
        }
        if (in.host == null && r.httpVersion > HttpRequest.VERSION_10) {
            r.log(LogLevel.INFO, "client sent HTTP/1.1 request without \"Host\" header");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        if (in.contentLength != null) {
            in.contentLengthN = parseOffset(in.contentLength.value);
            if (in.contentLengthN == -1) {
                r.log(LogLevel.INFO, "client sent invalid \"Content-Length\" header");
                r.finalizeRequest(HttpStatus.BAD_REQUEST);
                return Rc.ERROR;
            }
        }
        if (in.transferEncoding != null && transferEncoding(r) != Rc.OK) {
            return Rc.ERROR;
        }
        if (in.connectionType == HeadersIn.CONNECTION_KEEP_ALIVE) {
            String ka = in.headers.get("keep-alive");
            if (ka != null) {
                r.keepAliveN = parseSeconds(ka);
            }
        }
        if (r.method == HttpRequest.CONNECT) {
            r.log(LogLevel.INFO, "client sent CONNECT method");
            r.finalizeRequest(HttpStatus.NOT_ALLOWED);
            return Rc.ERROR;
        }
        if (r.method == HttpRequest.TRACE) {
            r.log(LogLevel.INFO, "client sent TRACE method");
            r.finalizeRequest(HttpStatus.NOT_ALLOWED);
            return Rc.ERROR;
        }
        return Rc.OK;
    }

    private static int transferEncoding(CoreRequest r) {
        HeadersIn in = r.headersIn;
        if (r.httpVersion < HttpRequest.VERSION_11) {
            r.log(LogLevel.INFO, "client sent HTTP/1.0 request with \"Transfer-Encoding\" header");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        if (!in.transferEncoding.value.equalsIgnoreCase("chunked")) {
            r.log(LogLevel.INFO, "client sent unknown \"Transfer-Encoding\": \"" + in.transferEncoding.value + "\"");
            r.finalizeRequest(HttpStatus.NOT_IMPLEMENTED);
            return Rc.ERROR;
        }
        if (in.contentLength != null) {
            r.log(LogLevel.INFO, "client sent \"Content-Length\" and \"Transfer-Encoding\" headers at the same time");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        in.chunked = true;
        return Rc.OK;
    }

    /** nginx's {@code ngx_atoof()}: decimal digits only, no overflow; -1 otherwise. */
    static long parseOffset(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            int d = ch - '0';
            if (value >= Long.MAX_VALUE / 10 && (value > Long.MAX_VALUE / 10 || d > Long.MAX_VALUE % 10)) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    /** nginx's {@code ngx_atotm()}: as {@link #parseOffset}. */
    private static long parseSeconds(String s) {
        return parseOffset(s);
    }

    /**
     * nginx's {@code ngx_http_validate_host()} ({@link HostValidator}): the host without its port and trailing
     * dot, in lower case; null when it is invalid.
     *
     * @param host the host as sent
     * @return the host to look servers up with, or null
     */
    public static String validateHost(String host) {
        int slot = host.hashCode() & (HOSTS.length - 1);
        Host cached = HOSTS[slot];
        if (cached != null && cached.sent.equals(host)) {
            return cached.valid;
        }
        String valid = HostValidator.validate(host);
        HOSTS[slot] = new Host(host, valid);
        return valid;
    }

    /** A Host header's value and what {@link HostValidator#validate} made of it. */
    private record Host(String sent, String valid) {
    }

    /**
     * Hosts validated lately, a direct-mapped table shared by the loops (records are immutable: a race costs a
     * miss): clients send the same {@code Host: name:port} request after request, and cutting the port off made a
     * string every time.
     */
    private static final Host[] HOSTS = new Host[256];

    /**
     * nginx's {@code ngx_http_set_virtual_server()}: the server whose name is {@code host}, among those of the
     * connection's address; the request takes its confs and its error log.
     *
     * @param r the request
     * @param host the validated host, empty for none
     * @return {@link Rc#OK}, or {@link Rc#ERROR} when a regex failed (the request was closed with 500)
     */
    static int setVirtualServer(CoreRequest r, String host) {
        HttpCoreSrvConf cscf = Servers.find(r.hc.addrConf, host, r.captures);
        if (cscf == null) {
            RequestFinalizer.closeRequest(r, HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.ERROR;
        }
        r.srvConf = cscf.ctx.srvConf;
        r.locConf = cscf.ctx.locConf;
        setConnectionLog(r);
        return Rc.OK;
    }

    /** nginx's {@code ngx_set_connection_log(c, clcf->error_log)}: the location's error log for the connection. */
    static void setConnectionLog(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        ErrorLog log = clcf.errorLog;
        Connection c = r.c;
        // a warm-up connection keeps the silent log the warm-up gave it
        if (log == null || c.warmUp) {
            return;
        }
        c.log = log;
        c.read.log = log;
        c.write.log = log;
    }
}
