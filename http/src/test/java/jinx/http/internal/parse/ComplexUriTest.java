package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.ParseTesting.direct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ComplexUriTest {

    /**
     * The URI of a request line, decoded and normalised: {@code uri|args|exten}, or INVALID (nginx's 400).
     */
    private static String process(String rawUri, boolean mergeSlashes) {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET " + rawUri + " HTTP/1.1\r\n");
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b), rawUri);
        if (HttpParser.processRequestUri(r, b, mergeSlashes) != Rc.OK) {
            return "INVALID";
        }
        return r.uri + "|" + r.args + "|" + r.exten;
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = ' ', quoteCharacter = '\'', value = {
        "/a/../b /b||",
        "/a/./b /a/b||",
        "/a/b/.. /a/||",
        "/a/b/../ /a/||",
        "/a/b/. /a/b/||",
        "/./ /||",
        "/. /||",
        "/a/.. /||",
        "/a/b/../../c /c||",
        "/a/.b /a/.b||",
        "/a/..b /a/..b||",
        "/a/b.. /a/b..||",
        "/a/... /a/...||",
        "/.. INVALID",
        "/../ INVALID",
        "/../a INVALID",
        "/a/../.. INVALID",
        "/a/../../b INVALID",
        "/%2e%2e/ INVALID",
        "/%2E%2E INVALID",
        "/.%2e/x INVALID",
        "/a/%2e /a/||",
        "/a/%2e%2e /||",
        "/a/.%2e/b /b||",
        "/a%2F..%2Fb /b||",
        "/a/..%2f /||",
        "/a%2fb /a/b||",
        "//a /a||",
        "/a//b /a/b||",
        "/// /||",
        "//..//a INVALID",
        "/a/b//../c /a/c||",
        "/%00 INVALID",
        "/a%00b INVALID",
        "/a%0 INVALID",
        "/a% INVALID",
        "/a%zz INVALID",
        "/a%4g INVALID",
        "/a%g4 INVALID",
        "/a+b /a+b||",
        "/a%2Bb /a+b||",
        "/a%3Fb /a?b||",
        "/a%3fb?c /a?b|c|",
        "/a%23b /a#b||",
        "/a%25 /a%||",
        "/a%2525 /a%25||",
        "/caf%C3%A9 /caf\u00c3\u00a9||",
        "/a#frag /a||",
        "/a/..#frag /||",
        "/a/.#frag /a/||",
        "/a.html#x /a.html||html",
        "/./a.html /a.html||html",
        "/./a.html?x=1 /a.html|x=1|html",
        "/./a?x#y /a|x|",
        "/./a/..?x /|x|",
        "/./a/.?x /a/|x|",
        "/a?x#y /a|x|",
        "/a?x/../y /a|x/../y|",
        "/a?%zz /a|%zz|",
        "/a/b.tar.gz /a/b.tar.gz||gz",
        "/%2e/a.b/c /a.b/c||",
        "/a.%2e /a..||",
    })
    void normalisesAsNginx(String raw, String expected) {
        assertEquals(expected, process(raw, true), raw);
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = ' ', value = {
        "//a //a||",
        "/a//b /a//b||",
        "/// ///||",
        "/a/b//../c /a/b/c||",
        "//..//a //a||",
        "/a//./b /a//b||",
    })
    void mergeSlashesOff(String raw, String expected) {
        assertEquals(expected, process(raw, false), raw);
    }

    @Test
    void decodedControlsStayInThePath() {
        // nginx refuses only a decoded NUL; a decoded CR or LF is a byte of the path (the file system decides)
        assertEquals("/a\r\nb||", process("/a%0d%0ab", true));
    }

    @Test
    void plusAndQuotedFlags() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET /a%2Bb HTTP/1.1\r\n");
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertFalse(r.plusInUri, "the request line sees only the %");
        assertTrue(r.quotedUri);
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
        assertTrue(r.plusInUri, "decoding finds the +");
    }

    @Test
    void absoluteFormWithoutPathGetsASlash() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET http://h?a=1#f HTTP/1.1\r\n");
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
        assertEquals("/", r.uri);
        assertEquals("a=1", r.args);
        assertEquals("?a=1#f", r.unparsedUri);
        assertFalse(r.validUnparsedUri);
    }

    @Test
    void normalizeUriOfText() {
        assertEquals("/b", HttpParser.normalizeUri("/a/../b", true));
        assertEquals("//b", HttpParser.normalizeUri("//b", false));
        assertEquals("/x y", HttpParser.normalizeUri("/x%20y?q", true));
        assertEquals("/plain", HttpParser.normalizeUri("/plain", true));
        assertNull(HttpParser.normalizeUri("/..", true));
        assertNull(HttpParser.normalizeUri("/a b", true), "a space is refused by ngx_http_parse_uri");
        assertNull(HttpParser.normalizeUri("a", true), "a URI starts with /");
        assertNull(HttpParser.normalizeUri("/%00", true));
    }

    @Test
    void parseUriSetsTheFlags() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("/d/f.txt?x+y");
        r.uriStart = 0;
        r.uriEnd = b.limit();
        assertEquals(Rc.OK, HttpParser.parseUri(r, b));
        assertEquals(9, r.argsStart);
        assertEquals(5, r.uriExt);
        assertFalse(r.complexUri);
        assertFalse(r.plusInUri, "a + in the arguments is not the path's");

        HttpParseState c = new HttpParseState();
        ByteBuffer d = direct("/a/./b+%41\u007f");
        c.uriStart = 0;
        c.uriEnd = d.limit() - 1;
        assertEquals(Rc.OK, HttpParser.parseUri(c, d));
        assertTrue(c.complexUri);
        c.uriEnd = d.limit();
        assertEquals(Rc.ERROR, HttpParser.parseUri(c, d), "DEL");
    }

    /** The URI of what {@link #process} returned (which may hold a '|' itself). */
    private static String uriOf(String processed) {
        return processed.substring(0, processed.lastIndexOf('|', processed.lastIndexOf('|') - 1));
    }

    /**
     * Every escape of a byte decodes as the byte written plainly would (a usual byte: no second look), in upper and
     * lower case, in the middle, at the end of the URI, and one after the other; the rest keep their meaning.
     */
    @Test
    void everyEscapeDecodesAsItsPlainByte() {
        for (int c = 0; c < 256; c++) {
            for (String hex : new String[] {String.format("%02X", c), String.format("%02x", c)}) {
                String mid = process("/x%" + hex + "y", true);
                String end = process("/x%" + hex, true);
                if (c == 0) {
                    assertEquals("INVALID", mid);
                    assertEquals("INVALID", end);
                    continue;
                }
                String plain = String.valueOf((char) c);
                // any byte but NUL is a byte of the path once decoded, '/', '.', '%', '?', '#' and controls too
                assertEquals("/x" + plain + "y", uriOf(mid), hex);
                if (UriChars.usual(c)) {
                    assertEquals("/x" + plain, uriOf(end), hex);
                    assertEquals("/" + plain.repeat(3), uriOf(process("/" + ("%" + hex).repeat(3), true)), hex);
                }
                if (UriChars.usual(c) && c < 0x80) {
                    // arguments and extension as well, as the plain byte gives them
                    assertEquals(process("/x" + plain + "y", true), mid, hex);
                    assertEquals(process("/x" + plain, true), end, hex);
                }
            }
        }
        assertEquals("/abc||", process("/%61%62%63", true));
        assertEquals("/a/b.c|q|c", process("/%61/b%2e%63?q", true));
        assertEquals("INVALID", process("/x%6", true));
        assertEquals("INVALID", process("/x%6g", true));
        assertEquals("/x/||", process("/x/y/%2e%2e", true));
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET /x%61 HTTP/1.1\r\n");
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
        assertTrue(r.quotedUri);
        assertEquals("/xa", r.uri);
    }
}
