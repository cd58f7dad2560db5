package jinx.http.internal.modules;

import java.nio.ByteBuffer;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;

/**
 * The helpers of nginx's {@code ngx_http_core_module.c} and {@code ngx_http_request.h} that the content modules and
 * filters share: {@code ngx_http_set_content_type()}, {@code ngx_http_set_etag()}, {@code ngx_http_send_response()},
 * {@code ngx_http_filter_finalize_request()}, the {@code ngx_http_clear_*()} macros and
 * {@code ngx_http_set_exten()}.
 */
public final class CoreOutput {

    /** nginx's {@code NGX_HTTP_RANGE_NOT_SATISFIABLE}. */
    static final int RANGE_NOT_SATISFIABLE = 416;
    /** nginx's {@code NGX_HTTP_PRECONDITION_FAILED}. */
    static final int PRECONDITION_FAILED = 412;
    /** nginx's {@code NGX_HTTP_PARTIAL_CONTENT}. */
    static final int PARTIAL_CONTENT = 206;
    /** nginx's {@code NGX_HTTP_NOT_MODIFIED}. */
    static final int NOT_MODIFIED = 304;
    /** nginx's {@code NGX_HTTP_SPECIAL_RESPONSE}: 3xx and up are answered with a page. */
    static final int SPECIAL_RESPONSE = 300;
    /** nginx's {@code NGX_HTTP_BAD_REQUEST}. */
    static final int BAD_REQUEST = 400;
    /** nginx's {@code NGX_HTTP_INTERNAL_SERVER_ERROR}. */
    static final int INTERNAL_SERVER_ERROR = 500;

    private CoreOutput() {
    }

    /**
     * nginx's {@code ngx_http_set_content_type()}: unless a type is set, the type of the URI's extension in
     * {@code types} (compared in lower case), else {@code default_type}.
     *
     * @param r the request
     */
    public static void setContentType(HttpRequest r) {
        HeadersOut h = r.headersOut;
        if (h.contentType != null && !h.contentType.isEmpty()) {
            return;
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (!r.exten.isEmpty() && clcf.types != null) {
            String type = clcf.types.get(lowerAscii(r.exten));
            if (type != null) {
                h.contentType = type;
                return;
            }
        }
        h.contentType = clcf.defaultType;
    }

    /**
     * nginx's {@code ngx_http_set_etag()}: with {@code etag on}, {@code "<mtime hex>-<length hex>"}.
     *
     * @param r the request, its last-modified time and length set
     */
    static void setEtag(HttpRequest r) {
        if (CoreConfs.loc(r).etag != 1) {
            return;
        }
        HeadersOut h = r.headersOut;
        h.etag = h.headers.add("ETag", etag(h.lastModifiedTime, h.contentLengthN));
    }

    /** An entity tag made for a modification time and a length. */
    private record Etag(long mtime, long length, String value) {
    }

    /** Entity tags made lately, a direct-mapped table: a file served again gets the same string. */
    private static final Etag[] ETAGS = new Etag[256];

    private static String etag(long mtime, long length) {
        int slot = (int) ((mtime * 31 + length) & (ETAGS.length - 1));
        Etag e = ETAGS[slot];
        if (e != null && e.mtime == mtime && e.length == length) {
            return e.value;
        }
        String value = "\"" + Long.toHexString(mtime) + "-" + Long.toHexString(length) + "\"";
        ETAGS[slot] = new Etag(mtime, length, value);
        return value;
    }

    /**
     * nginx's {@code ngx_http_clear_location()} and a new {@code Location} line.
     *
     * @param r the request
     * @param value the value
     */
    static void setLocation(HttpRequest r, String value) {
        clearLocation(r);
        r.headersOut.location = r.headersOut.headers.add("Location", value);
    }

    /**
     * nginx's {@code ngx_http_clear_location()}.
     *
     * @param r the request
     */
    static void clearLocation(HttpRequest r) {
        if (r.headersOut.location != null) {
            r.headersOut.location.removed = true;
            r.headersOut.location = null;
        }
    }

    /**
     * nginx's {@code ngx_http_clear_accept_ranges()}.
     *
     * @param r the request
     */
    static void clearAcceptRanges(HttpRequest r) {
        r.allowRanges = false;
        if (r.headersOut.acceptRanges != null) {
            r.headersOut.acceptRanges.removed = true;
            r.headersOut.acceptRanges = null;
        }
    }

    /**
     * nginx's {@code ngx_http_set_exten()}: the extension of the URI's last segment.
     *
     * @param r the request
     */
    static void setExten(HttpRequest r) {
        String uri = r.uri;
        r.exten = "";
        for (int i = uri.length() - 1; i > 1; i--) {
            char ch = uri.charAt(i);
            if (ch == '.' && uri.charAt(i - 1) != '/') {
                r.exten = uri.substring(i + 1);
                return;
            }
            if (ch == '/') {
                return;
            }
        }
    }

    /**
     * nginx's {@code ngx_http_send_response()}: a redirect status sets {@code Location} to the text and answers
     * the status (the core sends its page); any other sends the text as the body, typed by
     * {@link #setContentType}.
     *
     * @param r the request
     * @param status the status
     * @param text the text or URL, or null for none
     * @return the status of a redirect, or what sending answers
     */
    static int sendResponse(HttpRequest r, int status, ComplexValue text) {
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.status = status;
        String val = text == null ? "" : text.evaluate(r);
        if (isRedirect(status)) {
            setLocation(r, val);
            return status;
        }
        r.headersOut.contentLengthN = val.length();
        setContentType(r);
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        // made once the header is out: a header-only response never takes pooled memory it would not give back
        Buf b = text(val);
        b.last = true;
        b.lastInChain = true;
        BufferPool pool = BufferPool.current();
        BufChain cl = pool.link(b);
        rc = r.outputFilter(cl);
        pool.free(cl);
        return rc;
    }

    /**
     * Tells whether a status is one of the redirects {@code return} and {@code error_page} give a
     * {@code Location}: 301, 302, 303, 307, 308.
     *
     * @param status the status
     * @return true for a redirect
     */
    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /**
     * nginx's {@code ngx_http_filter_finalize_request(r, NULL, error)}: a header filter gives up the response
     * being built and answers {@code error} with its page instead; the connection is closed afterwards, as
     * nginx's {@code NGX_ERROR} makes it.
     *
     * @param r the request
     * @param error the status
     * @return {@link Rc#ERROR}, for the filter to return
     */
    static int filterFinalize(HttpRequest r, int error) {
        cleanHeader(r.headersOut);
        if (r instanceof CoreRequest cr) {
            cr.filterFinalize = true;
        }
        r.finalizeRequest(error);
        return Rc.ERROR;
    }

    /** nginx's {@code ngx_http_clean_header()}. */
    private static void cleanHeader(HeadersOut h) {
        h.status = 0;
        h.statusLine = null;
        h.contentType = null;
        h.charset = null;
        h.contentLengthN = -1;
        h.lastModifiedTime = -1;
        h.location = null;
        h.etag = null;
        h.contentEncoding = null;
        h.acceptRanges = null;
        h.contentRange = null;
        h.expires = null;
        h.cacheControl = null;
        h.wwwAuthenticate = null;
        h.headers.clear();
    }

    /**
     * A memory buffer holding a string's chars as bytes (ISO-8859-1, as configuration text and URIs are kept).
     *
     * @param text the text
     * @return the buffer, read-only for filters
     */
    static Buf memory(String text) {
        ByteBuffer b = ByteBuffer.allocateDirect(text.length());
        for (int i = 0, n = text.length(); i < n; i++) {
            b.put((byte) text.charAt(i));
        }
        return Buf.of(b.flip());
    }

    /** Texts up to this length are copied into the loop's pooled output memory. */
    private static final int MAX_POOLED_TEXT = 4096;

    /**
     * A buffer holding a response's text, for the write filter to release once sent: pooled output memory for a
     * short text (a copy is cheaper than new direct memory per response), else {@link #memory(String)}.
     *
     * @param text the text
     * @return the buffer
     */
    static Buf text(String text) {
        int n = text.length();
        if (n > MAX_POOLED_TEXT) {
            return memory(text);
        }
        Buf b = OutBufs.temp(n);
        ByteBuffer mem = b.mem;
        for (int i = 0; i < n; i++) {
            mem.put((byte) text.charAt(i));
        }
        mem.flip();
        return b;
    }

    /**
     * Logs a line about a request with an errno's text, as {@code ngx_log_error(level, log, err, ...)}.
     *
     * @param r the request
     * @param level the level
     * @param errno the error number, 0 for none
     * @param message the message
     */
    static void log(HttpRequest r, LogLevel level, int errno, String message) {
        if (r instanceof CoreRequest cr) {
            cr.log(level, errno, message);
            return;
        }
        String text = errno == 0 ? message : message + " (" + errno + ": " + Errors.text(errno) + ")";
        r.log().log(level, r.connection().number, text);
    }

    /** Lower-cases A to Z only, as nginx's {@code ngx_hash_strlow()}. */
    static String lowerAscii(String s) {
        char[] chars = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (chars == null) {
                    chars = s.toCharArray();
                }
                chars[i] = (char) (c | 0x20);
            }
        }
        return chars == null ? s : new String(chars);
    }
}
