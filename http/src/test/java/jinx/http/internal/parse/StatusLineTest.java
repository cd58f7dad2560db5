package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.ParseTesting.byteByByte;
import static jinx.http.internal.parse.ParseTesting.direct;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class StatusLineTest {

    /** A status line, then "version code text" for OK or ERROR. */
    private static final String[][] LINES = {
        {"HTTP/1.1 200 OK\r\n", "1001 200 200 OK"},
        {"HTTP/1.0 404 Not Found\r\n", "1000 404 404 Not Found"},
        {"HTTP/1.1 204\r\n", "1001 204 204"},
        {"HTTP/1.1 200 OK\n", "1001 200 200 OK"},
        {"HTTP/1.1  301 Moved\r\n", "1001 301 301 Moved"},
        {"HTTP/1.1 403.1 Forbidden\r\n", "1001 403 403.1 Forbidden"},
        {"HTTP/1.1 200 \r\n", "1001 200 200 "},
        {"HTTP/1.1 999 Whatever\r\n", "1001 999 999 Whatever"},
        {"HTTP/2.0 200 OK\r\n", "2000 200 200 OK"},
        {"HTTP/123.45 200 OK\r\n", "123045 200 200 OK"},
        {"HTTP/1.1 200 caf\u00e9\u0001\r\n", "1001 200 200 caf\u00e9\u0001"},
        {"HTTP/1234.1 200 OK\r\n", "ERROR"},
        {"HTTP/1.1234 200 OK\r\n", "ERROR"},
        {"HTTP/2 200 OK\r\n", "ERROR"},
        {"HTTP/0.9 200 OK\r\n", "ERROR"},
        {"HTTP/1.1 20 OK\r\n", "ERROR"},
        {"HTTP/1.1 2000 OK\r\n", "ERROR"},
        {"HTTP/1.1 20x OK\r\n", "ERROR"},
        {"HTTP/1.1\r\n", "ERROR"},
        {"HTTP/1.1 200 OK\rX", "ERROR"},
        {"HTTP/1.1 200\rX", "ERROR"},
        {"http/1.1 200 OK\r\n", "ERROR"},
        {"ICY 200 OK\r\n", "ERROR"},
        {"<html>", "ERROR"},
    };

    static Stream<Arguments> lines() {
        return Arrays.stream(LINES).map(c -> Arguments.of(c[0], c[1]));
    }

    private static String parse(String line, boolean oneByOne) {
        HttpParseState r = new HttpParseState();
        StatusLine status = new StatusLine();
        ByteBuffer b = direct(line);
        int rc = oneByOne ? byteByByte(r, b, (s, bb) -> HttpParser.parseStatusLine(s, bb, status))
                : HttpParser.parseStatusLine(r, b, status);
        if (rc == Rc.ERROR) {
            return "ERROR";
        }
        assertEquals(Rc.OK, rc, line);
        assertEquals(line.length(), b.position());
        assertEquals(0, r.state);
        return status.httpVersion + " " + status.code + " " + HttpParser.string(b, status.start, status.end);
    }

    @ParameterizedTest(name = "{index}")
    @MethodSource("lines")
    void parsesAsNginx(String line, String expected) {
        assertEquals(expected, parse(line, false), line);
        assertEquals(expected, parse(line, true), "one byte at a time: " + line);
    }

    @Test
    void againUntilTheLineEnds() {
        HttpParseState r = new HttpParseState();
        StatusLine status = new StatusLine();
        ByteBuffer b = direct("HTTP/1.1 502 Bad Gateway\r\nServer: x\r\n");
        b.limit(12);
        assertEquals(Rc.AGAIN, HttpParser.parseStatusLine(r, b, status));
        assertEquals(502, status.code);
        b.limit(b.capacity());
        assertEquals(Rc.OK, HttpParser.parseStatusLine(r, b, status));
        assertEquals(26, b.position());
        status.reset();
        assertEquals(0, status.code);
        assertEquals(HttpParseState.NONE, status.end);
    }
}
