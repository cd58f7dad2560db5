package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import jinx.kernel.Rc;
import jinx.kernel.os.NativeMemory;

import static jinx.http.internal.parse.ParseTesting.direct;
import static jinx.http.internal.parse.ParseTesting.heap;
import static jinx.http.internal.parse.ParseTesting.snapshot;
import static jinx.http.internal.parse.ParseTesting.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain header line's one pass against the state machine: for every line, taken or not, the parser with
 * the pass leaves exactly the state, answer, position and lower-cased name the state machine alone leaves.
 */
class PlainHeaderLineTest {

    private static final List<String> PLAIN = List.of(
        "Host: 127.0.0.1:8080\r\n",
        "\r\n",
        "\r\nGET",
        "Accept-Encoding: gzip, deflate, br\r\nX: y\r\n",
        "X-Empty:\r\n",
        "X-Spaces:   \r\n",
        "X-Trail: a b \t \r\n",
        "X-Tabs:\t\tvalue\r\n",
        "X-Ctl: a\u0001b\r\n",
        "X-High: \u00e9t\u00e9\r\n",
        "X-Colon: a:b: c\r\n",
        "0-9: x\r\n",
        "A-Very-Long-Header-Name-That-Goes-On-And-On-And-On-Beyond-The-Thirty-Two-Bytes: v\r\n");

    private static final List<String> NOT_PLAIN = List.of(
        "Host: x\r",
        "Host: x",
        "Host",
        "\r",
        "\rX",
        "\n",
        "Host: x\n",
        "Host: x\r\r\n",
        "Host: x\rY\r\n",
        "Ho_st: x\r\n",
        "Ho st: x\r\n",
        "Host : x\r\n",
        ": x\r\n",
        " Host: x\r\n",
        "\tHost: x\r\n",
        "Host:\u0000x\r\n",
        "Host: x\u0000\r\n",
        "Host: x\ny\r\n",
        "Host\r\n",
        "H\u00f3st: x\r\n",
        "HTTP/1.1 200 OK\r\n");

    @Test
    void plainLinesTakeTheOnePassAndMatchTheStateMachine() {
        for (String line : PLAIN) {
            ByteBuffer b = direct(line);
            HttpParseState r = new HttpParseState();
            int rc = PlainHeaderLine.parse(r, b, NativeMemory.address(b));
            assertTrue(rc == Rc.OK || rc == HttpParser.PARSE_HEADER_DONE, line + ": " + rc);
            assertEquals(expected(line, false), full(r, rc, b), line);
        }
        ByteBuffer b = direct(PLAIN.get(0));
        HttpParseState r = new HttpParseState();
        assertEquals(Rc.OK, HttpParser.parseHeaderLine(r, b, false));
        assertEquals("host", new String(r.lowcaseHeader, 0, r.lowcaseIndex, StandardCharsets.ISO_8859_1));
        assertEquals("host".hashCode(), (int) r.headerHash);
        assertEquals("127.0.0.1:8080", text(b, r.headerStart, r.headerEnd));
        assertEquals(0, b.remaining());
    }

    @Test
    void otherLinesAreLeftUntouched() {
        for (String line : NOT_PLAIN) {
            for (boolean isDirect : new boolean[] {true, false}) {
                for (boolean underscores : new boolean[] {true, false}) {
                    ByteBuffer b = isDirect ? direct(line) : heap(line);
                    HttpParseState r = new HttpParseState();
                    String before = snapshot(r, 0, b);
                    int rc = PlainHeaderLine.parse(r, b, isDirect ? NativeMemory.address(b) : 0);
                    assertEquals(PlainHeaderLine.NOT_PLAIN, rc, line);
                    assertEquals(before, snapshot(r, 0, b), line);
                    r = new HttpParseState();
                    rc = HttpParser.parseHeaderLine(r, b, underscores);
                    assertEquals(expected(line, underscores), full(r, rc, b), line);
                }
            }
        }
    }

    @Test
    void randomLinesMatchTheStateMachine() {
        String[] pieces = {"Host", "X", "content-Length", "a", "Z9", "-", "_", ":", ":", " ", " ", "\t", "v", "1.2",
            "\u00e9", "\u0000", "\u0001", "\u007f", "/", "HTTP", "HTTP/1.1 200", "\r", "\n", "\r\n", "\r\n", "\r\n"};
        Random random = new Random(20261201);
        int taken = 0;
        int lines = 50_000;
        for (int n = 0; n < lines; n++) {
            StringBuilder line = new StringBuilder();
            if (random.nextInt(3) > 0) {
                line.append(random.nextBoolean() ? "Host" : "X-Y").append(':');
                for (int k = random.nextInt(5); k > 0; k--) {
                    line.append(pieces[random.nextInt(pieces.length)]);
                }
                line.append(random.nextInt(4) > 0 ? "\r\n" : pieces[random.nextInt(pieces.length)]);
            } else {
                for (int k = 1 + random.nextInt(8); k > 0; k--) {
                    line.append(pieces[random.nextInt(pieces.length)]);
                }
            }
            String s = line.toString();
            boolean underscores = random.nextBoolean();
            // an upstream's response headers go through the same parser (and its IIS "HTTP/1.1 ..." line)
            boolean upstream = random.nextInt(4) == 0;
            String expected = expected(s, underscores, upstream);
            for (boolean isDirect : new boolean[] {true, false}) {
                ByteBuffer b = isDirect ? direct(s) : heap(s);
                HttpParseState r = new HttpParseState();
                r.upstream = upstream;
                int rc = HttpParser.parseHeaderLine(r, b, underscores);
                assertEquals(expected, full(r, rc, b), s);
            }
            ByteBuffer b = direct(s);
            if (PlainHeaderLine.parse(new HttpParseState(), b, NativeMemory.address(b)) != PlainHeaderLine.NOT_PLAIN) {
                taken++;
            }
        }
        assertTrue(taken > lines / 10, "one pass taken " + taken + " times");
        assertTrue(taken < lines * 4 / 5, "one pass taken " + taken + " times");
    }

    @Test
    void valuesReadAWordAtATimeMatchTheStateMachineAtEveryOffset() {
        // a stop byte (CR, LF, NUL), a space or tab, or a byte with its high bit set, at each offset of values of
        // every length up to five words, with and without the bytes after the line in the buffer
        String[] odd = {"\r", "\n", "\u0000", " ", "\t", "\u0080", "\u00ff", "\r\n", " \r\n"};
        int taken = 0;
        for (int len = 0; len <= 40; len++) {
            for (int at = -1; at < len; at++) {
                for (String o : odd) {
                    StringBuilder v = new StringBuilder();
                    for (int k = 0; k < len; k++) {
                        v.append(k == at ? o : String.valueOf((char) ('a' + k % 26)));
                    }
                    for (String after : new String[] {"", "X: y\r\n", "\r\n"}) {
                        String line = "X-Word: " + v + "\r\n" + after;
                        ByteBuffer b = direct(line);
                        HttpParseState r = new HttpParseState();
                        int rc = HttpParser.parseHeaderLine(r, b, false);
                        assertEquals(expected(line, false), full(r, rc, b), line);
                        if (rc == Rc.OK) {
                            taken++;
                            String value = HttpParser.headerValue(r, b);
                            assertEquals(text(b, r.headerStart, r.headerEnd), value, line);
                            // the hash the line's read left finds the same cached string as hashing it again
                            assertTrue(value == HttpParser.string(b, r.headerStart, r.headerEnd), line);
                        }
                    }
                }
            }
        }
        assertTrue(taken > 10_000, "lines parsed: " + taken);
    }

    /** The state machine's answer for the line, from a fresh state. */
    private static String expected(String line, boolean underscores) {
        return expected(line, underscores, false);
    }

    private static String expected(String line, boolean underscores, boolean upstream) {
        ByteBuffer b = direct(line);
        HttpParseState r = new HttpParseState();
        r.upstream = upstream;
        int rc = HeaderLineParser.machine(r, b, underscores);
        return full(r, rc, b);
    }

    /** The snapshot and the lower-cased name the line left. */
    private static String full(HttpParseState r, int rc, ByteBuffer b) {
        return snapshot(r, rc, b) + " lcname=" + Arrays.toString(Arrays.copyOf(r.lowcaseHeader,
            Math.min(r.lowcaseIndex, r.lowcaseHeader.length)));
    }
}
