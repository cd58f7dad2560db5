package jinx.http.internal.io;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HttpRequestBody#discardRequestBody}: what came with the header is dropped at once, the rest as it comes
 * (the request keeping a reference meanwhile), chunked bodies byte by byte, and the ends: timeouts, lingering
 * time, a client that goes away.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(20)
class DiscardBodyTest {

    private BodyFixture f;

    @BeforeEach
    void setUp() throws Exception {
        f = new BodyFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.close();
    }

    private int discard() {
        return HttpRequestBody.discardRequestBody(f.r);
    }

    private String left() {
        ByteBuffer b = f.r.headerIn.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void noBodyIsNothingToDo() {
        assertEquals(Rc.OK, discard());
        assertFalse(f.r.discardBody);
        assertEquals(1, f.r.count);
    }

    @Test
    void aBodyReadWithTheHeaderIsDroppedAndThePipelinedRequestKept() {
        f.contentLength(5);
        f.preread("helloGET / HTTP/1.1\r\n");
        assertEquals(Rc.OK, discard());
        assertFalse(f.r.discardBody);
        assertEquals(0, f.r.headersIn.contentLengthN);
        assertEquals("GET / HTTP/1.1\r\n", left());
    }

    @Test
    void theRestIsReadFromTheSocketWhenItIsThere() throws Exception {
        f.contentLength(10);
        f.preread("abc");
        f.r.lingeringClose = true;
        f.send("defghij");
        assertEquals(Rc.OK, discard());
        assertFalse(f.r.discardBody);
        assertFalse(f.r.lingeringClose, "all read: the connection may be kept alive");
        assertEquals(0, f.r.headersIn.contentLengthN);
        assertEquals(1, f.r.count);
    }

    @Test
    void theRestThatIsNotThereYetIsDiscardedAsItComes() throws Exception {
        f.contentLength(10);
        f.preread("abc");
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        assertTrue(f.r.discardBody);
        assertEquals(2, f.r.count, "discarding holds a reference");
        assertEquals(7, f.r.headersIn.contentLengthN);
        assertTrue(f.c.read.active);
        f.send("defg");
        f.readEvent();
        assertTrue(f.r.discardBody);
        assertEquals(3, f.r.headersIn.contentLengthN);
        f.send("hij");
        f.readEvent();
        assertFalse(f.r.discardBody);
        assertEquals(0, f.r.headersIn.contentLengthN);
        assertEquals(1, f.r.count, "finalized with DONE: the reference is given back");
    }

    @Test
    void chunkedBodyDiscardedByteByByte() throws Exception {
        String wire = "4\r\nwiki\r\n5\r\npedia\r\n0\r\n\r\n";
        f.chunked();
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        assertTrue(f.r.discardBody);
        for (int i = 0; i < wire.length(); i++) {
            assertTrue(f.r.discardBody, "done early at byte " + i);
            f.send(wire.substring(i, i + 1));
            f.readEvent();
        }
        assertFalse(f.r.discardBody);
        assertEquals(0, f.r.headersIn.contentLengthN);
        assertEquals(1, f.r.count);
    }

    @Test
    void chunkedBodyWithTheHeaderLeavesThePipelinedRequest() {
        f.chunked();
        f.preread("3\r\nabc\r\n0\r\n\r\nGET /b HTTP/1.1\r\n");
        assertEquals(Rc.OK, discard());
        assertFalse(f.r.discardBody);
        assertEquals("GET /b HTTP/1.1\r\n", left());
    }

    @Test
    void invalidChunkedBodyIs400() {
        f.chunked();
        f.preread("zz\r\n");
        assertEquals(400, discard());
        assertTrue(f.logText().contains("client sent invalid chunked body"), f.logText());
    }

    @Test
    void expectContinueIsAnsweredWhenDiscarding() throws Exception {
        f.contentLength(3);
        f.expect("100-continue");
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        assertEquals("HTTP/1.1 100 Continue\r\n\r\n", f.clientRead());
    }

    @Test
    void noContinueWhenTheEngineRefusedTheBody() throws Exception {
        f.contentLength(3_000_000);
        f.expect("100-continue");
        f.r.expectTested = true;
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        assertEquals("", f.clientRead());
    }

    @Test
    void aTimeoutWhileDiscardingEndsTheRequest() throws Exception {
        f.contentLength(10);
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        f.c.read.timedout = true;
        f.readEvent();
        assertTrue(f.c.timedout);
        assertTrue(f.c.error);
    }

    @Test
    void lingeringTimeOverEndsTheDiscard() throws Exception {
        f.contentLength(10);
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        f.r.lingeringTime = f.loop.wallMillis() / 1000 - 1;
        f.send("abc");
        f.readEvent();
        assertFalse(f.r.discardBody);
        assertFalse(f.r.lingeringClose);
        assertEquals(10, f.r.headersIn.contentLengthN, "nothing more was read");
    }

    @Test
    void lingeringWaitsAtMostLingeringTimeout() throws Exception {
        f.contentLength(10);
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        f.r.lingeringTime = f.loop.wallMillis() / 1000 + 30;
        f.send("abc");
        f.readEvent();
        assertTrue(f.r.discardBody);
        assertTrue(f.c.read.timerSet());
        int left = f.c.read.timerKey() - f.loop.currentMsec();
        assertTrue(left > 0 && left <= 5_000, "lingering_timeout caps the wait: " + left);
    }

    @Test
    void aClientThatGoesAwayEndsTheDiscard() throws Exception {
        f.contentLength(10);
        f.preread("abc");
        f.closeClient();
        f.readable();
        assertEquals(Rc.OK, discard());
        assertFalse(f.r.discardBody);
    }

    @Test
    void aBodyAlreadyReadIsNotDiscardedAgain() {
        f.contentLength(2);
        f.preread("ok");
        assertEquals(Rc.OK, HttpRequestBody.readClientRequestBody(f.r, f.postHandler()));
        assertEquals(Rc.OK, discard());
        assertEquals("ok", HttpRequestBody.text(f.r));
    }

    @Test
    void readingADiscardedBodyRunsThePostHandlerAtOnce() {
        f.contentLength(10);
        f.preread("abc");
        f.c.read.ready = false;
        assertEquals(Rc.OK, discard());
        assertEquals(Rc.OK, HttpRequestBody.readClientRequestBody(f.r, f.postHandler()));
        assertEquals(1, f.posted);
    }
}
