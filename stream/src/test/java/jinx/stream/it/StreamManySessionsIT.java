package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;

/**
 * 5,000 concurrent TCP sessions through Jinx's stream proxy: every client connects and is answered through its own
 * session before any closes, so 5,000 sessions (10,000 slots, client and upstream) are open at once; then all close
 * and every session is in the access log with its bytes. The backend is Debian's nginx serving HTTP with keep-alive
 * in a process of its own, so this JVM's descriptors (the clients' and Jinx's) stay under the limit.
 */
@Tag("slow")
class StreamManySessionsIT {

    private static final int SESSIONS = 5000;
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    @Test
    @Timeout(300)
    void fiveThousandSessionsAtOnce() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "Debian's nginx is not installed");
        int backendPort = DifferentialSite.freePort();
        Path root = Files.createTempDirectory("jinx-many-backend");
        Files.createDirectories(root.resolve("logs"));
        Files.writeString(root.resolve("nginx.conf"), "worker_rlimit_nofile 12000;\n"
            + "events { worker_connections 8000; }\nhttp { access_log off; keepalive_timeout 120s; "
            + "keepalive_requests 1000; server { listen 127.0.0.1:" + backendPort + " backlog=8192; "
            + "location / { return 200 \"ok\\n\"; } } }\n");
        Process nginx = new ProcessBuilder(DifferentialSite.NGINX.toString(), "-p", root + "/", "-c",
            root.resolve("nginx.conf").toString(), "-e", root.resolve("logs/error.log").toString(), "-g",
            "daemon off; master_process off; pid " + root.resolve("logs/n.pid") + ";")
            .redirectErrorStream(true).redirectOutput(root.resolve("logs/stdout.log").toFile()).start();
        List<Socket> clients = new ArrayList<>();
        try (DifferentialSite site = DifferentialSite.jinxStream("log_format n '$status $bytes_received';\n"
            + "access_log %LOG% n;\n"
            + "server { listen 127.0.0.1:%P0% backlog=8192; proxy_pass 127.0.0.1:" + backendPort + "; }\n", 1,
            2 * SESSIONS + 100)) {
            awaitPort(backendPort);
            int answered = 0;
            for (int i = 0; i < SESSIONS; i++) {
                Socket s = new Socket();
                clients.add(s);
                s.connect(new InetSocketAddress("127.0.0.1", site.port()), 10_000);
                s.setSoTimeout(20_000);
                OutputStream out = s.getOutputStream();
                out.write(REQUEST.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (readResponse(s.getInputStream()).startsWith("HTTP/1.1 200")) {
                    answered++;
                }
            }
            assertEquals(SESSIONS, answered, "answered while all sessions are open");
            for (Socket s : clients) {
                s.close();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // the probe that saw the port open is a session too, with nothing received
            String line = "200 " + REQUEST.length();
            long logged;
            do {
                Thread.sleep(200);
                logged = site.accessLog().lines().filter(line::equals).count();
            } while (logged < SESSIONS && System.nanoTime() < deadline);
            assertEquals(SESSIONS, logged, "sessions in the access log with status 200 and the request's bytes");
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            nginx.destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly();
            }
        }
    }

    /** The response's head and its 3-byte body ({@code ok\n}). */
    private static String readResponse(InputStream in) throws Exception {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\nok\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    private static void awaitPort(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (java.io.IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
