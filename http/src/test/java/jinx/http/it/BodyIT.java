package jinx.http.it;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request bodies: {@code Content-Length} and chunked, read ({@code it_echo body}) or discarded, in memory or in
 * a temporary file, {@code Expect: 100-continue}, and the connection staying usable afterwards.
 */
@Tag("slow")
class BodyIT {

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        site.write("html/a.txt", "a\n");
        // the server makes client_body_temp_path's last directory only, as nginx does
        site.mkdir("tmp");
        server = JinxServer.start(site, """
            client_body_buffer_size 1k;
            client_body_temp_path tmp/body 1 2;
            client_body_timeout 1s;
            server {
                listen 127.0.0.1:0;
                server_name localhost;
                root html;
                """ + ItSupport.ALIVE + """
                location /echo { it_echo body; }
                location /file { it_echo body; client_body_in_file_only on; }
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
    void contentLengthBody() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\nhello world");
            assertEquals("len=11 body=hello world", c.response().body());
            // the body sent in pieces, later
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 6\r\n\r\nab");
            c.awaitRead();
            c.send("cdef");
            assertEquals("len=6 body=abcdef", c.responses(2).get(1).body());
        }
    }

    @Test
    @Timeout(30)
    void chunkedBody() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n");
            assertEquals("len=11 body=hello world", c.response().body());
            c.send("GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("a\n", c.responses(2).get(1).body());
        }
    }

    @Test
    @Timeout(30)
    void largeBodyGoesToATemporaryFile() throws Exception {
        String body = "z".repeat(100_000);
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n" + body);
            assertEquals("len=100000 in file", c.response().body());
            c.send("POST /file HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc");
            assertEquals("len=3 in file", c.responses(2).get(1).body());
        }
        server.awaitLog("warn", "a client request body is buffered to a temporary file");
    }

    @Test
    @Timeout(30)
    void expectContinue() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", c.readUntil("\r\n\r\n"));
            c.send("ping");
            assertEquals("len=4 body=ping", c.response().body());
        }
    }

    @Test
    @Timeout(30)
    void unreadBodiesAreDiscardedAndTheConnectionGoesOn() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /alive HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"
                + "GET /a.txt HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                + "GET /a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            List<Response> rs = c.responses(3);
            assertEquals(3, rs.size(), c.received());
            assertEquals("alive\n", rs.get(0).body());
            assertEquals("a\n", rs.get(1).body());
            assertEquals("a\n", rs.get(2).body());
        }
    }

    @Test
    @Timeout(30)
    void bodyThatStopsHalfWayTimesOut() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nabc");
            assertTrue(c.closedByServer(5000));
        }
        // nginx logs nothing for a body read that times out; it closes, and the access log has 408
        server.awaitLine("logs/access.log", "\"POST /echo HTTP/1.1\" 408 ");
    }
}
