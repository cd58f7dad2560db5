package jinx.kernel.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * Outbound connections ({@link EventConnect}, nginx's {@code ngx_event_connect_peer()}) on a real event method:
 * {@link EventActionsContract} extends this class, so epoll and poll both pass it. A peer accepted by a
 * {@code java.net} server gets the bytes sent on the slot once the write event reported the connect done; a
 * refused connect is reported either at once ({@link Rc#DECLINED}, slot closed) or through the write event and
 * {@link EventConnect#testConnect} (logged as nginx words it); the source's verdict ({@link Rc#BUSY}) comes
 * back as it is; with no slot left the socket is closed (the descriptor baseline checks it).
 */
public abstract class ConnectScenarios extends MemoryConnectionScenarios {

    /** A source with one fixed peer that counts its calls. */
    private static final class OnePeer implements PeerConnection.Source {

        final InetSocketAddress address;
        int gets;
        int frees;
        int rc = Rc.OK;

        OnePeer(int port) {
            address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        }

        @Override
        public int get(PeerConnection pc) {
            gets++;
            pc.address = address;
            pc.name = "127.0.0.1:" + address.getPort();
            return rc;
        }

        @Override
        public void free(PeerConnection pc, int state) {
            frees++;
        }
    }

    private PeerConnection peer(OnePeer source) {
        PeerConnection pc = new PeerConnection();
        pc.source = source;
        pc.log = h.log();
        pc.tries = 1;
        return pc;
    }

    /** A connect completes through the write event, and what the slot sends reaches the peer. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void connectsAndSends() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            OnePeer source = new OnePeer(server.getLocalPort());
            PeerConnection pc = peer(source);
            int free = loop.freeConnectionCount();
            int rc = EventConnect.connectPeer(loop, pc);
            assertTrue(rc == Rc.OK || rc == Rc.AGAIN, "rc " + rc);
            assertEquals(1, source.gets);
            Connection c = pc.connection;
            assertNotNull(c);
            assertEquals(free - 1, loop.freeConnectionCount(), "a slot of the table");
            assertEquals("127.0.0.1:" + server.getLocalPort(), c.addrText());
            boolean[] writable = {c.write.ready};
            c.write.handler = ev -> writable[0] = true;
            assertTrue(LoopHarness.turnUntil(loop, 100, 5_000, () -> writable[0]), "write event after connect");
            assertEquals(Rc.OK, EventConnect.testConnect(c));
            ByteBuffer out = ByteBuffer.allocateDirect(16).put("ping".getBytes(StandardCharsets.US_ASCII)).flip();
            assertEquals(4, c.io().send(c, out));
            try (Socket accepted = server.accept()) {
                accepted.setSoTimeout(5_000);
                InputStream in = accepted.getInputStream();
                byte[] got = in.readNBytes(4);
                assertEquals("ping", new String(got, StandardCharsets.US_ASCII));
                accepted.getOutputStream().write("pong".getBytes(StandardCharsets.US_ASCII));
                accepted.getOutputStream().flush();
                ByteBuffer buf = ByteBuffer.allocateDirect(16);
                boolean[] readable = {false};
                c.read.handler = ev -> readable[0] = true;
                assertTrue(LoopHarness.turnUntil(loop, 100, 5_000, () -> readable[0] || c.read.ready),
                    "read event after the peer wrote");
                assertEquals(4, c.io().recv(c, buf));
            }
            c.close();
            assertEquals(free, loop.freeConnectionCount(), "slot back");
        }
    }

    /**
     * A datagram peer ({@link PeerConnection#datagram}): connected at once, a datagram sent whole, and the
     * answers read one datagram each with {@link jinx.kernel.SocketIo#recvDatagram} until the socket is drained,
     * however short each was.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void datagramPeer() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        try (DatagramSocket server = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(5_000);
            PeerConnection pc = peer(new OnePeer(server.getLocalPort()));
            pc.datagram = true;
            int free = loop.freeConnectionCount();
            assertEquals(Rc.OK, EventConnect.connectPeer(loop, pc));
            Connection c = pc.connection;
            assertTrue(c.write.ready, "a datagram socket is writable at once");
            c.write.handler = ev -> { };
            ByteBuffer out = ByteBuffer.allocateDirect(16).put("ping".getBytes(StandardCharsets.US_ASCII)).flip();
            assertEquals(4, loop.socketIo().send(c, out));
            DatagramPacket in = new DatagramPacket(new byte[16], 16);
            server.receive(in);
            assertEquals("ping", new String(in.getData(), 0, in.getLength(), StandardCharsets.US_ASCII));
            server.send(new DatagramPacket(new byte[] {1, 2}, 2, in.getSocketAddress()));
            server.send(new DatagramPacket(new byte[] {3, 4, 5}, 3, in.getSocketAddress()));
            boolean[] readable = {false};
            c.read.handler = ev -> readable[0] = true;
            assertTrue(LoopHarness.turnUntil(loop, 100, 5_000, () -> readable[0] || c.read.ready), "read event");
            ByteBuffer buf = ByteBuffer.allocateDirect(64);
            int first = loop.socketIo().recvDatagram(c, buf);
            assertEquals(2, first);
            int second = loop.socketIo().recvDatagram(c, buf.clear());
            for (long end = System.nanoTime() + 5_000_000_000L; second == Rc.AGAIN && System.nanoTime() < end;) {
                Thread.sleep(10);
                second = loop.socketIo().recvDatagram(c, buf.clear());
            }
            assertEquals(3, second, "the second datagram after a short first one");
            assertEquals(Rc.AGAIN, loop.socketIo().recvDatagram(c, buf.clear()));
            assertTrue(!c.read.ready);
            c.close();
            assertEquals(free, loop.freeConnectionCount(), "slot back");
        }
    }

    /** A refused connect: at once (DECLINED, slot closed) or through the write event and SO_ERROR. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void refusedIsReported() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        OnePeer source = new OnePeer(port);
        PeerConnection pc = peer(source);
        int free = loop.freeConnectionCount();
        int rc = EventConnect.connectPeer(loop, pc);
        if (rc == Rc.DECLINED) {
            assertNull(pc.connection, "closed at once");
            assertTrue(h.logText().contains("connect() to 127.0.0.1:" + port + " failed (111: "), h.logText());
        } else {
            assertEquals(Rc.AGAIN, rc);
            Connection c = pc.connection;
            boolean[] fired = {false};
            c.write.handler = ev -> fired[0] = true;
            c.read.handler = ev -> fired[0] = true;
            assertTrue(LoopHarness.turnUntil(loop, 100, 5_000, () -> fired[0]), "an event after the refusal");
            assertEquals(Rc.ERROR, EventConnect.testConnect(c));
            assertTrue(c.error);
            assertTrue(h.logText().contains("connect() failed (111: "), h.logText());
            c.close();
        }
        assertEquals(free, loop.freeConnectionCount(), "slot back");
    }

    /** The source's answer other than OK comes back untouched, and no slot or socket is taken. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void sourceVerdictComesBack() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        OnePeer source = new OnePeer(1);
        source.rc = Rc.BUSY;
        PeerConnection pc = peer(source);
        int free = loop.freeConnectionCount();
        assertEquals(Rc.BUSY, EventConnect.connectPeer(loop, pc));
        assertNull(pc.connection);
        assertEquals(free, loop.freeConnectionCount());
    }

    /** With every slot lent, connecting fails with ERROR and closes its socket (the fd baseline checks). */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void noSlotClosesTheSocket() throws Exception {
        EventLoop loop = h.loop(newActions(), 2);
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Connection a = loop.getConnection(Connection.NO_DESCRIPTOR, h.log());
            Connection b = loop.getConnection(Connection.NO_DESCRIPTOR, h.log());
            assertNotNull(a);
            assertNotNull(b);
            PeerConnection pc = peer(new OnePeer(server.getLocalPort()));
            assertEquals(Rc.ERROR, EventConnect.connectPeer(loop, pc));
            assertNull(pc.connection);
            a.close();
            b.close();
        }
    }
}
