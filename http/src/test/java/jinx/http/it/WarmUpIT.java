package jinx.http.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code worker_warmup}: a worker JVM a reload started runs requests of its own before it reports ready, through the
 * real {@code bin/jinx} (a reload that needs new JVMs: the configurations differ in {@code env}, a worker process's
 * own setting; a reload inside the running workers warms nothing up, their JIT is warm); they reach neither the
 * access log nor the error log, and the old worker serves meanwhile. By default ({@code off}) none runs. The test
 * kills the master and its workers in {@code finally}.
 */
@Tag("slow")
class WarmUpIT {

    private static final String WARM_UP_3S = "worker_warmup 3s;\n";

    private static final Pattern WARM_UP =
        Pattern.compile("\\[notice\\] (\\d+)#\\d+: warm-up: (\\d+) requests in (\\d+) ms(.*)\n");

    private static String conf(int port, String body, String warmUp) {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        return "env JINX_IT_BODY=" + body + ";\nmaster_process on;\ndaemon off;\nworker_processes 1;\n" + user
            + warmUp
            + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 256; }\n"
            + "http { access_log logs/access.log; server { listen 127.0.0.1:" + port + ";\n"
            + "root html;\nlocation = /hello { return 200 \"" + body + "\"; }\nlocation / { }\n"
            + "location /missing/ { } } }\n";
    }

    @Test
    @Timeout(120)
    void aReloadsWorkerWarmsUpUnseenBeforeItServes() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("html/index.html", "index\n");
            site.write("conf/jinx.conf", conf(port, "old", WARM_UP_3S));
            Process p = Masters.start(site);
            try {
                List<ProcessHandle> old = Masters.waitForWorkers(p.toHandle(), 1, List.of());
                waitFor(port, "old");
                site.write("conf/jinx.conf", conf(port, "new", WARM_UP_3S));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                String log = Masters.waitForLog(site, l -> WARM_UP.matcher(l).find() && l.contains(" ready in ")
                    && l.lastIndexOf(" ready in ") > l.indexOf("warm-up: "));
                Matcher m = WARM_UP.matcher(log);
                assertTrue(m.find(), log);
                long requests = Long.parseLong(m.group(2));
                assertTrue(requests > 0, m.group());
                assertFalse(m.group(4).contains("failed"), m.group());
                String pid = m.group(1);
                assertFalse(old.stream().anyMatch(h -> Long.toString(h.pid()).equals(pid)),
                    "the old worker warmed up");
                // the master logs the worker ready after the worker logged its warm-up
                assertTrue(log.indexOf(": worker process " + pid + " ready in ") > m.start(), log);
                waitFor(port, "new");
                assertEquals("index\n", get(port, "/"));
                // the warm-up's requests (several thousand, a 404 among them) left no line in either log
                String access = site.read("logs/access.log");
                assertFalse(access.contains("jinx-warmup"), access);
                long lines = access.lines().count();
                assertTrue(lines < 20, lines + " access log lines");
                assertFalse(log.contains("[error]"), log);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(120)
    void offByDefault() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("html/index.html", "index\n");
            site.write("conf/jinx.conf", conf(port, "old", ""));
            Process p = Masters.start(site);
            try {
                Masters.waitForWorkers(p.toHandle(), 1, List.of());
                waitFor(port, "old");
                site.write("conf/jinx.conf", conf(port, "new", ""));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                waitFor(port, "new");
                String log = Masters.waitForLog(site, l -> l.split(" ready in ", -1).length == 3);
                assertFalse(log.contains("warm-up"), log);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    /** Waits (60 s at most) until {@code /hello} answers {@code body}; a refused connection is retried. */
    private static void waitFor(int port, String body) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        String last = null;
        while (!body.equals(last)) {
            assertTrue(System.nanoTime() < end, "\"" + body + "\" never served, last " + last);
            try {
                last = get(port, "/hello");
            } catch (IOException e) {
                last = e.toString();
                Thread.sleep(50);
            }
        }
    }

    /** One request on its own connection; the body, the connection closed by the server. */
    private static String get(int port, String uri) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            int body = response.indexOf("\r\n\r\n");
            if (!response.startsWith("HTTP/1.1 200 ") || body < 0) {
                throw new IOException("response: " + response);
            }
            return response.substring(body + 4);
        }
    }
}
