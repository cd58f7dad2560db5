package jinx.testkit;

import static jinx.testkit.UpstreamClient.client;
import static jinx.testkit.UpstreamClient.connect;
import static jinx.testkit.UpstreamClient.text;
import static jinx.testkit.UpstreamClient.untilEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every built-in behaviour of the fake upstream, seen from a raw socket: status, header lines, body bytes, and how
 * the connection ends (kept, closed, reset).
 */
@Timeout(30)
class FakeUpstreamBehaviourTest {

    private static FakeUpstream up;

    @BeforeAll
    static void start() throws Exception {
        up = FakeUpstream.start();
    }

    @AfterAll
    static void stop() {
        up.close();
    }

    private static Response get(String path) throws Exception {
        return client(up).get(path);
    }

    private static String head(String statusLine, String... lines) {
        return statusLine + "\r\n" + String.join("", List.of(lines).stream().map(l -> l + "\r\n").toList()) + "\r\n";
    }

    @Test
    void echoSaysWhatCame() throws Exception {
        Response r = client(up).request("GET /echo/x?y HTTP/1.1\r\nHost: up\r\nX-A: 1\r\nConnection: close\r\n\r\n");
        String echo = "GET /echo/x?y HTTP/1.1\nHost: up\nX-A: 1\nConnection: close\n\n";
        assertEquals(head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: " + echo.length(),
            "Connection: close"), r.head());
        assertEquals(echo, r.body());
    }

    @Test
    void helloAndSizesKeepTheConnection() throws Exception {
        try (JinxClient.Session s = client(up).open()) {
            s.send("GET /hello HTTP/1.1\r\nHost: up\r\n\r\nGET /size/100000 HTTP/1.1\r\nHost: up\r\n\r\n");
            s.send("GET /size/0 HTTP/1.1\r\nHost: up\r\n\r\nGET /size HTTP/1.1\r\nHost: up\r\n\r\n");
            List<Response> rs = s.responses(4);
            assertEquals(head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: 6"), rs.get(0).head());
            assertEquals("hello\n", rs.get(0).body());
            assertEquals("100000", rs.get(1).header("Content-Length"));
            assertEquals(text(FakeUpstream.pattern(100000)), rs.get(1).body());
            assertEquals("", rs.get(2).body());
            assertEquals(400, rs.get(3).status());
            assertEquals("bad number \"\" in /size/N (0-268435456)\n", rs.get(3).body());
            assertFalse(s.send("GET /hello HTTP/1.1\r\nHost: up\r\n\r\n").responses(5).isEmpty());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 100, 20000})
    void chunkedSendsTheBodyInGrowingChunks(int n) throws Exception {
        Response r = get("/chunked/" + n);
        assertEquals(head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Transfer-Encoding: chunked",
            "Connection: close"), r.head());
        assertEquals(text(FakeUpstream.pattern(n)), r.content());
        if (n == 20000) {
            assertTrue(r.body().startsWith("1\r\n0\r\n2\r\n12\r\n4\r\n3456\r\n8\r\n"), r.body().substring(0, 40));
            assertTrue(r.body().contains("\r\n2000\r\n"), "chunks of 8192 bytes");
        }
        assertTrue(r.body().endsWith("0\r\n\r\n"));
    }

    @Test
    void trailersFollowTheLastChunk() throws Exception {
        Response r = get("/trailers");
        assertEquals("X-Checksum, X-Trailer", r.header("Trailer"));
        assertEquals("3\r\nhel\r\n3\r\nlo\n\r\n0\r\nX-Checksum: 5d41402a\r\nX-Trailer: done\r\n\r\n", r.body());
        assertEquals("hello\n", r.content());
        // the kit's client ends a chunked body after its trailers, so the next response on the connection is whole
        try (JinxClient.Session s = client(up).open()) {
            List<Response> rs = s.send("GET /trailers HTTP/1.1\r\nHost: up\r\n\r\nGET /hello HTTP/1.1\r\n\r\n")
                .responses(2);
            assertEquals(List.of(r.body(), "hello\n"), rs.stream().map(Response::body).toList());
        }
    }

    @Test
    void closeDelimitsTheBody() throws Exception {
        UpstreamClient.Ending end = untilEnd(up, "GET /close/5000 HTTP/1.1\r\nHost: up\r\n\r\n");
        assertFalse(end.reset());
        assertEquals(head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Connection: close")
            + text(FakeUpstream.pattern(5000)), end.received());
    }

    @Test
    void http10AnswersInHttp10AndCloses() throws Exception {
        UpstreamClient.Ending end = untilEnd(up, "GET /http10 HTTP/1.1\r\nHost: up\r\n\r\n");
        assertEquals(head("HTTP/1.0 200 OK", "Content-Type: text/plain", "Content-Length: 9") + "http/1.0\n",
            end.received());
        assertFalse(end.reset());
    }

    @Test
    void statusIsTheOneAsked() throws Exception {
        Response r = get("/status/503");
        assertEquals("HTTP/1.1 503 Service Unavailable", r.statusLine());
        assertEquals("status 503\n", r.body());
        assertEquals("HTTP/1.1 599 Unknown", get("/status/599").statusLine());
        assertEquals("HTTP/1.1 302 Found", get("/status/302").statusLine());
        Response none = get("/status/204");
        assertEquals(head("HTTP/1.1 204 No Content", "Content-Type: text/plain", "Connection: close"), none.head());
        assertEquals(400, get("/status/99").status());
        assertEquals(400, get("/status/1000").status());
        assertEquals(400, get("/status/abc").status());
    }

    @Test
    void slowHeaderAndSlowBodyWait() throws Exception {
        long t0 = System.nanoTime();
        Response r = get("/slow-header/300");
        assertTrue(System.nanoTime() - t0 >= 300_000_000L);
        assertEquals("slow\n", r.body());
        try (JinxClient.Session s = client(up).open()) {
            s.send("GET /slow-body/400 HTTP/1.1\r\nHost: up\r\n\r\n");
            long t1 = System.nanoTime();
            assertTrue(s.readUntil("first\n").endsWith("Content-Length: 13\r\n\r\nfirst\n"), s.received());
            assertTrue(System.nanoTime() - t1 < 300_000_000L, "the first part came at once");
            assertEquals("first\nsecond\n", s.response().body());
            assertTrue(System.nanoTime() - t1 >= 400_000_000L);
        }
    }

    @Test
    void garbageAndABadHeaderLineAreNotHttp() throws Exception {
        assertEquals(new UpstreamClient.Ending("this is not HTTP\r\n\r\n", false),
            untilEnd(up, "GET /garbage HTTP/1.1\r\nHost: up\r\n\r\n"));
        assertEquals(new UpstreamClient.Ending("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nthis line has no colon\r\n\r\n"
            + "bad\n", false), untilEnd(up, "GET /bad-header HTTP/1.1\r\nHost: up\r\n\r\n"));
    }

    @Test
    void bigHeaderIsOverEightKilobytes() throws Exception {
        Response r = get("/big-header");
        assertEquals(16384, r.header("X-Big").length());
        assertTrue(r.head().length() > 16384);
        assertTrue(r.header("X-Big").matches("[0-9a-zA-Z]+"));
        assertEquals("big\n", r.body());
        assertEquals(100, get("/big-header/100").header("X-Big").length());
    }

    @Test
    void resetHeaderResetsBeforeAnyByte() throws Exception {
        assertEquals(new UpstreamClient.Ending("", true),
            untilEnd(up, "GET /reset-header HTTP/1.1\r\nHost: up\r\n\r\n"));
    }

    @Test
    void resetBodyResetsInTheBody() throws Exception {
        UpstreamClient.Ending end = untilEnd(up, "GET /reset-body HTTP/1.1\r\nHost: up\r\n\r\n");
        assertEquals(new UpstreamClient.Ending(head("HTTP/1.1 200 OK", "Content-Type: text/plain",
            "Content-Length: 1000") + text(FakeUpstream.pattern(100)), true), end);
    }

    @Test
    void closeEarlyAndWrongLengthCloseShortOfTheLength() throws Exception {
        try (Socket s = connect(up)) {
            s.getOutputStream().write("GET /close-early HTTP/1.1\r\nHost: up\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            String header = head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: 200");
            byte[] first = s.getInputStream().readNBytes(header.length());
            assertEquals(header, text(first), "the header comes alone, before the body");
            assertEquals(new UpstreamClient.Ending(text(FakeUpstream.pattern(100)), false), UpstreamClient.untilEnd(s));
        }
        assertEquals(new UpstreamClient.Ending(head("HTTP/1.1 200 OK", "Content-Type: text/plain",
            "Content-Length: 100") + "short\n", false), untilEnd(up, "GET /wrong-length HTTP/1.1\r\nHost: up\r\n\r\n"));
    }

    @Test
    void badChunkSendsAnInvalidChunkSize() throws Exception {
        assertEquals(new UpstreamClient.Ending(head("HTTP/1.1 200 OK", "Content-Type: text/plain",
            "Transfer-Encoding: chunked") + "6\r\nhello\n\r\nzz\r\n", false),
            untilEnd(up, "GET /bad-chunk HTTP/1.1\r\nHost: up\r\n\r\n"));
    }

    @Test
    void headersGiveWhatAProxyRewritesOrHides() throws Exception {
        String self = "http://127.0.0.1:" + up.port();
        Response r = get("/headers");
        assertEquals(head("HTTP/1.1 200 OK", "Server: fake-upstream", "Date: Sun, 06 Nov 1994 08:49:37 GMT",
            "Content-Type: text/plain", "Set-Cookie: a=1; Domain=127.0.0.1; Path=/",
            "Set-Cookie: b=2; Path=/headers/; HttpOnly", "Set-Cookie: c=3; domain=localhost; path=/x; Secure",
            "Location: " + self + "/x", "Refresh: 5; url=" + self + "/x", "X-Accel-Buffering: yes",
            "X-Accel-Expires: 0", "X-Accel-Limit-Rate: 0", "X-Pad: avoid browser bug",
            "x-lower-case: kept", "Content-Length: 8", "Connection: close"), r.head());
        assertEquals("headers\n", r.body());
    }

    @Test
    void redirectPointsAtTheUpstreamItself() throws Exception {
        Response r = get("/redirect");
        assertEquals("HTTP/1.1 302 Found", r.statusLine());
        assertEquals("http://127.0.0.1:" + up.port() + "/x", r.header("Location"));
        assertEquals("redirect\n", r.body());
        assertEquals("http://127.0.0.1:" + up.port() + "/a/b", get("/redirect/a/b?q").header("Location"));
    }

    @Test
    void upgradeSwitchesThenEchoesUntilTheClientCloses() throws Exception {
        try (Socket s = connect(up)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(("GET /upgrade HTTP/1.1\r\nHost: up\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            // the accept value of RFC 6455 section 1.3's example
            String switched = head("HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
            assertEquals(switched, text(in.readNBytes(switched.length())));
            for (String piece : List.of("ping", "\u0000\u00ff binary", "x")) {
                out.write(piece.getBytes(StandardCharsets.ISO_8859_1));
                assertEquals(piece, text(in.readNBytes(piece.length())));
            }
            s.shutdownOutput();
            assertEquals(new UpstreamClient.Ending("", false), UpstreamClient.untilEnd(s));
        }
        assertEquals(426, get("/upgrade").status());
    }

    @Test
    void expectSendsContinueBeforeReadingTheBody() throws Exception {
        try (Socket s = connect(up)) {
            s.getOutputStream().write(("POST /expect HTTP/1.1\r\nHost: up\r\nExpect: 100-continue\r\n"
                + "Content-Length: 3\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String cont = "HTTP/1.1 100 Continue\r\n\r\n";
            assertEquals(cont, text(s.getInputStream().readNBytes(cont.length())));
            s.getOutputStream().write("abc".getBytes(StandardCharsets.US_ASCII));
            String ok = head("HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length: 3") + "abc";
            assertEquals(ok, text(s.getInputStream().readNBytes(ok.length())));
        }
        assertEquals("abc", up.lastRequest().bodyText());
        Response plain = client(up).request("POST /expect HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi");
        assertEquals(200, plain.status(), "no Expect, no 100: " + plain.head());
        assertEquals("hi", plain.body());
    }
}
