package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * nginx's checks of the request line and header: each bad request gets nginx's status and an info line in
 * nginx's words.
 */
class HeaderValidationTest {

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n}\n"
            + "server {\n listen 127.0.0.1:8080;\n server_name under;\n underscores_in_headers on;\n"
            + " ignore_invalid_headers off;\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    private Responses.Response send(String request) throws Exception {
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, request, 1);
            return Responses.split(raw).get(0);
        }
    }

    private void assertLogged(String line) {
        assertTrue(f.log().contains("[info] ") && f.log().contains(line), f.log());
    }

    @Test
    @Timeout(20)
    void duplicateHost() throws Exception {
        assertEquals(400, send("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").status());
        assertLogged("client sent duplicate host header: \"Host: b\", previous value: \"Host: a\" while reading "
            + "client request headers");
    }

    @Test
    @Timeout(20)
    void duplicateContentLength() throws Exception {
        assertEquals(400, send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx")
            .status());
        assertLogged("client sent duplicate header line: \"Content-Length: 1\", previous value: "
            + "\"Content-Length: 1\"");
    }

    @Test
    @Timeout(20)
    void contentLengthAndTransferEncoding() throws Exception {
        assertEquals(400, send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n").status());
        assertLogged("client sent \"Content-Length\" and \"Transfer-Encoding\" headers at the same time");
    }

    @Test
    @Timeout(20)
    void unknownTransferEncodingIs501() throws Exception {
        Responses.Response r = send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n");
        assertEquals("HTTP/1.1 501 Not Implemented", r.statusLine());
        assertEquals("close", r.header("Connection"));
        assertLogged("client sent unknown \"Transfer-Encoding\": \"gzip\"");
    }

    /**
     * Issue #36: a tab around a value is part of it, as in released nginx (Debian's 1.22): "\tchunked" is an
     * unknown coding (501 and close, so the body's second request is never served), "\t40" no length, a host with
     * a tab invalid. Trimming tabs framed these requests differently from nginx: a smuggling hole behind a proxy.
     */
    @Test
    @Timeout(20)
    void tabsAroundValuesAreNotWhitespace() throws Exception {
        String smuggled = "0\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n";
        for (String te : new String[] {"Transfer-Encoding:\tchunked", "Transfer-Encoding: chunked\t",
            "Transfer-Encoding: \tchunked"}) {
            try (LocalConnection lc = f.connect()) {
                String raw = f.exchange(lc, "POST /echo HTTP/1.1\r\nHost: a\r\n" + te + "\r\n\r\n" + smuggled, 1);
                java.util.List<Responses.Response> all = Responses.split(raw);
                assertEquals(1, all.size(), raw);
                assertEquals("HTTP/1.1 501 Not Implemented", all.get(0).statusLine(), te);
                assertEquals("close", all.get(0).header("Connection"), te);
            }
        }
        assertLogged("client sent unknown \"Transfer-Encoding\": \"\tchunked\"");
        assertEquals(400, send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length:\t4\r\n\r\nabcd").status());
        assertEquals(400, send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\t\r\n\r\nabcd").status());
        assertEquals(400, send("GET / HTTP/1.1\r\nHost: \tlocalhost\r\n\r\n").status());
        assertEquals(400, send("GET / HTTP/1.1\r\nHost:\tlocalhost\r\n\r\n").status());
        assertEquals(400, send("GET / HTTP/1.1\r\nHost: localhost\t\r\n\r\n").status());
        // spaces are still trimmed
        assertEquals("HTTP/1.1 501 Not Implemented",
            send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:  gzip  \r\n\r\n").statusLine());
    }

    @Test
    @Timeout(20)
    void transferEncodingInHttp10() throws Exception {
        assertEquals(400, send("POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n").status());
        assertLogged("client sent HTTP/1.0 request with \"Transfer-Encoding\" header");
    }

    @Test
    @Timeout(20)
    void invalidContentLength() throws Exception {
        assertEquals(400, send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n").status());
        assertLogged("client sent invalid \"Content-Length\" header");
    }

    @Test
    @Timeout(20)
    void invalidHost() throws Exception {
        assertEquals(400, send("GET / HTTP/1.1\r\nHost: a..b\r\n\r\n").status());
        assertLogged("client sent invalid host header");
    }

    @Test
    @Timeout(20)
    void invalidHostInRequestLine() throws Exception {
        assertEquals(400, send("GET http://a/b/../../../x HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals(400, send("GET http://a..b/ HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertLogged("client sent invalid host in request line");
    }

    @Test
    @Timeout(20)
    void traceIs405() throws Exception {
        Responses.Response r = send("TRACE / HTTP/1.1\r\nHost: a\r\n\r\n");
        assertEquals("HTTP/1.1 405 Not Allowed", r.statusLine());
        assertLogged("client sent TRACE method");
    }

    @Test
    @Timeout(20)
    void connectIs405() throws Exception {
        assertEquals(405, send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n").status());
        assertLogged("client sent CONNECT method");
    }

    @Test
    @Timeout(20)
    void invalidMethod() throws Exception {
        assertEquals(400, send("get / HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertLogged("client sent invalid method while reading client request line");
    }

    @Test
    @Timeout(20)
    void http2VersionIs505() throws Exception {
        Responses.Response r = send("GET / HTTP/2.0\r\nHost: a\r\n\r\n");
        assertEquals("HTTP/1.1 505 HTTP Version Not Supported", r.statusLine());
        assertLogged("client sent invalid version");
    }

    @Test
    @Timeout(20)
    void invalidHeaderLineIsIgnored() throws Exception {
        Responses.Response r = send("GET /echo HTTP/1.1\r\nHost: localhost\r\nX@Y: 1\r\nX_Under: 2\r\n\r\n");
        assertEquals(200, r.status());
        assertLogged("client sent invalid header line: \"X@Y: 1\" while reading client request headers");
        assertLogged("client sent invalid header line: \"X_Under: 2\"");
    }

    @Test
    @Timeout(20)
    void badHeaderByteIs400() throws Exception {
        assertEquals(400, send("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-A: a\u0000b\r\n\r\n").status());
        assertLogged("client sent invalid header line: \"X-A: a\\x00...\"");
    }

    @Test
    @Timeout(20)
    void underscoresAllowedOnTheServerThatSaysSo() throws Exception {
        Responses.Response r = send("GET /echo HTTP/1.1\r\nHost: under\r\nX_Under: 2\r\n\r\n");
        assertEquals(200, r.status());
        assertTrue(!f.log().contains("invalid header line"), f.log());
    }

    @Test
    @Timeout(20)
    void http09GetsTheBodyOnly() throws Exception {
        try (LocalConnection lc = f.connect()) {
            lc.send("GET /echo/nine\r\n");
            f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc));
            assertEquals("uri=/echo/nine args=\n", lc.received());
        }
    }

    @Test
    @Timeout(20)
    void http09PostIsRefused() throws Exception {
        try (LocalConnection lc = f.connect()) {
            lc.send("POST /echo\r\n");
            f.turnUntil(2000, () -> SocketlessRequestTest.closed(lc));
            assertTrue(lc.received().startsWith("<html>\r\n<head><title>400 Bad Request"), lc.received());
            assertLogged("client sent invalid method in HTTP/0.9 request");
        }
    }

    @Test
    @Timeout(5)
    void validateHost() {
        assertEquals("example.com", RequestHeaders.validateHost("Example.COM."));
        assertEquals("example.com", RequestHeaders.validateHost("example.com:8080"));
        assertEquals("[::1]", RequestHeaders.validateHost("[::1]:80"));
        assertNull(RequestHeaders.validateHost(""));
        assertNull(RequestHeaders.validateHost("."));
        assertNull(RequestHeaders.validateHost("a..b"));
        assertNull(RequestHeaders.validateHost("a/b"));
        assertNull(RequestHeaders.validateHost("a b"));
        assertNull(RequestHeaders.validateHost("a\u007fb"));
        assertNull(RequestHeaders.validateHost(":80"));
        // nginx 1.29.4's host and port state machine (issue #36), and what it still accepts (nginx-tests' hosts)
        for (String bad : new String[] {"123.49.0.78:98777", "123.40.56.78:9000:80", "[::1", "a[::1]", "[::1].",
            "example.com.:1.2", "[::1]x", "a]b", "example.com:8o", "[abcd::e\\f98:0/:7654:321]",
            "[abcd::ef98:0:7654:321]..:98", "[ab..cd::ef98:0:7654:321]", "..examp-LE.com"}) {
            assertNull(RequestHeaders.validateHost(bad), bad);
        }
        assertEquals("123.49.0.78", RequestHeaders.validateHost("123.49.0.78:65535"));
        assertEquals("abcd-ef.g02.xyz", RequestHeaders.validateHost("abcd-ef.g02.xyz.:88"));
        assertEquals("[abcd::ef98:0:7654:321]", RequestHeaders.validateHost("[abcd::ef98:0:7654:321]:80"));
        assertEquals("[::ffff:12.30.67.89]", RequestHeaders.validateHost("[::ffff:12.30.67.89]"));
        assertEquals("[v0123456789abcdef.!$&'()*+,;=-._~az09:]",
            RequestHeaders.validateHost("[v0123456789aBcDeF.!$&'()*+,;=-._~aZ09:]"));
        assertEquals("localhost", RequestHeaders.validateHost("localhost:"));
    }

    /** Issue #36: the hosts nginx 1.29.4 refuses, in a Host header and in an absolute request line. */
    @Test
    @Timeout(20)
    void hostsWithBadPortsOrLiteralsAre400() throws Exception {
        for (String bad : new String[] {"123.49.0.78:98777", "123.40.56.78:9000:80", "[::1", "a[::1]", "[::1].",
            "example.com.:1.2"}) {
            assertEquals(400, send("GET / HTTP/1.1\r\nHost: " + bad + "\r\n\r\n").status(), bad);
        }
        assertLogged("client sent invalid host header");
        assertEquals(400, send("GET http://123.49.0.78:98777/ HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertEquals(400, send("GET http://[::1]./ HTTP/1.1\r\nHost: a\r\n\r\n").status());
        assertLogged("client sent invalid host in request line");
        assertEquals(404, send("GET /nothing HTTP/1.1\r\nHost: 123.49.0.78:65535\r\n\r\n").status());
    }

    @Test
    @Timeout(5)
    void parseOffset() {
        assertEquals(0, RequestHeaders.parseOffset("0"));
        assertEquals(Long.MAX_VALUE, RequestHeaders.parseOffset("9223372036854775807"));
        assertEquals(-1, RequestHeaders.parseOffset("9223372036854775808"));
        assertEquals(-1, RequestHeaders.parseOffset(""));
        assertEquals(-1, RequestHeaders.parseOffset("1 "));
        assertEquals(-1, RequestHeaders.parseOffset("+1"));
    }
}
