package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests through the socketless path: the reader, the phases and the filters, with the test content module,
 * over an in-memory connection. {@link SocketPairRequestTest} runs the same cases over a socket pair, so both
 * transports are held to the same bytes.
 */
class SocketlessRequestTest {

    private static final Pattern DATE = Pattern.compile("\r\nDate: ([A-Z][a-z]{2}, \\d\\d [A-Z][a-z]{2} \\d{4} "
        + "\\d\\d:\\d\\d:\\d\\d GMT)\r\n");

    /** The fixture, made before each test. */
    protected EngineFixture f;

    /**
     * Opens the client's connection.
     *
     * @return the connection
     * @throws IOException when none can be made
     */
    protected LocalConnection connect() throws IOException {
        LocalConnection lc = f.connect();
        assertNotNull(lc.memory(), "in memory");
        return lc;
    }

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    @Test
    @Timeout(20)
    void getWithKeepAlive() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET /echo?a=1 HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(1, rs.size(), raw);
            assertEquals("HTTP/1.1 200 OK", rs.get(0).statusLine());
            assertEquals("uri=/echo args=a=1\n", rs.get(0).body());
            assertEquals("keep-alive", rs.get(0).header("Connection"));
            assertFalse(lc.closedByServer());
            raw = f.exchange(lc, "GET /echo2 HTTP/1.1\r\nHost: localhost\r\n\r\n", 2);
            rs = Responses.split(raw);
            assertEquals(2, rs.size(), raw);
            assertEquals("uri=/echo2 args=\n", rs.get(1).body());
        }
    }

    @Test
    @Timeout(20)
    void aGetIsAnsweredWithExactlyTheseBytes() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET /echo?a=1 HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            Matcher date = DATE.matcher(raw);
            assertTrue(date.find(), raw);
            assertEquals("HTTP/1.1 200 OK\r\n"
                + "Server: jinx/" + SpecialResponse.version(f.cycle()) + "\r\n"
                + "Date: " + date.group(1) + "\r\n"
                + "Content-Type: text/plain\r\n"
                + "Content-Length: 19\r\n"
                + "Connection: keep-alive\r\n"
                + "\r\n"
                + "uri=/echo args=a=1\n", raw);
            assertFalse(lc.closedByServer());
        }
    }

    @Test
    @Timeout(20)
    void aChunkedBodyInPiecesThenTheNextRequestOnTheSameConnection() throws Exception {
        try (LocalConnection lc = connect()) {
            // the handler discards the body: it answers at once and the rest is read, and dropped, as it comes
            lc.send("POST /echo/c HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab");
            f.turn(10);
            lc.send("c\r\n1");
            f.turn(10);
            String raw = f.exchange(lc, "\r\nx\r\n0\r\n\r\n", 1);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(1, rs.size(), raw);
            assertEquals("uri=/echo/c args=\n", rs.get(0).body());
            assertEquals("keep-alive", rs.get(0).header("Connection"));
            raw = f.exchange(lc, "GET /echo/d HTTP/1.1\r\nHost: localhost\r\n\r\n", 2);
            rs = Responses.split(raw);
            assertEquals(2, rs.size(), raw);
            assertEquals("uri=/echo/d args=\n", rs.get(1).body());
            assertFalse(lc.closedByServer());
        }
    }

    @Test
    @Timeout(20)
    void manySmallChunksThenAPipelinedRequestInOneSend() throws Exception {
        // the discarded body outgrows the header buffer, so it is read in pieces of a header buffer's size; the
        // bytes after its end are the next request's
        StringBuilder sb = new StringBuilder("POST /echo/c HTTP/1.1\r\nHost: localhost\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 3000; i++) {
            sb.append("1\r\na\r\n");
        }
        sb.append("0\r\n\r\nGET /echo/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, sb.toString(), 2);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(2, rs.size(), raw);
            assertEquals("uri=/echo/c args=\n", rs.get(0).body());
            assertEquals("uri=/echo/next args=\n", rs.get(1).body());
            assertFalse(lc.closedByServer());
        }
    }

    @Test
    @Timeout(20)
    void notFoundPage() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
            assertEquals("text/html", r.header("Content-Type"));
            assertEquals("<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n"
                + "<center><h1>404 Not Found</h1></center>\r\n<hr><center>jinx/"
                + SpecialResponse.version(f.cycle()) + "</center>\r\n</body>\r\n</html>\r\n", r.body());
            assertTrue(f.log().contains("[error]"), f.log());
            // http_static answers: the file is not there
            assertTrue(f.log().contains("/html/nothing\" failed (2: No such file or directory), client: unix:, "
                + "server: localhost, request: \"GET /nothing HTTP/1.1\", host: \"localhost\""), f.log());
        }
    }

    @Test
    @Timeout(20)
    void badRequestLineCloses() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET / HTTP/1.1 junk\r\nHost: x\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("close", r.header("Connection"));
            f.turnUntil(2000, () -> closed(lc));
            assertTrue(lc.closedByServer());
            assertTrue(f.log().contains("[info]"), f.log());
            assertTrue(f.log().contains("client sent invalid request while reading client request line"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void missingHostIs400() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.1\r\n\r\n", 1);
            assertEquals("HTTP/1.1 400 Bad Request", Responses.split(raw).get(0).statusLine());
            assertTrue(f.log().contains("client sent HTTP/1.1 request without \"Host\" header while reading "
                + "client request headers"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void http10ClosesAfterResponse() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "GET /echo HTTP/1.0\r\n\r\n", 1);
            Responses.Response r = Responses.split(raw).get(0);
            assertEquals("HTTP/1.1 200 OK", r.statusLine());
            assertEquals("close", r.header("Connection"), r.headerText());
            f.turnUntil(2000, () -> closed(lc));
            assertTrue(lc.closedByServer());
        }
    }

    @Test
    @Timeout(20)
    void clientClosesBeforeTheRequest() throws Exception {
        try (LocalConnection lc = connect()) {
            lc.shutdownOutput();
            f.turnUntil(2000, () -> closed(lc));
            assertTrue(f.log().contains("[info]") && f.log().contains("client closed connection while waiting for "
                + "request, client: unix:, server: 127.0.0.1:8080"), f.log());
        }
    }

    @Test
    @Timeout(20)
    void clientClosesInTheRequestLine() throws Exception {
        try (LocalConnection lc = connect()) {
            lc.send("GET /echo HT");
            f.turn(10);
            lc.shutdownOutput();
            f.turnUntil(2000, () -> closed(lc));
            assertTrue(f.log().contains("client prematurely closed connection while reading client request line, "
                + "client: unix:, server: localhost, request: \"GET /echo HT\""), f.log());
        }
    }

    @Test
    @Timeout(20)
    void pipelinedRequestsWithBodies() throws Exception {
        try (LocalConnection lc = connect()) {
            String raw = f.exchange(lc, "POST /echo/1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"
                + "POST /echo/2 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                + "GET /echo/3 HTTP/1.1\r\nHost: localhost\r\n\r\n", 3);
            List<Responses.Response> rs = Responses.split(raw);
            assertEquals(3, rs.size(), raw);
            assertEquals("uri=/echo/3 args=\n", rs.get(2).body());
        }
    }

    @Test
    @Timeout(30)
    void steadyKeepAliveServingTakesNoNewBuffers() throws Exception {
        BufferPool pool = BufferPool.current();
        try (LocalConnection lc = connect()) {
            f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            long allocated = pool.allocated();
            for (int i = 2; i <= 100; i++) {
                f.exchange(lc, "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n", i);
            }
            assertEquals(100, Responses.split(lc.received()).size());
            assertEquals(allocated, pool.allocated());
        }
    }

    static boolean closed(LocalConnection lc) {
        try {
            return lc.closedByServer();
        } catch (java.io.IOException e) {
            return true;
        }
    }
}
