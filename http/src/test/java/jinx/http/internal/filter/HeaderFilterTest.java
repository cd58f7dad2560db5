package jinx.http.internal.filter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;
import jinx.kernel.os.SockAddr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HeaderFilterModule}: the exact bytes of the status line and headers for many responses, in nginx's order,
 * without a socket (the header's buffer is caught where the write filter would take it).
 */
@Timeout(10)
class HeaderFilterTest {

    private FakeRequest r;
    private String sent;
    private Buf sentBuf;
    private int calls;
    private HeaderFilterModule filter;

    @BeforeEach
    void setUp() throws Exception {
        r = FakeRequest.onSocketPair();
        r.writer = new WriteFilterModule(FakeRequest.WRITE_CTX);
        filter = new HeaderFilterModule("1.2.3", r.writer, (req, in) -> {
            calls++;
            sentBuf = in.buf;
            ByteBuffer m = in.buf.mem.duplicate();
            byte[] b = new byte[m.remaining()];
            m.get(b);
            sent = new String(b, StandardCharsets.ISO_8859_1);
            assertNull(in.next);
            return Rc.OK;
        });
    }

    @AfterEach
    void tearDown() {
        r.close();
    }

    /** The header with its Date line's value replaced by {@code X}. */
    private String header() {
        assertEquals(Rc.OK, filter.filter(r));
        assertTrue(r.headerSent);
        return sent.replaceFirst("\r\nDate: [^\r]*\r\n", "\r\nDate: X\r\n");
    }

    @Test
    void fullResponseInNginxOrder() {
        r.headersOut.contentType = "text/html";
        r.headersOut.contentLengthN = 612;
        r.headersOut.lastModifiedTime = 1_700_000_000L;
        r.headersOut.etag = r.headersOut.headers.add("ETag", "\"6553f100-264\"");
        r.headersOut.acceptRanges = r.headersOut.headers.add("Accept-Ranges", "bytes");
        assertEquals("HTTP/1.1 200 OK\r\n"
                     + "Server: jinx/1.2.3\r\n"
                     + "Date: X\r\n"
                     + "Content-Type: text/html\r\n"
                     + "Content-Length: 612\r\n"
                     + "Last-Modified: Tue, 14 Nov 2023 22:13:20 GMT\r\n"
                     + "Connection: keep-alive\r\n"
                     + "ETag: \"6553f100-264\"\r\n"
                     + "Accept-Ranges: bytes\r\n"
                     + "\r\n", header());
        assertFalse(sentBuf.last);
        assertEquals(sent.length(), r.writer.output(r).headerSize());
    }

    @Test
    void dateIsTheLoopsCachedHttpTime() {
        header();
        assertTrue(sent.contains("\r\nDate: " + r.loop.httpTime() + "\r\n"), sent);
        assertTrue(r.loop.httpTime().matches("[A-Z][a-z]{2}, \\d\\d [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d GMT"));
    }

    @Test
    void serverTokensOff() {
        r.clcf.serverTokens = HttpCoreLocConf.SERVER_TOKENS_OFF;
        assertTrue(header().startsWith("HTTP/1.1 200 OK\r\nServer: jinx\r\nDate: X\r\n"), sent);
    }

    @Test
    void keepAliveHeaderWhenKeepaliveTimeoutHasOne() {
        r.clcf.keepaliveHeader = 60;
        assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\nDate: X\r\n"
                     + "Connection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n", header());
    }

    @Test
    void connectionCloseHasNoKeepAliveHeader() {
        r.clcf.keepaliveHeader = 60;
        r.keepalive = false;
        assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\nDate: X\r\nConnection: close\r\n\r\n", header());
    }

    @Test
    void http10RequestGetsAnHttp11StatusLine() {
        r.httpVersion = HttpRequest.VERSION_10;
        r.keepalive = false;
        r.headersOut.contentLengthN = 0;
        assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\nDate: X\r\nContent-Length: 0\r\n"
                     + "Connection: close\r\n\r\n", header());
    }

    @Test
    void http09HasNoHeader() {
        r.httpVersion = HttpRequest.VERSION_9;
        assertEquals(Rc.OK, filter.filter(r));
        assertTrue(r.headerSent);
        assertEquals(0, calls);
    }

    @Test
    void headerIsSentOnce() {
        header();
        assertEquals(Rc.OK, filter.filter(r));
        assertEquals(1, calls);
    }

    @Test
    void headIsHeaderOnlyAndTheBufferIsLast() {
        r.method = HttpRequest.HEAD;
        r.headersOut.contentType = "text/plain";
        r.headersOut.contentLengthN = 10;
        assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\nDate: X\r\nContent-Type: text/plain\r\n"
                     + "Content-Length: 10\r\nConnection: keep-alive\r\n\r\n", header());
        assertTrue(r.headerOnly);
        assertTrue(sentBuf.last);
    }

    @Test
    void noContentDropsTypeLengthAndLastModified() {
        r.headersOut.status = 204;
        r.headersOut.contentType = "text/plain";
        r.headersOut.contentLengthN = 10;
        r.headersOut.lastModifiedTime = 1_700_000_000L;
        assertEquals("HTTP/1.1 204 No Content\r\nServer: jinx/1.2.3\r\nDate: X\r\nConnection: keep-alive\r\n\r\n",
                     header());
        assertTrue(r.headerOnly);
        assertTrue(sentBuf.last);
    }

    @Test
    void notModifiedKeepsLastModifiedAndIsHeaderOnly() {
        r.headersOut.status = 304;
        r.headersOut.lastModifiedTime = 0;
        r.headersOut.headers.add("ETag", "\"x\"");
        assertEquals("HTTP/1.1 304 Not Modified\r\nServer: jinx/1.2.3\r\nDate: X\r\n"
                     + "Last-Modified: Thu, 01 Jan 1970 00:00:00 GMT\r\nConnection: keep-alive\r\n"
                     + "ETag: \"x\"\r\n\r\n", header());
        assertTrue(r.headerOnly);
    }

    @Test
    void errorStatusDropsLastModified() {
        r.headersOut.status = 404;
        r.headersOut.lastModifiedTime = 1_700_000_000L;
        r.headersOut.contentType = "text/html";
        r.headersOut.contentLengthN = 153;
        assertEquals("HTTP/1.1 404 Not Found\r\nServer: jinx/1.2.3\r\nDate: X\r\nContent-Type: text/html\r\n"
                     + "Content-Length: 153\r\nConnection: keep-alive\r\n\r\n", header());
        assertEquals(-1, r.headersOut.lastModifiedTime);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
        "200|200 OK", "201|201 Created", "202|202 Accepted", "203|203 ", "204|204 No Content", "205|205 ",
        "206|206 Partial Content", "207|207 ", "300|300 ", "301|301 Moved Permanently",
        "302|302 Moved Temporarily", "303|303 See Other", "304|304 Not Modified", "305|305 ",
        "307|307 Temporary Redirect", "308|308 Permanent Redirect", "309|309 ", "400|400 Bad Request",
        "401|401 Unauthorized", "402|402 Payment Required", "403|403 Forbidden", "404|404 Not Found",
        "405|405 Not Allowed", "406|406 Not Acceptable", "407|407 ", "408|408 Request Time-out",
        "409|409 Conflict", "410|410 Gone", "411|411 Length Required", "412|412 Precondition Failed",
        "413|413 Request Entity Too Large", "414|414 Request-URI Too Large", "415|415 Unsupported Media Type",
        "416|416 Requested Range Not Satisfiable", "417|417 ", "421|421 Misdirected Request", "422|422 ",
        "429|429 Too Many Requests", "430|430 ", "444|444 ", "494|494 ", "499|499 ",
        "500|500 Internal Server Error", "501|501 Not Implemented", "502|502 Bad Gateway",
        "503|503 Service Temporarily Unavailable", "504|504 Gateway Time-out",
        "505|505 HTTP Version Not Supported", "506|506 ", "507|507 Insufficient Storage", "508|508 ",
        "100|100 ", "101|101 ", "199|199 ", "600|600 ", "42|042 ", "0|000 ", "1000|1000 "})
    void statusLinesAreNginxs(int status, String line) {
        assertEquals(line, StatusLines.line(status));
        r.headersOut.status = status;
        String h = header();
        assertTrue(h.startsWith("HTTP/1.1 " + line + "\r\nServer: "), h);
    }

    @Test
    void statusLineOverride() {
        r.headersOut.status = 200;
        r.headersOut.statusLine = "299 Custom Thing";
        assertTrue(header().startsWith("HTTP/1.1 299 Custom Thing\r\n"), sent);
    }

    @Test
    void switchingProtocolsSaysConnectionUpgrade() {
        r.headersOut.status = 101;
        r.headersOut.headers.add("Upgrade", "websocket");
        assertEquals("HTTP/1.1 101 \r\nServer: jinx/1.2.3\r\nDate: X\r\nConnection: upgrade\r\n"
                     + "Upgrade: websocket\r\n\r\n", header());
    }

    @Test
    void charsetIsAppendedToAPlainType() {
        r.headersOut.contentType = "text/html";
        r.headersOut.charset = "utf-8";
        assertTrue(header().contains("\r\nContent-Type: text/html; charset=utf-8\r\n"), sent);
        assertEquals("text/html", r.headersOut.contentType, "the variables append the charset themselves");
    }

    @Test
    void charsetIsNotAppendedToATypeWithParameters() {
        r.headersOut.contentType = "text/html; charset=koi8-r";
        r.headersOut.charset = "utf-8";
        assertTrue(header().contains("\r\nContent-Type: text/html; charset=koi8-r\r\n"), sent);
    }

    @Test
    void chunkedResponseSaysSo() {
        r.chunked = true;
        r.headersOut.contentType = "text/plain";
        assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\nDate: X\r\nContent-Type: text/plain\r\n"
                     + "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n", header());
    }

    @Test
    void removedHeadersAreNotSent() {
        r.headersOut.headers.add("X-A", "1");
        r.headersOut.headers.add("X-B", "2").removed = true;
        r.headersOut.headers.add("X-C", "3");
        assertTrue(header().endsWith("Connection: keep-alive\r\nX-A: 1\r\nX-C: 3\r\n\r\n"), sent);
    }

    /* ---- Location ---- */

    private void redirect(String location) {
        r.headersOut.status = 301;
        r.headersOut.contentType = "text/html";
        r.headersOut.contentLengthN = 169;
        r.headersOut.headers.add("X-Before", "b");
        r.headersOut.location = r.headersOut.headers.add("Location", location);
        r.headersOut.headers.add("X-After", "a");
    }

    private void listenOn(String address) {
        r.c.listening = new jinx.kernel.Listening(SockAddr.parse(address));
    }

    @Test
    void relativeLocationIsMadeAbsoluteWithHostAndPort() {
        listenOn("127.0.0.1:8080");
        r.headersIn.server = "example.com";
        redirect("/dir/");
        assertEquals("HTTP/1.1 301 Moved Permanently\r\nServer: jinx/1.2.3\r\nDate: X\r\n"
                     + "Content-Type: text/html\r\nContent-Length: 169\r\n"
                     + "Location: http://example.com:8080/dir/\r\n"
                     + "Connection: keep-alive\r\nX-Before: b\r\nX-After: a\r\n\r\n", header());
        assertEquals("http://example.com:8080/dir/", r.headersOut.location.value);
    }

    @Test
    void port80IsLeftOut() {
        listenOn("127.0.0.1:80");
        r.headersIn.server = "example.com";
        redirect("/dir/");
        assertTrue(header().contains("\r\nLocation: http://example.com/dir/\r\n"), sent);
    }

    @Test
    void portInRedirectOff() {
        listenOn("127.0.0.1:8080");
        r.headersIn.server = "example.com";
        r.clcf.portInRedirect = 0;
        redirect("/dir/");
        assertTrue(header().contains("\r\nLocation: http://example.com/dir/\r\n"), sent);
    }

    @Test
    void serverNameInRedirect() {
        listenOn("127.0.0.1:8080");
        r.headersIn.server = "example.com";
        r.clcf.serverNameInRedirect = 1;
        r.cscf.serverName = "canonical.example";
        redirect("/dir/");
        assertTrue(header().contains("\r\nLocation: http://canonical.example:8080/dir/\r\n"), sent);
    }

    @Test
    void withoutHostTheLocalAddressIsTheHost() {
        listenOn("127.0.0.1:8080");
        r.httpVersion = HttpRequest.VERSION_10;
        redirect("/dir/");
        assertTrue(header().contains("\r\nLocation: http://127.0.0.1:8080/dir/\r\n"), sent);
    }

    @Test
    void absoluteRedirectOffKeepsTheLocationInListOrder() {
        listenOn("127.0.0.1:8080");
        r.clcf.absoluteRedirect = 0;
        redirect("/dir/");
        assertTrue(header().endsWith("Connection: keep-alive\r\nX-Before: b\r\nLocation: /dir/\r\nX-After: a\r\n\r\n"),
                   sent);
    }

    @Test
    void absoluteLocationStaysInListOrder() {
        redirect("https://elsewhere.example/x");
        assertEquals("HTTP/1.1 301 Moved Permanently\r\nServer: jinx/1.2.3\r\nDate: X\r\n"
                     + "Content-Type: text/html\r\nContent-Length: 169\r\n"
                     + "Connection: keep-alive\r\nX-Before: b\r\nLocation: https://elsewhere.example/x\r\n"
                     + "X-After: a\r\n\r\n", header());
    }

    @Test
    void locationOnlyInTheFieldComesFirstAmongTheRest() {
        r.headersOut.status = 302;
        r.headersOut.headers.add("X-A", "1");
        jinx.http.HttpHeaders other = new jinx.http.HttpHeaders();
        r.headersOut.location = other.add("Location", "http://a.example/");
        assertTrue(header().endsWith("Connection: keep-alive\r\nLocation: http://a.example/\r\nX-A: 1\r\n\r\n"),
                   sent);
    }

    @Test
    void theHeaderGoesToTheWriteFilterOverTheSocket() throws Exception {
        HeaderFilterModule real = new HeaderFilterModule("1.2.3", r.writer, r.writer::write);
        r.method = HttpRequest.HEAD;
        r.headersOut.contentLengthN = 3;
        assertEquals(Rc.OK, real.filter(r));
        String got = r.peerRead();
        assertTrue(got.startsWith("HTTP/1.1 200 OK\r\nServer: jinx/1.2.3\r\n"), got);
        assertTrue(got.endsWith("Content-Length: 3\r\nConnection: keep-alive\r\n\r\n"), got);
        assertEquals(got.length(), r.c.sent);
        assertFalse(r.writer.output(r).pending());
    }

    @Test
    void aSmallHeaderWaitsForTheBody() throws Exception {
        HeaderFilterModule real = new HeaderFilterModule("1.2.3", r.writer, r.writer::write);
        r.headersOut.contentLengthN = 2;
        assertEquals(Rc.OK, real.filter(r));
        assertEquals("", r.peerRead(), "postpone_output holds a header without its body");
        Buf body = Buf.of(ByteBuffer.allocateDirect(2).put((byte) 'h').put((byte) 'i').flip());
        body.last = true;
        assertEquals(Rc.OK, r.writer.write(r, BufChain.of(body)));
        String got = r.peerRead();
        assertTrue(got.endsWith("\r\n\r\nhi"), got);
    }
}
