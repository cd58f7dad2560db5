package jinx.kernel.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.internal.cycle.Versions;
import jinx.kernel.internal.module.TestJars;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.FakeEventModule;

/**
 * Starts the real launcher in a child JVM on the module path, as {@code bin/jinx} does ({@code java -p ...
 * --add-modules ALL-MODULE-PATH -m jinx.kernel/jinx.kernel.internal.cli.Main}): the project's smoke test of the
 * kernel as a named module, and the test of {@code load_module} end to end, with module jars that
 * {@link TestJars} compiles. Outputs and exit codes are compared exactly, nginx style.
 *
 * <p>No event method is built with the kernel, so the module path also holds a test jar providing one,
 * {@link FakeEventModule#NAME} (as {@link MainTest} adds the class itself): a built-in module there, listed by
 * {@code -m} like the kernel's own. Configurations that must pass have {@code events {}}, after every
 * {@code load_module}, since the block fixes the module list.
 */
@Tag("slow")
class ModulePathCliTest {

    private static final String MAIN = "jinx.kernel/jinx.kernel.internal.cli.Main";

    /** The jars built once for every test: a simple module, a block owner, and incompatible ones. */
    @TempDir
    static Path jars;

    private static Path hello;
    private static Path block;
    private static Path major;
    private static Path minor;
    private static Path eventMethod;

    @TempDir
    Path tmp;

    private Path prefix;
    private Path conf;

    /** What the child printed and returned. */
    private record Result(int exit, String out, String err) {
    }

    @BeforeAll
    static void buildJars() throws IOException {
        // built with Jinx's version, which is what -m and -V print for the kernel's built-in modules
        eventMethod = TestJars.jar(jars.resolve("event"), "jinx.test.event", Versions.JINX,
            TestJars.eventModule("jinx.test.event", FakeEventModule.NAME, FakeEventModule.METHOD));
        hello = TestJars.jar(jars.resolve("hello"), "jinx.test.hello", "2.3",
            TestJars.simpleModule("jinx.test.hello", "hello", ApiVersion.MAJOR, ApiVersion.MINOR, "hello_text"));
        block = TestJars.jar(jars.resolve("block"), "jinx.test.block",
            TestJars.blockModule("jinx.test.block", "testblocks", "testblock", "TEST", "testblock"));
        major = TestJars.jar(jars.resolve("major"), "jinx.test.major",
            TestJars.simpleModule("jinx.test.major", "major", 99, 0, "major_text"));
        minor = TestJars.jar(jars.resolve("minor"), "jinx.test.minor",
            TestJars.simpleModule("jinx.test.minor", "minor", ApiVersion.MAJOR, ApiVersion.MINOR + 1, "minor_text"));
    }

    @BeforeEach
    void prefix() throws IOException {
        prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        conf = prefix.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
    }

    private void conf(String text) throws IOException {
        Files.writeString(conf, text, StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code jinx -p <prefix> -c <conf> args} in a child JVM on the module path. */
    private Result jinx(String... args) throws Exception {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<Path> entries = new ArrayList<>(TestJars.kernelModulePath());
        entries.add(eventMethod);
        String modulePath = entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(java));
        // as bin/jinx: Java 22+ would warn on stderr without them
        command.addAll(jinx.kernel.internal.process.WorkerCommand.newerJvmOptions(Runtime.version().feature(), true));
        command.addAll(List.of("-p", modulePath, "--add-modules", "ALL-MODULE-PATH",
            "-m", MAIN, "-p", prefix.toString(), "-c", conf.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(prefix.toFile()).start();
        try {
            p.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            assertTrue(p.waitFor(50, TimeUnit.SECONDS), "jinx did not exit");
            return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String ok() {
        return "jinx: the configuration file " + conf + " syntax is ok\n"
               + "jinx: configuration file " + conf + " test is successful\n";
    }

    private String failed(String emerg) {
        return "jinx: [emerg] " + emerg + "\n" + "jinx: configuration file " + conf + " test failed\n";
    }

    private static void assertResult(Result r, int exit, String out, String err) {
        assertEquals(err, r.err(), () -> "stderr; stdout was:\n" + r.out());
        assertEquals(out, r.out(), "stdout");
        assertEquals(exit, r.exit(), "exit code");
    }

    @Test
    @Timeout(60)
    void builtinModulesOnTheModulePath() throws Exception {
        conf("worker_processes 1;\n" + MainTest.EVENTS);
        assertResult(jinx("-t"), 0, "", ok());
        Result r = jinx("-m");
        assertEquals(0, r.exit(), r.err());
        assertEquals(builtinNames(), names(r.out()));
        assertEquals(List.of("core", "errlog", "conf"), names(r.out()).subList(0, 3));
    }

    @Test
    @Timeout(60)
    void loadedModuleDirectiveIsAccepted() throws Exception {
        conf("load_module " + hello + ";\nhello_text world;\n" + MainTest.EVENTS);
        assertResult(jinx("-t"), 0, "", ok());

        Result m = jinx("-m");
        assertEquals(0, m.exit(), m.err());
        assertEquals("", m.err());
        List<String> builtins = builtinNames();
        List<String> all = new ArrayList<>(builtins);
        all.add("hello");
        assertEquals(all, names(m.out()));
        String api = ApiVersion.CURRENT.toString();
        // a module without after() or before() ranks after every built-in one, and takes the next index
        String order = String.valueOf(builtins.size());
        List<String> row = row(m.out(), "hello");
        assertEquals(List.of(order, order, "hello", "CORE", "loaded", "2.3", api, hello.toString()),
            List.of(row.get(0), row.get(1), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7), row.get(8)));
        assertEquals(List.of("0", "0", "0", "core", "CORE", "static", Versions.JINX, api), row(m.out(), "core"));

        Result v = jinx("-V");
        assertEquals(0, v.exit());
        assertEquals("", v.out());
        List<String> words = new ArrayList<>();
        for (String name : builtins) {
            words.add(name + " (static " + Versions.JINX + ", api " + api + ")");
        }
        words.add("hello (loaded 2.3, api " + api + ")");
        assertTrue(v.err().endsWith("modules: " + String.join(", ", words) + "\n"), v.err());

        Result l = jinx("-l");
        assertEquals(0, l.exit(), l.err());
        assertTrue(DirectiveListing.parse(l.out()).stream()
            .anyMatch(e -> e.cells().equals(List.of("hello_text", "hello", "main", "TAKE1")) && e.syntax().equals("-")
                && e.defaults().equals("-")), l.out());
    }

    @Test
    @Timeout(60)
    void directiveOfAModuleNotLoadedIsUnknown() throws Exception {
        conf("worker_processes 1;\nhello_text world;\n");
        assertResult(jinx("-t"), 1, "", failed("unknown directive \"hello_text\" in " + conf + ":2"));
        // as in nginx, the module is there only from its load_module on
        conf("hello_text world;\nload_module " + hello + ";\n");
        assertResult(jinx("-t"), 1, "", failed("unknown directive \"hello_text\" in " + conf + ":1"));
    }

    @Test
    @Timeout(60)
    void loadModuleAfterABlockIsTooLate() throws Exception {
        conf("load_module " + block + ";\nload_module " + hello + ";\ntestblock { }\nhello_text world;\n"
             + MainTest.EVENTS);
        assertResult(jinx("-t"), 0, "", ok());
        conf("load_module " + block + ";\ntestblock { }\nload_module " + hello + ";\n");
        assertResult(jinx("-t"), 1, "", failed("\"load_module\" directive is specified too late in " + conf + ":3"));
    }

    @Test
    @Timeout(60)
    void incompatibleMajor() throws Exception {
        conf("worker_processes 1;\nload_module " + major + ";\n");
        assertResult(jinx("-t"), 1, "",
            failed("module \"" + major + "\" is not binary compatible in " + conf + ":2"));
    }

    @Test
    @Timeout(60)
    void newerMinor() throws Exception {
        conf("load_module " + minor + ";\n");
        assertResult(jinx("-t"), 1, "", failed("module \"" + minor + "\" version " + ApiVersion.MAJOR + "."
            + (ApiVersion.MINOR + 1) + " instead of " + ApiVersion.CURRENT + " in " + conf + ":1"));
    }

    @Test
    @Timeout(60)
    void sameJarTwice() throws Exception {
        conf("load_module " + hello + ";\nload_module " + hello + ";\n");
        assertResult(jinx("-t"), 1, "", failed("module \"hello\" is already loaded in " + conf + ":2"));
    }

    @Test
    @Timeout(60)
    void missingJar() throws Exception {
        Path nope = prefix.resolve("modules/nope.jar");
        conf("load_module " + nope + ";\n");
        assertResult(jinx("-t"), 1, "",
            failed("load_module \"" + nope + "\" failed (No such file or directory) in " + conf + ":1"));
        // a relative path is relative to the prefix, not to the configuration's directory
        conf("load_module modules/nope.jar;\n");
        assertResult(jinx("-t"), 1, "",
            failed("load_module \"" + nope + "\" failed (No such file or directory) in " + conf + ":1"));
    }

    @Test
    @Timeout(60)
    void relativeJarIsUnderThePrefix() throws Exception {
        Path modules = Files.createDirectories(prefix.resolve("modules"));
        Files.copy(hello, modules.resolve("hello.jar"));
        conf("load_module modules/hello.jar;\nhello_text world;\n" + MainTest.EVENTS);
        assertResult(jinx("-t"), 0, "", ok());
        Result m = jinx("-m");
        assertEquals(0, m.exit(), m.err());
        assertEquals(modules.resolve("hello.jar").toString(), row(m.out(), "hello").get(8));
    }

    @Test
    @Timeout(60)
    void reloadSignalsTheMaster() throws Exception {
        MainTest.assumeSignalNotIgnored(1);
        conf("load_module " + hello + ";\nhello_text world;\npid run/master.pid;\n" + MainTest.EVENTS);
        Process child = new ProcessBuilder("sleep", "30").redirectErrorStream(true).start();
        try {
            Path pid = Files.createDirectories(prefix.resolve("run")).resolve("master.pid");
            Files.writeString(pid, child.pid() + "\n");
            assertResult(jinx("-s", "reload"), 0, "", "");
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child did not die");
            assertEquals(128 + 1, child.exitValue(), "not killed by SIGHUP");
        } finally {
            child.destroyForcibly();
        }
    }

    /** A jar of a simple module named {@code name} with extra members, built under this test's directory. */
    private Path moduleJar(String jpms, String name, String members) throws IOException {
        return TestJars.jar(tmp.resolve(jpms), "jinx.test." + jpms, TestJars.simpleModule("jinx.test." + jpms, name,
            ApiVersion.MAJOR, ApiVersion.MINOR, jpms + "_text", members));
    }

    @Test
    @Timeout(60)
    void jarWithoutAModule() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("module-info.java", TestJars.moduleInfo("jinx.test.nothing", null));
        sources.put("jinx/test/nothing/Nothing.java", "package jinx.test.nothing;\npublic final class Nothing {\n}\n");
        Path jar = TestJars.jar(tmp.resolve("nothing"), "jinx.test.nothing", sources);
        conf("worker_processes 1;\nload_module " + jar + ";\n");
        assertResult(jinx("-t"), 1, "", failed("module \"" + jar + "\" provides no jinx.kernel.spi.JinxModule in "
            + conf + ":2"));
    }

    @Test
    @Timeout(60)
    void twoJarsWithModulesOfTheSameName() throws Exception {
        Path other = moduleJar("otherhello", "hello", "");
        conf("load_module " + hello + ";\nload_module " + other + ";\n");
        assertResult(jinx("-t"), 1, "", failed("module \"hello\" is already loaded in " + conf + ":2"));
    }

    @Test
    @Timeout(60)
    void afterAModuleThatIsNotLoaded() throws Exception {
        Path jar = moduleJar("needy", "needy",
            "    @Override public List<String> after() { return List.of(\"nosuch\"); }");
        conf("load_module " + jar + ";\n");
        assertResult(jinx("-t"), 1, "", failed("module \"needy\" is ordered after \"nosuch\", which is not loaded in "
            + conf + ":1"));
    }

    @Test
    @Timeout(60)
    void anOrderCycle() throws Exception {
        // after events, before core: the built-in list runs core ... events, so this closes a cycle
        Path jar = moduleJar("loop", "loop",
            "    @Override public List<String> after() { return List.of(\"events\"); }\n"
            + "    @Override public List<String> before() { return List.of(\"core\"); }");
        conf("worker_processes 1;\n\nload_module " + jar + ";\n");
        Result r = jinx("-t");
        assertEquals(1, r.exit(), r.err());
        String line = r.err().lines().findFirst().orElse("");
        assertTrue(line.startsWith("jinx: [emerg] modules \"") && line.contains("\" are ordered in a cycle: ")
            && line.contains("loop") && line.endsWith(" in " + conf + ":3"), r.err());
    }

    @Test
    @Timeout(60)
    void aModuleWhoseConstructorThrows() throws Exception {
        Path jar = moduleJar("boom", "boom", "    public TestModule() { throw new IllegalStateException(\"boom\"); }");
        conf("load_module " + jar + ";\n");
        assertResult(jinx("-t"), 1, "", failed("load_module \"" + jar + "\" failed (boom) in " + conf + ":1"));
    }

    @Test
    @Timeout(60)
    void aModuleWhoseInitModuleThrows() throws Exception {
        Path jar = moduleJar("refuses", "refuses",
            "    @Override public void initModule(Cycle cycle) { throw new IllegalStateException(\"no\"); }");
        conf("worker_processes 1;\nload_module " + jar + ";\n" + MainTest.EVENTS);
        // nginx's order: the syntax is ok, then init_module fails
        assertResult(jinx("-t"), 1, "", "jinx: the configuration file " + conf + " syntax is ok\n"
            + failed("module \"refuses\" failed to initialise "
            + "(java.lang.IllegalStateException: no) in " + conf + ":2"));
    }

    @Test
    @Timeout(60)
    void aModuleWhoseInitProcessThrowsStopsTheServerWithItsLine() throws Exception {
        Path jar = moduleJar("nostart", "nostart",
            "    @Override public void initProcess(Cycle cycle) { throw new IllegalStateException(\"cannot\"); }");
        conf("master_process off;\ndaemon off;\nerror_log stderr;\nload_module " + jar + ";\n" + MainTest.EVENTS);
        Result r = jinx();
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("[emerg] ") && r.err().contains("module \"nostart\" failed to start: cannot in "
            + conf + ":4\n"), r.err());
    }

    /** The names of the built-in modules in their resolved order. */
    private static List<String> builtinNames() throws ConfException {
        List<String> names = new ArrayList<>();
        for (JinxModule m : MainTest.builtins()) {
            names.add(m.name());
        }
        return names;
    }

    /** The module names of {@code jinx -m}, in order. */
    private static List<String> names(String out) {
        List<String> names = new ArrayList<>();
        List<String> lines = out.lines().collect(Collectors.toList());
        for (String line : lines.subList(2, lines.size())) {
            names.add(line.trim().split("\\s+")[3]);
        }
        return names;
    }

    /** The columns of a module's row in {@code jinx -m}. */
    private static List<String> row(String out, String name) {
        return out.lines().skip(2).map(s -> List.of(s.trim().split("\\s+")))
            .filter(cols -> cols.get(3).equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("no module " + name + " in\n" + out));
    }
}
