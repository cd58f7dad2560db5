package jinx.http.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The default distribution as a person runs it: {@code bin/jinx} (the launcher, on the module path, with the
 * modules' jars) tests {@code conf/jinx.conf} with nginx's two lines, and serves {@code html/} with that
 * configuration — here from a copy of the distribution whose {@code listen} is moved from 8080 to a free port —
 * saying where it listens, until it is stopped by its pid.
 */
@Tag("slow")
class DistributionIT {

    private static final Path ROOT = Site.distribution();
    private static final List<String> JARS = List.of("kernel/target/jinx-kernel.jar",
        "event-epoll/target/jinx-event-epoll.jar", "event-poll/target/jinx-event-poll.jar", "http/target/jinx-http.jar");

    /** The launcher builds the project when a jar is missing: here the build must have made them already. */
    private static void assumeBuilt() {
        for (String jar : JARS) {
            assumeTrue(Files.isRegularFile(ROOT.resolve(jar)), jar + " is not built (run mvn package first)");
        }
    }

    @Test
    @Timeout(60)
    void testingTheDefaultConfigurationSaysTwoLines() throws Exception {
        assumeBuilt();
        Process p = new ProcessBuilder(ROOT.resolve("bin/jinx").toString(), "-t").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        Path conf = ROOT.resolve("conf/jinx.conf");
        assertEquals("jinx: the configuration file " + conf + " syntax is ok\n"
            + "jinx: configuration file " + conf + " test is successful\n", out);
        assertEquals(0, p.exitValue());
    }

    @Test
    @Timeout(120)
    void theDefaultDistributionServes() throws Exception {
        assumeBuilt();
        try (Site site = Site.create()) {
            int port = Site.freePort();
            String conf = Files.readString(ROOT.resolve("conf/jinx.conf"), StandardCharsets.ISO_8859_1);
            assertTrue(conf.contains("listen       127.0.0.1:8080;"), conf);
            site.write("conf/jinx.conf", conf.replace("127.0.0.1:8080", "127.0.0.1:" + port));
            String index = Files.readString(ROOT.resolve("html/index.html"), StandardCharsets.ISO_8859_1);
            site.write("html/index.html", index);
            site.write("html/50x.html", Files.readString(ROOT.resolve("html/50x.html"), StandardCharsets.ISO_8859_1));
            Process p = new ProcessBuilder(ROOT.resolve("bin/jinx").toString(), "-p", site.root().toString())
                .redirectErrorStream(true).start();
            try {
                BufferedReader err = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.ISO_8859_1));
                assertEquals("jinx: [notice] listening on 127.0.0.1:" + port, err.readLine());
                Response r = ItSupport.get(port, "localhost", "/");
                assertEquals("HTTP/1.1 200 OK", r.statusLine());
                assertEquals("text/html", r.header("Content-Type"));
                assertEquals(index, r.body());
                assertEquals("HTTP/1.1 404 Not Found", ItSupport.get(port, "localhost", "/missing").statusLine());
                // exec: the launcher's pid is the server's, and the pid file says so
                assertEquals(p.pid() + "\n", site.read("logs/jinx.pid"));
                assertTrue(site.read("logs/error.log").contains("[notice] "), site.read("logs/error.log"));
                assertTrue(site.read("logs/error.log").contains("listening on 127.0.0.1:" + port));
            } finally {
                p.toHandle().destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.toHandle().destroyForcibly();
                }
            }
        }
    }
}
