package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * nginx's built-in error pages (the {@code ngx_http_error_*_page} strings, {@code ngx_http_error_pages[]}, the
 * tails and the MSIE padding and refresh of {@code ngx_http_special_response.c}), byte for byte, with "jinx" in
 * place of "nginx". The pages are read-only direct buffers made once; {@link #page(int)} hands out a duplicate
 * so that a filter may move its position.
 */
public final class ErrorPages {

    private static final String CRLF = "\r\n";

    /** The tail with {@code server_tokens off}: nginx's {@code ngx_http_error_tail}. */
    static final String TAIL = "<hr><center>jinx</center>" + CRLF + "</body>" + CRLF + "</html>" + CRLF;

    /** The six lines MSIE and Chrome need to show a page instead of their own: nginx's {@code msie_padding}. */
    static final String MSIE_PADDING = repeat("<!-- a padding to disable MSIE and Chrome friendly error page -->"
        + CRLF, 6);

    /** nginx's {@code ngx_http_msie_refresh_head}. */
    static final String MSIE_REFRESH_HEAD = "<html><head><meta http-equiv=\"Refresh\" content=\"0; URL=";

    /** nginx's {@code ngx_http_msie_refresh_tail}. */
    static final String MSIE_REFRESH_TAIL = "\"></head><body></body></html>" + CRLF;

    private static final int FIRST = 201;
    private static final int LAST = 507;
    private static final ByteBuffer[] PAGES = new ByteBuffer[LAST - FIRST + 1];
    private static final ByteBuffer TAIL_BUFFER = direct(TAIL);
    private static final ByteBuffer PADDING_BUFFER = direct(MSIE_PADDING);
    private static volatile FullTail fullTail;

    static {
        page(301, "301 Moved Permanently");
        page(302, "302 Found");
        page(303, "303 See Other");
        page(307, "307 Temporary Redirect");
        page(308, "308 Permanent Redirect");
        page(400, "400 Bad Request");
        page(401, "401 Authorization Required");
        page(402, "402 Payment Required");
        page(403, "403 Forbidden");
        page(404, "404 Not Found");
        page(405, "405 Not Allowed");
        page(406, "406 Not Acceptable");
        page(408, "408 Request Time-out");
        page(409, "409 Conflict");
        page(410, "410 Gone");
        page(411, "411 Length Required");
        page(412, "412 Precondition Failed");
        page(413, "413 Request Entity Too Large");
        page(414, "414 Request-URI Too Large");
        page(415, "415 Unsupported Media Type");
        page(416, "416 Requested Range Not Satisfiable");
        page(421, "421 Misdirected Request");
        page(429, "429 Too Many Requests");
        badRequest(494, "Request Header Or Cookie Too Large");
        badRequest(495, "The SSL certificate error");
        badRequest(496, "No required SSL certificate was sent");
        badRequest(497, "The plain HTTP request was sent to HTTPS port");
        // 498 (canceled) shows the 404 page; 499 (client closed) has none
        PAGES[498 - FIRST] = PAGES[404 - FIRST];
        page(500, "500 Internal Server Error");
        page(501, "501 Not Implemented");
        page(502, "502 Bad Gateway");
        page(503, "503 Service Temporarily Unavailable");
        page(504, "504 Gateway Time-out");
        page(505, "505 HTTP Version Not Supported");
        page(507, "507 Insufficient Storage");
    }

    private ErrorPages() {
    }

    private static void page(int status, String title) {
        PAGES[status - FIRST] = direct("<html>" + CRLF
            + "<head><title>" + title + "</title></head>" + CRLF
            + "<body>" + CRLF
            + "<center><h1>" + title + "</h1></center>" + CRLF);
    }

    /** nginx's 494 to 497 pages: titled with the reason, headed "400 Bad Request". */
    private static void badRequest(int status, String reason) {
        PAGES[status - FIRST] = direct("<html>" + CRLF
            + "<head><title>400 " + reason + "</title></head>" + CRLF
            + "<body>" + CRLF
            + "<center><h1>400 Bad Request</h1></center>" + CRLF
            + "<center>" + reason + "</center>" + CRLF);
    }

    /**
     * Returns the page nginx sends for {@code status}, or null when it sends none (2xx, 304, 407, 499, codes it
     * does not know).
     *
     * @param status the status
     * @return a read-only view of the page, or null
     */
    public static ByteBuffer page(int status) {
        if (status < FIRST || status > LAST || PAGES[status - FIRST] == null) {
            return null;
        }
        return PAGES[status - FIRST].duplicate();
    }

    /**
     * Returns the page's length, 0 when there is none.
     *
     * @param status the status
     * @return bytes
     */
    public static int pageLength(int status) {
        ByteBuffer b = page(status);
        return b == null ? 0 : b.remaining();
    }

    /**
     * Returns the tail that closes every page: {@code <hr><center>jinx/VERSION</center>} with
     * {@code server_tokens on} (nginx's {@code NGINX_VER}), {@code jinx} alone with {@code off}.
     *
     * @param serverTokens whether {@code server_tokens} is on
     * @param version Jinx's version
     * @return the tail
     */
    public static ByteBuffer tail(boolean serverTokens, String version) {
        if (!serverTokens) {
            return TAIL_BUFFER.duplicate();
        }
        FullTail t = fullTail;
        if (t == null || !t.version.equals(version)) {
            t = new FullTail(version, direct(fullTail(version)));
            fullTail = t;
        }
        return t.page.duplicate();
    }

    /** The tail with the version, made once per version. */
    private record FullTail(String version, ByteBuffer page) {
    }

    /**
     * Returns the tail with the version, as text.
     *
     * @param version Jinx's version
     * @return {@code <hr><center>jinx/VERSION</center>\r\n</body>\r\n</html>\r\n}
     */
    static String fullTail(String version) {
        return "<hr><center>jinx/" + version + "</center>" + CRLF + "</body>" + CRLF + "</html>" + CRLF;
    }

    /**
     * Returns the MSIE padding.
     *
     * @return a read-only view
     */
    public static ByteBuffer msiePadding() {
        return PADDING_BUFFER.duplicate();
    }

    private static ByteBuffer direct(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b.asReadOnlyBuffer();
    }

    private static String repeat(String s, int n) {
        return s.repeat(n);
    }
}
