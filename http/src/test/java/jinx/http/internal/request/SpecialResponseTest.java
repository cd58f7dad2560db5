package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * nginx's special responses: the built-in pages byte for byte, the tail with {@code server_tokens}, the MSIE
 * padding and refresh, nginx's own codes.
 */
class SpecialResponseTest {

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " location /quiet/ { server_tokens off; }\n"
            + " location /refresh/ { msie_refresh on; error_page 404 http://example.com/a\"b; }\n"
            + " location /nopad/ { msie_padding off; }\n"
            + "}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    private String exchange(String request) throws Exception {
        try (LocalConnection lc = f.connect()) {
            return f.exchange(lc, request, 1);
        }
    }

    private Responses.Response get(String uri, String extra) throws Exception {
        return Responses.split(exchange("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + extra + "\r\n")).get(0);
    }

    private static String text(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return new String(a, StandardCharsets.ISO_8859_1);
    }

    @Test
    @Timeout(5)
    void pagesAreNginxs() {
        assertEquals("<html>\r\n<head><title>301 Moved Permanently</title></head>\r\n<body>\r\n"
            + "<center><h1>301 Moved Permanently</h1></center>\r\n", text(ErrorPages.page(301)));
        assertEquals("<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n"
            + "<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n"
            + "<center>The plain HTTP request was sent to HTTPS port</center>\r\n", text(ErrorPages.page(497)));
        assertEquals(text(ErrorPages.page(404)), text(ErrorPages.page(498)));
        assertNull(ErrorPages.page(499));
        assertNull(ErrorPages.page(304));
        assertNull(ErrorPages.page(204));
        assertNull(ErrorPages.page(506));
        assertTrue(text(ErrorPages.page(501)).contains("<title>501 Not Implemented</title>"));
        assertEquals("<hr><center>jinx</center>\r\n</body>\r\n</html>\r\n", text(ErrorPages.tail(false, "1.2")));
        assertEquals("<hr><center>jinx/1.2</center>\r\n</body>\r\n</html>\r\n", text(ErrorPages.tail(true, "1.2")));
        // nginx 1.22's 404 page is 153 bytes with "nginx/1.22.1": ours is the same less the name's difference
        assertEquals(153 - "nginx/1.22.1".length() + "jinx/1.22.1".length(),
            ErrorPages.pageLength(404) + ErrorPages.tail(true, "1.22.1").remaining());
    }

    @Test
    @Timeout(20)
    void serverTokensOff() throws Exception {
        Responses.Response r = get("/quiet/x", "");
        assertTrue(r.body().endsWith("<hr><center>jinx</center>\r\n</body>\r\n</html>\r\n"), r.body());
        assertEquals(String.valueOf(r.body().length()), r.header("Content-Length"));
    }

    @Test
    @Timeout(20)
    void msiePadding() throws Exception {
        Responses.Response r = get("/x", "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)\r\n");
        assertTrue(r.body().endsWith(ErrorPages.MSIE_PADDING), r.body());
        assertEquals(String.valueOf(r.body().length()), r.header("Content-Length"));
        r = get("/x", "User-Agent: Mozilla/5.0 Chrome/120.0 Safari/537.36\r\n");
        assertTrue(r.body().endsWith(ErrorPages.MSIE_PADDING), "Chrome too");
        r = get("/nopad/x", "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)\r\n");
        assertTrue(r.body().endsWith("</html>\r\n"));
    }

    @Test
    @Timeout(20)
    void msieRefresh() throws Exception {
        Responses.Response r = get("/refresh/x", "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)\r\n");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertNull(r.header("Location"));
        assertEquals("<html><head><meta http-equiv=\"Refresh\" content=\"0; URL=http://example.com/a%22b\">"
            + "</head><body></body></html>\r\n", r.body());
        r = get("/refresh/x", "");
        assertEquals(302, r.status());
        assertEquals("http://example.com/a\"b", r.header("Location"));
    }

    @Test
    @Timeout(20)
    void nginxCodes() throws Exception {
        Responses.Response r = get("/status/497", "");
        assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
        assertTrue(r.body().contains("The plain HTTP request was sent to HTTPS port"));
        r = get("/status/494", "");
        assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
        assertTrue(r.body().contains("Request Header Or Cookie Too Large"));
        assertEquals("", get("/status/204", "").body());
        try (LocalConnection lc = f.connect()) {
            lc.send("GET /status/444 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc));
            assertEquals("", lc.received(), "444 closes without a response");
        }
        try (LocalConnection lc = f.connect()) {
            lc.send("GET /status/499 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc));
            assertEquals("", lc.received(), "499 closes without a response");
        }
    }

    @Test
    @Timeout(20)
    void errorResponsesThatCloseSayConnectionClose() throws Exception {
        assertEquals("close", get("/status/500", "").header("Connection"));
        assertEquals("close", get("/status/501", "").header("Connection"));
        assertEquals("keep-alive", get("/status/503", "").header("Connection"));
        assertEquals("keep-alive", get("/status/404", "").header("Connection"));
    }

    @Test
    @Timeout(5)
    void escapeRefresh() {
        assertEquals("a%22b%27c%d%20e%7F%FF", SpecialResponse.escapeRefresh("a\"b'c%d e\u007f\u00ff"));
        assertEquals("plain/x?y=1", SpecialResponse.escapeRefresh("plain/x?y=1"));
    }
}
