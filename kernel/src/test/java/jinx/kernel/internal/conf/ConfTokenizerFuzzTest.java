package jinx.kernel.internal.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.ConfException;

/**
 * A coverage-guided fuzz target for the configuration tokenizer (issue #36): {@code mvn verify} replays the
 * committed corpus ({@code src/test/resources/.../ConfTokenizerFuzzTestInputs/}), {@code JAZZER_FUZZ=1} fuzzes
 * ({@code bench/fuzz}). Any bytes give items or nginx's error, never another exception, and end in EOF; what was
 * read, written again with every word double-quoted and escaped, reads back as the same items.
 */
class ConfTokenizerFuzzTest {

    /** Far below nginx's 4,096-byte buffer even when every byte of a word is escaped. */
    private static final int ROUND_TRIP_LIMIT = 1000;

    /** What a tokenizer read: one string per item, its kind and words; the error last if it failed. */
    private static List<String> items(byte[] content) {
        ConfTokenizer t = new ConfTokenizer(content);
        List<String> items = new ArrayList<>();
        // each item consumes at least one byte, so EOF comes within length + 1 calls
        for (int i = 0; i <= content.length + 1; i++) {
            ConfTokenizer.Kind kind;
            try {
                kind = t.next();
            } catch (ConfException e) {
                items.add("error " + e.getMessage());
                return items;
            }
            items.add(kind + " " + t.words());
            if (kind == ConfTokenizer.Kind.EOF) {
                return items;
            }
        }
        throw new AssertionError("no EOF after " + (content.length + 1) + " items");
    }

    @FuzzTest(maxDuration = "15s")
    void tokens(byte[] content) throws ConfException {
        List<String> items = items(content);
        if (items.get(items.size() - 1).startsWith("error ")) {
            return;
        }
        ConfTokenizer t = new ConfTokenizer(content);
        StringBuilder again = new StringBuilder();
        for (ConfTokenizer.Kind kind = t.next(); kind != ConfTokenizer.Kind.EOF; kind = t.next()) {
            for (String w : t.words()) {
                if (w.length() > ROUND_TRIP_LIMIT) {
                    return;
                }
                again.append('"').append(w.replace("\\", "\\\\").replace("\"", "\\\"")).append("\" ");
            }
            again.append(switch (kind) {
                case DIRECTIVE -> ";\n";
                case BLOCK_START -> "{\n";
                default -> "}\n";
            });
        }
        String text = again.toString();
        assertEquals(items, items(text.getBytes(StandardCharsets.ISO_8859_1)), text);
    }
}
