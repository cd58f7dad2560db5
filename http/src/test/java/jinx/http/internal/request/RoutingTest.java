package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Servers by {@code Host} (and by the host of an absolute URI), the rewrite and post-rewrite checkers, the access
 * checkers under {@code satisfy}, {@code root} and {@code alias}.
 */
class RoutingTest {

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " location /any/ { satisfy any; }\n"
            + " location /alias/ { alias /srv/data/; }\n"
            + " location ~ ^/re/(.*)$ { alias /srv/re/$1; }\n"
            + " location /rooted/ { root /srv/www; }\n"
            + "}\n"
            + "server {\n listen 127.0.0.1:8080;\n server_name other.example *.wild.example;\n"
            + " location / { error_page 404 =200 /echo/other-server; }\n"
            + "}\n"
            + "server {\n listen 127.0.0.1:8080;\n server_name ~^(?<sub>[a-z]+)\\.re\\.example$;\n"
            + " location / { error_page 404 =200 /echo/regex-server; }\n"
            + "}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    private Responses.Response get(String uri, String host) throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET " + uri + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n", 1);
            return Responses.split(raw).get(0);
        }
    }

    @Test
    @Timeout(20)
    void serverByHost() throws Exception {
        assertEquals(404, get("/x", "localhost").status());
        assertEquals("uri=/echo/other-server args=\n", get("/x", "Other.Example.").body());
        assertEquals("uri=/echo/other-server args=\n", get("/x", "a.wild.example:8080").body());
        assertEquals("uri=/echo/regex-server args=\n", get("/x", "abc.re.example").body());
        assertEquals(404, get("/x", "unknown.example").status(), "the default server");
    }

    @Test
    @Timeout(20)
    void absoluteUriChoosesTheServer() throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET http://other.example/x HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            assertEquals("uri=/echo/other-server args=\n", Responses.split(raw).get(0).body());
        }
    }

    @Test
    @Timeout(20)
    void rewrittenUriFindsItsLocationAgain() throws Exception {
        assertEquals("uri=/echo/moved args=\n", get("/rw/moved", "localhost").body());
    }

    @Test
    @Timeout(20)
    void rewriteCycle() throws Exception {
        assertEquals(500, get("/rwloop/x", "localhost").status());
        assertTrue(f.log().contains("[error]") && f.log().contains(
            "rewrite or internal redirection cycle while processing \"/rwloop/x\""), f.log());
    }

    @Test
    @Timeout(20)
    void satisfyAll() throws Exception {
        assertEquals(403, get("/echo/deny1", "localhost").status());
        assertEquals(403, get("/echo/allow1-deny2", "localhost").status());
        assertEquals(200, get("/echo/allow1-allow2", "localhost").status());
        assertTrue(!f.log().contains("access forbidden by rule"), f.log());
    }

    @Test
    @Timeout(20)
    void satisfyAny() throws Exception {
        assertEquals(403, get("/any/deny1-deny2", "localhost").status());
        assertTrue(f.log().contains("[error]") && f.log().contains("access forbidden by rule"), f.log());
        assertEquals(404, get("/any/deny1-allow2", "localhost").status(), "allowed: the content module declines");
    }

    @Test
    @Timeout(20)
    void aliasAndRoot() throws Exception {
        // http_index tests the mapped directory, which does not exist
        get("/alias/sub/", "localhost");
        assertTrue(f.log().contains("\"/srv/data/sub/index.html\" is not found"), f.log());
        get("/re/a/b/", "localhost");
        assertTrue(f.log().contains("\"/srv/re/a/b/index.html\" is not found"), f.log());
        get("/rooted/x/", "localhost");
        assertTrue(f.log().contains("\"/srv/www/rooted/x/index.html\" is not found"), f.log());
        // URIs over 256 bytes are mapped without the mapping cache, the same way, each time
        String a = "a".repeat(300);
        String b = "b".repeat(300);
        for (int i = 0; i < 2; i++) {
            get("/alias/" + a + "/", "localhost");
            get("/rooted/" + b + "/", "localhost");
        }
        assertEquals(2, count(f.log(), "\"/srv/data/" + a + "/index.html\" is not found"), f.log());
        assertEquals(2, count(f.log(), "\"/srv/www/rooted/" + b + "/index.html\" is not found"), f.log());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
