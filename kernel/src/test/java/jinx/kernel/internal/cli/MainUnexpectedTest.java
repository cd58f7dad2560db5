package jinx.kernel.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.testsuite.FakeEventModule;

/**
 * Issue #36: whatever a configuration makes a module do, {@code jinx -t} answers with one {@code [emerg]} line and
 * "test failed", never a Java stack trace. A test module fails the ways the fuzzed configurations made real
 * modules fail: an {@link Error} from a directive's handler (the parser places runtime exceptions itself) or from
 * {@code initModule}.
 */
class MainUnexpectedTest {

    @TempDir
    Path tmp;

    /** Fails with what its one directive names, while parsing ({@code parse}) or in {@code initModule}. */
    private static final class FailingModule implements JinxModule {

        private String failure = "none";
        private boolean inInit;

        @Override
        public String name() {
            return "failing";
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.CURRENT;
        }

        @Override
        public ModuleType type() {
            return ModuleType.CORE;
        }

        @Override
        public List<Directive<?>> directives() {
            return List.of(Directive.of("fail_with", Set.of(Ctx.MAIN), Arity.TAKE2, (cf, conf) -> {
                failure = cf.args().get(1);
                inInit = cf.args().get(2).equals("init");
                if (!inInit) {
                    fail(failure);
                }
            }));
        }

        @Override
        public void initModule(Cycle cycle) {
            if (inInit) {
                fail(failure);
            }
        }

        private static void fail(String failure) {
            switch (failure) {
                case "overflow" -> throw new StackOverflowError();
                case "linkage" -> throw new NoClassDefFoundError("jinx/Missing");
                case "runtime" -> throw new IllegalArgumentException("capacity < 0");
                default -> {
                }
            }
        }
    }

    private static List<JinxModule> modules() {
        List<JinxModule> modules = new ArrayList<>(Main.discover());
        modules.add(new FakeEventModule());
        modules.add(new FailingModule());
        return modules;
    }

    @ParameterizedTest
    @CsvSource({
        "overflow, parse, 'unexpected error while processing the configuration (java.lang.StackOverflowError)'",
        "linkage, parse, 'unexpected error while processing the configuration "
            + "(java.lang.NoClassDefFoundError: jinx/Missing)'",
        "runtime, parse, '\"fail_with\" directive failed (java.lang.IllegalArgumentException: capacity < 0) in CONF:2'",
        // an Error from initModule names the module, as any failure there (a reload's new cycle must not take the
        // master down with it)
        "overflow, init, 'module \"failing\" failed to initialise (java.lang.StackOverflowError)'",
        "linkage, init, 'module \"failing\" failed to initialise (java.lang.NoClassDefFoundError: jinx/Missing)'",
        "runtime, init, 'module \"failing\" failed to initialise (java.lang.IllegalArgumentException: "
            + "capacity < 0)'",
    })
    @Timeout(30)
    void testPrintsOneEmergLineAndNoStackTrace(String failure, String when, String emerg) throws IOException {
        Path prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = prefix.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, "events { }\nfail_with " + failure + " " + when + ";\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, MainUnexpectedTest::modules).run(new String[] {"-p", prefix.toString(), "-t"});
        }
        String text = err.toString(StandardCharsets.ISO_8859_1);
        assertEquals(1, exit, text);
        // initModule runs after the parse, which nginx announces as "syntax is ok"
        String parsed = when.equals("init") ? "jinx: the configuration file " + conf + " syntax is ok\n" : "";
        assertEquals(parsed + "jinx: [emerg] " + emerg.replace("CONF", conf.toString()) + "\n"
            + "jinx: configuration file " + conf + " test failed\n", text);
        assertFalse(text.contains("\tat "), text);
    }
}
