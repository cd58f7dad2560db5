package jinx.http.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 4's "Bad input", each case with nginx's answer (a status or a close), the error log line nginx writes
 * for it at nginx's level (the texts and levels were read from nginx 1.22's error log for the same requests), and
 * the server still serving afterwards with no alert logged.
 */
@Tag("slow")
class BadInputIT {

    private static final String HOST = "Host: localhost\r\n";
    private static final int BIG = 16 * 1024 * 1024;

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        site.write("html/index.html", "index\n");
        site.write("html/big.bin", new byte[BIG]);
        site.write("secret.txt", "secret\n");
        server = JinxServer.start(site, """
            client_header_timeout 1s;
            client_body_timeout 1s;
            send_timeout 1s;
            client_max_body_size 100;
            large_client_header_buffers 4 8k;
            server {
                listen 127.0.0.1:0 sndbuf=32k;
                server_name localhost;
                root html;
                """ + ItSupport.ALIVE + """
                location /echo { it_echo body; }
            }
            """);
        port = server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        site.close();
    }

    @AfterEach
    void stillServes() throws IOException {
        ItSupport.assertAlive(server);
    }

    /** Sends a request that gets an error and a close: the status line, then the end of the stream. */
    private static Response refused(String request, String statusLine) throws IOException {
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send(request).response();
            assertEquals(statusLine, r.statusLine(), c.received());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(3000), "the connection stays open");
            return r;
        }
    }

    @Test
    @Timeout(30)
    void malformedRequestLines() throws Exception {
        refused("GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid method while reading client request line, client: 127.0.0.1, "
            + "server: localhost, request: \"GARBAGE\"");
        refused("GET /a b HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid request while reading client request line, client: 127.0.0.1, "
            + "server: localhost, request: \"GET /a b HTTP/1.1\"");
        refused("GET / HTTP/1.1 junk\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        refused("GET / HTTPS/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        refused("GET / HTTP/2.0\r\n" + HOST + "\r\n", "HTTP/1.1 505 HTTP Version Not Supported");
        server.awaitLog("info", "client sent invalid version while reading client request line");
        refused("GET /\tx HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
    }

    @Test
    @Timeout(30)
    void invalidMethods() throws Exception {
        refused("get / HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid method while reading client request line, client: 127.0.0.1, "
            + "server: localhost, request: \"get / HTTP/1.1\"");
        refused("G3T / HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        // a well-formed method nobody knows reaches the static module, which allows GET, HEAD and POST only
        Response r = ItSupport.request(port, "BREW /index.html HTTP/1.1\r\n" + HOST + "\r\n");
        assertEquals("HTTP/1.1 405 Not Allowed", r.statusLine());
        refused("TRACE / HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 405 Not Allowed");
        server.awaitLog("info", "client sent TRACE method");
        refused("CONNECT localhost:443 HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 405 Not Allowed");
        server.awaitLog("info", "client sent CONNECT method");
    }

    @Test
    @Timeout(30)
    void oversizedUriIs414() throws Exception {
        refused("GET /" + "u".repeat(9000) + " HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 414 Request-URI Too Large");
        server.awaitLog("info", "client sent too long URI while reading client request line");
    }

    @Test
    @Timeout(30)
    void oversizedHeaderIs494SentAs400() throws Exception {
        Response r = refused("GET / HTTP/1.1\r\n" + HOST + "Cookie: " + "c".repeat(9000) + "\r\n\r\n",
            "HTTP/1.1 400 Bad Request");
        assertTrue(r.body().contains("<center>Request Header Or Cookie Too Large</center>"), r.body());
        server.awaitLog("info", "client sent too long header line: \"Cookie: ccc");
        // more headers than the large buffers hold in all
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\n" + HOST);
        for (int i = 0; i < 8; i++) {
            many.append("X-").append(i).append(": ").append("v".repeat(7000)).append("\r\n");
        }
        r = refused(many.append("\r\n").toString(), "HTTP/1.1 400 Bad Request");
        assertTrue(r.body().contains("Request Header Or Cookie Too Large"), r.body());
    }

    @Test
    @Timeout(30)
    void thousandsOfShortHeaderLinesAre494SentAs400() throws Exception {
        // 3,000 lines of 9 bytes fit the large buffers; max_headers (default 1000) refuses them, as nginx does
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\n" + HOST);
        for (int i = 0; i < 3000; i++) {
            many.append("X").append(i).append(": 1\r\n");
        }
        Response r = refused(many.append("\r\n").toString(), "HTTP/1.1 400 Bad Request");
        assertTrue(r.body().contains("Request Header Or Cookie Too Large"), r.body());
        server.awaitLog("info", "client sent too many header lines while reading client request headers, "
            + "client: 127.0.0.1, server: localhost, request: \"GET / HTTP/1.1\"");
    }

    @Test
    @Timeout(30)
    void crOrNulInsideAHeaderValueIsRefused() throws Exception {
        refused("GET / HTTP/1.1\r\n" + HOST + "X-A: a\rInjected: b\r\n\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid header line: \"X-A: a\\x0d...\" while reading client request "
            + "headers");
        refused("GET / HTTP/1.1\r\n" + HOST + "X-A: a\0b\r\n\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid header line: \"X-A: a\\x00...\"");
        refused("GET / HTTP/1.1\r\n" + HOST + "X A: b\r\n\r\n", "HTTP/1.1 400 Bad Request");
    }

    @Test
    @Timeout(30)
    void lfInsideAHeaderValueEndsTheLine() throws Exception {
        // nginx takes a bare LF as the end of a line: "X-A: a\nInjected: b" is two headers, as nginx has them
        Response r = ItSupport.request(port, "GET /index.html HTTP/1.1\nHost: localhost\nX-A: a\nX-B: b\n\n");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("index\n", r.body());
    }

    @Test
    @Timeout(30)
    void nulBytesInTheUri() throws Exception {
        refused("GET /a\0b HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid request while reading client request line");
        refused("GET /index.html%00.txt HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
        server.awaitLog("info", "client sent invalid request while reading client request line, client: 127.0.0.1, "
            + "server: localhost, request: \"GET /index.html%00.txt HTTP/1.1\"");
    }

    @Test
    @Timeout(30)
    void dotDotCannotLeaveTheRoot() throws Exception {
        for (String uri : List.of("/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2e/secret.txt", "/.%2e/secret.txt",
                                  "/x/../../secret.txt", "/x/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt")) {
            Response r = refused("GET " + uri + " HTTP/1.1\r\n" + HOST + "\r\n", "HTTP/1.1 400 Bad Request");
            assertTrue(!r.body().contains("secret"), uri);
            server.awaitLog("info", "request: \"GET " + uri + " HTTP/1.1\"");
        }
        // inside the root, dot segments are resolved as nginx resolves them
        Response r = ItSupport.get(port, "localhost", "/x/%2e%2e/index.html");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("index\n", r.body());
    }

    /**
     * Symbolic links are followed, as nginx does without {@code disable_symlinks} (its default is {@code off}):
     * a link inside the root to a file outside it is served. {@code disable_symlinks} is not implemented yet.
     */
    @Test
    @Timeout(30)
    void symlinksAreFollowedAsWithDisableSymlinksOff() throws Exception {
        Path link = site.root().resolve("html/link.txt");
        try {
            Files.createSymbolicLink(link, site.root().resolve("secret.txt"));
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "no symbolic links here: " + e);
        }
        Response r = ItSupport.get(port, "localhost", "/link.txt");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("secret\n", r.body());
        Files.delete(link);
    }

    @Test
    @Timeout(30)
    void slowlorisIsClosedAtClientHeaderTimeout() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /index.html HTTP/1.1\r\n" + HOST);
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 20; i++) {
                    // pacing, the point of the test: a header line every 200 ms, slower than a client should be
                    Thread.sleep(200);
                    c.send("X-" + i + ": a\r\n");
                }
            } catch (IOException e) {
                // the server closed: writes fail
            }
            assertTrue(c.closedByServer(5000));
            assertEquals("", c.received(), "nginx sends nothing to a client that timed out");
            assertTrue(System.nanoTime() - start < 4_000_000_000L);
        }
        server.awaitLog("info", "client timed out (110: Connection timed out) while reading client request headers, "
            + "client: 127.0.0.1, server: localhost, request: \"GET /index.html HTTP/1.1\"");
        // a request line that never ends times out the same way
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /index.h");
            assertTrue(c.closedByServer(5000));
        }
    }

    @Test
    @Timeout(30)
    void bodyLargerThanAllowedIs413() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 101\r\n\r\n").response();
            assertEquals("HTTP/1.1 413 Request Entity Too Large", r.statusLine());
            assertEquals("close", r.header("Connection"));
        }
        server.awaitLog("error", "client intended to send too large body: 101 bytes, client: 127.0.0.1, "
            + "server: localhost, request: \"POST /echo HTTP/1.1\"");
        try (RawClient c = RawClient.connect(port)) {
            String chunk = "x".repeat(60);
            Response r = c.send("POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + "3c\r\n" + chunk + "\r\n3c\r\n" + chunk + "\r\n0\r\n\r\n").response();
            assertEquals("HTTP/1.1 413 Request Entity Too Large", r.statusLine());
        }
        server.awaitLog("error", "client intended to send too large chunked body: 60+60 bytes");
    }

    @Test
    @Timeout(30)
    void chunkSizesThatOverflowAre400() throws Exception {
        for (String size : List.of("fffffffffffffffff1", "8000000000000000")) {
            refused("POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + size + "\r\nx\r\n0\r\n\r\n",
                "HTTP/1.1 400 Bad Request");
            server.awaitLog("error", "client sent invalid chunked body");
        }
        // also when the body is only discarded
        refused("GET /index.html HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\nx\r\n",
            "HTTP/1.1 400 Bad Request");
    }

    @Test
    @Timeout(60)
    void clientThatNeverReadsIsClosedAtSendTimeout() throws Exception {
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(16 * 1024);
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.getOutputStream().write(("GET /big.bin HTTP/1.1\r\n" + HOST + "\r\n").getBytes());
            server.awaitLog("info", "client timed out (110: Connection timed out)", "request: \"GET /big.bin HTTP/1.1\"");
        }
    }

    @Test
    @Timeout(60)
    void thousandPipelinedRequestsInOnePacket() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sb.append("GET /index.html?").append(i).append(" HTTP/1.1\r\n" + HOST + "\r\n");
        }
        try (RawClient c = RawClient.connect(port)) {
            List<Response> rs = c.send(sb.toString()).responses(1000);
            assertEquals(1000, rs.size());
            for (Response r : rs) {
                assertEquals("HTTP/1.1 200 OK", r.statusLine());
                assertEquals("index\n", r.body());
            }
            // keepalive_requests 1000: the thousandth response closes the connection
            assertEquals("keep-alive", rs.get(998).header("Connection"));
            assertEquals("close", rs.get(999).header("Connection"));
            assertTrue(c.closedByServer(3000));
        }
    }
}
