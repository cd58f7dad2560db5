package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import jinx.http.HttpRequest;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeMemory;

import static jinx.http.internal.parse.ParseTesting.direct;
import static jinx.http.internal.parse.ParseTesting.heap;
import static jinx.http.internal.parse.ParseTesting.snapshot;
import static jinx.http.internal.parse.ParseTesting.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain request line's one pass against the state machine: for every line, taken or not, the parser with
 * the pass leaves exactly the state, answer and position the state machine alone leaves.
 */
class PlainRequestLineTest {

    private static final List<String> PLAIN = List.of(
        "GET / HTTP/1.1\r\n",
        "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n",
        "HEAD /index.html HTTP/1.0\r\n",
        "POST /a/b/c.tar.gz HTTP/1.1\r\n",
        "GET /a.b/c HTTP/1.1\r\n",
        "GET /a+b/+c HTTP/1.1\r\n",
        "GET /?x=1 HTTP/1.1\r\n",
        "GET /search?q=a%20b&r=/..//x.y+z HTTP/1.1\r\n",
        "PROPFIND /dav/ HTTP/1.1\r\n",
        "MKCOL /x HTTP/1.1\r\n",
        "FOO-BAR_BAZ /x HTTP/1.1\r\n",
        "GET /\u00e9t\u00e9 HTTP/1.1\r\n");

    private static final List<String> NOT_PLAIN = List.of(
        "GET /hello HTTP/1.1\r",
        "GET /hello HTTP/1.1",
        "GET /hello",
        "GET",
        "\r\nGET / HTTP/1.1\r\n",
        "GET  / HTTP/1.1\r\n",
        "GET /  HTTP/1.1\r\n",
        "GET / HTTP/1.1 \r\n",
        "GET / HTTP/1.1\n",
        "GET / HTTP/2.0\r\n",
        "GET / HTTP/1.10\r\n",
        "GET / HTTP/1.2\r\n",
        "GET / http/1.1\r\n",
        "GET /\r\n",
        "GET /a%41 HTTP/1.1\r\n",
        "GET //a HTTP/1.1\r\n",
        "GET /a//b HTTP/1.1\r\n",
        "GET /./a HTTP/1.1\r\n",
        "GET /a/../b HTTP/1.1\r\n",
        "GET /a#b HTTP/1.1\r\n",
        "GET /?a#b HTTP/1.1\r\n",
        "GET /a\tb HTTP/1.1\r\n",
        "GET /a\u007fb HTTP/1.1\r\n",
        "GET http://h/ HTTP/1.1\r\n",
        "GET * HTTP/1.1\r\n",
        "CONNECT /x HTTP/1.1\r\n",
        "CONNECT h:443 HTTP/1.1\r\n",
        "get / HTTP/1.1\r\n",
        " GET / HTTP/1.1\r\n");

    @Test
    void plainLinesTakeTheOnePassAndMatchTheStateMachine() {
        for (String line : PLAIN) {
            ByteBuffer b = direct(line);
            HttpParseState r = new HttpParseState();
            int rc = PlainRequestLine.parse(r, b, NativeMemory.address(b));
            assertEquals(Rc.OK, rc, line);
            assertEquals(expected(line), snapshot(r, rc, b), line);
        }
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct(PLAIN.get(1));
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(HttpRequest.GET, r.method);
        assertEquals("/hello", text(b, r.uriStart, r.uriEnd));
        assertEquals(1001, r.httpVersion);
        assertEquals("Host: x\r\n\r\n".length(), b.remaining());
    }

    @Test
    void otherLinesAreLeftUntouched() {
        for (String line : NOT_PLAIN) {
            for (boolean isDirect : new boolean[] {true, false}) {
                ByteBuffer b = isDirect ? direct(line) : heap(line);
                HttpParseState r = new HttpParseState();
                String before = snapshot(r, 0, b);
                int rc = PlainRequestLine.parse(r, b, isDirect ? NativeMemory.address(b) : 0);
                assertEquals(PlainRequestLine.NOT_PLAIN, rc, line);
                assertEquals(before, snapshot(r, 0, b), line);
                // and the whole parser still answers as the state machine
                r = new HttpParseState();
                rc = HttpParser.parseRequestLine(r, b);
                assertEquals(expected(line), snapshot(r, rc, b), line);
            }
        }
    }

    @Test
    void randomLinesMatchTheStateMachine() {
        String[] pieces = {"GET", "HEAD", "POST", "CONNECT", "get", " ", " ", "/", "/", "/", ".", "..", "a", "b.c",
            "%", "%2F", "?", "?", "&", "=", "#", "+", "\t", "\u007f", "\u0000", "\u00e9", "*", ":", "@", "http://h",
            "H", "HTTP/1.1", "HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/1.", "\r", "\n", "\r\n", "\r\n"};
        Random random = new Random(20261201);
        int taken = 0;
        int lines = 50_000;
        for (int n = 0; n < lines; n++) {
            StringBuilder line = new StringBuilder();
            if (random.nextInt(3) > 0) {
                // mostly the shape of a real line, so that the one pass is taken often
                line.append(random.nextBoolean() ? "GET" : "POST").append(' ').append('/');
                for (int k = random.nextInt(6); k > 0; k--) {
                    line.append(pieces[5 + random.nextInt(pieces.length - 5)]);
                }
                line.append(random.nextInt(4) > 0 ? " HTTP/1.1\r\n" : pieces[random.nextInt(pieces.length)]);
            } else {
                for (int k = 1 + random.nextInt(10); k > 0; k--) {
                    line.append(pieces[random.nextInt(pieces.length)]);
                }
            }
            String s = line.toString();
            String expected = expected(s);
            for (boolean isDirect : new boolean[] {true, false}) {
                ByteBuffer b = isDirect ? direct(s) : heap(s);
                HttpParseState r = new HttpParseState();
                int rc = HttpParser.parseRequestLine(r, b);
                assertEquals(expected, snapshot(r, rc, b), s);
            }
            ByteBuffer b = direct(s);
            if (PlainRequestLine.parse(new HttpParseState(), b, NativeMemory.address(b))
                    != PlainRequestLine.NOT_PLAIN) {
                taken++;
            }
        }
        // the comparison means something only if both paths ran often
        assertTrue(taken > lines / 10, "one pass taken " + taken + " times");
        assertTrue(taken < lines * 4 / 5, "one pass taken " + taken + " times");
    }

    @Test
    void aLineArrivingInPiecesFinishesInTheStateMachine() {
        String line = "GET /hello HTTP/1.1\r\n";
        ByteBuffer b = direct(line);
        HttpParseState r = new HttpParseState();
        b.limit(6);
        assertEquals(Rc.AGAIN, HttpParser.parseRequestLine(r, b));
        assertNotEquals(0, r.state);
        b.limit(line.length());
        int rc = HttpParser.parseRequestLine(r, b);
        assertEquals(expected(line), snapshot(r, rc, b));
    }

    /** The state machine's answer for the line, from a fresh state. */
    private static String expected(String line) {
        ByteBuffer b = direct(line);
        HttpParseState r = new HttpParseState();
        int rc = RequestLineParser.machine(r, b);
        return snapshot(r, rc, b);
    }
}
