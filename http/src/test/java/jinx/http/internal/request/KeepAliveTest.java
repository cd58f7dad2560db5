package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keep-alive ({@code keepalive_timeout}, {@code keepalive_requests}), pipelining, the client and header timeouts,
 * {@code send_timeout}, lingering close and the loop reclaiming idle connections. In memory, but for
 * {@code send_timeout} (a full socket buffer) and lingering close (the kernel's half-close), over a socket pair.
 */
class KeepAliveTest {

    private static final String SERVER = "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n";
    private static final String GET = "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private static boolean closed(LocalConnection lc) {
        return SocketlessRequestTest.closed(lc);
    }

    @Test
    @Timeout(20)
    void keepaliveRequests() throws Exception {
        f = EngineFixture.socketless("keepalive_requests 2;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, GET + GET, 2);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals("keep-alive", rs.get(0).header("Connection"));
            assertEquals("close", rs.get(1).header("Connection"));
            assertTrue(f.turnUntil(2000, () -> closed(lc)));
        }
    }

    @Test
    @Timeout(20)
    void keepaliveTimeoutZeroCloses() throws Exception {
        f = EngineFixture.socketless("keepalive_timeout 0;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, GET, 1);
            assertEquals("close", Responses.split(raw).get(0).header("Connection"));
            assertTrue(f.turnUntil(2000, () -> closed(lc)));
        }
    }

    @Test
    @Timeout(20)
    void keepaliveHeaderValue() throws Exception {
        f = EngineFixture.socketless("keepalive_timeout 30 25;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, GET, 1);
            assertEquals("timeout=25", Responses.split(raw).get(0).header("Keep-Alive"));
        }
    }

    @Test
    @Timeout(20)
    void idleKeepaliveConnectionTimesOut() throws Exception {
        f = EngineFixture.socketless("keepalive_timeout 1;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            f.exchange(lc, GET, 1);
            assertFalse(closed(lc));
            long start = System.nanoTime();
            assertTrue(f.turnUntil(5000, () -> closed(lc)));
            assertTrue(System.nanoTime() - start > 700_000_000L);
            assertFalse(f.log().contains("timed out"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void clientClosesKeepaliveConnection() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            f.exchange(lc, GET, 1);
            lc.shutdownOutput();
            assertTrue(f.turnUntil(2000, () -> closed(lc)));
            assertTrue(f.log().contains("[info]") && f.log().contains("client unix: closed keepalive connection\n"),
                f.log());
        }
    }

    @Test
    @Timeout(60)
    void thousandPipelinedRequestsInOnePacket() throws Exception {
        f = EngineFixture.socketless("keepalive_requests 2000;\n" + SERVER);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sb.append("GET /echo/").append(i).append(" HTTP/1.1\r\nHost: localhost\r\n\r\n");
        }
        try (LocalConnection lc = f.connect()) {
            assertEquals(sb.length(), lc.send(sb.toString()));
            f.turnUntil(30_000, () -> Responses.split(HeaderBuffersTest.received(lc)).size() >= 1000);
            List<Responses.Response> rs = Responses.split(lc.received());
            assertEquals(1000, rs.size());
            for (int i = 0; i < 1000; i++) {
                assertEquals("uri=/echo/" + i + " args=\n", rs.get(i).body());
            }
            assertFalse(closed(lc));
        }
    }

    @Test
    @Timeout(20)
    void clientTimesOutWhileWaitingForRequest() throws Exception {
        f = EngineFixture.socketless("client_header_timeout 1;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            assertTrue(f.turnUntil(5000, () -> closed(lc)));
            assertEquals("", lc.received());
            assertTrue(f.log().contains("[info]") && f.log().contains("client timed out (110: Connection timed out) "
                + "while waiting for request, client: unix:, server: 127.0.0.1:8080"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void slowlorisIsClosedAtClientHeaderTimeout() throws Exception {
        f = EngineFixture.socketless("client_header_timeout 1;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            lc.send("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-1: 1\r\n");
            long start = System.nanoTime();
            for (int i = 0; i < 5 && !closed(lc); i++) {
                f.turn(300);
                lc.send("X-" + i + ": a\r\n");
            }
            assertTrue(f.turnUntil(5000, () -> closed(lc)));
            assertTrue(System.nanoTime() - start < 3_000_000_000L);
            assertEquals("", lc.received(), "nginx sends no 408");
            assertTrue(f.log().contains("client timed out (110: Connection timed out) while reading client request "
                + "headers, client: unix:, server: localhost, request: \"GET /echo HTTP/1.1\""), f.log());
        }
    }

    @Test
    @Timeout(20)
    void idleConnectionsAreReclaimed() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            f.exchange(lc, GET, 1);
            lc.server().close = true;
            lc.server().read.handler.handle(lc.server().read);
            assertTrue(closed(lc));
        }
    }

    @Test
    @Timeout(20)
    void sendTimeoutClosesTheConnection() throws Exception {
        f = EngineFixture.socketless("send_timeout 1;\n" + SERVER);
        try (LocalConnection lc = f.connectSocketPair()) {
            lc.send("GET /big/8000000 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            f.turn(10);
            long start = System.nanoTime();
            while (System.nanoTime() - start < 5_000_000_000L && !f.log().contains("client timed out")) {
                f.turn(100);
            }
            assertTrue(f.log().contains("[info]") && f.log().contains("client timed out (110: Connection timed out), "
                + "client: unix:, server: localhost, request: \"GET /big/8000000 HTTP/1.1\""), f.log());
            assertTrue(closed(lc));
        }
    }

    @Test
    @Timeout(20)
    void lingeringCloseAlwaysReadsWhatComesAfter() throws Exception {
        f = EngineFixture.socketless("lingering_close always;\nlingering_timeout 1s;\n" + SERVER);
        try (LocalConnection lc = f.connectSocketPair()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 1);
            assertEquals(1, Responses.split(raw).size());
            f.turnUntil(1000, () -> closed(lc));
            assertTrue(closed(lc), "the server shut its writing side");
            assertTrue(lc.server().fd() != -1, "the server still reads");
            lc.send("more data the server drops");
            f.turn(10);
            assertTrue(lc.server().fd() != -1);
            lc.shutdownOutput();
            f.turnUntil(2000, () -> lc.server().fd() == -1);
            assertEquals(-1, lc.server().fd());
        }
    }

    @Test
    @Timeout(20)
    void keepaliveTime() throws Exception {
        f = EngineFixture.socketless("keepalive_time 1s;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, GET, 1);
            assertEquals("keep-alive", Responses.split(raw).get(0).header("Connection"));
            long start = System.nanoTime();
            while (System.nanoTime() - start < 1_300_000_000L) {
                f.turn(100);
            }
            raw = f.exchange(lc, GET, 2);
            assertEquals("close", Responses.split(raw).get(1).header("Connection"));
        }
    }

    @Test
    @Timeout(20)
    void errorResponseDiscardsTheRestOfTheBodyAndKeepsTheConnection() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "POST /status/403 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n"
                + "01234", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals(403, r.status());
            assertEquals("keep-alive", r.header("Connection"));
            f.turn(10);
            raw = f.exchange(lc, "567890123456789" + GET, 2);
            assertEquals(2, Responses.split(raw).size(), raw);
            assertEquals("uri=/echo args=\n", Responses.split(raw).get(1).body());
        }
    }

    @Test
    @Timeout(20)
    void lingeringCloseOnAfterAnUnreadBody() throws Exception {
        f = EngineFixture.socketless("lingering_timeout 1s;\n" + SERVER);
        try (LocalConnection lc = f.connectSocketPair()) {
            String raw = f.exchange(lc, "POST /status/413 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n"
                + "\r\n0123456789", 1);
            assertEquals(413, Responses.split(raw).get(0).status());
            assertEquals("close", Responses.split(raw).get(0).header("Connection"));
            lc.send("more of the body");
            f.turn(10);
            assertTrue(lc.server().fd() != -1, "the server reads and drops the rest for a while");
            assertTrue(f.turnUntil(5000, () -> lc.server().fd() == -1));
        }
    }
}
