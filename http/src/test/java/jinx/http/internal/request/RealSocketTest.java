package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The real server ({@code master_process off}, a {@code SingleProcess} on 127.0.0.1 with a port the kernel picks)
 * spoken to over TCP with raw bytes.
 */
@Tag("slow")
class RealSocketTest {

    private static EngineFixture f;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        f = EngineFixture.sockets("client_header_timeout 1;\nsend_timeout 1;\nkeepalive_requests 5000;\n"
            + "large_client_header_buffers 4 8k;\n"
            + "server {\n listen 127.0.0.1:0 sndbuf=32k;\n server_name localhost;\n}\n");
        f.serve();
        port = f.port();
    }

    @AfterAll
    static void stop() throws Exception {
        f.close();
    }

    private static Socket connect() throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(16 * 1024);
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(5000);
        return s;
    }

    /** Reads until {@code n} responses are complete, the server closes, or nothing comes for a while. */
    private static String read(Socket s, int n) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[65536];
        try {
            while (Responses.split(out.toString(StandardCharsets.ISO_8859_1)).size() < n) {
                int k = in.read(buf);
                if (k < 0) {
                    break;
                }
                out.write(buf, 0, k);
            }
        } catch (SocketTimeoutException e) {
            // what came is what there is
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static void write(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(3000);
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    @Timeout(30)
    void getWithKeepAlive() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /echo/1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            List<Responses.Response> rs = Responses.split(read(s, 1));
            assertEquals("HTTP/1.1 200 OK", rs.get(0).statusLine());
            assertEquals("keep-alive", rs.get(0).header("Connection"));
            write(s, "GET /echo/2 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            rs = Responses.split(read(s, 1));
            assertEquals("uri=/echo/2 args=\n", rs.get(0).body());
        }
    }

    @Test
    @Timeout(60)
    void thousandPipelinedRequestsInOnePacket() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sb.append("GET /echo/").append(i).append(" HTTP/1.1\r\nHost: localhost\r\n\r\n");
        }
        try (Socket s = connect()) {
            write(s, sb.toString());
            List<Responses.Response> rs = Responses.split(read(s, 1000));
            assertEquals(1000, rs.size());
            assertEquals("uri=/echo/999 args=\n", rs.get(999).body());
        }
    }

    @Test
    @Timeout(30)
    void slowlorisIsClosedAtClientHeaderTimeout() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /echo HTTP/1.1\r\nHost: localhost\r\n");
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                Thread.sleep(200);
                try {
                    write(s, "X-" + i + ": a\r\n");
                } catch (IOException e) {
                    break;
                }
            }
            assertTrue(closedByServer(s));
            assertTrue(System.nanoTime() - start < 5_000_000_000L);
        }
        assertTrue(f.log().contains("client timed out (110: Connection timed out) while reading client request "
            + "headers, client: 127.0.0.1, server: localhost, request: \"GET /echo HTTP/1.1\""), f.log());
    }

    @Test
    @Timeout(30)
    void oversizedHeaderIs400RequestHeaderOrCookieTooLarge() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /echo HTTP/1.1\r\nHost: localhost\r\nCookie: " + "c".repeat(9000) + "\r\n\r\n");
            Responses.Response r = Responses.split(read(s, 1)).get(0);
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertTrue(r.body().contains("<center>Request Header Or Cookie Too Large</center>"), r.body());
            assertTrue(closedByServer(s));
        }
    }

    @Test
    @Timeout(30)
    void tooLongUriIs414() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /" + "u".repeat(9000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("HTTP/1.1 414 Request-URI Too Large", Responses.split(read(s, 1)).get(0).statusLine());
        }
    }

    @Test
    @Timeout(30)
    void badRequestLineGets400Page() throws Exception {
        try (Socket s = connect()) {
            write(s, "BAD\u0001 / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            Responses.Response r = Responses.split(read(s, 1)).get(0);
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertTrue(r.body().startsWith("<html>\r\n<head><title>400 Bad Request</title></head>"), r.body());
            assertTrue(closedByServer(s));
        }
    }

    @Test
    @Timeout(30)
    void http09() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /echo/old\r\n");
            assertEquals("uri=/echo/old args=\n", read(s, 1));
        }
    }

    @Test
    @Timeout(30)
    void missingHost() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /echo HTTP/1.1\r\n\r\n");
            assertEquals(400, Responses.split(read(s, 1)).get(0).status());
        }
    }

    @Test
    @Timeout(30)
    void clientThatNeverReadsIsClosedAtSendTimeout() throws Exception {
        try (Socket s = connect()) {
            write(s, "GET /big/16000000 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!f.log().contains("request: \"GET /big/16000000 HTTP/1.1\"") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(f.log().contains("client timed out (110: Connection timed out), client: 127.0.0.1, "
                + "server: localhost, request: \"GET /big/16000000 HTTP/1.1\""), f.log());
        }
    }
}
