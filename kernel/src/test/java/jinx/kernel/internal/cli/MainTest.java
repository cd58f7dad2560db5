package jinx.kernel.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jinx.kernel.ConfException;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.Versions;
import jinx.kernel.internal.module.ModuleSorter;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.FakeEventModule;

/**
 * Runs the {@code jinx} command in process, as {@code bin/jinx} would with the built-in modules, against a
 * prefix and configuration in a temporary directory, and compares its output with what nginx prints in the same
 * case ({@code src/core/nginx.c}, {@code ngx_signal_process()}).
 *
 * <p>These tests run on the class path, where {@code load_module} is refused; {@link ModulePathCliTest} runs the
 * launcher on the module path. No event method is on the kernel's class path, so the built-in modules are those
 * {@link Main#discover()} finds plus {@link FakeEventModule}, and every configuration that must pass has
 * {@code events {}} (nginx's {@code no "events" section in configuration} otherwise).
 */
class MainTest {

    /** The block every configuration that passes needs. */
    static final String EVENTS = "events { }\n";

    /**
     * Skips a test whose child must die of {@code signo} when this JVM ignores it: a child inherits an ignored
     * signal (a test run under {@code nohup} ignores HUP), and neither Java nor a shell can give it back.
     */
    static void assumeSignalNotIgnored(int signo) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                assumeFalse((ignored & 1L << (signo - 1)) != 0,
                    "signal " + signo + " is ignored in this JVM (nohup?), so its children would ignore it too");
            }
        }
    }

    /** An early-log line on stderr, as nginx writes it when its log is stderr ({@code -e stderr}). */
    private static final String LOG_LINE = "\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d \\[%s\\] \\d+#\\d+: %s\n";

    @TempDir
    Path tmp;

    /** The prefix, with {@code logs/}. */
    private Path prefix;

    /** The default configuration file, {@code <prefix>/conf/jinx.conf}. */
    private Path conf;

    /** What one run printed and returned. */
    private record Result(int exit, String out, String err) {
    }

    @BeforeEach
    void prefix() throws IOException {
        prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        conf = prefix.resolve("conf/jinx.conf");
        write(conf, "worker_processes  1;\n" + EVENTS);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code jinx args}, the prefix given with {@code -p} unless the arguments start with {@code -p}. */
    private Result jinx(String... args) {
        List<String> all = new ArrayList<>();
        if (args.length == 0 || !args[0].startsWith("-p")) {
            all.add("-p");
            all.add(prefix.toString());
        }
        all.addAll(List.of(args));
        return raw(all.toArray(new String[0]));
    }

    /** Runs {@code jinx args} exactly as given. */
    private static Result raw(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, MainTest::modules).run(args);
        }
        return new Result(exit, out.toString(StandardCharsets.ISO_8859_1), err.toString(StandardCharsets.ISO_8859_1));
    }

    private static String ok(Path file) {
        return "jinx: the configuration file " + file + " syntax is ok\n"
               + "jinx: configuration file " + file + " test is successful\n";
    }

    private static String failed(Path file, String emerg) {
        return "jinx: [emerg] " + emerg + "\n" + "jinx: configuration file " + file + " test failed\n";
    }

    private static void assertResult(Result r, int exit, String out, String err) {
        assertEquals(err, r.err(), () -> "stderr; stdout was:\n" + r.out());
        assertEquals(out, r.out(), "stdout");
        assertEquals(exit, r.exit(), "exit code");
    }

    private String errorLog() throws IOException {
        return Files.readString(prefix.resolve("logs/error.log"), StandardCharsets.ISO_8859_1);
    }

    // -t, -q, -T

    @Test
    void testSucceeds() {
        assertResult(jinx("-t"), 0, "", ok(conf));
    }

    @Test
    void testFailsWithThePlace() throws IOException {
        write(conf, "worker_processes  1;\nfoo bar;\n");
        assertResult(jinx("-t"), 1, "", failed(conf, "unknown directive \"foo\" in " + conf + ":2"));
        // nginx's early log writes to the default error log file too, with its timestamp, pid and level
        assertTrue(Pattern.compile(String.format(LOG_LINE, "emerg",
            Pattern.quote("unknown directive \"foo\" in " + conf + ":2"))).matcher(errorLog()).find(), errorLog());
    }

    @Test
    void testOfAMissingFileHasNoPlace() throws IOException {
        Files.delete(conf);
        assertResult(jinx("-t"), 1, "",
            failed(conf, "open() \"" + conf + "\" failed (2: No such file or directory)"));
    }

    @Test
    void testChecksAfterTheSyntaxIsOk() throws IOException {
        // nginx says "syntax is ok" once the file is parsed, then the modules check their confs and the files open
        write(conf, "worker_processes  3;\nworker_cpu_affinity 01 10;\n" + EVENTS);
        assertResult(jinx("-t"), 0, "", "jinx: the configuration file " + conf + " syntax is ok\n"
            + "jinx: [warn] the number of \"worker_processes\" is not equal to the number of \"worker_cpu_affinity\" "
            + "masks, using last mask for remaining worker processes\n"
            + "jinx: configuration file " + conf + " test is successful\n");
        Path log = prefix.resolve("nodir/error.log");
        write(conf, "error_log " + log + ";\n" + EVENTS);
        assertResult(jinx("-t"), 1, "", "jinx: the configuration file " + conf + " syntax is ok\n"
            + failed(conf, "open() \"" + log + "\" failed (2: No such file or directory)"));
    }

    @Test
    void quietSuppressesOnlyNonErrorMessages() throws IOException {
        assertResult(jinx("-t", "-q"), 0, "", "");
        write(conf, "foo;\n");
        assertResult(jinx("-q", "-t"), 1, "", failed(conf, "unknown directive \"foo\" in " + conf + ":1"));
    }

    @Test
    void groupedFlags() throws IOException {
        assertResult(jinx("-tq"), 0, "", "");
        assertResult(jinx("-qt"), 0, "", "");
        write(conf, "foo;\n");
        assertResult(jinx("-tq"), 1, "", failed(conf, "unknown directive \"foo\" in " + conf + ":1"));
    }

    @Test
    void dumpPrintsEveryFileOnce() throws IOException {
        String main = "worker_processes  1;\n\ninclude inc/*.conf;\ninclude inc/a.conf;\n" + EVENTS;
        String a = "env A;\n";
        String b = "# b\nenv B;\ninclude a.conf;\n";
        write(conf, main);
        // include paths are relative to the main file's directory; a.conf is included three times
        write(conf.resolveSibling("inc/a.conf"), a);
        write(conf.resolveSibling("inc/b.conf"), b);
        write(conf.resolveSibling("a.conf"), a);
        Path fileA = conf.resolveSibling("inc/a.conf");
        Path fileB = conf.resolveSibling("inc/b.conf");
        Path topA = conf.resolveSibling("a.conf");
        String dump = "# configuration file " + conf + ":\n" + main + "\n"
                      + "# configuration file " + fileA + ":\n" + a + "\n"
                      + "# configuration file " + fileB + ":\n" + b + "\n"
                      + "# configuration file " + topA + ":\n" + a + "\n";
        assertResult(jinx("-T"), 0, dump, ok(conf));
        assertResult(jinx("-Tq"), 0, dump, "");
    }

    @Test
    void dumpPrintsNothingWhenTheTestFails() throws IOException {
        write(conf, "include nope.conf;\n");
        Path nope = conf.resolveSibling("nope.conf");
        assertResult(jinx("-T"), 1, "",
            failed(conf, "open() \"" + nope + "\" failed (2: No such file or directory) in " + conf + ":1"));
    }

    // -p, -c, -e, -g

    @Test
    void prefixGivesTheDefaultConfigurationFile() throws IOException {
        Path other = prefix.resolve("other");
        Files.createDirectories(other.resolve("logs"));
        Path otherConf = other.resolve("conf/jinx.conf");
        write(otherConf, "env OTHER;\n" + EVENTS);
        assertResult(raw("-p", other.toString(), "-t"), 0, "", ok(otherConf));
        // attached, and not normalised by the user: the command normalises it
        assertResult(raw("-p" + prefix + "/./other/", "-t"), 0, "", ok(otherConf));
    }

    @Test
    void relativeConfigurationIsUnderThePrefix() throws IOException {
        Path file = prefix.resolve("etc/test.conf");
        write(file, "worker_processes 2;\n" + EVENTS);
        assertResult(jinx("-c", "etc/test.conf", "-t"), 0, "", ok(file));
        assertResult(jinx("-cetc/test.conf", "-t"), 0, "", ok(file));
        assertResult(jinx("-tc", "etc/test.conf"), 0, "", ok(file));
        assertResult(jinx("-c", file.toString(), "-t"), 0, "", ok(file));
    }

    @Test
    void errorLogStderr() throws IOException {
        // without logs/, the default early log cannot be opened: nginx says so, then logs to stderr
        Path bare = prefix.resolve("bare");
        Path bareConf = bare.resolve("conf/jinx.conf");
        write(bareConf, "foo;\n");
        String emerg = "unknown directive \"foo\" in " + bareConf + ":1";
        Result r = raw("-p", bare.toString(), "-t");
        assertEquals(1, r.exit());
        assertTrue(Pattern.matches(
            Pattern.quote("jinx: [alert] could not open error log file: open() \"" + bare.resolve("logs/error.log")
                          + "\" failed (2: No such file or directory)\n")
            + String.format(LOG_LINE, "emerg", Pattern.quote(emerg))
            + Pattern.quote("jinx: configuration file " + bareConf + " test failed\n"), r.err()), r.err());

        // -e stderr: the early log is stderr, in the log's format (nginx's "-e stderr" sets an empty name)
        r = raw("-p", bare.toString(), "-e", "stderr", "-t");
        assertEquals(1, r.exit());
        assertEquals("", r.out());
        assertTrue(Pattern.matches(String.format(LOG_LINE, "emerg", Pattern.quote(emerg))
            + Pattern.quote("jinx: configuration file " + bareConf + " test failed\n"), r.err()), r.err());
        assertFalse(Files.exists(bare.resolve("logs")));

        // and a success prints what -t always prints (the pid file where it can be opened: see below)
        write(bareConf, "worker_processes 1;\npid jinx.pid;\n" + EVENTS);
        assertResult(raw("-p", bare.toString(), "-e", "stderr", "-t"), 0, "", ok(bareConf));
    }

    /** nginx's ngx_create_pidfile() under -t: the pid file is opened, created when missing (issue #36). */
    @Test
    void testOpensThePidFile() throws IOException {
        Path missing = prefix.resolve("no/such/dir/jinx.pid");
        write(conf, "pid " + missing + ";\n" + EVENTS);
        Result r = jinx("-t");
        assertEquals(1, r.exit());
        assertEquals("jinx: the configuration file " + conf + " syntax is ok\n"
            + "jinx: [emerg] open() \"" + missing + "\" failed (2: No such file or directory)\n"
            + "jinx: configuration file " + conf + " test failed\n", r.err());

        Path pid = prefix.resolve("logs/jinx.pid");
        write(conf, "pid logs/jinx.pid;\n" + EVENTS);
        assertResult(jinx("-t"), 0, "", ok(conf));
        assertEquals("", Files.readString(pid), "created, nothing written");
        Files.writeString(pid, "123\n");
        assertResult(jinx("-t"), 0, "", ok(conf));
        assertEquals("123\n", Files.readString(pid), "never truncated");
    }

    @Test
    void errorLogFile() throws IOException {
        write(conf, "foo;\n");
        assertResult(jinx("-e", "logs/other.log", "-t"), 1, "",
            failed(conf, "unknown directive \"foo\" in " + conf + ":1"));
        String log = Files.readString(prefix.resolve("logs/other.log"), StandardCharsets.ISO_8859_1);
        assertTrue(Pattern.compile(String.format(LOG_LINE, "emerg",
            Pattern.quote("unknown directive \"foo\" in " + conf + ":1"))).matcher(log).find(), log);
        assertFalse(Files.exists(prefix.resolve("logs/error.log")));
    }

    @Test
    void globalDirectives() throws IOException {
        write(conf, "env A;\n" + EVENTS);
        assertResult(jinx("-g", "worker_processes 2;", "-t"), 0, "", ok(conf));
        assertResult(jinx("-gworker_processes 2; env B;", "-t"), 0, "", ok(conf));
        // -g is parsed before the file, so the file's directive is the duplicate, as in nginx
        write(conf, "worker_processes 1;\n");
        assertResult(jinx("-g", "worker_processes 2;", "-t"), 1, "",
            failed(conf, "\"worker_processes\" directive is duplicate in " + conf + ":1"));
    }

    @Test
    void globalDirectiveErrorsAreInCommandLine() {
        assertResult(jinx("-g", "worker_processes abc;", "-t"), 1, "",
            failed(conf, "\"worker_processes\" directive invalid value in command line"));
        assertResult(jinx("-g", "foo;", "-t"), 1, "", failed(conf, "unknown directive \"foo\" in command line"));
        assertResult(jinx("-g", "testblock { }", "-t"), 1, "",
            failed(conf, "block directives are not supported in -g option in command line"));
    }

    // -v, -V, -h

    @Test
    void version() {
        // nothing is read: a prefix with no configuration is fine
        Result r = raw("-p", prefix.resolve("nowhere").toString(), "-v");
        assertResult(r, 0, "", "jinx version: jinx/" + Versions.JINX + "\n");
        assertFalse(Versions.JINX.isBlank());
        assertFalse(Versions.JINX.equals("unknown"), "version.properties is not filtered");
    }

    /** The built-in modules as these tests give them to {@link Main}: those discovered, and the fake method. */
    static List<JinxModule> modules() {
        List<JinxModule> modules = new ArrayList<>(Main.discover());
        modules.add(new FakeEventModule());
        return modules;
    }

    /** The built-in modules in their resolved order: core, errlog, conf, then those later issues add. */
    static List<JinxModule> builtins() throws ConfException {
        return ModuleSorter.sort(modules(), BuiltinOrder.NAMES);
    }

    @Test
    void versionFull() throws ConfException {
        List<String> modules = new ArrayList<>();
        for (JinxModule m : builtins()) {
            modules.add(m.name() + " (static " + Versions.JINX + ", api " + ApiVersion.CURRENT + ")");
        }
        Result r = jinx("-V");
        assertResult(r, 0, "", "jinx version: jinx/" + Versions.JINX + "\n"
            + "built with Java " + Runtime.version().feature() + ", running on " + System.getProperty("java.vm.name")
            + " " + System.getProperty("java.vm.version") + "\n"
            + "configure arguments: --prefix=" + prefix + "/ --conf-path=conf/jinx.conf"
            + " --error-log-path=logs/error.log --pid-path=logs/jinx.pid\n"
            + "modules: " + String.join(", ", modules) + "\n");
        assertTrue(r.err().contains("modules: core (static "), r.err());
    }

    @Test
    void versionFullWithABrokenConfigurationStillExitsZero() throws IOException {
        write(conf, "foo;\n");
        Result r = jinx("-V");
        assertEquals(0, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().endsWith("modules: not listed, the configuration failed: unknown directive \"foo\" in "
            + conf + ":1\n"), r.err());
        assertEquals(4, r.err().split("\n").length, r.err());
    }

    @Test
    void help() {
        for (String flag : List.of("-h", "-?")) {
            Result r = jinx(flag);
            assertEquals(0, r.exit());
            assertEquals("", r.out());
            String err = r.err();
            assertTrue(err.startsWith("jinx version: jinx/" + Versions.JINX + "\n"
                + "Usage: jinx [-?hvVtTqml] [-s signal] [-p prefix]\n"
                + "            [-e filename] [-c filename] [-g directives]\n\nOptions:\n"), err);
            for (String option : List.of("-?,-h", "-v", "-V", "-t", "-T", "-q", "-s signal", "-p prefix",
                                         "-e filename", "-c filename", "-g directives", "-m", "-l [name]")) {
                assertTrue(Pattern.compile("(?m)^  " + Pattern.quote(option) + " +: \\S").matcher(err).find(),
                    () -> option + " missing in\n" + err);
            }
            assertTrue(err.endsWith("\n\n"), err);
        }
    }

    // invalid options

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-x           | invalid option: \"x\"",
        "-tx          | invalid option: \"x\"",
        "foo          | invalid option: \"foo\"",
        "-c           | option \"-c\" requires file name",
        "-p           | option \"-p\" requires directory name",
        "-e           | option \"-e\" requires file name",
        "-g           | option \"-g\" requires parameter",
        "-s           | option \"-s\" requires parameter",
        "-s foo       | invalid option: \"-s foo\"",
        "-sfoo        | invalid option: \"-s foo\"",
        "-t -s restart | invalid option: \"-s restart\"",
    })
    void invalidOption(String args, String message) {
        assertResult(raw(args.split(" ")), 1, "", "jinx: " + message + "\n");
    }

    // -s

    @Test
    void signalWithoutPidFile() throws IOException {
        Path pid = prefix.resolve("logs/jinx.pid");
        assertResult(jinx("-s", "stop"), 1, "",
            "jinx: [error] open() \"" + pid + "\" failed (2: No such file or directory)\n");
        // the notice goes only to the early log's file, as nginx's "signal process started"
        String log = errorLog();
        assertTrue(Pattern.compile(String.format(LOG_LINE, "notice", "signal process started")).matcher(log).find(),
            log);
        assertTrue(Pattern.compile(String.format(LOG_LINE, "error",
            Pattern.quote("open() \"" + pid + "\" failed (2: No such file or directory)"))).matcher(log).find(), log);
    }

    @Test
    void signalWithInvalidPid() throws IOException {
        Path pid = prefix.resolve("logs/jinx.pid");
        Files.writeString(pid, "abc\n");
        assertResult(jinx("-s", "reload"), 1, "", "jinx: [error] invalid PID number \"abc\" in \"" + pid + "\"\n");
        Files.writeString(pid, "");
        assertResult(jinx("-s", "reload"), 1, "", "jinx: [error] invalid PID number \"\" in \"" + pid + "\"\n");
    }

    @Test
    void signalReadsThePidDirective() throws IOException {
        write(conf, "pid run/master.pid;\n" + EVENTS);
        assertResult(jinx("-s", "quit"), 1, "",
            "jinx: [error] open() \"" + prefix.resolve("run/master.pid")
            + "\" failed (2: No such file or directory)\n");
    }

    @Test
    void signalWithABrokenConfiguration() throws IOException {
        write(conf, "foo;\n");
        assertResult(jinx("-s", "stop"), 1, "", "jinx: [emerg] unknown directive \"foo\" in " + conf + ":1\n");
    }

    @Test
    @Timeout(30)
    void signalToNoProcess() throws IOException {
        // above PID_MAX_LIMIT (2^22): no process ever has it
        Files.writeString(prefix.resolve("logs/jinx.pid"), "4194305\n");
        assertResult(jinx("-s", "stop"), 1, "", "jinx: [alert] kill(4194305, 15) failed (3: No such process)\n");
    }

    @ParameterizedTest
    @CsvSource({"stop, 15", "reopen, 10", "reload, 1"})
    @Timeout(30)
    void signalReachesTheProcess(String word, int signo) throws Exception {
        assumeSignalNotIgnored(signo);
        Process child = new ProcessBuilder("sleep", "30").redirectErrorStream(true).start();
        try {
            Files.writeString(prefix.resolve("logs/jinx.pid"), child.pid() + "\n");
            assertResult(jinx("-s", word), 0, "", "");
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child did not die");
            // a process killed by signal n ends with 128 + n
            assertEquals(128 + signo, child.exitValue());
        } finally {
            child.destroyForcibly();
        }
    }

    // -m, -l

    @Test
    void modulesInOrder() throws ConfException {
        Result r = jinx("-m");
        assertEquals(0, r.exit());
        assertEquals("", r.err());
        String[] lines = r.out().split("\n");
        assertEquals("# modules in resolved order: a module runs after those above it (\"after\" = later here)",
            lines[0]);
        assertEquals(List.of("order", "index", "type#", "name", "type", "origin", "version", "api", "jar"),
            List.of(lines[1].trim().split("\\s+")));
        List<List<String>> rows = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            rows.add(List.of(lines[i].trim().split("\\s+")));
        }
        String v = Versions.JINX;
        String api = ApiVersion.CURRENT.toString();
        assertEquals(List.of(
            List.of("0", "0", "0", "core", "CORE", "static", v, api),
            List.of("1", "1", "1", "errlog", "CORE", "static", v, api),
            List.of("2", "2", "0", "conf", "CONF", "static", v, api)), rows.subList(0, 3));
        List<JinxModule> builtins = builtins();
        assertEquals(builtins.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JinxModule m = builtins.get(i);
            List<String> row = rows.get(i);
            assertEquals(List.of(String.valueOf(i), m.name(), m.type().name(), "static", v, api),
                List.of(row.get(0), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7)), row::toString);
        }
    }

    @Test
    void directivesOfEveryModule() throws ConfException {
        Result r = jinx("-l");
        assertEquals(0, r.exit());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals(List.of("directive", "module", "contexts", "arity"), List.of(lines.get(0).trim().split("\\s+")));
        List<String> expected = new ArrayList<>();
        for (JinxModule m : builtins()) {
            String module = m.name();
            for (Directive<?> d : m.directives()) {
                List<String> contexts = new ArrayList<>();
                for (Ctx c : d.contexts()) {
                    contexts.add(c.name());
                }
                contexts.sort(null);
                String row = d.name() + "|" + module + "|" + String.join(",", contexts) + "|"
                             + Arity.describe(d.arity()) + (d.isMulti() ? "|MULTI" : "");
                expected.add(d.note() == null ? row : row + "|" + d.note());
            }
        }
        List<String> actual = new ArrayList<>();
        for (DirectiveListing.Entry e : DirectiveListing.parse(r.out())) {
            // contexts in nginx's order, here sorted to compare
            List<String> contexts = new ArrayList<>(List.of(e.cells().get(2).split(",")));
            contexts.sort(null);
            String row = e.cells().get(0) + "|" + e.cells().get(1) + "|" + String.join(",", contexts) + "|"
                         + e.cells().get(3);
            actual.add(e.note() == null ? row : row + "|" + e.note());
        }
        assertEquals(expected, actual);
        // every line fits in 120 columns: a row, or a detail wrapped between words
        assertTrue(r.out().lines().allMatch(l -> l.length() <= 120), r.out());
        assertTrue(r.out().matches("(?s).*\nload_module +core +main +TAKE1\\|MULTI\n    syntax: load_module file;\n"
            + "    default: -\n    Loads a dynamic module: .*"), r.out());
        assertTrue(r.out().matches("(?s).*\ndaemon +core +main +FLAG\n    syntax: daemon on \\| off;\n"
            + "    default: daemon on;\n    Determines whether jinx should become a daemon\\.\n.*"), r.out());
        assertTrue(expected.contains("load_module|core|main|TAKE1|MULTI"), expected::toString);
        assertTrue(expected.contains("include|conf|any|TAKE1|MULTI"), expected::toString);
        assertTrue(expected.contains("error_log|errlog|main|1MORE|MULTI"), expected::toString);
        assertTrue(expected.contains("worker_processes|core|main|TAKE1"), expected::toString);
        assertTrue(expected.contains("debug_connection|event_core|events|TAKE1|MULTI|parsed and checked; "
                                     + "per-connection debug logging is not built yet"), expected::toString);
        assertTrue(expected.contains("timer_resolution|core|main|TAKE1"), expected::toString);
    }

    @Test
    void directivesOfOneModuleOrOneDirective() {
        Result r = jinx("-l", "errlog");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("error_log"), DirectiveListing.parse(r.out()).stream().map(e -> e.cells().get(0)).toList());
        Result one = jinx("-tql", "worker_processes");
        assertEquals(0, one.exit(), one.err());
        List<DirectiveListing.Entry> entries = DirectiveListing.parse(one.out());
        assertEquals(1, entries.size(), one.out());
        assertEquals(List.of("worker_processes", "core", "main", "TAKE1"), entries.get(0).cells());
        assertEquals("worker_processes 1;", entries.get(0).defaults());
        assertResult(jinx("-l", "nosuch"), 1, "", "jinx: no module and no directive named \"nosuch\"\n");
    }

    @Test
    void loadModuleOnTheClassPathIsRefused() throws IOException {
        write(conf, "load_module modules/x.jar;\n");
        assertResult(jinx("-t"), 1, "",
            failed(conf, "\"load_module\" requires the server on the module path in " + conf + ":1"));
    }

    // events

    @Test
    void eventsSectionIsRequired() throws IOException {
        write(conf, "worker_processes  1;\n");
        assertResult(jinx("-t"), 1, "", "jinx: the configuration file " + conf + " syntax is ok\n"
            + failed(conf, "no \"events\" section in configuration"));
    }

    @Test
    void eventsWithoutAnEventMethodFails() {
        // the kernel alone: events {} is there, but no module can wait for events
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, Main::discover).run(new String[] {"-p", prefix.toString(), "-t"});
        }
        assertEquals(1, exit);
        assertEquals(failed(conf, "no usable event method: load an event module such as epoll or poll in " + conf
            + ":2"), err.toString(StandardCharsets.ISO_8859_1));
    }

    // serving

    @Test
    void masterProcessNeedsTheJinxCommand() {
        Result r = jinx();
        assertEquals(1, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("jinx: [emerg] the master process runs only as the jinx command, not embedded"),
            r.err());
    }
}
