package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The phase runner: find config ({@code internal}, {@code client_max_body_size}), internal redirects, named
 * locations, {@code error_page} in all its forms, {@code recursive_error_pages}, the redirect cycle, the content
 * phase's 403 and 404, and {@code try_files}.
 */
class PhasesTest {

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " location /internal/ { internal; }\n"
            + " location /ep-uri/ { error_page 404 /echo/page; }\n"
            + " location /ep-code/ { error_page 404 =200 /echo/page; }\n"
            + " location /ep-own/ { error_page 404 = /status/503; }\n"
            + " location /ep-named/ { error_page 404 @fallback; }\n"
            + " location /ep-url/ { error_page 404 http://example.com/x?y; }\n"
            + " location /ep-url301/ { error_page 404 =301 http://example.com/moved; }\n"
            + " location /loop/ { error_page 404 /loop/again; recursive_error_pages on; }\n"
            + " location /norecurse/ { error_page 404 /norecurse/again; }\n"
            + " location /small/ { client_max_body_size 10; }\n"
            + " location /try/ { try_files $uri $uri/ /echo/fallback?from=$uri; }\n"
            + " location /try-code/ { try_files /nope =410; }\n"
            + " location /try-named/ { try_files /nope @fallback; }\n"
            + " location @fallback { }\n"
            + "}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    private Responses.Response get(String uri) throws Exception {
        return request("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    }

    private Responses.Response request(String request) throws Exception {
        return f.request(request);
    }

    @Test
    @Timeout(20)
    void internalLocationIs404FromOutside() throws Exception {
        assertEquals(404, get("/internal/x").status());
    }

    @Test
    @Timeout(20)
    void internalLocationServesRedirects() throws Exception {
        Responses.Response r = get("/redirect/internal/echo");
        assertEquals(404, r.status(), "the content module declines /internal/echo: 404 but no internal refusal");
        // the request reached the content phase: http_static looked for the file
        assertTrue(f.log().contains("/html/internal/echo\" failed (2: No such file or directory)"), f.log());
    }

    @Test
    @Timeout(20)
    void errorPageUriKeepsTheStatus() throws Exception {
        Responses.Response r = get("/ep-uri/x");
        assertEquals(404, r.status());
        assertEquals("uri=/echo/page args=\n", r.body());
    }

    @Test
    @Timeout(20)
    void errorPageWithCode() throws Exception {
        Responses.Response r = get("/ep-code/x");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("uri=/echo/page args=\n", r.body());
    }

    @Test
    @Timeout(20)
    void errorPageWithTheRedirectsOwnStatus() throws Exception {
        Responses.Response r = get("/ep-own/x");
        assertEquals("HTTP/1.1 503 Service Temporarily Unavailable", r.statusLine());
        assertTrue(r.body().contains("<title>503 Service Temporarily Unavailable</title>"));
    }

    @Test
    @Timeout(20)
    void errorPageNamedLocation() throws Exception {
        Responses.Response r = get("/ep-named/x");
        assertEquals(404, r.status(), r.headerText());
        assertEquals("named @fallback uri=/ep-named/x\n", r.body());
    }

    @Test
    @Timeout(20)
    void errorPageUrlIs302() throws Exception {
        Responses.Response r = get("/ep-url/x");
        assertEquals("HTTP/1.1 302 Moved Temporarily", r.statusLine());
        assertEquals("http://example.com/x?y", r.header("Location"));
        assertTrue(r.body().contains("<title>302 Found</title>"), r.body());
    }

    @Test
    @Timeout(20)
    void errorPageUrlWith301() throws Exception {
        Responses.Response r = get("/ep-url301/x");
        assertEquals(301, r.status());
        assertEquals("http://example.com/moved", r.header("Location"));
    }

    @Test
    @Timeout(20)
    void recursiveErrorPagesStopAtTheCycle() throws Exception {
        Responses.Response r = get("/loop/x");
        assertEquals(500, r.status());
        assertTrue(f.log().contains("[error]") && f.log().contains(
            "rewrite or internal redirection cycle while internally redirecting to \"/loop/again\""), f.log());
    }

    @Test
    @Timeout(20)
    void errorPagesAreNotRecursiveByDefault() throws Exception {
        Responses.Response r = get("/norecurse/x");
        assertEquals(404, r.status());
        assertTrue(r.body().contains("<title>404 Not Found</title>"));
    }

    @Test
    @Timeout(20)
    void tooLargeBodyIs413() throws Exception {
        Responses.Response r = request("POST /small/x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\n"
            + "01234567890");
        assertEquals("HTTP/1.1 413 Request Entity Too Large", r.statusLine());
        assertTrue(f.log().contains("[error]") && f.log().contains(
            "client intended to send too large body: 11 bytes, client: unix:, server: localhost"), f.log());
    }

    @Test
    @Timeout(20)
    void directoryIndexIsForbidden() throws Exception {
        Responses.Response r = get("/");
        assertEquals(403, r.status());
        assertTrue(f.log().contains("directory index of \"" + f.prefix().resolve("html") + "/\" is forbidden"),
            f.log());
    }

    @Test
    @Timeout(20)
    void tryFilesFindsAFile() throws Exception {
        Files.createDirectories(f.prefix().resolve("html/try/dir"));
        Files.writeString(f.prefix().resolve("html/try/file"), "x");
        assertEquals("uri=/echo/fallback args=from=/try/missing\n", get("/try/missing").body());
        // the file exists: the URI stays /try/file, which the test module declines and http_static serves
        assertEquals("x", get("/try/file").body());
        // a directory: http_static redirects to the URI with a slash
        Responses.Response dir = get("/try/dir");
        assertEquals(301, dir.status());
        assertTrue(dir.header("Location").endsWith("/try/dir/"), dir.header("Location"));
    }

    @Test
    @Timeout(20)
    void tryFilesCode() throws Exception {
        Responses.Response r = get("/try-code/x");
        assertEquals("HTTP/1.1 410 Gone", r.statusLine());
    }

    @Test
    @Timeout(20)
    void tryFilesNamedLocation() throws Exception {
        Responses.Response r = get("/try-named/x");
        assertEquals(200, r.status());
        assertEquals("named @fallback uri=/try-named/x\n", r.body());
    }

    @Test
    @Timeout(20)
    void headErrorPageHasNoBody() throws Exception {
        try (LocalConnection lc = f.connect()) {
            lc.send("HEAD /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n");
            f.turnUntil(2000, () -> HeaderBuffersTest.received(lc).endsWith("\r\n\r\n"));
            String raw = lc.received();
            assertTrue(raw.startsWith("HTTP/1.1 404 Not Found\r\n"), raw);
            assertTrue(raw.contains("Content-Length: 1"), raw);
            assertTrue(raw.endsWith("\r\n\r\n"), raw);
        }
    }
}
