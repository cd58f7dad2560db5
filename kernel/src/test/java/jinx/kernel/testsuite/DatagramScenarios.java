package jinx.kernel.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.DatagramIo;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.Rc;
import jinx.kernel.spi.EventActions;

/**
 * UDP sessions on a listening datagram socket ({@link Listening#datagram}, {@link DatagramIo}: nginx's
 * {@code ngx_event_recvmsg()}) on a real event method: {@link EventActionsContract} extends this class, so epoll and
 * poll both pass it. Each client address gets one session (a slot without a descriptor) whose first datagram is
 * readable in the listening socket's handler and whose later ones come through its read handler; replies go to
 * the client from the listening socket; a closed or detached session makes room for a new one; a flood from more
 * addresses than there are slots opens no more sessions than slots.
 */
public abstract class DatagramScenarios extends ConnectScenarios {

    /** An echo protocol on the sessions: each datagram sent back upper-cased; the sessions opened, in order. */
    private static final class Echo {
        final Listening ls;
        final List<Connection> opened = new ArrayList<>();
        final ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        boolean readFirst = true;

        Echo(Listening ls) {
            this.ls = ls;
            ls.handler = this::open;
        }

        void open(Connection c) {
            opened.add(c);
            c.read.handler = ev -> echo(c);
            if (readFirst) {
                echo(c);
            }
        }

        void echo(Connection c) {
            for (;;) {
                buf.clear();
                int n = c.io().recv(c, buf);
                if (n == Rc.AGAIN) {
                    return;
                }
                buf.flip();
                for (int i = 0; i < buf.limit(); i++) {
                    buf.put(i, (byte) Character.toUpperCase(buf.get(i)));
                }
                assertEquals(n, c.io().send(c, buf), "a datagram is sent whole");
            }
        }
    }

    private Echo echo(EventLoop loop) throws Exception {
        Echo e = new Echo(h.datagramListening());
        loop.listen(e.ls);
        return e;
    }

    private DatagramSocket client() throws Exception {
        DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        s.setSoTimeout(200);
        h.closeLater(s);
        return s;
    }

    private static void send(DatagramSocket s, Listening ls, String text) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        s.send(new DatagramPacket(b, b.length, ls.sockaddr().inetAddress(), ls.sockaddr().port()));
    }

    /** Turns the loop until a datagram comes to {@code s}; null when none came within five seconds. */
    private static String receive(EventLoop loop, DatagramSocket s) throws Exception {
        byte[] b = new byte[2048];
        DatagramPacket p = new DatagramPacket(b, b.length);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            loop.actions().processEvents(20, EventActions.UPDATE_TIME);
            try {
                s.setSoTimeout(20);
                s.receive(p);
                return new String(b, 0, p.getLength(), StandardCharsets.ISO_8859_1);
            } catch (SocketTimeoutException e) {
                // not yet
            }
        }
        return null;
    }

    /**
     * Two clients, three datagrams each: two sessions, each client gets its own datagrams back, one by one and
     * whole; the session's peer is the client's address, and its bytes sent are counted.
     */
    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void eachClientAddressGetsOneSession() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Echo e = echo(loop);
        DatagramSocket a = client();
        DatagramSocket b = client();
        for (int i = 0; i < 3; i++) {
            send(a, e.ls, "a" + i);
            assertEquals("A" + i, receive(loop, a));
            send(b, e.ls, "bb" + i);
            assertEquals("BB" + i, receive(loop, b));
        }
        assertEquals(2, e.opened.size(), "sessions");
        Connection ca = e.opened.get(0);
        assertEquals("127.0.0.1:" + a.getLocalPort(), ca.addrText());
        assertEquals(6, ca.sent);
        assertFalse(ca.hasDescriptor(), "a session shares the listening socket");
        assertTrue(DatagramIo.isDatagram(ca));
    }

    /**
     * A closed session's client opens a new one with its next datagram, and so does a detached one's while the
     * detached session still sends to its client.
     */
    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void closedOrDetachedSessionsMakeRoom() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Echo e = echo(loop);
        DatagramSocket a = client();
        send(a, e.ls, "one");
        assertEquals("ONE", receive(loop, a));
        Connection first = e.opened.get(0);
        int free = loop.freeConnectionCount();
        first.close();
        assertEquals(free + 1, loop.freeConnectionCount(), "the session's slot is free again");
        send(a, e.ls, "two");
        assertEquals("TWO", receive(loop, a));
        assertEquals(2, e.opened.size(), "a new session after the close");

        Connection second = e.opened.get(1);
        ((DatagramIo) second.io()).detach(second);
        send(a, e.ls, "three");
        assertEquals("THREE", receive(loop, a));
        assertEquals(3, e.opened.size(), "a new session after the detach");
        ByteBuffer late = ByteBuffer.allocateDirect(4).put("late".getBytes(StandardCharsets.ISO_8859_1)).flip();
        assertEquals(4, second.io().send(second, late), "the detached session still sends");
        assertEquals("late", receive(loop, a));
    }

    /**
     * A datagram the handler does not read is dropped: nothing is readable afterwards, and the session's next
     * datagram is the next one sent.
     */
    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void anUnreadDatagramIsDropped() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Echo e = echo(loop);
        e.readFirst = false;
        DatagramSocket a = client();
        send(a, e.ls, "skipped");
        assertTrue(LoopHarness.turnUntil(loop, 50, 5000, () -> e.opened.size() == 1), "no session");
        Connection c = e.opened.get(0);
        assertFalse(c.read.ready, "ready after the handler");
        assertEquals(Rc.AGAIN, c.io().recv(c, ByteBuffer.allocateDirect(64)));
        send(a, e.ls, "next");
        assertEquals("NEXT", receive(loop, a));
    }

    /**
     * Datagrams from more addresses than the loop has slots: one session per free slot, the rest dropped with
     * nginx's alert, and the loop serves the sessions it has.
     */
    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void aFloodFromManyAddressesIsBoundedBySlots() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Echo e = echo(loop);
        int free = loop.freeConnectionCount();
        List<DatagramSocket> clients = new ArrayList<>();
        for (int i = 0; i < SLOTS * 3; i++) {
            DatagramSocket s = client();
            clients.add(s);
            send(s, e.ls, "x" + i);
        }
        LoopHarness.turnUntil(loop, 50, 2000, () -> loop.freeConnectionCount() == 0);
        turnFor(loop, 200);
        assertEquals(free, e.opened.size(), "sessions opened");
        assertEquals(0, loop.freeConnectionCount(), "free slots");
        assertTrue(h.logText().contains(SLOTS + " worker_connections are not enough"), h.logText());
        DatagramSocket first = clients.get(0);
        assertEquals("X0", receive(loop, first), "the first session's reply");
        send(first, e.ls, "again");
        assertEquals("AGAIN", receive(loop, first), "a session serves on");
    }
}
