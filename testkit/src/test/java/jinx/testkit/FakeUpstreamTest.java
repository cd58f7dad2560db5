package jinx.testkit;

import static jinx.testkit.UpstreamClient.client;
import static jinx.testkit.UpstreamClient.connect;
import static jinx.testkit.UpstreamClient.untilEnd;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fake upstream itself: it listens and stops, keeps connections alive and counts them, records requests
 * whole and raw (de-chunked, trailers, malformed ones too), and takes new behaviours by path prefix.
 */
@Timeout(30)
class FakeUpstreamTest {

    @Test
    void listensOnLoopbackAndCloseEndsConnectionsAndThreads() throws Exception {
        FakeUpstream up = FakeUpstream.start();
        int port = up.port();
        assertTrue(port > 0);
        assertEquals("127.0.0.1:" + port, up.address());
        try (Socket idle = connect(up)) {
            idle.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: up\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            up.awaitRequests(1);
            up.close();
            String got = untilEnd(idle).received();
            assertTrue(got.startsWith("HTTP/1.1 200 OK\r\n") || got.isEmpty(), got);
        }
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("fake-upstream-" + port) && t.isAlive(), t.getName());
        }
        up.close();
    }

    @Test
    void keepsHttp11ConnectionsAliveAndCountsThem() throws Exception {
        try (FakeUpstream up = FakeUpstream.start(); JinxClient.Session s = client(up).open()) {
            for (int i = 0; i < 3; i++) {
                s.send("GET /hello HTTP/1.1\r\nHost: up\r\n\r\n");
            }
            List<Response> rs = s.responses(3);
            assertEquals(3, rs.size(), s.received());
            for (Response r : rs) {
                assertEquals("hello\n", r.body());
                assertNull(r.header("Connection"), r.head());
            }
            up.awaitOpenConnections(1);
            assertEquals(1, up.connections());
            client(up).get("/hello");
            assertEquals(2, up.connections());
            List<Received> got = up.requests();
            assertEquals(List.of(1, 1, 1, 2), got.stream().map(Received::connection).toList());
        }
    }

    @Test
    void http10ClosesUnlessAskedToKeepAlive() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            UpstreamClient.Ending closed = untilEnd(up, "GET /hello HTTP/1.0\r\nHost: up\r\n\r\n");
            assertEquals("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\nConnection: close\r\n"
                + "\r\nhello\n", closed.received());
            assertFalse(closed.reset());
            try (JinxClient.Session s = client(up).open()) {
                s.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                assertEquals("keep-alive", s.response().header("Connection"));
                s.send("GET /hello HTTP/1.1\r\nHost: up\r\nConnection: close\r\n\r\n");
                assertEquals(2, s.responses(2).size(), s.received());
                assertTrue(s.closedByServer());
            }
            assertEquals(2, up.connections());
        }
    }

    @Test
    void anIdleTimeoutClosesAConnectionThatWaitsTooLong() throws Exception {
        try (FakeUpstream up = FakeUpstream.start().idleTimeout(300); JinxClient.Session s = client(up).open()) {
            for (int i = 1; i <= 3; i++) {
                Thread.sleep(100);
                s.send("GET /hello HTTP/1.1\r\nHost: up\r\n\r\n");
                assertEquals(i, s.responses(i).size(), s.received());
            }
            long t0 = System.nanoTime();
            assertTrue(s.closedByServer());
            assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "closed by the timeout, not by the client's wait");
            up.awaitOpenConnections(0);
            assertEquals(1, up.connections());
            assertEquals(3, up.requests().size(), "a timeout records no request");
        }
    }

    @Test
    void recordsLinesInOrderTheBodyAndTheRawBytes() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String raw = "POST /echo?a=1 HTTP/1.1\r\nHost: up\r\nX-B: 2\r\nx-a: 1\r\nX-B: 3\r\nContent-Length: 5\r\n"
                + "Connection: close\r\n\r\nhi\r\n!";
            Response r = client(up).request(raw);
            Received got = up.lastRequest();
            assertEquals("POST /echo?a=1 HTTP/1.1", got.requestLine());
            assertEquals("POST", got.method());
            assertEquals("/echo?a=1", got.uri());
            assertEquals("/echo", got.path());
            assertEquals("HTTP/1.1", got.version());
            assertEquals(List.of("Host: up", "X-B: 2", "x-a: 1", "X-B: 3", "Content-Length: 5", "Connection: close"),
                got.headerLines());
            assertEquals(List.of("2", "3"), got.headers("x-b"));
            assertEquals("1", got.header("X-A"));
            assertEquals("hi\r\n!", got.bodyText());
            assertEquals(raw, got.rawText());
            assertNull(got.error());
            assertEquals(1, got.connection());
            assertEquals(raw.substring(0, raw.indexOf("\r\n\r\n")).replace("\r\n", "\n") + "\n\nhi\r\n!", r.body());
        }
    }

    @Test
    void deChunksARequestBodyAndKeepsItsTrailers() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String raw = "PUT /echo HTTP/1.1\r\nHost: up\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3;ext=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\nX-U: 2\r\n\r\n";
            try (JinxClient.Session s = client(up).open()) {
                assertEquals(200, s.send(raw).response().status());
                // the next request on the same connection starts right after the trailers
                assertEquals("hello\n", s.send("GET /hello HTTP/1.1\r\nHost: up\r\n\r\n").responses(2).get(1).body());
            }
            Received got = up.requests().get(0);
            assertEquals("abc0123456789", got.bodyText());
            assertEquals(List.of("X-T: 1", "X-U: 2"), got.trailerLines());
            assertEquals(raw, got.rawText());
            assertEquals("/hello", up.lastRequest().path());
            up.clear();
            assertTrue(up.requests().isEmpty());
            assertThrows(IllegalStateException.class, up::lastRequest);
        }
    }

    @Test
    void aMalformedRequestIsRecordedAnswered400AndClosed() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String raw = "POST /echo HTTP/1.1\r\nHost: up\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n";
            UpstreamClient.Ending end = untilEnd(up, raw);
            assertTrue(end.received().startsWith("HTTP/1.1 400 Bad Request\r\n"), end.received());
            assertTrue(end.received().contains("Connection: close\r\n"), end.received());
            Received got = up.lastRequest();
            assertEquals("invalid chunk size \"zz\"", got.error());
            assertEquals("hello", got.bodyText());
            assertEquals(raw, got.rawText());

            assertTrue(untilEnd(up, "GET /a b HTTP/1.1\r\n\r\n").received().startsWith("HTTP/1.1 400 "));
            assertEquals("invalid request line", up.lastRequest().error());
            assertTrue(untilEnd(up, "GET / HTTP/1.1\r\nno colon\r\n\r\n").received().startsWith("HTTP/1.1 400 "));
            assertEquals("invalid header line", up.lastRequest().error());
            untilEnd(up, "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n");
            assertEquals("invalid Content-Length \"-1\"", up.lastRequest().error());
        }
    }

    @Test
    void aPeerThatClosesMidRequestIsRecorded() throws Exception {
        try (FakeUpstream up = FakeUpstream.start(); Socket s = connect(up)) {
            s.getOutputStream().write("POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc".getBytes(
                StandardCharsets.US_ASCII));
            s.shutdownOutput();
            Received got = up.awaitRequests(1).get(0);
            assertEquals("connection closed in the request body", got.error());
            assertEquals("abc", got.bodyText());
            up.awaitOpenConnections(0);
        }
    }

    @Test
    void expectContinueIsHonouredOnlyWhereTheHandlerSaysSo() throws Exception {
        try (FakeUpstream up = FakeUpstream.start(); JinxClient.Session s = client(up).open()) {
            s.send("POST /expect HTTP/1.1\r\nHost: up\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", s.readUntil("\r\n\r\n"));
            assertTrue(up.requests().isEmpty(), "recorded before its body came");
            List<Response> rs = s.send("body").responses(1);
            assertEquals(100, rs.get(0).status());
            assertEquals("body", rs.get(1).body());
            s.send("POST /echo HTTP/1.1\r\nHost: up\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody");
            rs = s.responses(2);
            assertEquals(200, rs.get(2).status(), s.received());
            assertEquals(3, rs.size(), "no 100 from /echo: " + s.received());
        }
    }

    @Test
    void onAddsAndReplacesBehavioursLongestPrefixFirst() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            assertEquals(404, client(up).get("/hellothere").status());
            assertEquals("not found\n", client(up).get("/nothing").body());
            up.on("/", (r, ex) -> ex.respond(200, List.of(), UpstreamConnection.bytes("any " + r.path())));
            up.on("/hello", (r, ex) -> ex.respond(201, List.of("X-Mine: 1"), r.body()));
            up.on("/hello/deep", (r, ex) -> ex.respond(202, List.of(), new byte[0]));
            assertEquals("any /hellothere", client(up).get("/hellothere").body());
            Response r = client(up).request("POST /hello HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
            assertEquals("HTTP/1.1 201 Created\r\nX-Mine: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n",
                r.head());
            assertEquals("ok", r.body());
            assertEquals(201, client(up).get("/hello/x").status());
            assertEquals(202, client(up).get("/hello/deep/er").status());
            assertEquals(200, client(up).get("/echo").status());
            assertThrows(IllegalArgumentException.class, () -> up.on("echo", (q, ex) -> ex.closeAfter()));
        }
    }

    @Test
    void aHeadRequestGetsTheHeaderOnly() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            for (String path : List.of("/size/10", "/chunked/10", "/trailers", "/slow-body/1")) {
                Response r = Response.split(untilEnd(up, "HEAD " + path + " HTTP/1.0\r\n\r\n").received(), true, true)
                    .get(0);
                assertEquals(200, r.status(), path);
                assertTrue(r.head().endsWith("\r\n\r\n") && r.body().isEmpty(), path + ": " + r);
            }
            assertEquals("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: close"
                + "\r\n\r\n", untilEnd(up, "HEAD /size/10 HTTP/1.0\r\n\r\n").received());
        }
    }

    @Test
    void aHandlerThatThrowsClosesItsConnectionOnly() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            up.on("/bug", (r, ex) -> {
                throw new IllegalStateException("handler bug (expected by the test)");
            });
            assertEquals("", untilEnd(up, "GET /bug HTTP/1.1\r\n\r\n").received());
            assertEquals("handler bug (expected by the test)", up.failures().get(0).getMessage());
            assertEquals("hello\n", client(up).get("/hello").body());
            up.awaitOpenConnections(0);
        }
    }

    @Test
    void servesAndRecordsFromManyThreadsAtOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (FakeUpstream up = FakeUpstream.start()) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                done.add(pool.submit(() -> {
                    try (JinxClient.Session s = client(up).open()) {
                        for (int i = 0; i < 25; i++) {
                            s.send("GET /size/" + i + " HTTP/1.1\r\nHost: up\r\n\r\n");
                            Response r = s.responses(i + 1).get(i);
                            assertArrayEquals(FakeUpstream.pattern(i), r.body().getBytes(StandardCharsets.ISO_8859_1));
                        }
                        return 25;
                    }
                }));
            }
            for (Future<Integer> f : done) {
                assertEquals(25, f.get(20, TimeUnit.SECONDS));
            }
            assertEquals(200, up.requests().size());
            assertEquals(8, up.connections());
            assertEquals(8, up.requests().stream().map(Received::connection).distinct().count());
            assertTrue(up.failures().isEmpty(), up.failures().toString());
        } finally {
            pool.shutdownNow();
        }
    }
}
