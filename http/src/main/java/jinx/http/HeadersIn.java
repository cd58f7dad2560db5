package jinx.http;

/**
 * A request's headers: the lines in order and the ones the core interprets, nginx's
 * {@code ngx_http_headers_in_t}.
 */
public final class HeadersIn {

    /** Every header line, in order. */
    public final HttpHeaders headers = new HttpHeaders();
    /** {@code Host}, validated, lower case, without the port (nginx's {@code headers_in.server}); or null. */
    public String server;
    /** The {@code Host} line, or null. */
    public HttpHeaders.Entry host;
    /** The {@code Content-Length} line, or null. */
    public HttpHeaders.Entry contentLength;
    /** {@code Content-Length} as a number, -1 when absent. */
    public long contentLengthN = -1;
    /** The {@code Transfer-Encoding} line, or null. */
    public HttpHeaders.Entry transferEncoding;
    /** The body is chunked. */
    public boolean chunked;
    /** The {@code Connection} line, or null. */
    public HttpHeaders.Entry connection;
    /** {@code Connection: close} (1), {@code keep-alive} (2), or 0. */
    public int connectionType;
    /** The {@code Expect} line, or null. */
    public HttpHeaders.Entry expect;
    /** The {@code If-Modified-Since} line, or null. */
    public HttpHeaders.Entry ifModifiedSince;
    /** The {@code If-Unmodified-Since} line, or null. */
    public HttpHeaders.Entry ifUnmodifiedSince;
    /** The {@code If-Match} line, or null. */
    public HttpHeaders.Entry ifMatch;
    /** The {@code If-None-Match} line, or null. */
    public HttpHeaders.Entry ifNoneMatch;
    /** The {@code Range} line, or null. */
    public HttpHeaders.Entry range;
    /** The {@code If-Range} line, or null. */
    public HttpHeaders.Entry ifRange;
    /** The {@code User-Agent} line, or null. */
    public HttpHeaders.Entry userAgent;
    /** The {@code Referer} line, or null. */
    public HttpHeaders.Entry referer;
    /** The {@code Content-Type} line, or null. */
    public HttpHeaders.Entry contentType;
    /** The {@code Authorization} line, or null. */
    public HttpHeaders.Entry authorization;
    /** The {@code Cookie} lines (chained through {@code next}), or null. */
    public HttpHeaders.Entry cookie;
    /** The {@code X-Forwarded-For} lines, or null. */
    public HttpHeaders.Entry xForwardedFor;

    /** {@link #connectionType}: close. */
    public static final int CONNECTION_CLOSE = 1;
    /** {@link #connectionType}: keep-alive. */
    public static final int CONNECTION_KEEP_ALIVE = 2;

    /** Takes the lines and the facts of another request's headers, for a subrequest (nginx copies them). */
    void copyFrom(HeadersIn from) {
        headers.clear();
        for (HttpHeaders.Entry e : from.headers.entries()) {
            if (!e.removed) {
                headers.add(e.name, e.value);
            }
        }
        server = from.server;
        host = from.host;
        contentLength = from.contentLength;
        contentLengthN = from.contentLengthN;
        transferEncoding = from.transferEncoding;
        chunked = from.chunked;
        connection = from.connection;
        connectionType = from.connectionType;
        expect = from.expect;
        ifModifiedSince = from.ifModifiedSince;
        ifUnmodifiedSince = from.ifUnmodifiedSince;
        ifMatch = from.ifMatch;
        ifNoneMatch = from.ifNoneMatch;
        range = from.range;
        ifRange = from.ifRange;
        userAgent = from.userAgent;
        referer = from.referer;
        contentType = from.contentType;
        authorization = from.authorization;
        cookie = from.cookie;
        xForwardedFor = from.xForwardedFor;
    }

    /** Makes the headers as a new request's are (the core reuses request objects). */
    void clear() {
        headers.recycle();
        server = null;
        contentLengthN = -1;
        chunked = false;
        connectionType = 0;
        host = null;
        contentLength = null;
        transferEncoding = null;
        connection = null;
        expect = null;
        ifModifiedSince = null;
        ifUnmodifiedSince = null;
        ifMatch = null;
        ifNoneMatch = null;
        range = null;
        ifRange = null;
        userAgent = null;
        referer = null;
        contentType = null;
        authorization = null;
        cookie = null;
        xForwardedFor = null;
    }
}
