package jinx.kernel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.StubEventActions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SocketIo} over non-blocking unix socket pairs and a temporary file: the event flags after each kind of
 * read, partial writes until the socket is full, writev of many buffers, sendfile, mixed chains, limits, errors
 * and their log levels, and no allocation on the hot path.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
class SocketIoTest {

    private static final int EPOLL_FLAGS = EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
                                           | EventActions.USE_EPOLL_EVENT;
    private static final int POLL_FLAGS = EventActions.USE_LEVEL_EVENT | EventActions.USE_FD_EVENT;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final List<Integer> fds = new ArrayList<>();
    private final NativeMemory memory = new NativeMemory();
    private ErrorLog log;
    private EventLoop loop;
    private SocketIo io;
    private Connection c;
    private int peer;

    @BeforeEach
    void setUp() throws IOException {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                            new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
    }

    @AfterEach
    void tearDown() {
        if (c != null && c.fd() != -1) {
            c.close();
        }
        for (int fd : fds) {
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                // closed by the test already
            }
        }
        if (loop != null) {
            loop.done();
        }
        if (io != null) {
            io.close();
        }
        memory.close();
    }

    /** A loop over a method that does nothing but report {@code flags}, a connection on one end of a pair. */
    private void open(int flags) throws IOException {
        loop = new EventLoop(null, new StubEventActions(flags), 4, 0, EventLoop.AcceptSettings.SINGLE, log);
        io = new SocketIo(loop);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        c = loop.getConnection(sv[0], log);
        c.number = 7;
        peer = sv[1];
        fds.add(peer);
        c.read.ready = true;
        c.write.ready = true;
    }

    private ByteBuffer direct(int size) {
        return NativeMemory.view(memory.allocate(size), size);
    }

    private ByteBuffer direct(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buf = direct(Math.max(1, b.length));
        buf.put(b).flip();
        return buf;
    }

    private void peerSend(String s) throws NativeIoException {
        ByteBuffer b = direct(s);
        assertEquals(s.length(), Sockets.send(peer, NativeMemory.address(b), s.length()));
    }

    /** Everything the peer can read now. */
    private byte[] peerDrain() throws NativeIoException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = direct(65536);
        long a = NativeMemory.address(b);
        byte[] chunk = new byte[65536];
        for (;;) {
            int n = Sockets.recv(peer, a, 65536);
            if (n <= 0) {
                return out.toByteArray();
            }
            NativeMemory.get(a, chunk, 0, n);
            out.write(chunk, 0, n);
        }
    }

    private String text(ByteBuffer b) {
        ByteBuffer d = b.duplicate().flip();
        byte[] bytes = new byte[d.remaining()];
        d.get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private String logText() {
        return logBytes.toString(StandardCharsets.ISO_8859_1);
    }

    /* ---- recv ---- */

    @Test
    void recvShortReadClearsReadyWithoutGreedyMethod() throws IOException {
        open(POLL_FLAGS);
        peerSend("hello");
        ByteBuffer b = direct(64);
        assertEquals(5, io.recv(c, b));
        assertEquals("hello", text(b));
        assertFalse(c.read.ready, "a short read drains a level-triggered socket");
        c.read.ready = true;
        assertEquals(Rc.AGAIN, io.recv(c, b));
        assertFalse(c.read.ready);
        assertFalse(c.read.eof);
    }

    @Test
    void recvFullReadKeepsReady() throws IOException {
        open(POLL_FLAGS);
        peerSend("0123456789");
        ByteBuffer b = direct(4);
        assertEquals(4, io.recv(c, b));
        assertTrue(c.read.ready, "the buffer was filled: more may wait");
        assertEquals("0123", text(b));
    }

    @Test
    void recvEofSetsEof() throws IOException {
        open(POLL_FLAGS);
        peerSend("ab");
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        ByteBuffer b = direct(2);
        assertEquals(2, io.recv(c, b));
        assertTrue(c.read.ready);
        assertEquals(0, io.recv(c, direct(16)));
        assertTrue(c.read.eof);
        assertFalse(c.read.ready);
        assertFalse(c.read.error);
    }

    @Test
    void recvWithEpollSkipsTheCallWhenDrained() throws IOException {
        open(EPOLL_FLAGS);
        peerSend("abc");
        c.read.available = 0;
        ByteBuffer b = direct(64);
        assertEquals(Rc.AGAIN, io.recv(c, b), "available 0 without pending EOF: not even tried");
        assertFalse(c.read.ready);
        assertEquals(0, b.position());

        c.read.ready = true;
        c.read.available = -1;
        assertEquals(3, io.recv(c, b));
        assertFalse(c.read.ready, "a short read with EPOLLRDHUP means drained");
        assertEquals(0, c.read.available);
    }

    @Test
    void recvWithEpollFullReadKeepsReadyAndAvailable() throws IOException {
        open(EPOLL_FLAGS);
        peerSend("abcdef");
        c.read.available = -1;
        assertEquals(4, io.recv(c, direct(4)));
        assertTrue(c.read.ready);
        assertEquals(-1, c.read.available);
    }

    @Test
    void recvWithEpollPendingEofKeepsReadyToSeeTheEof() throws IOException {
        open(EPOLL_FLAGS);
        peerSend("xyz");
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        c.read.available = -1;
        c.read.pendingEof = true;
        assertEquals(3, io.recv(c, direct(64)));
        assertTrue(c.read.ready, "pending EOF: ready stays so the caller reads the 0");
        assertEquals(0, c.read.available);
        assertEquals(0, io.recv(c, direct(64)));
        assertTrue(c.read.eof);
        assertFalse(c.read.ready);
    }

    @Test
    void recvResetIsLoggedAtErrorOnAnUpstreamConnection() throws IOException {
        open(POLL_FLAGS);
        // the peer closes with our bytes unread in its queue: Linux resets our end (unix_release_sock)
        assertEquals(3, io.send(c, direct("abc")));
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        assertEquals(Rc.ERROR, io.recv(c, direct(16)));
        assertTrue(c.read.error);
        assertFalse(c.read.ready);
        assertTrue(logText().contains("[error] "), logText());
        assertTrue(logText().contains("*7 recv() failed (104: Connection reset by peer)"), logText());
    }

    @Test
    void recvResetIsInfoOnAClientConnection() throws IOException {
        open(POLL_FLAGS);
        c.listening = new Listening(jinx.kernel.os.SockAddr.parse("127.0.0.1:80"));
        assertEquals(3, io.send(c, direct("abc")));
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        assertEquals(Rc.ERROR, io.recv(c, direct(16)));
        assertTrue(logText().contains("[info] "), logText());
        assertTrue(logText().contains("recv() failed (104: Connection reset by peer)"), logText());
        c.listening = null;
    }

    @Test
    void aResetIsNotLoggedWhileIgnored() throws IOException {
        open(EPOLL_FLAGS);
        c.listening = new Listening(jinx.kernel.os.SockAddr.parse("127.0.0.1:80"));
        assertEquals(3, io.send(c, direct("abc")));
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        c.ignoreReset = true;
        c.read.available = -1;
        assertEquals(Rc.ERROR, io.recv(c, direct(16)));
        assertTrue(c.read.error);
        assertFalse(c.read.ready);
        assertEquals("", logText(), "nginx's NGX_ERROR_IGNORE_ECONNRESET");
        c.ignoreReset = false;
        c.listening = null;
    }

    /* ---- shutdown ---- */

    @Test
    void shutdownWriteEndsThePeersStreamAndKeepsReading() throws IOException {
        open(POLL_FLAGS);
        assertSame(loop.socketIo(), c.io());
        assertEquals(3, c.io().send(c, direct("bye")));
        assertEquals(Rc.OK, c.io().shutdownWrite(c));
        assertEquals("bye", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        ByteBuffer one = direct(1);
        assertEquals(0, Sockets.recv(peer, NativeMemory.address(one), 1), "the peer reads the end of the stream");
        peerSend("more");
        assertEquals(4, c.io().recv(c, direct(16)), "the server still reads");
        assertEquals(Rc.ERROR, c.io().send(c, direct("x")));
        assertTrue(logText().contains("send() failed (32: Broken pipe)"), logText());
    }

    @Test
    void aFailedShutdownIsLogged() throws IOException {
        open(POLL_FLAGS);
        Connection file = loop.getConnection(Syscalls.eventfd(0, Platform.EFD_CLOEXEC), log);
        file.number = 8;
        assertEquals(Rc.ERROR, io.shutdownWrite(file));
        assertTrue(logText().contains("[alert] ") && logText().contains("*8 shutdown() failed (88: "), logText());
        file.close();
    }

    /* ---- send ---- */

    @Test
    void sendUntilFullClearsReadyAndCounts() throws IOException {
        open(POLL_FLAGS);
        ByteBuffer b = direct(65536);
        long total = 0;
        int n;
        int rounds = 0;
        while ((n = io.send(c, b.clear())) > 0 && rounds++ < 10_000) {
            total += n;
        }
        assertEquals(Rc.AGAIN, n == Rc.AGAIN ? n : io.send(c, b.clear()));
        assertFalse(c.write.ready);
        assertEquals(total, c.sent);
        assertTrue(total > 0);
        assertEquals(total, peerDrain().length);
    }

    @Test
    void sendToAClosedPeerIsAnError() throws IOException {
        open(POLL_FLAGS);
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        assertEquals(Rc.ERROR, io.send(c, direct("x")));
        assertTrue(c.write.error);
        assertTrue(logText().contains("send() failed (32: Broken pipe)"), logText());
    }

    @Test
    void errorLinesCarryTheProtocolsContext() throws IOException {
        open(POLL_FLAGS);
        c.data = (SocketIo.LogContext) sb -> sb.append(", client: 10.0.0.1, server: localhost");
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        assertEquals(Rc.ERROR, io.send(c, direct("x")));
        assertTrue(logText().contains("*7 send() failed (32: Broken pipe), client: 10.0.0.1, server: localhost\n"),
                   logText());
        c.data = null;
    }

    /* ---- sendChain: memory ---- */

    @Test
    void sendChainGathersMemoryBuffersAndSkipsFlagOnlyOnes() throws IOException {
        open(EPOLL_FLAGS);
        Buf flush = new Buf();
        flush.flush = true;
        Buf last = new Buf();
        last.last = true;
        BufChain in = new BufChain(Buf.of(direct("HTTP/1.1 200 OK\r\n")),
                      new BufChain(flush,
                      new BufChain(Buf.of(direct("\r\n")),
                      new BufChain(Buf.of(direct("body")),
                      new BufChain(last, null)))));
        assertNull(io.sendChain(c, in, 0));
        assertEquals("HTTP/1.1 200 OK\r\n\r\nbody", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertEquals(23, c.sent);
        assertTrue(c.write.ready);
    }

    @Test
    void sendChainCoalescesNeighbouringSlicesOfOneBuffer() throws IOException {
        open(EPOLL_FLAGS);
        ByteBuffer whole = direct("abcdefghij");
        BufChain in = new BufChain(Buf.of(whole.duplicate().limit(4)),
                      new BufChain(Buf.of(whole.duplicate().position(4)), null));
        assertNull(io.sendChain(c, in, 0));
        assertEquals("abcdefghij", new String(peerDrain(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void sendChainOfMoreBuffersThanIovMax() throws IOException {
        open(EPOLL_FLAGS);
        int count = SocketIo.IOV_MAX * 2 + 7;
        BufChain in = null;
        StringBuilder expected = new StringBuilder();
        for (int i = count - 1; i >= 0; i--) {
            String s = Integer.toString(i % 10);
            in = new BufChain(Buf.of(direct(s)), in);
        }
        for (int i = 0; i < count; i++) {
            expected.append(i % 10);
        }
        assertNull(io.sendChain(c, in, 0));
        assertEquals(expected.toString(), new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertEquals(count, c.sent);
    }

    @Test
    void sendChainPartialWritesResumeWhereTheyStopped() throws IOException {
        open(EPOLL_FLAGS);
        int size = 1 << 20;
        ByteBuffer big = direct(size);
        for (int i = 0; i < size; i++) {
            big.put(i, (byte) (i * 31));
        }
        ByteBuffer tail = direct("END");
        BufChain in = new BufChain(Buf.of(big), new BufChain(Buf.of(tail), null));
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        int again = 0;
        for (int rounds = 0; in != null && rounds < 10_000; rounds++) {
            BufChain rest = io.sendChain(c, in, 0);
            assertTrue(rest != SocketIo.CHAIN_ERROR);
            if (rest != null) {
                assertFalse(c.write.ready, "a partial write clears ready");
                assertSame(rest, io.sendChain(c, rest, 0), "not ready: nothing is tried");
                again++;
                c.write.ready = true;
            }
            got.writeBytes(peerDrain());
            in = rest;
        }
        assertNull(in);
        assertTrue(again > 0, "a 1 MB chain never filled the socket pair");
        got.writeBytes(peerDrain());
        byte[] bytes = got.toByteArray();
        assertEquals(size + 3, bytes.length);
        for (int i = 0; i < size; i++) {
            if (bytes[i] != (byte) (i * 31)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
        assertEquals("END", new String(bytes, size, 3, StandardCharsets.ISO_8859_1));
        assertEquals(size + 3, c.sent);
        assertEquals(0, big.remaining());
    }

    @Test
    void sendChainStopsAtTheLimit() throws IOException {
        open(EPOLL_FLAGS);
        Buf a = Buf.of(direct("aaaa"));
        Buf b = Buf.of(direct("bbbb"));
        BufChain in = new BufChain(a, new BufChain(b, null));
        BufChain rest = io.sendChain(c, in, 6);
        assertSame(in.next, rest);
        assertEquals(2, b.size());
        assertTrue(c.write.ready, "the limit is not the socket's doing");
        assertEquals("aaaabb", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertNull(io.sendChain(c, rest, 0));
        assertEquals("bb", new String(peerDrain(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void sendChainRefusesAHeapBuffer() throws IOException {
        open(EPOLL_FLAGS);
        BufChain in = new BufChain(Buf.of(ByteBuffer.wrap(new byte[] {1, 2})), null);
        assertSame(SocketIo.CHAIN_ERROR, io.sendChain(c, in, 0));
        assertTrue(logText().contains("[alert] "), logText());
        assertTrue(logText().contains("bad buf in output chain"), logText());
    }

    @Test
    void sendChainToAClosedPeerIsChainError() throws IOException {
        open(EPOLL_FLAGS);
        Syscalls.close(peer);
        fds.remove(Integer.valueOf(peer));
        assertSame(SocketIo.CHAIN_ERROR, io.sendChain(c, BufChain.of(Buf.of(direct("x"))), 0));
        assertTrue(c.write.error);
        assertTrue(logText().contains("writev() failed (32: Broken pipe)"), logText());
    }

    /* ---- sendChain: files ---- */

    private int tempFile(Path dir, byte[] content) throws IOException {
        Path p = dir.resolve("f" + fds.size());
        java.nio.file.Files.write(p, content);
        int fd = Files.open(p.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
        fds.add(fd);
        return fd;
    }

    private static Buf fileBuf(int fd, long pos, long last) {
        Buf b = new Buf();
        b.inFile = true;
        b.fileFd = fd;
        b.fileName = "/tmp/f";
        b.filePos = pos;
        b.fileLast = last;
        return b;
    }

    @Test
    void sendChainSendsAFileWithSendfile(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        int fd = tempFile(dir, "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1));
        Buf f = fileBuf(fd, 3, 12);
        assertNull(io.sendChain(c, BufChain.of(f), 0));
        assertEquals("3456789ab", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertEquals(12, f.filePos);
        assertEquals(9, c.sent);
    }

    /** A loop as {@link #open}, the connection one end of a loopback TCP connection with TCP_NODELAY. */
    private void openTcp(int flags) throws IOException {
        loop = new EventLoop(null, new StubEventActions(flags), 4, 0, EventLoop.AcceptSettings.SINGLE, log);
        io = new SocketIo(loop);
        int ls = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        fds.add(ls);
        Sockets.bind(ls, SockAddr.parse("127.0.0.1:0"));
        Sockets.listen(ls, 1);
        peer = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        fds.add(peer);
        Sockets.connect(peer, Sockets.getsockname(ls));
        Syscalls.setNonBlocking(peer);
        long addr = memory.allocate(128);
        long len = memory.allocate(8);
        NativeMemory.putInt(len, 128);
        int s = Sockets.accept4(ls, addr, len, Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        Sockets.setsockopt(s, Platform.IPPROTO_TCP, Platform.TCP_NODELAY, 1);
        c = loop.getConnection(s, log);
        c.number = 7;
        c.read.ready = true;
        c.write.ready = true;
    }

    @Test
    void aHeaderBeforeAFileGoesInOneSegmentWithIt(@TempDir Path dir) throws IOException {
        openTcp(EPOLL_FLAGS);
        byte[] body = new byte[1024];
        java.util.Arrays.fill(body, (byte) 'b');
        int fd = tempFile(dir, body);
        String head = "HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n";
        long before = Sockets.segmentsOut(c.fd());
        assertNull(io.sendChain(c, new BufChain(Buf.of(direct(head)), BufChain.of(fileBuf(fd, 0, 1024))), 0));
        // writev and sendfile would be two segments: the header goes with MSG_MORE
        assertEquals(1, Sockets.segmentsOut(c.fd()) - before);
        assertEquals(head.length() + 1024, c.sent);
        byte[] got = new byte[head.length() + 1024];
        int n = 0;
        long end = System.nanoTime() + 5_000_000_000L;
        while (n < got.length && System.nanoTime() < end) {
            byte[] part = peerDrain();
            System.arraycopy(part, 0, got, n, part.length);
            n += part.length;
        }
        String expected = head + new String(body, StandardCharsets.ISO_8859_1);
        assertEquals(expected, new String(got, StandardCharsets.ISO_8859_1));
    }

    @Test
    void aHeaderAloneIsSentAtOnce() throws IOException {
        openTcp(EPOLL_FLAGS);
        String head = "HTTP/1.1 304 Not Modified\r\n\r\n";
        long before = Sockets.segmentsOut(c.fd());
        assertNull(io.sendChain(c, BufChain.of(Buf.of(direct(head))), 0));
        assertEquals(1, Sockets.segmentsOut(c.fd()) - before, "no MSG_MORE without a file after it");
    }

    @Test
    void sendChainMixesMemoryAndFileBuffers(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        int fd = tempFile(dir, "0123456789".getBytes(StandardCharsets.ISO_8859_1));
        int fd2 = tempFile(dir, "ABCDEFGHIJ".getBytes(StandardCharsets.ISO_8859_1));
        Buf last = new Buf();
        last.last = true;
        BufChain in = new BufChain(Buf.of(direct("<head>")),
                      new BufChain(fileBuf(fd, 0, 4),
                      new BufChain(fileBuf(fd, 4, 7),
                      new BufChain(fileBuf(fd2, 2, 5),
                      new BufChain(Buf.of(direct("<mid>")),
                      new BufChain(fileBuf(fd, 8, 10),
                      new BufChain(Buf.of(direct("<tail>")),
                      new BufChain(last, null))))))));
        assertNull(io.sendChain(c, in, 0));
        assertEquals("<head>0123456CDE<mid>89<tail>", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertEquals(29, c.sent);
    }

    @Test
    void sendChainOfALargeFileStopsWhenTheSocketIsFull(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        byte[] content = new byte[3 << 20];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i % 251);
        }
        int fd = tempFile(dir, content);
        BufChain in = new BufChain(Buf.of(direct("H")), BufChain.of(fileBuf(fd, 0, content.length)));
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        boolean partial = false;
        for (int rounds = 0; in != null && rounds < 100_000; rounds++) {
            c.write.ready = true;
            in = io.sendChain(c, in, 0);
            assertTrue(in != SocketIo.CHAIN_ERROR);
            partial |= in != null;
            got.writeBytes(peerDrain());
        }
        assertNull(in);
        assertTrue(partial);
        byte[] bytes = got.toByteArray();
        assertEquals(content.length + 1, bytes.length);
        assertEquals('H', bytes[0]);
        for (int i = 0; i < content.length; i++) {
            if (bytes[i + 1] != content[i]) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    @Test
    void sendfileOfATruncatedFileIsAnAlert(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        int fd = tempFile(dir, "short".getBytes(StandardCharsets.ISO_8859_1));
        assertSame(SocketIo.CHAIN_ERROR, io.sendChain(c, BufChain.of(fileBuf(fd, 5, 100)), 0));
        assertTrue(logText().contains("[alert] "), logText());
        assertTrue(logText().contains("sendfile() reported that \"/tmp/f\" was truncated at 5"), logText());
    }

    @Test
    void aHeaderBeforeATruncatedFileGoesAndTheFileIsAnAlert(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        int fd = tempFile(dir, "short".getBytes(StandardCharsets.ISO_8859_1));
        BufChain in = new BufChain(Buf.of(direct("<head>")), BufChain.of(fileBuf(fd, 5, 100)));
        assertSame(SocketIo.CHAIN_ERROR, io.sendChain(c, in, 0));
        assertEquals("<head>", new String(peerDrain(), StandardCharsets.ISO_8859_1));
        assertEquals(6, c.sent);
        assertTrue(logText().contains("sendfile() reported that \"/tmp/f\" was truncated at 5"), logText());
    }

    @Test
    void aHeaderBeforeAFileWaitsForAFullSocketAndThenGoesWithIt(@TempDir Path dir) throws IOException {
        open(EPOLL_FLAGS);
        int fd = tempFile(dir, "0123456789".getBytes(StandardCharsets.ISO_8859_1));
        String block = "x".repeat(1 << 16);
        BufChain big = BufChain.of(Buf.of(direct(block)));
        for (int i = 0; i < 1000 && c.write.ready; i++) {
            big = io.sendChain(c, big, 0);
            if (big == null) {
                big = BufChain.of(Buf.of(direct(block)));
            }
        }
        assertFalse(c.write.ready, "the socket filled");
        long full = c.sent;
        c.write.ready = true;
        Buf file = fileBuf(fd, 0, 10);
        BufChain in = new BufChain(Buf.of(direct("<head>")), BufChain.of(file));
        assertSame(in, io.sendChain(c, in, 0), "nothing went");
        assertFalse(c.write.ready);
        assertEquals(full, c.sent);
        assertEquals(0, file.filePos);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        for (int i = 0; i < 1000 && got.size() < full; i++) {
            got.writeBytes(peerDrain());
        }
        c.write.ready = true;
        assertNull(io.sendChain(c, in, 0));
        assertEquals(10, file.filePos);
        assertEquals(full + 16, c.sent);
        String tail = new String(peerDrain(), StandardCharsets.ISO_8859_1);
        assertTrue(got.size() + tail.length() >= full + 16, got.size() + " + " + tail.length());
        assertTrue((new String(got.toByteArray(), StandardCharsets.ISO_8859_1) + tail).endsWith("<head>0123456789"));
    }

    @Test
    void updateSentConsumesAcrossBuffers() {
        Buf a = Buf.of(ByteBuffer.allocateDirect(4));
        Buf flag = new Buf();
        flag.flush = true;
        Buf f = fileBuf(3, 10, 20);
        BufChain in = new BufChain(a, new BufChain(flag, new BufChain(f, null)));
        BufChain rest = SocketIo.updateSent(in, 7);
        assertSame(in.next.next, rest);
        assertEquals(0, a.size());
        assertEquals(13, f.filePos);
        assertNull(SocketIo.updateSent(rest, 7));
    }

    /* ---- allocation ---- */

    @Test
    void hotCallsAllocateNothing(@TempDir Path dir) throws Exception {
        open(EPOLL_FLAGS);
        Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
            .invoke(null);
        Class<?> sunMx = Class.forName("com.sun.management.ThreadMXBean");
        Assumptions.assumeTrue(sunMx.isInstance(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemorySupported").invoke(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx),
            "no per-thread allocation counter");
        Method allocated = sunMx.getMethod("getThreadAllocatedBytes", long.class);
        long id = Thread.currentThread().getId();

        int fd = tempFile(dir, "0123456789".getBytes(StandardCharsets.ISO_8859_1));
        ByteBuffer h1 = direct("head");
        ByteBuffer h2 = direct("ers");
        ByteBuffer rb = direct(64);
        ByteBuffer sb = direct("s");
        Buf m1 = Buf.of(h1);
        Buf m2 = Buf.of(h2);
        Buf f = fileBuf(fd, 0, 10);
        BufChain in = new BufChain(m1, new BufChain(m2, new BufChain(f, null)));
        long peerBuf = memory.allocate(256);
        int rounds = 20_000;
        for (int pass = 0; pass < 2; pass++) {
            long before = (Long) allocated.invoke(mx, id);
            for (int i = 0; i < rounds; i++) {
                h1.position(0);
                h2.position(0);
                f.filePos = 0;
                c.write.ready = true;
                if (io.sendChain(c, in, 0) != null) {
                    throw new AssertionError("not all sent");
                }
                sb.position(0);
                io.send(c, sb);
                if (Sockets.recv(peer, peerBuf, 256) != 18) {
                    throw new AssertionError("short");
                }
                Sockets.send(peer, peerBuf, 5);
                c.read.ready = true;
                c.read.available = -1;
                rb.clear();
                if (io.recv(c, rb) != 5 || io.recv(c, rb.clear()) != Rc.AGAIN) {
                    throw new AssertionError("recv");
                }
            }
            long bytes = (Long) allocated.invoke(mx, id) - before;
            if (pass == 1) {
                assertTrue(bytes < 4096, bytes + " bytes allocated in " + rounds + " rounds");
            }
        }
    }

    @Test
    void ofGivesOneObjectPerLoopUntilReleased() throws IOException {
        open(EPOLL_FLAGS);
        SocketIo first = SocketIo.of(loop);
        assertSame(first, SocketIo.of(loop));
        SocketIo.release(loop);
        SocketIo second = SocketIo.of(loop);
        assertTrue(first != second);
        SocketIo.release(loop);
    }
}
