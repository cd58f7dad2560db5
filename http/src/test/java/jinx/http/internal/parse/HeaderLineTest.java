package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.ParseTesting.byteByByte;
import static jinx.http.internal.parse.ParseTesting.direct;
import static jinx.http.internal.parse.ParseTesting.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class HeaderLineTest {

    private static final int OK = Rc.OK;
    private static final int DONE = HttpParser.PARSE_HEADER_DONE;
    private static final int BAD = HttpParser.PARSE_INVALID_HEADER;

    /**
     * One header line: input, underscores allowed, expected rc, then for OK the name, lower-case name, value and
     * invalid flag; for BAD the offending byte's index.
     */
    static Stream<Arguments> lines() {
        return Stream.of(
            ok("Host: example.com\r\n", false, "Host", "host", "example.com", false),
            ok("Host:example.com\r\n", false, "Host", "host", "example.com", false),
            ok("Host:   example.com   \r\n", false, "Host", "host", "example.com", false),
            // tabs are value, only spaces are trimmed: released nginx (Debian's 1.22), issue #36
            ok("X-Tab:\t a \t b\t \r\n", false, "X-Tab", "x-tab", "\t a \t b\t", false),
            ok("Host: \tlocalhost\r\n", false, "Host", "host", "\tlocalhost", false),
            ok("Transfer-Encoding:\tchunked\r\n", false, "Transfer-Encoding", "transfer-encoding", "\tchunked",
                false),
            ok("Content-Length: 40\t\r\n", false, "Content-Length", "content-length", "40\t", false),
            ok("X-Space-Tab: v \t \r\n", false, "X-Space-Tab", "x-space-tab", "v \t", false),
            ok("X-Empty:\r\n", false, "X-Empty", "x-empty", "", false),
            ok("X-Empty:   \r\n", false, "X-Empty", "x-empty", "", false),
            ok("X-Colon: a:b: c\r\n", false, "X-Colon", "x-colon", "a:b: c", false),
            ok("X-Bare-LF: v\n", false, "X-Bare-LF", "x-bare-lf", "v", false),
            ok("X-Bare-LF:\n", false, "X-Bare-LF", "x-bare-lf", "", false),
            ok("X-CRs: v\r\r\r\n", false, "X-CRs", "x-crs", "v", false),
            ok("NoColon\r\n", false, "NoColon", "nocolon", "", false),
            ok("NoColon\n", false, "NoColon", "nocolon", "", false),
            ok("X_Under: 1\r\n", false, "X_Under", "x_under", "1", true),
            ok("X_Under: 1\r\n", true, "X_Under", "x_under", "1", false),
            ok("_x: 1\r\n", false, "_x", "_x", "1", true),
            ok("_x: 1\r\n", true, "_x", "_x", "1", false),
            ok("X@Y: 1\r\n", false, "X@Y", "x@y", "1", true),
            ok("\u00e9t\u00e9: 1\r\n", false, "\u00e9t\u00e9", "\u00e9t\u00e9", "1", true),
            ok("X-Latin: caf\u00e9\u00ff\r\n", false, "X-Latin", "x-latin", "caf\u00e9\u00ff", false),
            ok("X-Ctl: a\u0001b\r\n", false, "X-Ctl", "x-ctl", "a\u0001b", false),
            ok("X: \"quoted\" (x)\r\n", false, "X", "x", "\"quoted\" (x)", false),
            Arguments.of("\r\n", false, DONE, null),
            Arguments.of("\n", false, DONE, null),
            Arguments.of("X Y: 1\r\n", false, BAD, 1),
            Arguments.of("X\tY: 1\r\n", false, BAD, 1),
            Arguments.of(": v\r\n", false, BAD, 0),
            Arguments.of(" folded\r\n", false, BAD, 0),
            Arguments.of("\tfolded\r\n", false, BAD, 0),
            Arguments.of("X: a\u0000b\r\n", false, BAD, 4),
            Arguments.of("X\u0000: a\r\n", false, BAD, 1),
            Arguments.of("\u0000X: a\r\n", false, BAD, 0),
            Arguments.of("X: \u0000\r\n", false, BAD, 3),
            Arguments.of("X: a \u0000\r\n", false, BAD, 5),
            Arguments.of("X:\u0000\r\n", false, BAD, 2),
            Arguments.of("X\u007f: a\r\n", false, BAD, 1),
            Arguments.of("\u007fX: a\r\n", false, BAD, 0),
            Arguments.of("X: a\rb\r\n", false, BAD, 4),
            Arguments.of("X: a \rb\r\n", false, BAD, 4),
            Arguments.of("X:\rb\r\n", false, BAD, 2),
            Arguments.of("X\rb\r\n", false, BAD, 1),
            Arguments.of("\rX", false, BAD, 0));
    }

    private static Arguments ok(String line, boolean underscores, String name, String lowcase, String value,
            boolean invalid) {
        return Arguments.of(line, underscores, OK, new String[] {name, lowcase, value, String.valueOf(invalid)});
    }

    @ParameterizedTest
    @MethodSource("lines")
    void parsesAsNginx(String line, boolean underscores, int expectedRc, Object expected) {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct(line);
        int rc = HttpParser.parseHeaderLine(r, b, underscores);
        assertEquals(expectedRc, rc, line);
        if (rc == OK) {
            String[] e = (String[]) expected;
            assertEquals(e[0], HttpParser.headerName(r, b));
            assertEquals(e[1], HttpParser.lowcaseHeaderName(r, b));
            assertEquals(e[2], HttpParser.headerValue(r, b));
            assertEquals(Boolean.parseBoolean(e[3]), r.invalidHeader);
            assertEquals(line.length(), b.position());
        } else if (rc == DONE) {
            assertEquals(line.length(), b.position());
        } else {
            assertEquals((int) (Integer) expected, r.headerEnd, "the offending byte");
        }
    }

    @ParameterizedTest
    @MethodSource("lines")
    void sameResultOneByteAtATime(String line, boolean underscores, int expectedRc, Object expected) {
        HttpParseState a = new HttpParseState();
        ByteBuffer b1 = direct(line);
        int rc1 = HttpParser.parseHeaderLine(a, b1, underscores);

        HttpParseState c = new HttpParseState();
        ByteBuffer b2 = direct(line);
        int rc2 = byteByByte(c, b2, (s, b) -> HttpParser.parseHeaderLine(s, b, underscores));
        assertEquals(rc1, rc2, line);
        if (rc1 == OK || rc1 == DONE) {
            assertEquals(snapshot(a, rc1, b1), snapshot(c, rc2, b2), line);
            if (rc1 == OK) {
                assertEquals(HttpParser.lowcaseHeaderName(a, b1), HttpParser.lowcaseHeaderName(c, b2));
            }
        } else {
            assertEquals(a.headerEnd, c.headerEnd);
        }
    }

    @Test
    void hashIsNginxsOverTheLowerCaseName() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("Content-Length: 5\r\n");
        assertEquals(OK, HttpParser.parseHeaderLine(r, b, false));
        long hash = 0;
        for (char ch : "content-length".toCharArray()) {
            hash = hash * 31 + ch;
        }
        assertEquals(hash, r.headerHash);
        assertEquals("content-length".length(), r.lowcaseIndex);
    }

    @Test
    void lowcaseHeaderIsBoundedByLcHeaderLen() {
        for (int len : new int[] {31, 32, 33, 40, 64, 100}) {
            String name = "X".repeat(len - 1) + "Y";
            HttpParseState r = new HttpParseState();
            ByteBuffer b = direct(name + ": v\r\n");
            assertEquals(OK, HttpParser.parseHeaderLine(r, b, false));
            assertEquals(len & (HttpParser.LC_HEADER_LEN - 1), r.lowcaseIndex, "wraps as nginx's index");
            assertEquals(name.toLowerCase(), HttpParser.lowcaseHeaderName(r, b), "the lower-case name is whole");
            assertEquals(HttpParser.LC_HEADER_LEN, r.lowcaseHeader.length);
        }
    }

    @Test
    void aHeaderBlockParsesLineByLine() {
        String block = "Host: a\r\nX_Y: 1\r\nCookie: a=1; b=2\r\nX-Empty:\r\nAccept: */*\n\r\nBODY";
        for (boolean oneByOne : new boolean[] {false, true}) {
            HttpParseState r = new HttpParseState();
            ByteBuffer b = direct(block);
            List<String> seen = new ArrayList<>();
            int rc;
            do {
                rc = oneByOne ? byteByByte(r, b, (s, bb) -> HttpParser.parseHeaderLine(s, bb, false))
                        : HttpParser.parseHeaderLine(r, b, false);
                if (rc == OK) {
                    seen.add(HttpParser.lowcaseHeaderName(r, b) + "=" + HttpParser.headerValue(r, b)
                            + (r.invalidHeader ? " (invalid)" : ""));
                }
            } while (rc == OK);
            assertEquals(DONE, rc);
            assertEquals(List.of("host=a", "x_y=1 (invalid)", "cookie=a=1; b=2", "x-empty=", "accept=*/*"), seen);
            assertEquals(block.indexOf("BODY"), b.position());
        }
    }

    @Test
    void invalidFlagIsClearedByTheNextLine() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("A@B: 1\r\nC: 2\r\n");
        assertEquals(OK, HttpParser.parseHeaderLine(r, b, false));
        assertTrue(r.invalidHeader);
        assertEquals(OK, HttpParser.parseHeaderLine(r, b, false));
        assertFalse(r.invalidHeader);
    }

    @Test
    void upstreamsDoubledStatusLineIsSkipped() {
        String lines = "HTTP/1.1 200 OK\r\nServer: iis\r\n";
        HttpParseState up = new HttpParseState();
        up.upstream = true;
        ByteBuffer b = direct(lines);
        assertEquals(OK, HttpParser.parseHeaderLine(up, b, false));
        assertEquals("Server", HttpParser.headerName(up, b));
        assertEquals("iis", HttpParser.headerValue(up, b));

        HttpParseState client = new HttpParseState();
        assertEquals(BAD, HttpParser.parseHeaderLine(client, direct(lines), false));
        assertEquals(8, client.headerEnd, "the space after HTTP/1.1");
    }

    @Test
    void movedHeaderLineParsesOn() {
        HttpParseState r = new HttpParseState();
        ByteBuffer small = direct("Host: exa");
        assertEquals(Rc.AGAIN, HttpParser.parseHeaderLine(r, small, false));
        ByteBuffer large = direct("......Host: example.org\r\n");
        large.position(6 + small.position());
        r.moveHeaderLine(6);
        assertEquals(OK, HttpParser.parseHeaderLine(r, large, false));
        assertEquals("host", HttpParser.lowcaseHeaderName(r, large));
        assertEquals("example.org", HttpParser.headerValue(r, large));
    }
}
