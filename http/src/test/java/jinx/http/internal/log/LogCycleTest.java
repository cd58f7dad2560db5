package jinx.http.internal.log;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.core.HttpBlockModule;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.variables.HttpVariablesModule;
import jinx.http.internal.variables.Variables;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code http_variables} and {@code http_log} in real cycles, built in-process (no socket) with the kernel's
 * modules and the {@code http {}} block's: errors come with their file and line, files are opened at
 * configuration.
 */
class LogCycleTest {

    @TempDir
    Path dir;

    private Path prefix;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private ErrorLog early;
    private final List<KernelCycle> built = new ArrayList<>();

    @BeforeEach
    void prefix() throws IOException {
        prefix = dir.toAbsolutePath();
        Files.createDirectories(prefix.resolve("logs"));
        early = ErrorLog.early(stderr, null);
    }

    @AfterEach
    void close() {
        for (KernelCycle c : built) {
            if (c.module(HttpLogModule.NAME).module() instanceof HttpLogModule m) {
                m.close();
            }
            c.log().close();
        }
        early.close();
    }

    private Path confFile() {
        return prefix.resolve("conf/jinx.conf");
    }

    private KernelCycle build(String conf) throws ConfException, IOException {
        Files.createDirectories(confFile().getParent());
        Files.writeString(confFile(), conf, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, confFile(), null, "stderr", CycleOptions.Purpose.TEST,
            () -> new ArrayList<JinxModule>(List.of(new MainCoreModule(), new ErrlogCoreModule(),
                new IncludeConfModule(), new HttpBlockModule(), new HttpCoreModule(), new HttpVariablesModule(),
                new HttpLogModule())),
            BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        built.add(cycle);
        return cycle;
    }

    private String fail(String conf) {
        return assertThrows(ConfException.class, () -> build(conf)).getMessage();
    }

    private String at(String text, int line) {
        return text + " in " + confFile() + ":" + line;
    }

    /** Issue #36: the failed open() named the closing brace of http, where the files are opened. */
    @Test
    @Timeout(10)
    void anAccessLogThatCannotBeOpenedNamesItsLine() {
        assertEquals(at("open() \"" + prefix.resolve("nodir/a.log") + "\" failed (2: No such file or directory)", 3),
            fail("http {\n    server {\n        access_log nodir/a.log;\n        listen 8080;\n    }\n}\n"));
    }

    @Test
    @Timeout(10)
    void anUnknownVariableInALogFormatNamesItsLine() {
        assertEquals(at("unknown \"nosuch\" variable", 3), fail("""
            http {
                log_format main '$remote_addr'
                                ' $nosuch';
                access_log logs/a.log main;
            }
            """));
    }

    @Test
    @Timeout(10)
    void anUnknownVariableInIfNamesItsLine() {
        assertEquals(at("unknown \"nolog\" variable", 4), fail("""
            http {
                server {
                    listen 127.0.0.1:0;
                    access_log logs/a.log combined if=$nolog;
                }
            }
            """));
    }

    @Test
    @Timeout(10)
    void directiveErrorsNameTheirLine() {
        assertEquals(at("unknown log format \"main\"", 2), fail("http {\n    access_log logs/a.log main;\n}\n"));
        assertEquals(at("\"log_format\" directive is not allowed here", 3),
            fail("http {\n    server {\n        log_format x '$uri';\n    }\n}\n"));
        assertEquals(at("invalid buffer size \"0\"", 2), fail("http {\n    access_log logs/a.log combined "
            + "buffer=0;\n}\n"));
    }

    @Test
    @Timeout(10)
    void filesAreOpenedWhenTheBlockIsConfigured() throws Exception {
        KernelCycle cycle = build("""
            http {
                log_format main escape=json '{"uri":"$uri"}';
                access_log logs/main.log main buffer=4k flush=1s;
                server {
                    listen 127.0.0.1:0;
                    access_log logs/server.log;
                    location /quiet {
                        access_log off;
                    }
                }
            }
            """);
        assertTrue(Files.exists(prefix.resolve("logs/main.log")));
        assertTrue(Files.exists(prefix.resolve("logs/server.log")));
        assertFalse(Files.exists(prefix.resolve("logs/access.log")), "no context was left without a log");
        Variables vars = Variables.of(cycle);
        assertTrue(vars.isKnown("remote_addr"));
        assertTrue(vars.isKnown("http_user_agent"), "combined compiled for server.log");
    }

    @Test
    @Timeout(10)
    void withoutAccessLogTheDefaultFileIsOpened() throws Exception {
        build("http {\n    server {\n        listen 127.0.0.1:0;\n    }\n}\n");
        assertTrue(Files.exists(prefix.resolve("logs/access.log")));
    }
}
