package jinx.http;

/**
 * A response's status and headers: the ones the core writes itself and the rest in order, nginx's
 * {@code ngx_http_headers_out_t}.
 */
public final class HeadersOut {

    /** Header lines other than the ones below, in order. */
    public final HttpHeaders headers = new HttpHeaders();
    /** The status code, 0 until set. */
    public int status;
    /** A status line to send instead of the standard one ({@code "200 OK"} form, no protocol), or null. */
    public String statusLine;
    /** {@code Content-Type}'s media type, or null for none. */
    public String contentType;
    /** {@code Content-Type}'s charset, or null. */
    public String charset;
    /** {@code Content-Length}, -1 when unknown. */
    public long contentLengthN = -1;
    /** {@code Last-Modified} in seconds since the epoch, -1 for none. */
    public long lastModifiedTime = -1;
    /** The {@code Location} line, or null. */
    public HttpHeaders.Entry location;
    /** The {@code ETag} line, or null. */
    public HttpHeaders.Entry etag;
    /** The {@code Content-Encoding} line, or null. */
    public HttpHeaders.Entry contentEncoding;
    /** The {@code Accept-Ranges} line, or null. */
    public HttpHeaders.Entry acceptRanges;
    /** The {@code Content-Range} line, or null. */
    public HttpHeaders.Entry contentRange;
    /** The {@code Expires} line, or null. */
    public HttpHeaders.Entry expires;
    /** The {@code Cache-Control} lines, or null. */
    public HttpHeaders.Entry cacheControl;
    /** The {@code WWW-Authenticate} line, or null. */
    public HttpHeaders.Entry wwwAuthenticate;
    /**
     * A {@code Server} line a module set in place of the core's (nginx's {@code headers_out.server}), or null
     * for the core's own; marked {@link HttpHeaders.Entry#removed removed}, no {@code Server} line is sent. It is
     * not one of {@link #headers}. Added in SPI 1.1.
     */
    public HttpHeaders.Entry server;

    /** Makes the headers as a new request's are (the core reuses request objects). */
    void clear() {
        headers.recycle();
        status = 0;
        statusLine = null;
        contentType = null;
        charset = null;
        contentLengthN = -1;
        lastModifiedTime = -1;
        location = null;
        etag = null;
        contentEncoding = null;
        acceptRanges = null;
        contentRange = null;
        expires = null;
        cacheControl = null;
        wwwAuthenticate = null;
        server = null;
    }
}
