package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;
import jinx.kernel.internal.module.TestJars;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * {@code bin/jinx-build}: custom distributions written to a temporary folder from the jars the reactor built
 * ({@code --no-build}, so no Maven runs inside Maven), then started from that folder alone: the default build
 * serves a request, a build without http starts its master and worker and stops cleanly, third-party jars land
 * built in ({@code --add}, static in {@code -m}) or in {@code modules/} ({@code --add-dynamic}, for
 * {@code load_module}), modules the tree does not have are a note for {@code --without} and an error for
 * {@code --with}, and {@code --jlink} gives a folder that runs with no Java on the {@code PATH}.
 */
@Tag("slow")
class CustomBuildIT {

    private static final Path ROOT = Site.distribution();
    private static final List<String> JARS = List.of("kernel/target/jinx-kernel.jar",
        "event-epoll/target/jinx-event-epoll.jar", "event-poll/target/jinx-event-poll.jar",
        "http/target/jinx-http.jar");
    private static final List<String> CORE_MODULES = List.of("core", "errlog", "conf", "events", "event_core",
        "epoll", "poll");

    private Path work;
    private final List<Process> started = new ArrayList<>();

    /** The launcher of a build takes the jars as they are: the reactor must have packaged them. */
    @BeforeEach
    void assumeBuilt() throws IOException {
        for (String jar : JARS) {
            assumeTrue(Files.isRegularFile(ROOT.resolve(jar)), jar + " is not built (run mvn package first)");
        }
        work = Files.createTempDirectory("jinx-build-it");
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            if (p.isAlive()) {
                Masters.kill(p);
            }
        }
        try (Stream<Path> files = Files.walk(work)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** What a command printed (stdout and stderr together) and how it exited. */
    private record Run(int exit, String out) {
    }

    private Run run(Map<String, String> env, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Run(p.exitValue(), out);
    }

    private Run build(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/jinx-build").toString(), "--no-build"));
        command.addAll(List.of(args));
        return run(Map.of(), command.toArray(String[]::new));
    }

    private Run jinx(Path dist, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(dist.resolve("bin/jinx").toString()));
        command.addAll(List.of(args));
        return run(Map.of(), command.toArray(String[]::new));
    }

    /** The module names of {@code -V}'s {@code modules:} line, with their origin ("static" or "loaded"). */
    private static List<String> modulesLine(String versionOutput) {
        String line = versionOutput.lines().filter(l -> l.startsWith("modules: ")).findFirst()
            .orElseThrow(() -> new AssertionError("no modules line in:\n" + versionOutput));
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("([a-z_0-9]+) \\((static|loaded) [^)]*\\)").matcher(line);
        while (m.find()) {
            names.add(m.group(1) + " " + m.group(2));
        }
        return names;
    }

    /** Name and origin of each row of {@code -m}'s module table. */
    private static List<String> modulesTable(String out) {
        List<String> rows = new ArrayList<>();
        for (String line : out.lines().skip(2).takeWhile(l -> !l.isBlank()).toList()) {
            String[] cells = line.trim().split("\\s+");
            rows.add(cells[3] + " " + cells[5]);
        }
        return rows;
    }

    private static List<String> statics(List<String> names) {
        return names.stream().map(n -> n + " static").toList();
    }

    @Test
    @Timeout(120)
    void theDefaultBuildServesFromItsOwnFolder() throws Exception {
        Path dist = work.resolve("default");
        Run b = build("--out", dist.toString(), "--with", "http", "--without", "proxy", "--without", "tls",
            "--without", "stream");
        assertEquals(0, b.exit(), b.out());
        // every module named is one the tree has (upstream/ stays: stream and proxy are left out, it serves neither)
        assertFalse(b.out().contains("there is no module"), b.out());
        for (String dir : List.of("bin", "conf", "lib", "modules", "html", "logs")) {
            assertTrue(Files.isDirectory(dist.resolve(dir)), dir);
        }
        assertTrue(Files.isRegularFile(dist.resolve("lib/jinx-http.jar")));
        assertFalse(Files.exists(dist.resolve("runtime")));
        // the tree's launcher and JVM options, jffi's library, and the build's own class-data sharing archive
        // (its training run asks a few pages with curl)
        for (String file : List.of("bin/jinx", "bin/jinx-cds", "bin/jvm.options")) {
            assertTrue(Files.isRegularFile(dist.resolve(file)), file);
        }
        assertTrue(Files.isDirectory(dist.resolve("lib/native")));
        boolean curl = Files.isExecutable(Path.of("/usr/bin/curl"));
        if (curl) {
            assertTrue(Files.isRegularFile(dist.resolve("lib/jinx.jsa")), b.out());
            assertTrue(b.out().contains("jinx-build: note: recorded the class-data sharing archive lib/jinx.jsa"),
                b.out());
        }

        Run v = jinx(dist, "-V");
        assertEquals(0, v.exit(), v.out());
        assertTrue(v.out().contains("configure arguments: --prefix=" + dist + "/ --conf-path=conf/jinx.conf "
            + "--error-log-path=logs/error.log --pid-path=logs/jinx.pid --with http --without proxy "
            + "--without tls --without stream\n"), v.out());
        List<String> modules = modulesLine(v.out());
        assertEquals(statics(CORE_MODULES), modules.subList(0, CORE_MODULES.size()));
        assertTrue(modules.containsAll(statics(List.of("http", "http_core", "http_static", "http_write_filter"))),
            modules::toString);

        int port = Site.freePort();
        Path conf = dist.resolve("conf/jinx.conf");
        String text = Files.readString(conf, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("listen       127.0.0.1:8080;"), text);
        Files.writeString(conf, text.replace("127.0.0.1:8080", "127.0.0.1:" + port), StandardCharsets.ISO_8859_1);
        // the prefix is the folder the launcher sits in: nothing of the tree is used
        Process p = new ProcessBuilder(dist.resolve("bin/jinx").toString()).redirectErrorStream(true).start();
        started.add(p);
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.ISO_8859_1));
        assertEquals("jinx: [notice] listening on 127.0.0.1:" + port, err.readLine());
        Response r = ItSupport.get(port, "localhost", "/");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals(Files.readString(dist.resolve("html/index.html"), StandardCharsets.ISO_8859_1), r.body());
        assertEquals(p.pid() + "\n", Files.readString(dist.resolve("logs/jinx.pid")));
        List<String> argv = WorkerProcs.cmdline(p.pid());
        assertTrue(argv.contains("-Djffi.boot.library.path=" + dist.resolve("lib/native")), argv::toString);
        assertTrue(argv.contains("-Xrs"), argv::toString);
        if (curl) {
            assertTrue(argv.contains("-XX:SharedArchiveFile=" + dist.resolve("lib/jinx.jsa")), argv::toString);
        }
        Syscalls.kill(p.pid(), Platform.SIGTERM);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "still running after SIGTERM");
        assertFalse(Files.exists(dist.resolve("logs/jinx.pid")));
    }

    @Test
    @Timeout(120)
    void aBuildWithoutHttpStartsAndStopsCleanly() throws Exception {
        Path dist = work.resolve("nohttp");
        Run b = build("--out", dist.toString(), "--without", "http", "--without", "proxy", "--without", "tls",
            "--without", "stream");
        assertEquals(0, b.exit(), b.out());
        assertFalse(Files.exists(dist.resolve("lib/jinx-http.jar")));
        String conf = Files.readString(dist.resolve("conf/jinx.conf"), StandardCharsets.ISO_8859_1);
        assertFalse(conf.contains("http {"), conf);
        assertTrue(conf.contains("events {"), conf);

        Run v = jinx(dist, "-V");
        assertEquals(0, v.exit(), v.out());
        assertEquals(statics(CORE_MODULES), modulesLine(v.out()));
        Run m = jinx(dist, "-m");
        assertEquals(0, m.exit(), m.out());
        assertEquals(statics(CORE_MODULES), modulesTable(m.out()));
        Run t = jinx(dist, "-t");
        assertEquals(0, t.exit(), t.out());
        assertTrue(t.out().endsWith("test is successful\n"), t.out());

        // the default configuration: a master and one worker, serving nothing; TERM stops both
        Process p = new ProcessBuilder(dist.resolve("bin/jinx").toString()).redirectErrorStream(true).start();
        started.add(p);
        Path log = dist.resolve("logs/error.log");
        ProcessHandle worker = worker(log, p);
        assertTrue(p.isAlive());
        Syscalls.kill(p.pid(), Platform.SIGTERM);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "still running after SIGTERM");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.exitValue(), out);
        String text = waitFor(log, "worker process " + worker.pid() + " exited with code 0");
        assertTrue(text.contains("[notice] " + p.pid() + ItSupport.MAIN_TID + ": exit\n"), text);
        assertFalse(text.contains("[emerg]") || text.contains("[alert]") || text.contains("[crit]"), text);
        assertFalse(Files.exists(dist.resolve("logs/jinx.pid")));
        assertFalse(worker.isAlive());
    }

    @Test
    @Timeout(120)
    void addedJarsAreBuiltInOrDynamic() throws Exception {
        // the test modules compile against the kernel jar the reactor built
        if (System.getProperty(TestJars.KERNEL_CLASSES) == null) {
            System.setProperty(TestJars.KERNEL_CLASSES, ROOT.resolve("kernel/target/jinx-kernel.jar").toString());
            List<String> lib = new ArrayList<>();
            try (Stream<Path> jars = Files.list(ROOT.resolve("kernel/target/lib"))) {
                jars.forEach(j -> lib.add(j.toString()));
            }
            System.setProperty(TestJars.RUNTIME_PATH, String.join(File.pathSeparator, lib));
        }
        Path hello = TestJars.simpleModuleJar(work.resolve("jars/static"), "hello", "hello_text");
        Path later = TestJars.simpleModuleJar(work.resolve("jars/dynamic"), "later", "later_text");
        Path dist = work.resolve("added");
        Run b = build("--out", dist.toString(), "--without", "http", "--without", "proxy", "--without", "tls",
            "--without", "stream",
            "--add", hello.toString(), "--add-dynamic", later.toString());
        assertEquals(0, b.exit(), b.out());
        assertTrue(Files.isRegularFile(dist.resolve("lib/jinx.test.hello.jar")));
        assertTrue(Files.isRegularFile(dist.resolve("modules/jinx.test.later.jar")));

        Path conf = dist.resolve("conf/jinx.conf");
        Files.writeString(conf, "load_module modules/jinx.test.later.jar;\nhello_text hi;\nlater_text there;\n"
            + Files.readString(conf, StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1);
        Run m = jinx(dist, "-m");
        assertEquals(0, m.exit(), m.out());
        List<String> rows = modulesTable(m.out());
        assertTrue(rows.contains("hello static"), rows::toString);
        assertTrue(rows.contains("later loaded"), rows::toString);
        Run v = jinx(dist, "-V");
        assertTrue(v.out().contains(" --without http --without proxy --without tls --without stream "
            + "--add jinx.test.hello.jar "
            + "--add-dynamic jinx.test.later.jar\n"), v.out());
        assertTrue(modulesLine(v.out()).containsAll(List.of("hello static", "later loaded")), v.out());
    }

    @Test
    @Timeout(60)
    void modulesTheTreeDoesNotHave() throws Exception {
        Path dist = work.resolve("none");
        Run with = build("--out", dist.toString(), "--with", "quic");
        assertEquals(1, with.exit(), with.out());
        assertEquals("jinx-build: error: no module \"quic\" in this tree; the modules available are: epoll poll "
            + "http upstream proxy tls stream\n", with.out());
        assertFalse(Files.exists(dist));
        Run noMethod = build("--out", dist.toString(), "--without", "epoll", "--without", "poll");
        assertEquals(1, noMethod.exit(), noMethod.out());
        assertEquals("jinx-build: error: at least one event method is needed: epoll poll\n", noMethod.out());
        Run noOut = build("--without", "tls");
        assertEquals(1, noOut.exit(), noOut.out());
        assertTrue(noOut.out().endsWith("jinx-build: error: --out DIR is required (see --help)\n"), noOut.out());
        // a folder that is not a build's is never replaced
        Files.createDirectories(dist);
        Files.writeString(dist.resolve("keep.txt"), "mine");
        Run taken = build("--out", dist.toString());
        assertEquals(1, taken.exit(), taken.out());
        assertEquals("mine", Files.readString(dist.resolve("keep.txt")));
    }

    @Test
    @Timeout(180)
    void aJlinkRuntimeRunsWithoutJavaOnThePath() throws Exception {
        assumeTrue(Files.isDirectory(Path.of(System.getProperty("java.home"), "jmods")),
            "this JDK has no jmods to jlink from");
        Path dist = work.resolve("jlink");
        Run b = build("--out", dist.toString(), "--without", "http", "--without", "proxy", "--without", "tls",
            "--without", "stream",
            "--jlink");
        assertEquals(0, b.exit(), b.out());
        assertTrue(Files.isExecutable(dist.resolve("runtime/bin/java")));
        // a PATH with the shell tools the launcher uses and no java
        Path tools = Files.createDirectories(work.resolve("tools"));
        for (String tool : List.of("bash", "dirname", "readlink", "cat")) {
            Path real = Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, tool)).filter(Files::isExecutable)
                .findFirst().orElseThrow();
            Files.createSymbolicLink(tools.resolve(tool), real);
        }
        Map<String, String> env = Map.of("PATH", tools.toString());
        Run v = run(env, dist.resolve("bin/jinx").toString(), "-V");
        assertEquals(0, v.exit(), v.out());
        assertEquals(statics(CORE_MODULES), modulesLine(v.out()));

        ProcessBuilder pb = new ProcessBuilder(dist.resolve("bin/jinx").toString()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        ProcessHandle worker = worker(dist.resolve("logs/error.log"), p);
        String java = dist.resolve("runtime/bin/java").toRealPath().toString();
        assertEquals(java, p.toHandle().info().command().orElse(""));
        assertEquals(java, worker.info().command().orElse(""));
        Syscalls.kill(p.pid(), Platform.SIGTERM);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "still running after SIGTERM");
        assertEquals(0, p.exitValue());
    }

    /**
     * The worker the master says it started. Not the master's first child: until the launcher execs the JVM, its
     * children are the shell's command substitutions.
     */
    private static ProcessHandle worker(Path log, Process master) throws Exception {
        String text = waitFor(log, "start worker process ");
        Matcher m = Pattern.compile(master.pid() + ItSupport.MAIN_TID + ": start worker process (\\d+)").matcher(text);
        assertTrue(m.find(), text);
        ProcessHandle worker = ProcessHandle.of(Long.parseLong(m.group(1))).orElseThrow();
        assertEquals(master.pid(), worker.parent().map(ProcessHandle::pid).orElse(-1L));
        return worker;
    }

    /** Waits (30 s at most) until the file contains {@code text}; returns the file. */
    private static String waitFor(Path file, String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String content = "";
        while (System.nanoTime() < end) {
            content = Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
            if (content.contains(text)) {
                return content;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("\"" + text + "\" not in " + file + ":\n" + content);
    }
}
