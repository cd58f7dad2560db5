package jinx.contrib.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A module author's first hour, end to end: {@code bin/jinx-new-module greet DIR} writes a standalone project, a
 * plain {@code mvn -o package} in DIR builds it against {@code jinx-module-parent} and runs its tests, and the jar
 * it writes is loaded with {@code load_module} into the real {@code bin/jinx}, which serves the module's content
 * handler and header filter; {@code -t} has no ordering warning and {@code -m} lists the jar.
 *
 * <p>The local Maven repository is a private one in a temporary directory, never {@code ~/.m2} (shared): it gets
 * what {@code bin/jinx-install-api} would install (the POMs and jars of jinx-parent, jinx-module-parent, the kernel,
 * both event methods, HTTP and the test kit, taken from this reactor's {@code target/}), and every third-party
 * artifact comes from the machine's Maven cache through a {@code file:} mirror, which offline mode is told to allow
 * ({@code aether.offline.protocols=file}): the build reaches no network. The mirror's id is {@code central}, so
 * the private repository records what it copies as a user's repository records Maven Central's artifacts.
 */
@Tag("slow")
class ModuleProjectIT {

    private static final String GROUP = "org/jinx/";
    private static final List<String[]> API = List.of(
        new String[] {"jinx-parent", "."},
        new String[] {"jinx-module-parent", "module-parent"},
        new String[] {"jinx-kernel", "kernel"},
        new String[] {"jinx-event-epoll", "event-epoll"},
        new String[] {"jinx-event-poll", "event-poll"},
        new String[] {"jinx-http", "http"},
        new String[] {"jinx-testkit", "testkit"});

    private final List<Path> temporary = new ArrayList<>();

    @AfterEach
    void removeTemporaryDirectories() throws IOException {
        for (Path dir : temporary) {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Path mvn() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path mvn = Path.of(dir.isEmpty() ? "." : dir, "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn;
            }
        }
        return null;
    }

    /** The version the module parent builds against, a literal: it must be this tree's version. */
    private static String jinxVersion(Path dist) throws IOException {
        String pom = Files.readString(dist.resolve("module-parent/pom.xml"));
        Matcher parent = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL).matcher(pom);
        Matcher own = Pattern.compile("<jinx.version>([^<]+)</jinx.version>").matcher(pom);
        assertTrue(parent.find() && own.find(), pom);
        assertEquals(parent.group(1), own.group(1), "module-parent's jinx.version is not the tree's version");
        return own.group(1);
    }

    /** What {@code bin/jinx-install-api} installs, from the reactor: each POM as written, each jar as built. */
    private static void seed(Path dist, Path repo, String version) throws IOException {
        for (String[] a : API) {
            Path dir = repo.resolve(GROUP + a[0] + "/" + version);
            Files.createDirectories(dir);
            Files.copy(dist.resolve(a[1]).resolve("pom.xml"), dir.resolve(a[0] + "-" + version + ".pom"));
            Path jar = dist.resolve(a[1]).resolve("target/" + a[0] + ".jar");
            if (!a[1].equals(".") && !a[1].equals("module-parent")) {
                assumeTrue(Files.isRegularFile(jar), jar + " is not built");
                Files.copy(jar, dir.resolve(a[0] + "-" + version + ".jar"));
            }
        }
    }

    private static String run(List<String> argv, Path dir, int seconds) throws Exception {
        Path out = Files.createTempFile("jinx-module-project", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
            Map<String, String> env = pb.environment();
            // the JVM's own options of this test run are not the nested build's
            env.remove("MAVEN_OPTS");
            env.remove("JAVA_TOOL_OPTIONS");
            Process p = pb.start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError(argv + " did not end in " + seconds + " s:\n" + Files.readString(out));
            }
            String text = Files.readString(out, StandardCharsets.ISO_8859_1);
            assertEquals(0, p.exitValue(), argv + ":\n" + text);
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Test
    @Timeout(900)
    void aGeneratedProjectBuildsOfflineAndItsJarServes() throws Exception {
        Path mvn = mvn();
        assumeTrue(mvn != null, "mvn is not on PATH");
        Path dist = Server.distribution();
        Path cache = Path.of(System.getProperty("jinx.maven.cache",
            System.getProperty("user.home") + "/.m2/repository"));
        assumeTrue(Files.isDirectory(cache.resolve("org/apache/maven/plugins")), "no Maven cache at " + cache);
        String version = jinxVersion(dist);
        Path work = Files.createTempDirectory("jinx-module-project");
        temporary.add(work);
        Path repo = work.resolve("repository");
        seed(dist, repo, version);
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, "<settings>\n  <mirrors>\n    <mirror>\n      <id>central</id>\n"
            + "      <mirrorOf>*</mirrorOf>\n      <url>" + cache.toUri() + "</url>\n    </mirror>\n  </mirrors>\n"
            + "</settings>\n");

        Path project = work.resolve("greet");
        long start = System.nanoTime();
        run(List.of(dist.resolve("bin/jinx-new-module").toString(), "greet", project.toString()), work, 30);
        run(List.of(mvn.toString(), "-B", "-q", "-o", "-Daether.offline.protocols=file", "-s", settings.toString(),
            "-Dmaven.repo.local=" + repo, "package"), project, 600);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        String report = Files.readString(project.resolve(
            "target/surefire-reports/org.example.greet.GreetModuleTest.txt"));
        assertTrue(report.contains("Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"), report);
        Path jar = project.resolve("target/greet.jar");
        assertTrue(Files.isRegularFile(jar), "no " + jar);
        System.out.println("generated and built (mvn -o package, tests included) in " + seconds + " s");

        try (Server s = new Server()) {
            s.installModule(jar, "greet.jar");
            s.conf("load_module modules/greet.jar;\nmaster_process on;\nworker_processes 1;\n"
                + "events { worker_connections 64; }\n"
                + "http {\n access_log off;\n greet_header from-jar;\n server {\n  listen 127.0.0.1:" + s.port()
                + ";\n  location = /greet { greet \"served by the jar\"; }\n }\n}\n");
            String test = s.command("-t");
            assertTrue(test.contains("test is successful"), test);
            assertFalse(test.contains("[warn]"), test);
            String modules = s.command("-m");
            assertTrue(Pattern.compile("\\n\\d+ +\\d+ +\\d+ +greet +HTTP +loaded +1\\.0\\.0-SNAPSHOT +\\S+ +\\S*"
                + "modules/greet\\.jar\\n").matcher(modules).find(), modules);
            assertTrue(modules.contains("phase CONTENT greet\n"), modules);
            s.start();
            s.waitForWorkers(1, List.of());
            String r = getWhenUp(s, "/greet");
            assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n"), r);
            assertEquals("served by the jar\n", Server.body(r));
            assertEquals("from-jar", Server.header(r, "X-Greet"));
            assertEquals("from-jar", Server.header(getWhenUp(s, "/missing"), "X-Greet"));
            s.stop();
        }
    }

    @Test
    @Timeout(60)
    void theGeneratorRefusesABadNameAndADirectoryInUse() throws Exception {
        Path work = Files.createTempDirectory("jinx-module-project");
        temporary.add(work);
        String generator = Server.distribution().resolve("bin/jinx-new-module").toString();
        Files.createDirectories(work.resolve("used"));
        Files.writeString(work.resolve("used/file.txt"), "x");
        Map<List<String>, String> refusals = Map.of(
            List.of("Greet", "new"), "jinx-new-module: invalid module name \"Greet\"",
            List.of("greet", "used"), "jinx-new-module: \"used\" exists and is not empty",
            List.of("greet"), "usage: jinx-new-module [-p PACKAGE] NAME DIR",
            List.of("-p", "Org.Bad", "greet", "new"), "jinx-new-module: invalid package \"Org.Bad\"");
        for (Map.Entry<List<String>, String> refusal : refusals.entrySet()) {
            List<String> argv = new ArrayList<>(List.of(generator));
            argv.addAll(refusal.getKey());
            Process p = new ProcessBuilder(argv).directory(work.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), argv.toString());
            assertEquals(1, p.exitValue(), argv + ": " + out);
            assertTrue(out.startsWith(refusal.getValue()), argv + ": " + out);
        }
        assertFalse(Files.exists(work.resolve("new")), "a refused project left files");
    }

    /** A worker may still be starting: retries a refused connection for 30 s. */
    private static String getWhenUp(Server s, String uri) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return s.get(uri);
            } catch (IOException e) {
                if (System.nanoTime() - end > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
