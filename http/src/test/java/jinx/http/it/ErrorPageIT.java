package jinx.http.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code error_page} (a URI, {@code =code}, {@code =} with a named location, URLs), {@code recursive_error_pages},
 * the oversized header's 494 caught by {@code error_page 494} and sent as 400, internal redirects
 * ({@code rewrite ... last}, {@code index}) and the built-in pages. Expectations read from nginx 1.22 with the
 * same configuration.
 */
@Tag("slow")
class ErrorPageIT {

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        site.write("html/custom404.html", "custom 404\n");
        site.write("html/file.txt", "0123456789abcdef\n");
        site.write("html/dir/index.html", "dir index\n");
        server = JinxServer.start(site, """
            large_client_header_buffers 2 1k;
            server {
                listen 127.0.0.1:0;
                server_name localhost;
                root html;
                """ + ItSupport.ALIVE + """
                location /p { error_page 404 /custom404.html; }
                location /ok { error_page 404 =200 /custom404.html; }
                location /named { error_page 404 = @fallback; }
                location @fallback { return 202 "fallback $uri\\n"; }
                location /url { error_page 404 http://example.com/missing; }
                location /url301 { error_page 404 =301 http://example.com/moved; }
                location /chain { error_page 404 /chain-missing; }
                location /rchain { recursive_error_pages on; error_page 404 /rchain-missing2; }
                location /rchain-missing2 { error_page 404 /custom404.html; }
                location /old { rewrite ^/old/(.*)$ /file.txt?from=$1 last; }
                location /loop { rewrite ^ /loop last; }
                location /fail { return 500; }
                error_page 500 /custom404.html;
                error_page 494 /toolarge.html;
                location = /toolarge.html { internal; return 200 "too large $status\\n"; }
            }
            """);
        port = server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        ItSupport.assertAlive(server);
        server.close();
        site.close();
    }

    private static Response get(String uri) throws Exception {
        return ItSupport.get(port, "localhost", uri);
    }

    @Test
    @Timeout(30)
    void errorPageUriKeepsTheStatus() throws Exception {
        Response r = get("/p/x");
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertEquals("custom 404\n", r.body());
        Response fail = get("/fail");
        assertEquals("HTTP/1.1 500 Internal Server Error", fail.statusLine());
        assertEquals("custom 404\n", fail.body());
    }

    @Test
    @Timeout(30)
    void errorPageWithCodes() throws Exception {
        Response r = get("/ok/x");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("custom 404\n", r.body());
        r = get("/named/x");
        assertEquals("HTTP/1.1 202 Accepted", r.statusLine());
        assertEquals("fallback /named/x\n", r.body());
    }

    @Test
    @Timeout(30)
    void errorPageRedirects() throws Exception {
        Response r = get("/url/x");
        assertEquals("HTTP/1.1 302 Moved Temporarily", r.statusLine());
        assertEquals("http://example.com/missing", r.header("Location"));
        r = get("/url301/x");
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://example.com/moved", r.header("Location"));
    }

    @Test
    @Timeout(30)
    void recursiveErrorPages() throws Exception {
        Response r = get("/chain/x");
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertTrue(r.body().startsWith("<html>\r\n<head><title>404 Not Found</title></head>"), r.body());
        r = get("/rchain/x");
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertEquals("custom 404\n", r.body());
    }

    @Test
    @Timeout(30)
    void internalRedirects() throws Exception {
        Response r = get("/old/abc");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("0123456789abcdef\n", r.body());
        assertEquals("dir index\n", get("/dir/").body());
        r = get("/loop");
        assertEquals("HTTP/1.1 500 Internal Server Error", r.statusLine());
        server.awaitLog("error", "rewrite or internal redirection cycle while processing \"/loop\"");
    }

    @Test
    @Timeout(30)
    void oversizedHeaderCaughtBy494() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("GET /x HTTP/1.1\r\nHost: localhost\r\nCookie: " + "c".repeat(1500) + "\r\n\r\n")
                .response();
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("too large 400\n", r.body());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(3000));
        }
        server.awaitLog("info", "client sent too long header line: \"Cookie: ccc");
    }
}
