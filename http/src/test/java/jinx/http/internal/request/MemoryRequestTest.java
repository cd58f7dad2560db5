package jinx.http.internal.request;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.Connection;
import jinx.kernel.testsuite.OpenFds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the in-memory connection of the socketless path adds to {@link SocketlessRequestTest}: no descriptor is
 * opened to serve requests, the slot is freed when the engine closes, files sent with {@code sendfile} are read
 * into memory, and the half-close of lingering close, the client's going away and {@code client_header_timeout}
 * behave as over a socket.
 */
class MemoryRequestTest {

    private static final String SERVER = "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n";
    private static final String GET = "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(30)
    void servingOpensNoDescriptor() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            f.exchange(lc, GET, 1);
        }
        int before = OpenFds.count();
        int free = f.loop().freeConnectionCount();
        for (int i = 0; i < 20; i++) {
            try (LocalConnection lc = f.connect()) {
                assertEquals(Connection.NO_DESCRIPTOR, lc.server().fd());
                assertEquals(before, OpenFds.count(), "an open in-memory connection holds no descriptor");
                String raw = f.exchange(lc, GET + "GET /echo/" + i + " HTTP/1.0\r\n\r\n", 2);
                assertEquals(2, Responses.split(raw).size(), raw);
                assertTrue(f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc)));
            }
        }
        assertEquals(free, f.loop().freeConnectionCount(), "every slot was given back");
        assertEquals(before, OpenFds.count());
    }

    @Test
    @Timeout(20)
    void theSlotIsFreedWhenTheEngineCloses() throws Exception {
        f = EngineFixture.socketless(SERVER);
        int free = f.loop().freeConnectionCount();
        try (LocalConnection lc = f.connect()) {
            assertEquals(free - 1, f.loop().freeConnectionCount());
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 1);
            assertEquals("close", Responses.split(raw).get(0).header("Connection"));
            assertTrue(f.turnUntil(2000, () -> lc.memory().closed()));
            assertTrue(lc.closedByServer());
            assertEquals(free, f.loop().freeConnectionCount());
        }
    }

    @Test
    @Timeout(20)
    void aFileSentWithSendfileIsReadIntoMemory() throws Exception {
        f = EngineFixture.socketless("sendfile on;\n" + SERVER);
        String content = "0123456789abcdef".repeat(20_000);
        Files.writeString(f.prefix().resolve("html/big.txt"), content, StandardCharsets.ISO_8859_1);
        int before = OpenFds.count();
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /big.txt HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(1, rs.size(), raw.length() + " bytes");
            assertEquals("HTTP/1.1 200 OK", rs.get(0).statusLine());
            assertEquals(Integer.toString(content.length()), rs.get(0).header("Content-Length"));
            assertEquals(content, rs.get(0).body());
            assertFalse(lc.closedByServer());
        }
        f.turnUntil(200, () -> false);
        assertEquals(before, OpenFds.count(), "the file was closed");
    }

    @Test
    @Timeout(20)
    void lingeringCloseShutsTheOutputAndReadsWhatComesAfter() throws Exception {
        f = EngineFixture.socketless("lingering_close always;\nlingering_timeout 1s;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 1);
            assertEquals(1, Responses.split(raw).size());
            assertTrue(f.turnUntil(1000, () -> SocketlessRequestTest.closed(lc)), "the server shut its output");
            assertFalse(lc.memory().closed(), "the server still reads");
            lc.send("more data the server drops");
            f.turn(10);
            assertEquals(0, lc.memory().unread(), "read and dropped");
            assertFalse(lc.memory().closed());
            lc.shutdownOutput();
            assertTrue(f.turnUntil(2000, () -> lc.memory().closed()));
        }
    }

    @Test
    @Timeout(20)
    void aClientThatGoesAwayDuringARateLimitedResponseEndsIt() throws Exception {
        f = EngineFixture.socketless("limit_rate 1k;\n" + SERVER);
        LocalConnection lc = f.connect();
        lc.send("GET /big/100000 HTTP/1.1\r\nHost: localhost\r\n\r\n");
        f.turnUntil(300, () -> false);
        String got = lc.received();
        assertTrue(got.startsWith("HTTP/1.1 200 OK\r\n") && got.length() < 100_000, got.length() + " bytes");
        lc.close();
        assertTrue(f.turnUntil(2000, () -> lc.memory().closed()), f.log());
        // nginx's ngx_http_test_reading(): the pending end of stream, and no socket error to add
        assertTrue(f.log().contains("[info]") && f.log().contains("*1 client prematurely closed connection, "
            + "client: unix:, server: localhost, request: \"GET /big/100000 HTTP/1.1\""), f.log());
    }

    @Test
    @Timeout(20)
    void theHeaderTimeoutClosesASilentClient() throws Exception {
        f = EngineFixture.socketless("client_header_timeout 1;\n" + SERVER);
        try (LocalConnection lc = f.connect()) {
            lc.send("GET /echo HTTP/1.1\r\n");
            assertTrue(f.turnUntil(5000, () -> lc.memory().closed()));
            assertEquals("", lc.received());
            assertTrue(f.log().contains("client timed out (110: Connection timed out) while reading client request "
                + "headers, client: unix:, server: localhost, request: \"GET /echo HTTP/1.1\""), f.log());
        }
    }
}
