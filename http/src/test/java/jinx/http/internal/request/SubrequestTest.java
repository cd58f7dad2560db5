package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Subrequests in the core, without sockets: postponed output in order, the nesting limit, in-memory output and its
 * size limit, and the connection serving its next request afterwards (the main request's references all given
 * back). The routes are {@link SubrequestRoutes}.
 */
class SubrequestTest {

    private static final String SERVER = "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
        + " subrequest_output_buffer_size 1k;\n location / { }\n}\n";

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(30)
    void postponedOutputComesInOrderAndTheConnectionGoesOn() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /sub/order HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /echo/next HTTP/1.1\r\nHost: localhost\r\n\r\n", 2);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(2, rs.size(), raw);
            assertEquals("A\nuri=/echo/1 args=x=1\nB\nuri=/echo/2 args=\nC\n", dechunk(rs.get(0).body()), raw);
            assertTrue(rs.get(0).headerText().contains("Transfer-Encoding: chunked"), raw);
            assertEquals("uri=/echo/next args=\n", rs.get(1).body(), raw);
        }
        assertTrue(!f.log().contains("[alert]"), f.log());
    }

    @Test
    @Timeout(30)
    void nestingStopsAtFiftyLevels() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /sub/nest/0 HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            assertTrue(closes(lc), raw);
            StringBuilder levels = new StringBuilder();
            for (int i = 0; i <= 51; i++) {
                levels.append(i).append(';');
            }
            String body = dechunk(raw.substring(raw.indexOf("\r\n\r\n") + 4));
            assertTrue(body.startsWith(levels.toString()), body);
            assertTrue(!body.contains("52;"), body);
        }
        assertTrue(f.log().contains("[error]") && f.log().contains("subrequests cycle while processing \"/sub/nest/52\""),
            f.log());
    }

    @Test
    @Timeout(30)
    void inMemorySubrequestsCollectTheirBodyWithinTheBuffer() throws Exception {
        f = EngineFixture.socketless(SERVER);
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /sub/mem/10 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /echo/after HTTP/1.1\r\nHost: localhost\r\n\r\n", 2);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(2, rs.size(), raw);
            assertEquals("mem 0 200 [xxxxxxxxxx]\n", rs.get(0).body(), raw);
            assertEquals("uri=/echo/after args=\n", rs.get(1).body(), raw);
        }
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /sub/mem/2000 HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            assertTrue(closes(lc), raw);
        }
        assertTrue(f.log().contains("too big subrequest response: 2000"), f.log());
    }

    private boolean closes(LocalConnection lc) throws Exception {
        return f.turnUntil(2000, () -> {
            try {
                return lc.closedByServer();
            } catch (java.io.IOException e) {
                return true;
            }
        });
    }

    /** The data of a chunked body, as far as it goes. */
    static String dechunk(String s) {
        StringBuilder data = new StringBuilder();
        int p = 0;
        for (;;) {
            int eol = s.indexOf("\r\n", p);
            if (eol < 0) {
                return data.toString();
            }
            int size = Integer.parseInt(s.substring(p, eol).trim(), 16);
            p = eol + 2;
            if (size == 0 || p + size > s.length()) {
                return data.toString();
            }
            data.append(s, p, p + size);
            p += size + 2;
        }
    }
}
