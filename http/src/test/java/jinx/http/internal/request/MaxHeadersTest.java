package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code max_headers} (nginx 1.27.2, and Debian's 1.22.1 by a backport): a request with more header lines than
 * that is 494, which the client sees as 400 "Request Header Or Cookie Too Large", and the connection closes. The
 * default, 1000, is what stops a request of thousands of short lines that fit the header buffers.
 */
class MaxHeadersTest {

    private static final String SERVER = "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n";

    private static String request(int lines) {
        StringBuilder sb = new StringBuilder("GET /echo HTTP/1.1\r\nHost: localhost\r\n");
        for (int i = 1; i < lines; i++) {
            sb.append("X").append(i).append(": 1\r\n");
        }
        return sb.append("\r\n").toString();
    }

    @Test
    @Timeout(30)
    void thousandLinesByDefault() throws Exception {
        // the default buffers hold 1001 short lines (four of 8k), so only the count refuses the last
        try (EngineFixture f = EngineFixture.socketless(SERVER)) {
            assertEquals(200, f.request(request(1000)).status());
            assertFalse(f.log().contains("too many header lines"), f.log());
            Responses.Response r = f.request(request(1001));
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("close", r.header("Connection"));
            assertTrue(r.body().startsWith("<html>\r\n<head><title>400 Request Header Or Cookie Too Large</title>"),
                r.body());
            assertTrue(f.log().contains("[info]") && f.log().contains("client sent too many header lines while "
                + "reading client request headers, client: unix:, server: localhost, request: \"GET /echo HTTP/1.1\""),
                f.log());
        }
    }

    @Test
    @Timeout(20)
    void aServerSetsItsOwn() throws Exception {
        String conf = "max_headers 2;\nserver {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " max_headers 4;\n}\nserver {\n listen 127.0.0.1:8080;\n server_name other;\n}\n";
        try (EngineFixture f = EngineFixture.socketless(conf)) {
            assertEquals(200, f.request(request(4)).status());
            assertEquals(400, f.request(request(5)).status());
            String other = "GET /echo HTTP/1.1\r\nHost: other\r\nX1: 1\r\n\r\n";
            assertEquals(200, f.request(other).status());
            assertEquals(400, f.request("GET /echo HTTP/1.1\r\nHost: other\r\nX1: 1\r\nX2: 1\r\n\r\n").status());
        }
    }

    @Test
    @Timeout(20)
    void ignoredInvalidLinesDoNotCount() throws Exception {
        try (EngineFixture f = EngineFixture.socketless("max_headers 2;\n" + SERVER)) {
            String raw = "GET /echo HTTP/1.1\r\nHost: localhost\r\nX_a: 1\r\nX_b: 1\r\nX1: 1\r\n\r\n";
            assertEquals(200, f.request(raw).status());
            assertTrue(f.log().contains("client sent invalid header line: \"X_b: 1\""), f.log());
        }
    }

    @Test
    @Timeout(20)
    void aPipelinedRequestCountsAgain() throws Exception {
        try (EngineFixture f = EngineFixture.socketless("max_headers 2;\n" + SERVER)) {
            try (LocalConnection lc = f.connect()) {
                String raw = f.exchange(lc, request(2) + request(2) + request(2), 3);
                assertEquals(3, Responses.split(raw).size(), raw);
                for (Responses.Response r : Responses.split(raw)) {
                    assertEquals(200, r.status(), raw);
                }
            }
        }
    }
}
