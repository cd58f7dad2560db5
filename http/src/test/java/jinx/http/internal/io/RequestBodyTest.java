package jinx.http.internal.io;

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

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.kernel.Buf;
import jinx.kernel.Rc;
import jinx.kernel.TempPath;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HttpRequestBody#readClientRequestBody}: bodies read with the header, over the socket, byte by byte,
 * chunked, into a temporary file; the limits, the bad input and {@code Expect: 100-continue}.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(20)
class RequestBodyTest {

    private BodyFixture f;

    @BeforeEach
    void setUp() throws Exception {
        f = new BodyFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.close();
    }

    private int read() {
        return HttpRequestBody.readClientRequestBody(f.r, f.postHandler());
    }

    /* ---- Content-Length ---- */

    @Test
    void noBodyRunsThePostHandlerAtOnce() {
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertNull(HttpRequestBody.text(f.r));
        assertEquals(2, f.r.count, "the body takes a reference the post handler gives back");
    }

    @Test
    void zeroLengthBody() {
        f.contentLength(0);
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertNull(HttpRequestBody.text(f.r));
    }

    @Test
    void bodyReadWithTheHeaderLeavesAPipelinedRequest() {
        f.contentLength(5);
        f.preread("helloGET /next HTTP/1.1\r\n");
        long before = f.r.requestLength;
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertEquals("hello", HttpRequestBody.text(f.r));
        assertEquals(5, f.r.requestLength - before);
        ByteBuffer rest = f.r.headerIn.duplicate();
        byte[] b = new byte[rest.remaining()];
        rest.get(b);
        assertEquals("GET /next HTTP/1.1\r\n", new String(b, StandardCharsets.ISO_8859_1));
    }

    @Test
    void bodyPartlyWithTheHeaderAndTheRestFromTheSocket() throws Exception {
        f.contentLength(11);
        f.preread("hello");
        f.send(" world");
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertEquals("hello world", HttpRequestBody.text(f.r));
        assertFalse(f.c.read.timerSet());
    }

    @Test
    void bodyThatIsNotThereYetWaitsWithTheBodyTimeout() throws Exception {
        f.contentLength(6);
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        assertEquals(0, f.posted);
        assertTrue(f.c.read.timerSet(), "client_body_timeout");
        assertTrue(f.c.read.active, "the read event is registered");
        f.send("abc");
        f.readEvent();
        assertEquals(0, f.posted);
        f.send("def");
        f.readEvent();
        assertEquals(1, f.posted);
        assertEquals("abcdef", HttpRequestBody.text(f.r));
        assertFalse(f.c.read.timerSet());
    }

    @Test
    void bodyByteByByte() throws Exception {
        String body = "a=1&b=two&c=three";
        f.contentLength(body.length());
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        for (int i = 0; i < body.length(); i++) {
            assertEquals(0, f.posted);
            f.send(body.substring(i, i + 1));
            f.readEvent();
        }
        assertEquals(1, f.posted);
        assertEquals(body, HttpRequestBody.text(f.r));
    }

    @Test
    void theClientClosingEarlyIsABadRequest() throws Exception {
        f.contentLength(10);
        f.preread("abc");
        f.closeClient();
        f.readable();
        assertEquals(400, read());
        assertTrue(f.c.error);
        assertEquals(0, f.posted);
        assertEquals(1, f.r.count, "the reference is given back with the error");
        assertTrue(f.logText().contains("[info] "), f.logText());
        assertTrue(f.logText().contains("*" + f.c.number + " client prematurely closed connection, client: unix:, "
                                        + "server: localhost,"
                                        + " request: \"POST /upload HTTP/1.1\""), f.logText());
    }

    @Test
    void theBodyTimeoutIs408() throws Exception {
        f.contentLength(10);
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        f.c.read.timedout = true;
        f.readEvent();
        assertTrue(f.c.timedout);
        assertEquals(408, f.r.headersOut.status);
        assertTrue(f.logText().contains("client timed out (110: Connection timed out)"), f.logText());
        assertEquals(0, f.posted);
    }

    /* ---- chunked ---- */

    @Test
    void chunkedBodyWithTheHeader() {
        f.chunked();
        f.preread("5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\nGET / HTTP/1.1\r\n");
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertEquals("hello world", HttpRequestBody.text(f.r));
        assertEquals(11, f.r.headersIn.contentLengthN);
        assertEquals(16, f.r.headerIn.remaining(), "the pipelined request stays");
    }

    @Test
    void chunkedBodySplitByteByByte() throws Exception {
        String wire = "5\r\nhello\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: x\r\n\r\n";
        f.chunked();
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        for (int i = 0; i < wire.length(); i++) {
            assertEquals(0, f.posted, "done early at byte " + i);
            f.send(wire.substring(i, i + 1));
            f.readEvent();
        }
        assertEquals(1, f.posted);
        assertEquals("helloabcdefghijklmnopqrstuvwxyz", HttpRequestBody.text(f.r));
        assertEquals(31, f.r.headersIn.contentLengthN);
        assertEquals("", f.clientRead());
    }

    @Test
    void chunkedBodyNeverReadsPastItsEnd() throws Exception {
        f.chunked();
        f.send("3\r\nabc\r\n0\r\n\r\nNEXT");
        assertEquals(Rc.OK, read());
        assertEquals(1, f.posted);
        assertEquals("abc", HttpRequestBody.text(f.r));
        assertEquals(4, f.unreadByServer(), "the next request is left for the reader");
    }

    @Test
    void tooLargeChunkedBodyIs413() {
        f.clcf.clientMaxBodySize = 10;
        f.chunked();
        f.preread("8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n");
        assertEquals(413, read());
        assertTrue(f.r.lingeringClose);
        assertEquals(0, f.posted);
        assertEquals(1, f.r.count);
        assertTrue(f.logText().contains("[error] "), f.logText());
        assertTrue(f.logText().contains("client intended to send too large chunked body: 8+8 bytes"), f.logText());
    }

    @Test
    void chunkedBodyWithinTheLimit() {
        f.clcf.clientMaxBodySize = 16;
        f.chunked();
        f.preread("8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n");
        assertEquals(Rc.OK, read());
        assertEquals(16, HttpRequestBody.text(f.r).length());
    }

    @Test
    void noLimitWithZero() {
        f.clcf.clientMaxBodySize = 0;
        f.chunked();
        f.preread("8\r\n12345678\r\n0\r\n\r\n");
        assertEquals(Rc.OK, read());
    }

    @Test
    void invalidChunkedBodyIs400() {
        f.chunked();
        f.preread("5\r\nhelloXX");
        assertEquals(400, read());
        assertTrue(f.logText().contains("client sent invalid chunked body"), f.logText());
    }

    @Test
    void overflowingChunkSizeIs400() {
        f.chunked();
        f.preread("ffffffffffffffffff\r\n");
        assertEquals(400, read());
        assertTrue(f.logText().contains("client sent invalid chunked body"), f.logText());
    }

    /* ---- Expect: 100-continue ---- */

    @Test
    void expectContinueIsAnsweredBeforeTheBody() throws Exception {
        f.contentLength(3);
        f.expect("100-continue");
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        assertEquals("HTTP/1.1 100 Continue\r\n\r\n", f.clientRead());
        assertTrue(f.r.expectTested);
        f.send("abc");
        f.readEvent();
        assertEquals("abc", HttpRequestBody.text(f.r));
    }

    @Test
    void expectIsCaseInsensitive() throws Exception {
        f.contentLength(1);
        f.expect("100-Continue");
        f.preread("x");
        assertEquals(Rc.OK, read());
        assertEquals("HTTP/1.1 100 Continue\r\n\r\n", f.clientRead());
    }

    @Test
    void noContinueForHttp10OrOtherExpectations() throws Exception {
        f.contentLength(1);
        f.expect("100-continue");
        f.r.httpVersion = HttpRequest.VERSION_10;
        f.preread("x");
        assertEquals(Rc.OK, read());
        assertEquals("", f.clientRead());
        f.close();
        f = new BodyFixture();
        f.contentLength(1);
        f.expect("something-else");
        f.preread("x");
        assertEquals(Rc.OK, read());
        assertEquals("", f.clientRead());
    }

    @Test
    void noContinueWhenAlreadyTested() throws Exception {
        f.contentLength(1);
        f.expect("100-continue");
        f.r.expectTested = true;
        f.preread("x");
        assertEquals(Rc.OK, read());
        assertEquals("", f.clientRead());
    }

    /* ---- temporary files ---- */

    @Test
    void aBodyLargerThanTheBufferGoesToATemporaryFile(@TempDir Path dir) throws Exception {
        f.clcf.clientBodyBufferSize = 1024;
        f.clcf.clientBodyTempPath = dir;
        f.clcf.clientBodyTempLevels = new int[] {1, 2};
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            body.append((char) ('a' + i % 26));
        }
        f.contentLength(5000);
        f.preread(body.substring(0, 100));
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        for (int off = 100; off < 5000; off += 700) {
            f.send(body.substring(off, Math.min(5000, off + 700)));
            f.readEvent();
        }
        assertEquals(1, f.posted);
        RequestBody rb = HttpRequestBody.of(f.r);
        assertTrue(rb.inFile());
        assertNull(HttpRequestBody.text(f.r), "$request_body is not found for a body in a file");
        Buf file = rb.bufs().buf;
        assertTrue(file.inFile);
        assertEquals(0, file.filePos);
        assertEquals(5000, file.fileLast);
        assertEquals(body.toString(), readFd(file.fileFd, 5000));
        String name = rb.tempFileName();
        assertTrue(name.matches(java.util.regex.Pattern.quote(dir.toString()) + "/(\\d)/(\\d\\d)/\\d{7}\\2\\1"),
                   name);
        assertFalse(Files.exists(Path.of(name)), "unlinked at once: it goes with its descriptor");
        assertTrue(f.logText().contains("[warn] "), f.logText());
        assertTrue(f.logText().contains("a client request body is buffered to a temporary file " + name),
                   f.logText());
    }

    @Test
    void chunkedBodyLargerThanTheBufferGoesToATemporaryFile(@TempDir Path dir) throws Exception {
        f.clcf.clientBodyBufferSize = 1024;
        f.clcf.clientBodyTempPath = dir;
        f.chunked();
        StringBuilder body = new StringBuilder();
        StringBuilder wire = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            String chunk = String.valueOf((char) ('A' + i % 26)).repeat(100 + i);
            body.append(chunk);
            wire.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        wire.append("0\r\n\r\n");
        f.c.read.ready = false;
        assertEquals(Rc.AGAIN, read());
        for (int off = 0; off < wire.length(); off += 333) {
            f.send(wire.substring(off, Math.min(wire.length(), off + 333)));
            f.readEvent();
        }
        assertEquals(1, f.posted);
        RequestBody rb = HttpRequestBody.of(f.r);
        assertTrue(rb.inFile());
        assertEquals(body.length(), rb.size());
        assertEquals(body.toString(), readFd(rb.bufs().buf.fileFd, body.length()));
    }

    @Test
    void clientBodyInFileOnlyKeepsEvenASmallBodyInAFile(@TempDir Path dir) throws Exception {
        f.clcf.clientBodyTempPath = dir;
        f.clcf.clientBodyInFileOnly = HttpCoreLocConf.BODY_FILE_ON;
        f.contentLength(4);
        f.preread("tiny");
        assertEquals(Rc.OK, read());
        RequestBody rb = HttpRequestBody.of(f.r);
        assertTrue(rb.inFile());
        assertTrue(Files.exists(Path.of(rb.tempFileName())), "persistent");
        assertEquals("tiny", Files.readString(Path.of(rb.tempFileName())));
        assertTrue(f.logText().contains("[notice] "), f.logText());
        f.runCleanups();
        assertTrue(Files.exists(Path.of(rb.tempFileName())), "client_body_in_file_only on keeps the file");
    }

    @Test
    void clientBodyInFileOnlyCleanRemovesTheFileAtTheEnd(@TempDir Path dir) throws Exception {
        f.clcf.clientBodyTempPath = dir;
        f.clcf.clientBodyInFileOnly = HttpCoreLocConf.BODY_FILE_CLEAN;
        f.contentLength(4);
        f.preread("tiny");
        assertEquals(Rc.OK, read());
        String name = HttpRequestBody.of(f.r).tempFileName();
        assertTrue(Files.exists(Path.of(name)));
        f.runCleanups();
        assertFalse(Files.exists(Path.of(name)));
    }

    @Test
    void anUnwritableTempPathIs500(@TempDir Path dir) throws Exception {
        Path ro = dir.resolve("ro");
        Files.createDirectory(ro);
        ro.toFile().setWritable(false);
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(ro), "running as root");
        f.clcf.clientBodyTempPath = ro;
        f.clcf.clientBodyInFileOnly = HttpCoreLocConf.BODY_FILE_ON;
        f.contentLength(4);
        f.preread("tiny");
        assertEquals(500, read());
        assertTrue(f.logText().contains("[crit] "), f.logText());
        assertTrue(f.logText().contains("(13: Permission denied)"), f.logText());
    }

    @Test
    void temporaryFileNamesFollowTheLevels() {
        assertEquals("/t/3/12/0000000123", new TempPath(Path.of("/t"), new int[] {1, 2}).hashedName("0000000123"));
        assertEquals("/t/23/1/0000000123", new TempPath(Path.of("/t"), new int[] {2, 1}).hashedName("0000000123"));
        assertEquals("/t/0000000123", new TempPath(Path.of("/t"), new int[0]).hashedName("0000000123"));
        assertEquals("/t/3/2/1/0000000123", new TempPath(Path.of("/t"), new int[] {1, 1, 1}).hashedName("0000000123"));
    }

    @Test
    void aSecondReadRunsThePostHandlerWithTheBodyAlreadyRead() {
        f.contentLength(2);
        f.preread("ok");
        assertEquals(Rc.OK, read());
        assertEquals(Rc.OK, read());
        assertEquals(2, f.posted);
        assertEquals("ok", HttpRequestBody.text(f.r));
    }

    private static String readFd(int fd, int size) throws Exception {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        long a = NativeMemory.address(b);
        int got = 0;
        while (got < size) {
            int n = Syscalls.pread(fd, a + got, size - got, got);
            if (n <= 0) {
                break;
            }
            got += n;
        }
        byte[] bytes = new byte[got];
        b.get(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
