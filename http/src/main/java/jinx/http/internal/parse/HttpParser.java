package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.kernel.Rc;

/**
 * nginx's {@code src/http/ngx_http_parse.c}: the request line, header lines, URIs, status lines and chunked
 * bodies, parsed byte by byte from a {@link ByteBuffer}'s position to its limit, and the argument and cookie
 * lookups. The parsers are resumable: out of bytes mid-line, they save their state and position and answer
 * {@link Rc#AGAIN}; the caller reads more into the same buffer (its limit grows, positions stay valid) and calls
 * again. On success the buffer's position is past the line; on an error it is left where the call began.
 *
 * <p>Return codes are {@link Rc}'s and nginx's {@code NGX_HTTP_PARSE_*} below, with nginx's values; the request
 * code maps them to 400, 405 (none here), 505 and so on as {@code ngx_http_request.c} does.
 */
public final class HttpParser {

    /** The length of {@code HTTP/1.1}: a protocol this long at version 1.1 or 1.0 is that constant. */
    private static final int PROTOCOL_LENGTH = 8;

    /** The empty line ending the header: nginx's {@code NGX_HTTP_PARSE_HEADER_DONE}. */
    public static final int PARSE_HEADER_DONE = 1;
    /** A method that is not upper-case letters, {@code _} and {@code -}: {@code NGX_HTTP_PARSE_INVALID_METHOD}. */
    public static final int PARSE_INVALID_METHOD = 10;
    /** A malformed request line or URI: {@code NGX_HTTP_PARSE_INVALID_REQUEST} (400). */
    public static final int PARSE_INVALID_REQUEST = 11;
    /** An HTTP major version above 1: {@code NGX_HTTP_PARSE_INVALID_VERSION} (505). */
    public static final int PARSE_INVALID_VERSION = 12;
    /** An HTTP/0.9 request with a method other than GET: {@code NGX_HTTP_PARSE_INVALID_09_METHOD}. */
    public static final int PARSE_INVALID_09_METHOD = 13;
    /** A malformed header line: {@code NGX_HTTP_PARSE_INVALID_HEADER} (400). */
    public static final int PARSE_INVALID_HEADER = 14;

    /** The length of {@link HttpParseState#lowcaseHeader}: nginx's {@code NGX_HTTP_LC_HEADER_LEN}. */
    public static final int LC_HEADER_LEN = 32;

    private HttpParser() {
    }

    /**
     * Parses the request line, nginx's {@code ngx_http_parse_request_line()}. On {@link Rc#OK}, {@code r} holds
     * the method, the positions of the line's pieces, the URI's flags and the version.
     *
     * @param r the state, {@link HttpParseState#reset() reset} for a new request
     * @param b the buffer, from its position to its limit
     * @return {@link Rc#OK}, {@link Rc#AGAIN}, {@link #PARSE_INVALID_METHOD}, {@link #PARSE_INVALID_REQUEST},
     *     {@link #PARSE_INVALID_VERSION} or {@link #PARSE_INVALID_09_METHOD}
     */
    public static int parseRequestLine(HttpParseState r, ByteBuffer b) {
        return RequestLineParser.parse(r, b);
    }

    /**
     * Parses one header line, nginx's {@code ngx_http_parse_header_line()}. On {@link Rc#OK}, the name is
     * {@code headerNameStart..headerNameEnd}, the value {@code headerStart..headerEnd} and
     * {@link HttpParseState#invalidHeader} says whether nginx would ignore the line
     * ({@code ignore_invalid_headers}); on {@link #PARSE_INVALID_HEADER}, {@code headerEnd} is the offending
     * byte.
     *
     * @param r the state
     * @param b the buffer
     * @param allowUnderscores {@code underscores_in_headers}: an underscore in a name is then valid
     * @return {@link Rc#OK}, {@link Rc#AGAIN}, {@link #PARSE_HEADER_DONE} or {@link #PARSE_INVALID_HEADER}
     */
    public static int parseHeaderLine(HttpParseState r, ByteBuffer b, boolean allowUnderscores) {
        return HeaderLineParser.parse(r, b, allowUnderscores);
    }

    /**
     * Checks a URI and sets its flags ({@code complexUri}, {@code quotedUri}, {@code plusInUri},
     * {@code argsStart}, {@code uriExt}), nginx's {@code ngx_http_parse_uri()}.
     *
     * @param r the state, with {@code uriStart} and {@code uriEnd}
     * @param b the buffer
     * @return {@link Rc#OK} or {@link Rc#ERROR}
     */
    public static int parseUri(HttpParseState r, ByteBuffer b) {
        return UriParser.parse(r, b);
    }

    /**
     * Decodes and normalises the URI {@code uriStart..uriEnd}, nginx's {@code ngx_http_parse_complex_uri()}:
     * sets {@code r.uri}, {@code r.exten} (when the last segment has a dot), and either {@code r.args} (when a
     * {@code #} ends the arguments) or {@code r.argsStart} (for the caller to take the arguments to
     * {@code uriEnd}). {@link #processRequestUri} does all that.
     *
     * @param r the state
     * @param b the buffer; a byte after {@code uriEnd} is read, as nginx does, but never used
     * @param mergeSlashes {@code merge_slashes}
     * @return {@link Rc#OK} or {@link #PARSE_INVALID_REQUEST}
     */
    public static int parseComplexUri(HttpParseState r, ByteBuffer b, boolean mergeSlashes) {
        return ComplexUriParser.parse(r, b, mergeSlashes);
    }

    /**
     * Makes the request's URI strings from a parsed request line, the URI part of nginx's
     * {@code ngx_http_process_request_uri()}: {@code r.uri} (decoded and normalised when it has to be),
     * {@code r.unparsedUri}, {@code r.validUnparsedUri}, {@code r.args} and {@code r.exten}. On
     * {@link #PARSE_INVALID_REQUEST}, nginx logs "client sent invalid request" at info and answers 400.
     *
     * @param r the state after {@link #parseRequestLine} answered {@link Rc#OK}
     * @param b the buffer
     * @param mergeSlashes {@code merge_slashes}
     * @return {@link Rc#OK} or {@link #PARSE_INVALID_REQUEST}
     */
    public static int processRequestUri(HttpParseState r, ByteBuffer b, boolean mergeSlashes) {
        return ComplexUriParser.processRequestUri(r, b, mergeSlashes);
    }

    /**
     * Decodes and normalises a URI given as text, as a request line's would be (a convenience over
     * {@link #parseUri} and {@link #processRequestUri}, copying the text into a small buffer).
     *
     * @param uri the URI, one char per byte, starting with {@code /}
     * @param mergeSlashes {@code merge_slashes}
     * @return the decoded path, or null when nginx would refuse the URI
     */
    public static String normalizeUri(String uri, boolean mergeSlashes) {
        byte[] bytes = uri.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(bytes.length + 1).put(bytes).put((byte) '\n').flip();
        HttpParseState r = new HttpParseState();
        r.uriStart = 0;
        r.uriEnd = bytes.length;
        if (UriParser.parse(r, b) != Rc.OK || ComplexUriParser.processRequestUri(r, b, mergeSlashes) != Rc.OK) {
            return null;
        }
        return r.uri;
    }

    /**
     * Parses an upstream's status line, nginx's {@code ngx_http_parse_status_line()}.
     *
     * @param r the state (its {@code state}, {@code httpMajor} and {@code httpMinor} are used)
     * @param b the buffer
     * @param status the status found, {@link StatusLine#reset() reset} for a new response
     * @return {@link Rc#OK}, {@link Rc#AGAIN} or {@link Rc#ERROR} (not a status line)
     */
    public static int parseStatusLine(HttpParseState r, ByteBuffer b, StatusLine status) {
        return StatusLineParser.parse(r, b, status);
    }

    /**
     * Parses a chunked body, nginx's {@code ngx_http_parse_chunked()}, skipping the trailer.
     *
     * @param ctx the chunked state
     * @param b the buffer
     * @return see {@link #parseChunked(ChunkedState, ByteBuffer, boolean)}
     */
    public static int parseChunked(ChunkedState ctx, ByteBuffer b) {
        return ChunkedParser.parse(ctx, b, false);
    }

    /**
     * Parses a chunked body, nginx's {@code ngx_http_parse_chunked()}. {@link Rc#OK}: chunk data starts at the
     * buffer's position, {@code ctx.size} bytes of it (some of which may be in later buffers); the caller consumes
     * it and calls again. {@link Rc#AGAIN}: the buffer is used up, {@code ctx.length} says how much at least is
     * still to come. {@link Rc#DONE}: the last chunk and the trailer are read, the position is past them.
     * {@link Rc#ERROR}: not a chunked body, or a chunk size beyond {@link Long#MAX_VALUE}.
     *
     * @param ctx the chunked state
     * @param b the buffer
     * @param keepTrailers stop after the last chunk's line and leave the trailer to be parsed as header lines
     * @return {@link Rc#OK}, {@link Rc#AGAIN}, {@link Rc#DONE} or {@link Rc#ERROR}
     */
    public static int parseChunked(ChunkedState ctx, ByteBuffer b, boolean keepTrailers) {
        return ChunkedParser.parse(ctx, b, keepTrailers);
    }

    /**
     * Checks a URI from configuration or an upstream header ({@code X-Accel-Redirect}, SSI's {@code include
     * virtual}), nginx's {@code ngx_http_parse_unsafe_uri()}: it is refused when empty, when it starts with
     * {@code ?}, or holds a NUL or a {@code ..} segment, before or after percent-decoding. nginx then logs
     * "unsafe URI \"%V\" was detected" at error, if its caller asked for it.
     *
     * @param uri the URI, one char per byte
     * @return the path (decoded if it held a {@code %}) and the arguments after its first {@code ?} (null when
     *     there is none), or null when the URI is unsafe
     */
    public static UriArgs parseUnsafeUri(String uri) {
        return HttpArgs.parseUnsafeUri(uri);
    }

    /**
     * Returns an argument's value, nginx's {@code ngx_http_arg()} (for {@code $arg_name}): the first
     * {@code name=value} in {@code args}, the name compared without regard to ASCII case; the value is not
     * decoded.
     *
     * @param args the arguments, without the {@code ?}
     * @param name the argument's name
     * @return the value, possibly empty, or null when absent (nginx's {@code NGX_DECLINED})
     */
    public static String arg(String args, String name) {
        return HttpArgs.arg(args, name);
    }

    /**
     * Splits a URI at its first {@code ?}, nginx's {@code ngx_http_split_args()}.
     *
     * @param uri the URI
     * @return the path and the arguments (empty when there is no {@code ?})
     */
    public static UriArgs splitArgs(String uri) {
        return HttpArgs.splitArgs(uri);
    }

    /**
     * Finds a token in repeated header lines, nginx's {@code ngx_http_parse_multi_header_lines()} without a value:
     * {@code name} as an element of a {@code ,}- or {@code ;}-separated list ({@code Cache-Control: no-cache}).
     *
     * @param headers the first line, the others chained through {@link HttpHeaders.Entry#next}
     * @param name the token, ASCII case ignored
     * @return the line holding it, or null
     */
    public static HttpHeaders.Entry parseMultiHeaderLines(HttpHeaders.Entry headers, String name) {
        return HttpArgs.multiHeaderLine(headers, name);
    }

    /**
     * Finds {@code name=value} in repeated header lines, nginx's {@code ngx_http_parse_multi_header_lines()} with
     * a value: the cookie lookup of {@code $cookie_name} over {@code headersIn.cookie}.
     *
     * @param headers the first line, the others chained through {@link HttpHeaders.Entry#next}
     * @param name the name, ASCII case ignored
     * @return the value (to the next {@code ;}, spaces after {@code =} skipped), or null
     */
    public static String parseMultiHeaderValue(HttpHeaders.Entry headers, String name) {
        return HttpArgs.multiHeaderValue(headers, name);
    }

    /**
     * Finds the cookie a {@code Set-Cookie} line sets, nginx's {@code ngx_http_parse_set_cookie_lines()}.
     *
     * @param headers the first {@code Set-Cookie} line, the others chained through {@link HttpHeaders.Entry#next}
     * @param name the cookie's name, ASCII case ignored
     * @return its value, or null
     */
    public static String parseSetCookieLines(HttpHeaders.Entry headers, String name) {
        return HttpArgs.setCookieValue(headers, name);
    }

    /**
     * Makes a string of the bytes {@code start..end} of a buffer, one char per byte (ISO-8859-1), without
     * touching the buffer's position. Repeated byte sequences give the same string ({@link StringCache}).
     *
     * @param b the buffer
     * @param start the first byte
     * @param end the byte after the last
     * @return the string
     */
    public static String string(ByteBuffer b, int start, int end) {
        return StringCache.string(b, start, end);
    }

    /**
     * Returns the method as sent (nginx's {@code r->method_name}).
     *
     * @param r the state after the request line
     * @param b the buffer
     * @return the method
     */
    public static String methodName(HttpParseState r, ByteBuffer b) {
        // a known method's bit stands for exactly its bytes: its constant name spares hashing them
        String known = Methods.name(r.method);
        return known != null ? known : string(b, r.requestStart, r.methodEnd + 1);
    }

    /**
     * Returns the request line without its CRLF (nginx's {@code r->request_line}, {@code $request}).
     *
     * @param r the state after the request line
     * @param b the buffer
     * @return the line
     */
    public static String requestLine(HttpParseState r, ByteBuffer b) {
        return string(b, r.requestStart, r.requestEnd);
    }

    /**
     * Returns the protocol as sent, {@code HTTP/1.1}, or the empty string for HTTP/0.9
     * (nginx's {@code r->http_protocol}).
     *
     * @param r the state after the request line
     * @param b the buffer
     * @return the protocol
     */
    public static String httpProtocol(HttpParseState r, ByteBuffer b) {
        if (r.httpProtocolStart == HttpParseState.NONE) {
            return "";
        }
        // eight bytes the parser read as HTTP/<major>.<minor> can only be HTTP/1.1 or HTTP/1.0 at these versions
        if (r.requestEnd - r.httpProtocolStart == PROTOCOL_LENGTH) {
            if (r.httpVersion == HttpRequest.VERSION_11) {
                return "HTTP/1.1";
            }
            if (r.httpVersion == HttpRequest.VERSION_10) {
                return "HTTP/1.0";
            }
        }
        return string(b, r.httpProtocolStart, r.requestEnd);
    }

    /**
     * Returns the header line's name as sent.
     *
     * @param r the state after a header line
     * @param b the buffer
     * @return the name
     */
    public static String headerName(HttpParseState r, ByteBuffer b) {
        return string(b, r.headerNameStart, r.headerNameEnd);
    }

    /**
     * Returns the header line's name in lower case, as nginx's request code makes {@code h->lowcase_key}: from
     * {@link HttpParseState#lowcaseHeader} when it holds the whole name, else by lower-casing the ASCII letters of
     * the name.
     *
     * @param r the state after a header line
     * @param b the buffer
     * @return the lower-case name
     */
    public static String lowcaseHeaderName(HttpParseState r, ByteBuffer b) {
        int len = r.headerNameEnd - r.headerNameStart;
        if (len == r.lowcaseIndex) {
            return StringCache.string(r.lowcaseHeader, len);
        }
        byte[] a = new byte[len];
        for (int i = 0; i < len; i++) {
            a[i] = (byte) UriChars.lower(b.get(r.headerNameStart + i) & 0xff);
        }
        return new String(a, StandardCharsets.ISO_8859_1);
    }

    /**
     * Returns the header line's value, without the spaces and tabs around it.
     *
     * @param r the state after a header line
     * @param b the buffer
     * @return the value, possibly empty
     */
    public static String headerValue(HttpParseState r, ByteBuffer b) {
        if (r.valueHashEnd == r.headerEnd && r.headerEnd != HttpParseState.NONE) {
            return StringCache.string(b, r.headerStart, r.headerEnd, r.valueHash);
        }
        return string(b, r.headerStart, r.headerEnd);
    }
}
