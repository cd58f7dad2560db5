package jinx.stream.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Embedded;
import jinx.testkit.DifferentialSite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pass} (nginx 1.25.5's {@code ngx_stream_pass_module}; Debian's nginx 1.22 has none, so no differential):
 * a stream server hands its connection to an HTTP server of the same Jinx, which answers it; to an address nothing
 * listens on (nginx's {@code port not found for "..."}, the connection
 * closed); to itself (nginx's {@code stream pass cycle} after 10 passes).
 */
class StreamPassIT {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void passHandsTheConnectionToTheListeningSocketOfTheAddress() throws Exception {
        int http = DifferentialSite.freePort();
        int toHttp = DifferentialSite.freePort();
        int nowhere = DifferentialSite.freePort();
        int cycle = DifferentialSite.freePort();
        int unused = DifferentialSite.freePort();
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("jinx.conf");
        Files.writeString(conf, "master_process off;\nerror_log stderr info;\npid logs/jinx.pid;\n"
            + "events { worker_connections 64; }\n"
            + "http {\n    access_log off;\n    server {\n        listen 127.0.0.1:" + http + ";\n"
            + "        location / { return 200 \"http $server_port $request_uri\\n\"; }\n    }\n}\n"
            + "stream {\n"
            + "    server { listen 127.0.0.1:" + toHttp + "; pass 127.0.0.1:" + http + "; }\n"
            + "    server { listen 127.0.0.1:" + nowhere + "; pass 127.0.0.1:" + unused + "; }\n"
            + "    server { listen 127.0.0.1:" + cycle + "; pass 127.0.0.1:" + cycle + "; }\n"
            + "}\n");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.ISO_8859_1);
             Embedded e = Embedded.builder(dir).confFile(conf).stderr(err).build()) {
            e.start();
            awaitListening(toHttp);
            String got = exchange(toHttp, "GET /x HTTP/1.0\r\n\r\n");
            assertTrue(got.startsWith("HTTP/1.1 200 OK\r\n"), got);
            assertTrue(got.endsWith("http " + http + " /x\n[closed]"), got);
            assertEquals("[closed]", exchange(nowhere, "hello"));
            assertEquals("[closed]", exchange(cycle, ""));
            Thread.sleep(200);
        }
        String text = log.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("[error]") && text.contains("port not found for \"127.0.0.1:" + unused
            + "\" while passing connection to port, client: 127.0.0.1, server: 127.0.0.1:" + nowhere), text);
        assertTrue(text.contains("stream pass cycle while passing connection to port"), text);
        assertTrue(!text.contains("Exception"), text);
    }

    private static void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        for (;;) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            String end = "[closed]";
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                end = "[open]";
            } catch (IOException e) {
                end = "[closed]";
            }
            return got.toString(StandardCharsets.ISO_8859_1) + end;
        }
    }
}
