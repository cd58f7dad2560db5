package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SsiParserTest {

    /** What a parse produced: text, commands with their parameters, errors, in order. */
    private static String run(String doc, int[] cuts, int valueLen) {
        SsiParser p = new SsiParser(valueLen);
        StringBuilder out = new StringBuilder();
        List<String> log = new ArrayList<>();
        SsiParser.Sink sink = new SsiParser.Sink() {
            @Override
            public void text(byte[] b, int off, int len) {
                out.append(new String(b, off, len, StandardCharsets.ISO_8859_1));
            }

            @Override
            public void error(String message) {
                log.add(message);
                out.append("{error}");
            }
        };
        byte[] bytes = doc.getBytes(StandardCharsets.ISO_8859_1);
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : bytes.length;
            ByteBuffer buf = ByteBuffer.wrap(bytes, from, to - from);
            while (buf.hasRemaining()) {
                int rc = p.parse(buf, sink);
                if (rc == SsiParser.COMMAND) {
                    out.append('{').append(p.command);
                    for (SsiParser.Param prm : p.params) {
                        out.append(' ').append(prm.key()).append('=').append(prm.value());
                    }
                    out.append('}');
                } else if (rc == SsiParser.ERROR) {
                    out.append("{ssi error}");
                }
            }
            from = to;
        }
        return out + (log.isEmpty() ? "" : " " + log);
    }

    private static final String DOC = "a<b<!x<!-y<!--z<!--#echo var=\"u\\\"r\" default='d' -->"
        + "<!--#\r\nif\texpr=\"$x\"\n--><!--#bad var=x --><!--#endif--><!--<!--#a-->tail<!-";

    @Test
    void textCommandsAndErrors() {
        assertEquals("a<b<!x<!-y<!--z{echo var=u\\\"r default=d}{if expr=$x}{error}{ssi error}{endif}<!--{a}tail"
            + " [unexpected \"x\" symbol before value of \"var\" parameter in \"bad\" SSI command]",
            run(DOC, new int[0], 255));
    }

    @Test
    void everySplitGivesTheSameResult() {
        String whole = run(DOC, new int[0], 255);
        for (int i = 1; i < DOC.length(); i++) {
            assertEquals(whole, run(DOC, new int[] {i}, 255), "cut at " + i);
            for (int j = i + 1; j < DOC.length(); j += 7) {
                assertEquals(whole, run(DOC, new int[] {i, j}, 255), "cuts at " + i + ", " + j);
            }
        }
    }

    @Test
    void limits() {
        String name = "x".repeat(SsiParser.COMMAND_LEN);
        assertEquals("{error}{ssi error} [the \"" + name + "y...\" SSI command is too long]",
            run("<!--#" + name + "y -->", new int[0], 255));
        assertEquals("{" + name + "}", run("<!--#" + name + " -->", new int[0], 255));
        String key = "k".repeat(SsiParser.PARAM_LEN);
        assertEquals("{error}{ssi error} [too long \"" + key + "z...\" parameter in \"echo\" SSI command]",
            run("<!--#echo " + key + "z=\"1\" -->", new int[0], 255));
        assertEquals("{echo v=1234}", run("<!--#echo v=\"1234\" -->", new int[0], 4));
        assertEquals("{error}{ssi error} [too long \"12345...\" value of \"v\" parameter in \"echo\" SSI command]",
            run("<!--#echo v=\"12345\" -->", new int[0], 4));
    }

    @Test
    void malformedCommandsEndAtTheirClose() {
        assertEquals("{error}{ssi error}after [unexpected \"x\" symbol in \"echo\" SSI command]",
            run("<!--#echo -x>-->after", new int[0], 255));
        assertEquals("{error}{ssi error}after [invalid \"var-\" parameter in \"echo\" SSI command]",
            run("<!--#echo var-->after", new int[0], 255));
        assertEquals("{error}{ssi error}. [unexpected \"\"\" symbol after \"v\" parameter in \"e\" SSI command]",
            run("<!--#e v \"1\" -->.", new int[0], 255));
    }

    @Test
    void strftimeAsTheCLocale() {
        ZonedDateTime t = ZonedDateTime.of(2026, 3, 7, 5, 4, 9, 0, ZoneOffset.UTC);
        assertEquals("Saturday, 07-Mar-2026 05:04:09 GMT", SsiTime.strftime(SsiTime.DEFAULT_FORMAT, t, true));
        assertEquals("Sat Mar  7 05:04:09 2026|066|05 AM|26|%q|%", SsiTime.strftime("%c|%j|%I %p|%y|%q|%%", t, true));
        assertEquals("1772859849", SsiTime.strftime("%s", t, true));
    }

    @Test
    void urlEncodingAsNginxHtmlEscape() {
        assertEquals("a%20%22%23%25%27%09%7F%C3%3C%3E&?", SsiCommands.escapeHtmlUri("a \"#%'\t\u007f\u00c3<>&?"));
    }
}
