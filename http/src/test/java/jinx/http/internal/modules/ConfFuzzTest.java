package jinx.http.internal.modules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.conf.ConfTokenizer;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;

/**
 * A coverage-guided fuzz target for the configuration parser behind the tokenizer (issue #36): a whole main
 * configuration, with every module on the class path (the kernel's, the event modules, HTTP's), through the
 * cycle's parse: every directive handler, the blocks' merges, the HTTP block's location tree. {@code mvn verify}
 * replays the committed corpus ({@code src/test/resources/.../ConfFuzzTestInputs/}), {@code JAZZER_FUZZ=1} fuzzes
 * ({@code bench/fuzz}). Any file gives a cycle or one {@link ConfException} with nginx's text on one line, never
 * another throwable, nor the kernel's "unexpected error" that stands for one (finding 1: nothing in a
 * configuration may take the master down). The cycle is built as {@code jinx -s} builds it (parse and the core
 * confs, no log, socket or file opened); a file that names {@code include} or {@code load_module} is skipped, so
 * that fuzzing reads and loads nothing outside the prefix.
 */
class ConfFuzzTest {

    private static final Set<String> SKIPPED = Set.of("include", "load_module");
    private static Path prefix;

    private static synchronized Path prefix() throws IOException {
        if (prefix == null) {
            prefix = Files.createTempDirectory("jinx-conf-fuzz");
            Files.createDirectories(prefix.resolve("conf"));
            prefix.toFile().deleteOnExit();
            prefix.resolve("conf").toFile().deleteOnExit();
            prefix.resolve("conf/jinx.conf").toFile().deleteOnExit();
        }
        return prefix;
    }

    /** Whether the tokenizer finds a word the fuzzer must not reach (or fails: the parser says the same). */
    private static boolean names(byte[] content, Set<String> words) {
        ConfTokenizer t = new ConfTokenizer(content);
        try {
            for (ConfTokenizer.Kind k = t.next(); k != ConfTokenizer.Kind.EOF; k = t.next()) {
                for (String w : t.words()) {
                    if (words.contains(w)) {
                        return true;
                    }
                }
            }
        } catch (ConfException e) {
            return false;
        }
        return false;
    }

    @FuzzTest(maxDuration = "15s")
    void conf(byte[] content) throws IOException {
        if (names(content, SKIPPED)) {
            return;
        }
        Path root = prefix();
        Path conf = root.resolve("conf/jinx.conf");
        Files.write(conf, content);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stderr = new PrintStream(err, true, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(root, conf, null, "stderr", CycleOptions.Purpose.SIGNAL,
            Main::discover, BuiltinOrder.NAMES, stderr, ErrorLog.early(stderr, null), null);
        String text = new String(content, StandardCharsets.ISO_8859_1);
        try {
            assertNotNull(CycleBuilder.build(options, null), text);
        } catch (ConfException e) {
            String message = e.getMessage();
            assertFalse(message.startsWith("unexpected error"), () -> text + "\n" + stackTrace(e));
            assertFalse(e.getCause() instanceof RuntimeException || e.getCause() instanceof Error,
                () -> text + "\n" + stackTrace(e));
            assertFalse(message.indexOf('\n') >= 0, text + "\n" + message);
        }
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
