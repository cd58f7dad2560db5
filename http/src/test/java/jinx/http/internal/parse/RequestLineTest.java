package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jinx.http.HttpRequest;
import jinx.kernel.Rc;

import static jinx.http.internal.parse.ParseTesting.byteByByte;
import static jinx.http.internal.parse.ParseTesting.direct;
import static jinx.http.internal.parse.ParseTesting.snapshot;
import static jinx.http.internal.parse.ParseTesting.whole;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class RequestLineTest {

    private static final int OK = Rc.OK;
    private static final int METHOD = HttpParser.PARSE_INVALID_METHOD;
    private static final int REQUEST = HttpParser.PARSE_INVALID_REQUEST;
    private static final int VERSION = HttpParser.PARSE_INVALID_VERSION;
    private static final int M09 = HttpParser.PARSE_INVALID_09_METHOD;

    static Stream<Arguments> lines() {
        return Stream.of(
            // versions
            Arguments.of("GET / HTTP/1.1\r\n", OK, Map.of("v", "1001", "uri", "/", "proto", "HTTP/1.1",
                    "line", "GET / HTTP/1.1", "methodName", "GET", "args", "", "unparsed", "/")),
            Arguments.of("GET / HTTP/1.0\r\n", OK, Map.of("v", "1000", "proto", "HTTP/1.0")),
            Arguments.of("GET /\r\n", OK, Map.of("v", "9", "uri", "/", "proto", "", "line", "GET /")),
            Arguments.of("GET /index.html\n", OK, Map.of("v", "9", "uri", "/index.html", "exten", "html")),
            Arguments.of("GET / \r\n", OK, Map.of("v", "9", "line", "GET / ")),
            Arguments.of("HEAD /\r\n", M09, Map.of()),
            Arguments.of("POST /\r\n", M09, Map.of()),
            Arguments.of("GET / HTTP/2.0\r\n", VERSION, Map.of()),
            Arguments.of("GET / HTTP/3\r\n", VERSION, Map.of()),
            Arguments.of("GET / HTTP/10.0\r\n", VERSION, Map.of()),
            Arguments.of("GET / HTTP/0.9\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/01.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.10\r\n", OK, Map.of("v", "1010")),
            Arguments.of("GET / HTTP/1.999\r\n", OK, Map.of("v", "1999")),
            Arguments.of("GET / HTTP/1.1000\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.99999999999999999999\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.0000000000000000001\r\n", OK, Map.of("v", "1001")),
            Arguments.of("GET / HTTP/1\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP\r\n", REQUEST, Map.of()),
            Arguments.of("GET / http/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET / XTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.1 \r\n", OK, Map.of("v", "1001", "line", "GET / HTTP/1.1 ")),
            Arguments.of("GET / HTTP/1.1  x\r\n", REQUEST, Map.of()),
            // line ends: bare LF, CR without LF, leading empty lines
            Arguments.of("GET / HTTP/1.1\n", OK, Map.of("line", "GET / HTTP/1.1")),
            Arguments.of("GET / HTTP/1.1\rX", REQUEST, Map.of()),
            Arguments.of("GET /\rX", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.1\r\r\n", REQUEST, Map.of()),
            Arguments.of("\r\n\r\nGET / HTTP/1.1\r\n", OK, Map.of("line", "GET / HTTP/1.1")),
            Arguments.of("\n\nGET / HTTP/1.1\r\n", OK, Map.of("methodName", "GET")),
            // methods
            Arguments.of("get / HTTP/1.1\r\n", METHOD, Map.of()),
            Arguments.of("Get / HTTP/1.1\r\n", METHOD, Map.of()),
            Arguments.of("GET1 / HTTP/1.1\r\n", METHOD, Map.of()),
            Arguments.of(" GET / HTTP/1.1\r\n", METHOD, Map.of()),
            Arguments.of("GET\t/ HTTP/1.1\r\n", METHOD, Map.of()),
            Arguments.of("FOO / HTTP/1.1\r\n", OK, Map.of("method", "1", "methodName", "FOO")),
            Arguments.of("M-SEARCH / HTTP/1.1\r\n", OK, Map.of("method", "1", "methodName", "M-SEARCH")),
            Arguments.of("_X / HTTP/1.1\r\n", OK, Map.of("method", "1")),
            Arguments.of("GETS / HTTP/1.1\r\n", OK, Map.of("method", "1")),
            Arguments.of("OPTIONS * HTTP/1.1\r\n", REQUEST, Map.of()),
            // spaces and tabs
            Arguments.of("GET   /a   HTTP/1.1\r\n", OK, Map.of("uri", "/a", "line", "GET   /a   HTTP/1.1")),
            Arguments.of("GET /\tHTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET / HTTP/1.1\t\r\n", REQUEST, Map.of()),
            Arguments.of("GET /a b HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET  HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET\r\n", METHOD, Map.of()),
            // controls in the URI
            Arguments.of("GET /a\u0001 HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET /a\u0000 HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET /\u0000 HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET /a?b\u007f HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET /%2e\u001b HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET /caf\u00e9 HTTP/1.1\r\n", OK, Map.of("uri", "/caf\u00e9")),
            Arguments.of("GET /\"<>|^` HTTP/1.1\r\n", OK, Map.of("uri", "/\"<>|^`")),
            // URI flags and pieces
            Arguments.of("GET /a/b.txt?x=1&y=2 HTTP/1.1\r\n", OK, Map.of("uri", "/a/b.txt", "args", "x=1&y=2",
                    "exten", "txt", "unparsed", "/a/b.txt?x=1&y=2", "flags", "----")),
            Arguments.of("GET /a.b/c HTTP/1.1\r\n", OK, Map.of("exten", "", "flags", "----")),
            Arguments.of("GET /a/./b HTTP/1.1\r\n", OK, Map.of("uri", "/a/b", "flags", "c---")),
            Arguments.of("GET //a HTTP/1.1\r\n", OK, Map.of("uri", "/a", "flags", "c---")),
            Arguments.of("GET /a%20b HTTP/1.1\r\n", OK, Map.of("uri", "/a b", "flags", "-q--",
                    "unparsed", "/a%20b")),
            Arguments.of("GET /a+b HTTP/1.1\r\n", OK, Map.of("uri", "/a+b", "flags", "--p-")),
            Arguments.of("GET /a#frag HTTP/1.1\r\n", OK, Map.of("uri", "/a", "flags", "c---")),
            Arguments.of("GET /a? HTTP/1.1\r\n", OK, Map.of("uri", "/a", "args", "")),
            Arguments.of("GET /?a=%20 HTTP/1.1\r\n", OK, Map.of("uri", "/", "args", "a=%20", "flags", "----")),
            Arguments.of("GET /a?b#c HTTP/1.1\r\n", OK, Map.of("uri", "/a", "args", "b", "flags", "c---")),
            Arguments.of("GET /%2E%2E/ HTTP/1.1\r\n", OK, Map.of("flags", "-q--", "uri", "INVALID")),
            // absolute form
            Arguments.of("GET http://example.com:8080/p/q.gif?x HTTP/1.1\r\n", OK, Map.of("schema", "http",
                    "host", "example.com:8080", "port", "8080", "uri", "/p/q.gif", "args", "x", "exten", "gif",
                    "unparsed", "/p/q.gif?x")),
            Arguments.of("GET HTTP://EXAMPLE.COM/ HTTP/1.1\r\n", OK, Map.of("schema", "HTTP", "host",
                    "EXAMPLE.COM", "uri", "/")),
            Arguments.of("GET http://example.com HTTP/1.1\r\n", OK, Map.of("host", "example.com", "uri", "/",
                    "unparsed", "/")),
            Arguments.of("GET http://example.com:81 HTTP/1.1\r\n", OK, Map.of("host", "example.com:81", "uri", "/",
                    "port", "81")),
            Arguments.of("GET http://example.com?a=b HTTP/1.1\r\n", OK, Map.of("uri", "/", "args", "a=b",
                    "unparsed", "?a=b", "flags", "---e")),
            Arguments.of("GET http://[::1]:80/ HTTP/1.1\r\n", OK, Map.of("host", "[::1]:80", "uri", "/")),
            Arguments.of("GET http://[v1.fe80::a+en1]/ HTTP/1.1\r\n", OK, Map.of("host", "[v1.fe80::a+en1]")),
            Arguments.of("GET http://[::1%25]/ HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET http://a_b/ HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET http:/x HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET http:x HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET h@p://x/ HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET http://x:8a/ HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("GET http://example.com\r\n", REQUEST, Map.of()),
            Arguments.of("GET 1http://x/ HTTP/1.1\r\n", REQUEST, Map.of()),
            // CONNECT: parsed (the request code refuses it with 405)
            Arguments.of("CONNECT example.com:443 HTTP/1.1\r\n", OK, Map.of("method",
                    String.valueOf(HttpRequest.CONNECT), "host", "example.com:443", "uri", "/", "port", "443")),
            Arguments.of("CONNECT example.com HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("CONNECT /x HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("CONNECT example.com:443/x HTTP/1.1\r\n", REQUEST, Map.of()),
            Arguments.of("CONNECT example.com:443 \r\n", M09, Map.of()));
    }

    @ParameterizedTest
    @MethodSource("lines")
    void parsesAsNginx(String line, int expectedRc, Map<String, String> expected) {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct(line);
        int rc = whole(r, b, HttpParser::parseRequestLine);
        assertEquals(expectedRc, rc, line);
        if (rc == M09) {
            // nginx reaches done: (and moves b->pos past the line) before it checks the 0.9 method
            assertEquals(line.length(), b.position());
            return;
        }
        if (rc != Rc.OK) {
            assertEquals(0, b.position(), "an error leaves the position");
            return;
        }
        assertEquals(line.length(), b.position(), "the position is past the line");
        Map<String, String> found = describe(r, b);
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertEquals(e.getValue(), found.get(e.getKey()), e.getKey() + " of " + line);
        }
    }

    @ParameterizedTest
    @MethodSource("lines")
    void sameResultOneByteAtATime(String line, int expectedRc, Map<String, String> expected) {
        HttpParseState whole = new HttpParseState();
        ByteBuffer b1 = direct(line);
        String all = snapshot(whole, whole(whole, b1, HttpParser::parseRequestLine), b1);

        HttpParseState bytes = new HttpParseState();
        ByteBuffer b2 = direct(line);
        int rc = byteByByte(bytes, b2, HttpParser::parseRequestLine);
        // an error leaves the position where the failing call began: one byte before the bad one
        String fed = snapshot(bytes, rc, b2);
        if (rc == Rc.OK) {
            assertEquals(all, fed, line);
            assertEquals(describe(whole, b1), describe(bytes, b2), line);
        } else {
            assertEquals(expectedRc, rc, line);
        }
    }

    @Test
    void everyMethodHasNginxsBit() {
        List<String> names = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "MKCOL", "COPY", "MOVE", "OPTIONS",
                "PROPFIND", "PROPPATCH", "LOCK", "UNLOCK", "PATCH", "TRACE");
        int[] bits = {HttpRequest.GET, HttpRequest.HEAD, HttpRequest.POST, HttpRequest.PUT, HttpRequest.DELETE,
            HttpRequest.MKCOL, HttpRequest.COPY, HttpRequest.MOVE, HttpRequest.OPTIONS, HttpRequest.PROPFIND,
            HttpRequest.PROPPATCH, HttpRequest.LOCK, HttpRequest.UNLOCK, HttpRequest.PATCH, HttpRequest.TRACE};
        for (int i = 0; i < names.size(); i++) {
            for (boolean oneByOne : new boolean[] {false, true}) {
                HttpParseState r = new HttpParseState();
                ByteBuffer b = direct(names.get(i) + " /x HTTP/1.1\r\n");
                int rc = oneByOne ? byteByByte(r, b, HttpParser::parseRequestLine)
                        : whole(r, b, HttpParser::parseRequestLine);
                assertEquals(Rc.OK, rc, names.get(i));
                assertEquals(bits[i], r.method, names.get(i));
                assertEquals(names.get(i), HttpParser.methodName(r, b));
            }
        }
    }

    @Test
    void theProtocolIsTheBytesSent() {
        // HTTP/1.1 and HTTP/1.0 come back as constants, every other spelling from the bytes
        Map<String, String> protocols = Map.of(
            "GET / HTTP/1.1\r\n", "HTTP/1.1",
            "GET / HTTP/1.0\r\n", "HTTP/1.0",
            "GET / HTTP/1.01\r\n", "HTTP/1.01",
            "GET / HTTP/1.10\r\n", "HTTP/1.10",
            "GET / HTTP/1.9\r\n", "HTTP/1.9",
            "GET / HTTP/1.1  \r\n", "HTTP/1.1  ",
            "GET /\r\n", "");
        for (Map.Entry<String, String> e : protocols.entrySet()) {
            HttpParseState r = new HttpParseState();
            ByteBuffer b = direct(e.getKey());
            assertEquals(Rc.OK, whole(r, b, HttpParser::parseRequestLine), e.getKey());
            assertEquals(e.getValue(), HttpParser.httpProtocol(r, b), e.getKey());
        }
    }

    @Test
    void anUnknownMethodIsItsBytes() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GETS / HTTP/1.1\r\n");
        assertEquals(Rc.OK, whole(r, b, HttpParser::parseRequestLine));
        assertEquals(HttpRequest.UNKNOWN, r.method);
        assertEquals("GETS", HttpParser.methodName(r, b));
    }

    @Test
    void incompleteLinesAnswerAgainAndKeepTheirState() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET /a/b?c HTTP/1.1\r\nHost: x\r\n\r\n");
        b.limit(7);
        assertEquals(Rc.AGAIN, HttpParser.parseRequestLine(r, b));
        assertEquals(7, b.position());
        assertEquals(4, r.uriStart);
        b.limit(b.capacity());
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(21, b.position(), "stops after the LF, leaving the headers");
        assertEquals(0, r.state);
        assertEquals("GET /a/b?c HTTP/1.1", HttpParser.requestLine(r, b));
    }

    @Test
    void emptyLinesAloneAreNotARequestYet() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("\r\n\r\n");
        assertEquals(Rc.AGAIN, HttpParser.parseRequestLine(r, b));
        assertEquals(4, b.position());
    }

    @Test
    void movedLineParsesOnInALargerBuffer() {
        // nginx's ngx_http_alloc_large_header_buffer(): copy the unfinished line, shift the pointers
        String line = "GET http://h:1/abc.d?e HTTP/1.1\r\n";
        HttpParseState r = new HttpParseState();
        ByteBuffer small = direct("\r\n" + line.substring(0, 20));
        assertEquals(Rc.AGAIN, HttpParser.parseRequestLine(r, small));
        ByteBuffer large = ByteBuffer.allocateDirect(100);
        large.position(10);
        large.put(direct("\r\n" + line).position(r.requestStart));
        large.flip().position(10 + small.position() - r.requestStart);
        r.moveRequestLine(10 - r.requestStart);
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, large));
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, large, true));
        assertEquals("/abc.d", r.uri);
        assertEquals("e", r.args);
        assertEquals("d", r.exten);
        assertEquals("h:1", HttpParser.string(large, r.hostStart, r.hostEnd));
        assertEquals("GET http://h:1/abc.d?e HTTP/1.1", HttpParser.requestLine(r, large));
    }

    @Test
    void resetStartsTheNextRequestAfresh() {
        HttpParseState r = new HttpParseState();
        ByteBuffer b = direct("GET http://x/a%20b.c?d HTTP/1.1\r\nGET /\r\n");
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
        r.reset();
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
        assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
        assertEquals(HttpRequest.VERSION_9, r.httpVersion);
        assertEquals("/", r.uri);
        assertEquals("", r.args);
        assertEquals("", r.exten);
        assertEquals(HttpParseState.NONE, r.hostStart);
    }

    @Test
    void thousandPipelinedRequestsInOneBuffer() {
        StringBuilder packet = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            packet.append(i % 2 == 0 ? "GET" : "HEAD").append(" /r/").append(i).append("?n=").append(i)
                    .append(" HTTP/1.1\r\nHost: h\r\nX-N: ").append(i).append("\r\n\r\n");
        }
        ByteBuffer b = direct(packet.toString());
        HttpParseState r = new HttpParseState();
        for (int i = 0; i < 1000; i++) {
            r.reset();
            assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b));
            assertEquals(Rc.OK, HttpParser.processRequestUri(r, b, true));
            assertEquals(i % 2 == 0 ? HttpRequest.GET : HttpRequest.HEAD, r.method);
            assertEquals("/r/" + i, r.uri);
            assertEquals(String.valueOf(i), HttpParser.arg(r.args, "n"));
            int rc;
            String last = null;
            while ((rc = HttpParser.parseHeaderLine(r, b, false)) == Rc.OK) {
                last = HttpParser.headerValue(r, b);
            }
            assertEquals(HttpParser.PARSE_HEADER_DONE, rc);
            assertEquals(String.valueOf(i), last);
        }
        assertEquals(b.limit(), b.position());
    }

    /** The request's pieces as the request code would take them, after {@code processRequestUri}. */
    static Map<String, String> describe(HttpParseState r, ByteBuffer b) {
        Map<String, String> m = new HashMap<>();
        m.put("method", String.valueOf(r.method));
        m.put("methodName", HttpParser.methodName(r, b));
        m.put("v", String.valueOf(r.httpVersion));
        m.put("line", HttpParser.requestLine(r, b));
        m.put("proto", HttpParser.httpProtocol(r, b));
        m.put("flags", (r.complexUri ? "c" : "-") + (r.quotedUri ? "q" : "-") + (r.plusInUri ? "p" : "-")
                + (r.emptyPathInUri ? "e" : "-"));
        if (r.schemaEnd != HttpParseState.NONE) {
            m.put("schema", HttpParser.string(b, r.schemaStart, r.schemaEnd));
        }
        if (r.hostEnd != HttpParseState.NONE) {
            m.put("host", HttpParser.string(b, r.hostStart, r.hostEnd));
        }
        if (r.portEnd != HttpParseState.NONE) {
            m.put("port", HttpParser.string(b, r.portStart, r.portEnd));
        }
        if (HttpParser.processRequestUri(r, b, true) != Rc.OK) {
            m.put("uri", "INVALID");
            return m;
        }
        m.put("uri", r.uri);
        m.put("args", r.args);
        m.put("exten", r.exten);
        m.put("unparsed", r.unparsedUri);
        return m;
    }
}
