package jinx.http.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue #36, finding 6: {@code bin/jinx} starts without a JVM warning on every JDK it runs on, the master and its
 * workers alike: on the JDK running this test (17 in CI's first pass, 25 in its second) and on every JDK 22 or
 * newer under {@code /usr/lib/jvm} (Temurin 25 beside Java 17 here), where restricted methods (jffi's
 * {@code System.load}, the kernel's FFM memory access) and {@code sun.misc.Unsafe} warn unless told.
 */
@Tag("slow")
class NewerJdkIT {

    @Test
    @Timeout(240)
    void jinxStartsWithoutWarningsOnEveryJdk() throws Exception {
        List<Path> jdks = jdks();
        for (Path jdk : jdks) {
            try (Site site = Site.create()) {
                String test = run(jdk, site, "-t");
                assertTrue(test.contains("test is successful"), jdk + ": " + test);
                assertFalse(test.contains("WARNING"), jdk + " printed a warning for jinx -t:\n" + test);
                serve(jdk, site);
            }
        }
    }

    /** The JDK running the tests and every JDK 22+ beside it, each once. */
    private static List<Path> jdks() throws IOException {
        Set<Path> all = new LinkedHashSet<>();
        all.add(Path.of(System.getProperty("java.home")).toRealPath());
        Path dir = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    if (Files.isExecutable(p.resolve("bin/java")) && feature(p) >= 22) {
                        all.add(p.toRealPath());
                    }
                }
            }
        }
        return new ArrayList<>(all);
    }

    /** The JDK's feature version from its {@code release} file (as bin/jinx reads it), 0 when unknown. */
    private static int feature(Path jdk) throws IOException {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_VERSION=\"")) {
                String v = line.substring("JAVA_VERSION=\"".length());
                int end = 0;
                while (end < v.length() && Character.isDigit(v.charAt(end))) {
                    end++;
                }
                return end > 0 ? Integer.parseInt(v.substring(0, end)) : 0;
            }
        }
        return 0;
    }

    private static ProcessBuilder jinx(Path jdk, Site site, String... args) {
        List<String> argv = new ArrayList<>(List.of(Site.distribution().resolve("bin/jinx").toString(), "-p",
            site.root().toString()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        // bin/jinx runs the java it finds first on the PATH, and the master starts its workers with the same
        pb.environment().put("PATH", jdk.resolve("bin") + ":" + pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().remove("JINX_JAVA_OPTS");
        return pb;
    }

    private static String run(Path jdk, Site site, String... args) throws Exception {
        site.write("conf/jinx.conf", Masters.conf(Site.freePort(), 1, "", "v"));
        Process p = jinx(jdk, site, args).start();
        try (InputStream in = p.getInputStream()) {
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jinx -t still running");
            return out;
        } finally {
            p.destroyForcibly();
        }
    }

    /** A master with one worker serves a request; neither printed a warning to the terminal or the error log. */
    private static void serve(Path jdk, Site site) throws Exception {
        int port = Site.freePort();
        site.write("conf/jinx.conf", Masters.conf(port, 1, "", "v"));
        Process p = jinx(jdk, site).redirectOutput(ProcessBuilder.Redirect.appendTo(
            site.root().resolve("stdout.log").toFile())).start();
        try {
            // bin/jinx's own children (sed reading the JDK's release file) come and go before it execs the master
            Masters.waitForLog(site, "start worker process");
            List<ProcessHandle> workers = Masters.startReady(site, p, 1);
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/v").toURL()
                .openConnection();
            assertEquals(200, c.getResponseCode(), jdk.toString());
            c.disconnect();
            Masters.stopMaster(p, site);
            Masters.assertAllExit(workers);
        } finally {
            Masters.kill(p);
        }
        String out = site.read("stdout.log");
        String log = site.read("logs/error.log");
        assertFalse(out.contains("WARNING"), jdk + ": the master or its worker printed a warning:\n" + out);
        assertFalse(log.contains("WARNING"), jdk + ": a warning in the error log:\n" + log);
    }
}
