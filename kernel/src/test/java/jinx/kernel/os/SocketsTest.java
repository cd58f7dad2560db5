package jinx.kernel.os;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import jnr.constants.platform.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link Sockets}: real sockets on 127.0.0.1, ::1 and a unix path, port 0 only; every descriptor is closed and
 * the process's descriptor count is back to its baseline after each test.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class SocketsTest {

    private NativeMemory mem;
    private long buf;
    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
        mem = new NativeMemory();
        buf = mem.allocate(65536);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        mem.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    void tcpRoundTripOverIpv4() throws Exception {
        roundTrip(SockAddr.parse("127.0.0.1:0"));
    }

    @Test
    void tcpRoundTripOverIpv6() throws Exception {
        int probe = Sockets.socket(Platform.AF_INET6, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        try {
            Sockets.bind(probe, SockAddr.parse("[::1]:0"));
        } catch (NativeIoException e) {
            assumeTrue(false, "::1 is unavailable: " + e.getMessage());
        } finally {
            Syscalls.close(probe);
        }
        roundTrip(SockAddr.parse("[::1]:0"));
    }

    @Test
    void roundTripOverAUnixSocket(@TempDir Path dir) throws Exception {
        String path = dir.resolve("jinx.sock").toString();
        roundTrip(SockAddr.unix(path));
        Files.unlink(path);
        NativeIoException e = assertThrows(NativeIoException.class, () -> Files.unlink(path));
        assertEquals(Errno.ENOENT.intValue(), e.errno());
        assertEquals("unlink() \"" + path + "\" failed (2: No such file or directory)", e.getMessage());
    }

    /** listen, connect, accept4, send both ways, recv, the names of both ends. */
    private void roundTrip(SockAddr address) throws Exception {
        int ls = -1;
        int c = -1;
        int s = -1;
        try {
            ls = listener(address);
            SockAddr bound = Sockets.getsockname(ls);
            if (!address.isUnix()) {
                assertTrue(bound.port() > 0);
                assertEquals(address.withPort(bound.port()), bound);
            } else {
                assertEquals(address, bound);
            }
            c = Sockets.socket(address.family(), Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
            assertEquals(Rc.OK, Sockets.connect(c, bound));

            long sa = mem.allocate(Platform.SIZEOF_SOCKADDR_STORAGE);
            long len = mem.allocate(Platform.SIZEOF_SOCKLEN_T);
            s = Sockets.accept4(ls, sa, len, Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
            assertTrue(s >= 0);
            assertTrue(Syscalls.isNonBlocking(s));
            assertTrue(Syscalls.isCloexec(s));
            SockAddr peer = SockAddr.decode(sa, NativeMemory.getInt(len));
            assertEquals(Sockets.getsockname(c), peer);
            assertEquals(peer, Sockets.getpeername(s));
            assertEquals(bound, Sockets.getpeername(c));

            byte[] hello = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            NativeMemory.put(buf, hello, 0, hello.length);
            assertEquals(hello.length, Sockets.send(c, buf, hello.length));
            assertArrayEquals(hello, recvExactly(s, hello.length));

            byte[] answer = "HTTP/1.0 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            NativeMemory.put(buf, answer, 0, answer.length);
            assertEquals(answer.length, Sockets.send(s, buf, answer.length));
            assertArrayEquals(answer, recvExactly(c, answer.length));
        } finally {
            Fds.closeQuietly(s, c, ls);
        }
    }

    @Test
    void nonBlockingRecvWithoutDataIsAgainAndPeerCloseIsEof() throws Exception {
        int[] fds = tcpPair();
        try {
            assertEquals(Rc.AGAIN, Sockets.recv(fds[1], buf, 100));
            NativeMemory.putByte(buf, (byte) 'x');
            assertEquals(1, Sockets.send(fds[0], buf, 1));
            assertEquals(1, recvExactly(fds[1], 1).length);
            assertEquals(Rc.AGAIN, Sockets.recv(fds[1], buf, 100));
            Syscalls.close(fds[0]);
            fds[0] = -1;
            int n;
            while ((n = Sockets.recv(fds[1], buf, 100)) == Rc.AGAIN) {
                Thread.onSpinWait();
            }
            assertEquals(0, n);
        } finally {
            Fds.closeQuietly(fds);
        }
    }

    @Test
    void sendToAClosedPeerIsEpipeNotSigpipe() throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC);
        try {
            Syscalls.close(sv[1]);
            sv[1] = -1;
            NativeIoException e = assertThrows(NativeIoException.class, () -> Sockets.send(sv[0], buf, 1));
            assertEquals(Errno.EPIPE.intValue(), e.errno());
            assertEquals("send()", e.call());
        } finally {
            Fds.closeQuietly(sv);
        }
    }

    @Test
    void bindToAUsedPortNamesTheCallAndTheAddress() throws Exception {
        int ls = -1;
        int other = -1;
        try {
            ls = listener(SockAddr.parse("127.0.0.1:0"));
            SockAddr bound = Sockets.getsockname(ls);
            other = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
            int fd = other;
            NativeIoException e = assertThrows(NativeIoException.class, () -> Sockets.bind(fd, bound));
            int eaddrinuse = Errno.EADDRINUSE.intValue();
            assertEquals(eaddrinuse, e.errno());
            assertEquals("bind() to " + bound, e.call());
            String text = Errno.EADDRINUSE.description();
            assertEquals("bind() to " + bound + " failed (" + eaddrinuse + ": " + text + ")", e.getMessage());
        } finally {
            Fds.closeQuietly(other, ls);
        }
    }

    @Test
    void nonBlockingAcceptAndConnect() throws Exception {
        int ls = -1;
        int c = -1;
        int s = -1;
        try {
            ls = listener(SockAddr.parse("127.0.0.1:0"));
            Syscalls.setNonBlocking(ls);
            assertEquals(Rc.AGAIN, Sockets.accept4(ls, 0, 0, Platform.SOCK_NONBLOCK));
            c = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK, 0);
            int rc = Sockets.connect(c, Sockets.getsockname(ls));
            assertTrue(rc == Rc.OK || rc == Rc.AGAIN, "rc " + rc);
            while ((s = Sockets.accept4(ls, 0, 0, Platform.SOCK_NONBLOCK)) == Rc.AGAIN) {
                Thread.onSpinWait();
            }
            assertEquals(0, Sockets.getsockopt(c, Platform.SOL_SOCKET, Platform.SO_ERROR));
        } finally {
            Fds.closeQuietly(s, c, ls);
        }
    }

    @Test
    void connectRefusedNamesTheAddress() throws Exception {
        int ls = listener(SockAddr.parse("127.0.0.1:0"));
        SockAddr gone = Sockets.getsockname(ls);
        Syscalls.close(ls);
        int c = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        try {
            NativeIoException e = assertThrows(NativeIoException.class, () -> Sockets.connect(c, gone));
            assertEquals(Errno.ECONNREFUSED.intValue(), e.errno());
            assertEquals("connect() to " + gone, e.call());
        } finally {
            Syscalls.close(c);
        }
    }

    @Test
    void socketOptions() throws Exception {
        int fd = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        try {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEADDR, 1);
            assertEquals(1, Sockets.getsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEADDR));
            long scratch = mem.allocate(4);
            Sockets.setsockopt(fd, Platform.IPPROTO_TCP, Platform.TCP_NODELAY, 1, scratch);
            assertTrue(Sockets.getsockopt(fd, Platform.IPPROTO_TCP, Platform.TCP_NODELAY) != 0);
            Sockets.setsockopt(fd, Platform.IPPROTO_TCP, Platform.TCP_DEFER_ACCEPT, 1);
            NativeIoException e = assertThrows(NativeIoException.class,
                () -> Sockets.setsockopt(fd, Platform.IPPROTO_IPV6, Platform.IPV6_V6ONLY, 1));
            assertEquals("setsockopt(IPV6_V6ONLY)", e.call());
            e = assertThrows(NativeIoException.class, () -> Sockets.shutdown(fd, Platform.SHUT_RDWR));
            assertEquals(Errno.ENOTCONN.intValue(), e.errno());
            assertEquals("shutdown()", e.call());
        } finally {
            Syscalls.close(fd);
        }
    }

    private int listener(SockAddr address) throws NativeIoException {
        int ls = Sockets.socket(address.family(), Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        try {
            Sockets.bind(ls, address);
            Sockets.listen(ls, 511);
            return ls;
        } catch (NativeIoException e) {
            Syscalls.close(ls);
            throw e;
        }
    }

    /** A connected TCP pair on 127.0.0.1, both ends non-blocking. */
    private int[] tcpPair() throws NativeIoException {
        int ls = listener(SockAddr.parse("127.0.0.1:0"));
        int c = -1;
        try {
            c = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
            Sockets.connect(c, Sockets.getsockname(ls));
            Syscalls.setNonBlocking(c);
            int s = Sockets.accept4(ls, 0, 0, Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
            return new int[] {c, s};
        } catch (NativeIoException e) {
            Fds.closeQuietly(c);
            throw e;
        } finally {
            Syscalls.close(ls);
        }
    }

    private byte[] recvExactly(int fd, int len) throws NativeIoException {
        int got = 0;
        while (got < len) {
            int n = Sockets.recv(fd, buf + got, len - got);
            if (n == Rc.AGAIN) {
                Thread.onSpinWait();
                continue;
            }
            assertTrue(n > 0, "eof after " + got);
            got += n;
        }
        byte[] b = new byte[len];
        NativeMemory.get(buf, b, 0, len);
        return b;
    }

    static String string(long address, int len) {
        byte[] b = new byte[len];
        NativeMemory.get(address, b, 0, len);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
