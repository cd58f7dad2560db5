package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code client_header_buffer_size} and {@code large_client_header_buffers}: a request line or header line that
 * outgrows the connection's buffer moves to a large one; what fits in none is 414 or 494, which the client sees
 * as 400 "Request Header Or Cookie Too Large".
 */
class HeaderBuffersTest {

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("client_header_buffer_size 128;\nlarge_client_header_buffers 2 1k;\n"
            + "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    @Test
    @Timeout(20)
    void requestLineMovesToALargeBuffer() throws Exception {
        String uri = "/echo/" + "a".repeat(600);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals(200, r.status(), raw);
            assertEquals("uri=" + uri + " args=\n", r.body());
        }
    }

    @Test
    @Timeout(20)
    void headerLineMovesToALargeBuffer() throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Long: " + "b".repeat(700)
                + "\r\nX-Other: 1\r\n\r\n", 1);
            assertEquals(200, Responses.split(raw).get(0).status(), raw);
        }
    }

    @Test
    @Timeout(20)
    void headerSentByteByByte() throws Exception {
        String request = "GET /echo/bytes HTTP/1.1\r\nHost: localhost\r\nX-Long: " + "c".repeat(300) + "\r\n\r\n";
        try (LocalConnection lc = f.connect()) {
            for (int i = 0; i < request.length(); i += 7) {
                lc.send(request.substring(i, Math.min(request.length(), i + 7)));
                f.turn(1);
            }
            f.turnUntil(2000, () -> received(lc).contains("uri=/echo/bytes"));
            assertTrue(received(lc).startsWith("HTTP/1.1 200 OK\r\n"), received(lc));
        }
    }

    @Test
    @Timeout(20)
    void tooLongUriIs414() throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /" + "u".repeat(1100) + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals("HTTP/1.1 414 Request-URI Too Large", r.statusLine());
            assertTrue(r.body().contains("<title>414 Request-URI Too Large</title>"));
            assertEquals("close", r.header("Connection"));
            assertTrue(f.log().contains("[info]") && f.log().contains("client sent too long URI while reading "
                + "client request line, client: unix:, server: localhost, request: \"GET /uuu"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void tooLongHeaderLineIs494ShownAs400() throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\nCookie: " + "k".repeat(2000)
                + "\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("close", r.header("Connection"));
            assertTrue(r.body().startsWith("<html>\r\n<head><title>400 Request Header Or Cookie Too Large</title>"
                + "</head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n"
                + "<center>Request Header Or Cookie Too Large</center>\r\n<hr><center>jinx/"), r.body());
            assertTrue(f.log().contains("client sent too long header line: \"Cookie: kkkk"), f.log());
            assertTrue(f.log().contains("...\" while reading client request headers"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void noLargeBufferLeftIs494() throws Exception {
        StringBuilder sb = new StringBuilder("GET /echo HTTP/1.1\r\nHost: localhost\r\n");
        for (int i = 0; i < 3; i++) {
            sb.append("X-H").append(i).append(": ").append("v".repeat(900)).append("\r\n");
        }
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, sb.append("\r\n").toString(), 1);
            assertEquals(400, Responses.split(raw).get(0).status(), raw);
            assertTrue(f.log().contains("client sent too long header line: \"X-H"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void pipelinedRequestAfterALargeBuffer() throws Exception {
        String first = "GET /echo/" + "p".repeat(500) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        String second = "GET /echo/second HTTP/1.1\r\nHost: localhost\r\n\r\n";
        String third = "GET /echo/third HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "q".repeat(600) + "\r\n\r\n";
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, first + second + third, 3);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(3, rs.size(), raw);
            assertEquals("uri=/echo/second args=\n", rs.get(1).body());
            assertEquals("uri=/echo/third args=\n", rs.get(2).body());
        }
    }

    @Test
    @Timeout(20)
    void buffersGoBackToThePool() throws Exception {
        BufferPool pool = BufferPool.current();
        int before = pool.outstanding();
        try (LocalConnection lc = f.connect()) {
            f.exchange(lc, "GET /echo/" + "z".repeat(400) + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                1);
            f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc));
        }
        f.turn(1);
        assertEquals(before, pool.outstanding());
    }

    static String received(LocalConnection lc) {
        try {
            return lc.received();
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
