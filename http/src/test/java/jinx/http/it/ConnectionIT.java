package jinx.http.it;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keep-alive, its timeout and header, {@code keepalive_requests}, HTTP/1.0 and pipelining. */
@Tag("slow")
class ConnectionIT {

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        site.write("html/a.txt", "a\n");
        site.write("html/b.txt", "b\n");
        server = JinxServer.start(site, """
            keepalive_timeout 2s 2;
            keepalive_requests 3;
            server {
                listen 127.0.0.1:0;
                server_name localhost;
                root html;
                """ + ItSupport.ALIVE + """
                location /short { keepalive_timeout 0; }
            }
            """);
        port = server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        ItSupport.assertAlive(server);
        server.close();
        site.close();
    }

    @Test
    @Timeout(30)
    void keepAliveWithItsHeaderUpToKeepaliveRequests() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            for (int i = 1; i <= 3; i++) {
                c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
                Response r = c.responses(i).get(i - 1);
                assertEquals("a\n", r.body());
                if (i < 3) {
                    assertEquals("keep-alive", r.header("Connection"));
                    assertEquals("timeout=2", r.header("Keep-Alive"));
                } else {
                    assertEquals("close", r.header("Connection"));
                    assertEquals(null, r.header("Keep-Alive"));
                }
            }
            assertTrue(c.closedByServer(3000));
        }
    }

    @Test
    @Timeout(30)
    void idleConnectionClosedAtKeepaliveTimeout() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n").response();
            long start = System.nanoTime();
            assertFalse(c.closedByServer(1000));
            assertTrue(c.closedByServer(4000));
            assertTrue(System.nanoTime() - start > 1_500_000_000L);
        }
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("GET /short HTTP/1.1\r\nHost: localhost\r\n\r\n").response();
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(3000));
        }
    }

    @Test
    @Timeout(30)
    void http10ClosesUnlessAskedToKeepAlive() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("GET /a.txt HTTP/1.0\r\n\r\n").response();
            assertEquals("HTTP/1.1 200 OK", r.statusLine());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(3000));
        }
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").response();
            assertEquals("keep-alive", r.header("Connection"));
            assertFalse(c.closedByServer(500));
        }
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").response();
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(3000));
        }
    }

    /**
     * A keep-alive connection's next request is read ahead in the loop's wait (EventActions.preread): whether it
     * comes in pieces, or fills the header buffer (1k) that the read ahead asks no more than, it is the same request.
     */
    @Test
    @Timeout(30)
    void theNextRequestOfAKeepAliveConnectionInPiecesOrLargerThanItsBuffer() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("a\n", c.responses(1).get(0).body());
            for (String part : List.of("GET /b.t", "xt HTTP/1.1\r\nHost: local", "host\r\n", "\r\n")) {
                c.send(part);
                c.awaitRead();
            }
            assertEquals("b\n", c.responses(2).get(1).body());
            c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\nX-Long: " + "y".repeat(3000) + "\r\n\r\n");
            Response r = c.responses(3).get(2);
            assertEquals("HTTP/1.1 200 OK", r.statusLine());
            assertEquals("a\n", r.body());
        }
    }

    @Test
    @Timeout(30)
    void pipelinedRequestsAnsweredInOrder() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\nGET /b.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            List<Response> rs = c.responses(3);
            assertEquals(List.of("a\n", "b\n", "a\n"), rs.stream().map(Response::body).toList());
        }
        // a request split across packets anywhere is the same request
        try (RawClient c = RawClient.connect(port)) {
            for (String part : List.of("GE", "T /b.t", "xt HTTP/1.1\r", "\nHost: local", "host\r\n", "\r\n")) {
                c.send(part);
                c.awaitRead();
            }
            assertEquals("b\n", c.response().body());
        }
    }
}
