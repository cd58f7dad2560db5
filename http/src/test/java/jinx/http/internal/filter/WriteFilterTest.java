package jinx.http.internal.filter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WriteFilterModule} over a unix socket pair: postponing and flushing, partial writes, the next-turn post,
 * {@code limit_rate}, and the errors nginx alerts about.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(20)
class WriteFilterTest {

    private FakeRequest r;

    @BeforeEach
    void setUp() throws Exception {
        r = FakeRequest.onSocketPair();
        r.writer = new WriteFilterModule(FakeRequest.WRITE_CTX);
    }

    @AfterEach
    void tearDown() {
        r.close();
    }

    private static Buf mem(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, s.length()));
        b.put(s.getBytes(StandardCharsets.ISO_8859_1)).flip();
        return Buf.of(b);
    }

    private static Buf mem(int size) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        for (int i = 0; i < size; i++) {
            b.put(i, (byte) ('a' + i % 26));
        }
        return Buf.of(b);
    }

    private static Buf flag(boolean last, boolean flush) {
        Buf b = new Buf();
        b.last = last;
        b.flush = flush;
        return b;
    }

    private int write(Buf... bufs) {
        BufChain in = null;
        for (int i = bufs.length - 1; i >= 0; i--) {
            in = new BufChain(bufs[i], in);
        }
        return r.writer.write(r, in);
    }

    @Test
    void smallOutputIsPostponed() throws Exception {
        assertEquals(Rc.OK, write(mem("abc")));
        assertEquals(Rc.OK, write(mem("def")));
        assertEquals("", r.peerRead());
        assertTrue(r.writer.output(r).pending());
        assertEquals(Rc.OK, write(flag(false, true)));
        assertEquals("abcdef", r.peerRead());
        assertFalse(r.writer.output(r).pending());
        assertEquals(6, r.c.sent);
    }

    @Test
    void lastSendsAtOnce() throws Exception {
        Buf b = mem("whole body");
        b.last = true;
        assertEquals(Rc.OK, write(b));
        assertEquals("whole body", r.peerRead());
    }

    @Test
    void postponeOutputSizeSends() throws Exception {
        assertEquals(Rc.OK, write(mem(1000)));
        assertEquals("", r.peerRead());
        assertEquals(Rc.OK, write(mem(460)));
        assertEquals(1460, r.peerRead().length());
    }

    @Test
    void postponeOutputZeroSendsEverything() throws Exception {
        r.clcf.postponeOutput = 0;
        assertEquals(Rc.OK, write(mem("x")));
        assertEquals("x", r.peerRead());
    }

    @Test
    void aPushWithNothingPendingIsAnAlert() {
        assertEquals(Rc.ERROR, r.writer.write(r, null));
        assertTrue(r.errors().contains("[alert] "), r.errors());
        assertTrue(r.errors().contains("the http output chain is empty"), r.errors());
    }

    @Test
    void aFlagOnlyChainWithNothingPendingIsFine() {
        assertEquals(Rc.OK, write(flag(true, false)));
        assertEquals("", r.errors());
    }

    @Test
    void aZeroSizeBufferIsAnAlert() {
        Buf empty = Buf.of(ByteBuffer.allocateDirect(4).limit(0));
        assertEquals(Rc.ERROR, write(empty));
        assertTrue(r.errors().contains("zero size buf in writer"), r.errors());
    }

    @Test
    void aConnectionInErrorWritesNothing() throws Exception {
        r.c.error = true;
        assertEquals(Rc.ERROR, write(flag(true, false)));
    }

    @Test
    void aFullSocketLeavesOutputPendingWithTheSendTimeout() throws Exception {
        Buf big = mem(4 << 20);
        big.last = true;
        assertEquals(Rc.AGAIN, write(big));
        assertTrue(r.writer.output(r).pending());
        assertFalse(r.c.write.ready);
        assertTrue(r.c.write.timerSet(), "send_timeout");
        assertFalse(r.c.write.posted(), "a full socket waits for its event, not the next turn");
        int got = r.peerRead().length();
        int rounds = 0;
        int rc = Rc.AGAIN;
        while (rc == Rc.AGAIN && rounds++ < 10_000) {
            r.c.write.ready = true;
            rc = r.writer.write(r, null);
            got += r.peerRead().length();
        }
        assertEquals(Rc.OK, rc);
        assertEquals(4 << 20, got);
        assertEquals(4 << 20, r.c.sent);
        assertFalse(r.writer.output(r).pending());
    }

    @Test
    void aSendLimitPostsTheWriteEventToTheNextTurn() throws Exception {
        r.clcf.sendfileMaxChunk = 1000;
        Buf b = mem(5000);
        b.last = true;
        assertEquals(Rc.AGAIN, write(b));
        assertTrue(r.c.write.ready, "the socket could take more");
        assertTrue(r.c.write.posted(), "posted to the next turn for fairness");
        assertEquals(1000, r.peerRead().length());
    }

    @Test
    void limitRateDelaysTheWriteEvent() throws Exception {
        r.clcf.limitRate = 1000;
        r.startMsec = r.loop.wallMillis();
        Buf b = mem(5000);
        b.last = true;
        assertEquals(Rc.AGAIN, write(b));
        int first = r.peerRead().length();
        assertTrue(first >= 1000 && first <= 2000, "sent " + first);
        assertTrue(r.c.write.delayed);
        assertTrue(r.c.write.timerSet());
        assertFalse(r.c.write.posted());
        assertEquals(Rc.AGAIN, r.writer.write(r, null), "delayed: nothing is tried");
        assertEquals("", r.peerRead());
        assertEquals(1000, r.writer.output(r).limitRate());
    }

    @Test
    void limitRateAfterSendsThatMuchAtFullSpeed() throws Exception {
        r.clcf.limitRate = 1000;
        r.clcf.limitRateAfter = 3000;
        r.startMsec = r.loop.wallMillis();
        Buf b = mem(10_000);
        b.last = true;
        assertEquals(Rc.AGAIN, write(b));
        int first = r.peerRead().length();
        assertTrue(first >= 4000 && first <= 5000, "sent " + first);
        assertTrue(r.c.write.delayed);
    }

    @Test
    void theWriteFilterSendsFilesWithSendfile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("page.html");
        Files.writeString(f, "<html>file body</html>");
        int fd = jinx.kernel.os.Files.open(f.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
        try {
            Buf file = new Buf();
            file.inFile = true;
            file.fileFd = fd;
            file.fileName = f.toString();
            file.filePos = 6;
            file.fileLast = 15;
            file.last = true;
            assertEquals(Rc.OK, write(mem("HTTP/1.1 200 OK\r\n\r\n"), file));
            assertEquals("HTTP/1.1 200 OK\r\n\r\nfile body", r.peerRead());
        } finally {
            Syscalls.close(fd);
        }
    }

    @Test
    void theFiltersOwnBuffersGoBackToThePool() throws Exception {
        long before = jinx.http.internal.request.BufferPool.current().allocated();
        for (int i = 0; i < 50; i++) {
            Buf b = OutBufs.temp(100);
            OutBufs.put(b.mem, "x".repeat(100));
            b.mem.flip();
            b.last = true;
            assertEquals(Rc.OK, r.writer.write(r, BufChain.of(b)));
            r.peerRead();
            r.writer.output(r);
        }
        assertTrue(jinx.http.internal.request.BufferPool.current().allocated() - before <= 1,
                   "one buffer serves every response");
    }
}
