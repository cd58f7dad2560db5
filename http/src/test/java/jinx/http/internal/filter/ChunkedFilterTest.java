package jinx.http.internal.filter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ChunkedFilterModule}: when a response goes chunked, and the bytes of several bodies, without a socket.
 */
@Timeout(10)
class ChunkedFilterTest {

    private FakeRequest r;
    private final StringBuilder wire = new StringBuilder();
    private final List<Buf> passed = new ArrayList<>();
    private boolean lastSeen;
    private int headerCalls;

    @BeforeEach
    void setUp() throws Exception {
        r = FakeRequest.onSocketPair();
        r.writer = new WriteFilterModule(FakeRequest.WRITE_CTX);
    }

    @AfterEach
    void tearDown() {
        r.close();
    }

    private int header() {
        return ChunkedFilterModule.headerFilter(r, req -> {
            headerCalls++;
            return Rc.OK;
        });
    }

    /** Runs the body filter and records what it passes on, as the wire would carry it. */
    private int body(Buf... bufs) {
        BufChain in = null;
        for (int i = bufs.length - 1; i >= 0; i--) {
            in = new BufChain(bufs[i], in);
        }
        return ChunkedFilterModule.bodyFilter(r, in, (req, out) -> {
            for (BufChain cl = out; cl != null; cl = cl.next) {
                Buf b = cl.buf;
                passed.add(b);
                lastSeen |= b.last;
                if (b.inMemory()) {
                    ByteBuffer m = b.mem.duplicate();
                    while (m.hasRemaining()) {
                        wire.append((char) (m.get() & 0xff));
                    }
                } else if (b.inFile) {
                    wire.append("<file ").append(b.fileLast - b.filePos).append('>');
                }
            }
            return Rc.OK;
        });
    }

    private static Buf mem(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, s.length()));
        b.put(s.getBytes(StandardCharsets.ISO_8859_1)).flip();
        return Buf.of(b);
    }

    private static Buf last() {
        Buf b = new Buf();
        b.last = true;
        return b;
    }

    /* ---- the header filter ---- */

    @Test
    void http11WithoutLengthGoesChunked() {
        assertEquals(Rc.OK, header());
        assertTrue(r.chunked);
        assertTrue(r.keepalive);
        assertEquals(1, headerCalls);
    }

    @Test
    void aKnownLengthIsNotChunked() {
        r.headersOut.contentLengthN = 10;
        header();
        assertFalse(r.chunked);
        assertTrue(r.keepalive);
    }

    @Test
    void http10WithoutLengthClosesTheConnection() {
        r.httpVersion = HttpRequest.VERSION_10;
        header();
        assertFalse(r.chunked);
        assertFalse(r.keepalive);
    }

    @Test
    void chunkedTransferEncodingOffClosesTheConnection() {
        r.clcf.chunkedTransferEncoding = 0;
        header();
        assertFalse(r.chunked);
        assertFalse(r.keepalive);
    }

    @Test
    void aRequestThatForbidsChunkedClosesTheConnection() {
        r.chunkedAllowed = false;
        header();
        assertFalse(r.chunked);
        assertFalse(r.keepalive);
    }

    @Test
    void headerOnlyResponsesAreLeftAlone() {
        for (int status : new int[] {204, 304, 101}) {
            r.headersOut.status = status;
            header();
            assertFalse(r.chunked, "status " + status);
            assertTrue(r.keepalive, "status " + status);
        }
        r.headersOut.status = 200;
        r.method = HttpRequest.HEAD;
        header();
        assertFalse(r.chunked);
        assertTrue(r.keepalive);
    }

    /* ---- the body filter ---- */

    @Test
    void oneBufferWithLast() {
        r.chunked = true;
        Buf hello = mem("hello");
        hello.last = true;
        assertEquals(Rc.OK, body(hello));
        assertEquals("5\r\nhello\r\n0\r\n\r\n", wire.toString());
        assertTrue(lastSeen);
        assertFalse(hello.last, "the last flag moves to the trailer");
    }

    @Test
    void severalCallsThenALastBufferAlone() {
        r.chunked = true;
        body(mem("abc"));
        body(mem("de"), mem("fghij"));
        assertFalse(lastSeen);
        body(last());
        assertEquals("3\r\nabc\r\n7\r\ndefghij\r\n0\r\n\r\n", wire.toString());
        assertTrue(lastSeen);
    }

    @Test
    void sizesAreLowerCaseHex() {
        r.chunked = true;
        body(mem("x".repeat(4096)));
        body(mem("y".repeat(171)));
        assertTrue(wire.toString().startsWith("1000\r\n"), wire.substring(0, 8));
        assertTrue(wire.toString().contains("\r\nab\r\nyyy"), "171 is ab");
    }

    @Test
    void anEmptyBodyIsTheLastChunkOnly() {
        r.chunked = true;
        body(last());
        assertEquals("0\r\n\r\n", wire.toString());
    }

    @Test
    void aFlushWithoutDataMakesNoChunk() {
        r.chunked = true;
        Buf flush = new Buf();
        flush.flush = true;
        body(flush);
        assertEquals("", wire.toString());
        assertEquals(1, passed.size());
        assertSame(flush, passed.get(0));
    }

    @Test
    void fileBuffersCountInTheChunkSize() {
        r.chunked = true;
        Buf file = new Buf();
        file.inFile = true;
        file.fileFd = 99;
        file.filePos = 100;
        file.fileLast = 356;
        Buf head = mem("<h>");
        file.last = false;
        Buf end = last();
        body(head, file, end);
        assertEquals("103\r\n<h><file 256>\r\n0\r\n\r\n", wire.toString());
    }

    @Test
    void notChunkedPassesThrough() {
        Buf b = mem("raw");
        b.last = true;
        body(b);
        assertEquals("raw", wire.toString());
        assertTrue(b.last);
    }

    @Test
    void headerOnlyPassesThrough() {
        r.chunked = true;
        r.headerOnly = true;
        body(mem("raw"));
        assertEquals("raw", wire.toString());
    }

    @Test
    void nullPassesThrough() {
        r.chunked = true;
        boolean[] called = {false};
        ChunkedFilterModule.bodyFilter(r, null, (req, out) -> {
            called[0] = true;
            assertNull(out);
            return Rc.AGAIN;
        });
        assertTrue(called[0]);
    }

    @Test
    void chunkedThroughTheWriteFilterOverTheSocket() throws Exception {
        r.chunked = true;
        Buf a = mem("hello ");
        Buf b = mem("world");
        assertEquals(Rc.OK, ChunkedFilterModule.bodyFilter(r, new BufChain(a, BufChain.of(b)),
                                                            r.writer::write));
        assertEquals("", r.peerRead(), "postponed: 20 bytes are below postpone_output");
        assertEquals(Rc.OK, ChunkedFilterModule.bodyFilter(r, BufChain.of(last()), r.writer::write));
        assertEquals("b\r\nhello world\r\n0\r\n\r\n", r.peerRead());
    }
}
