package jinx.event.epoll;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.event.epoll.EpollFixture.Pair;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Sockets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The wait's reads ahead ({@link EpollPreread}) through a real loop and {@link SocketIo#recv}: what an armed
 * connection is given, that the flags are those its own read would have set, that a read ahead is spent by one event,
 * that bytes not yet taken are never overwritten, and that a closed or lent-again slot is not read.
 */
@EnabledOnOs(OS.LINUX)
class EpollPrereadTest {

    private Map<String, String> baseline;
    private EpollFixture f;
    private SocketIo io;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(EpollSyscalls.canPreread(), "libjinxio is needed to read ahead");
        baseline = Fds.baseline();
        f = new EpollFixture();
        io = SocketIo.of(f.loop);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (f != null) {
            f.close();
            Fds.assertBackTo(baseline);
        }
    }

    /** A read handler that remembers what it was given, then receives into its buffer unless told not to. */
    private final class Reader implements EventHandler {
        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        boolean read = true;
        int calls;
        boolean given;
        int givenCount;
        int n;

        @Override
        public void handle(Event ev) {
            calls++;
            given = ev.preread;
            givenCount = ev.prereadCount;
            if (read) {
                buf.clear();
                n = io.recv(ev.connection(), buf);
            }
        }

        String text() {
            byte[] b = new byte[buf.position()];
            buf.duplicate().flip().get(b);
            return new String(b, StandardCharsets.ISO_8859_1);
        }
    }

    private Reader reader(Connection c) {
        Reader r = new Reader();
        c.read.handler = r;
        return r;
    }

    /** A connection registered, its registration's first (writable) event handled, and read ahead armed. */
    private record Armed(Pair p, Reader r) {
        Connection c() {
            return p.c();
        }
    }

    private Armed armed(int size, boolean read) throws Exception {
        Pair p = f.pair();
        f.actions.addConnection(p.c());
        Reader r = reader(p.c());
        r.read = read;
        f.actions.processEvents(0, 0);
        f.actions.preread(p.c(), size);
        return new Armed(p, r);
    }

    private void send(int fd, String s) throws Exception {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        NativeMemory.put(f.buf, b, 0, b.length);
        assertEquals(b.length, Sockets.send(fd, f.buf, b.length));
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void anArmedConnectionIsGivenItsBytesOnceWithTheFlagsOfAShortRead() throws Exception {
        Armed a = armed(1024, true);
        Connection c = a.c();
        Reader r = a.r();
        send(a.p().peer(), "GET / HTTP/1.1\r\n\r\n");
        f.actions.processEvents(1000, 0);
        assertEquals(1, r.calls);
        assertTrue(r.given, "read ahead in the wait");
        assertEquals(18, r.givenCount);
        assertEquals(18, r.n);
        assertEquals("GET / HTTP/1.1\r\n\r\n", r.text());
        assertFalse(c.read.preread, "taken");
        assertFalse(c.read.ready, "a short read drained the socket");
        assertEquals(0, c.read.available);
        assertEquals(Rc.AGAIN, io.recv(c, r.buf.clear()));

        // spent: the next request is read by the handler itself
        send(a.p().peer(), "again");
        f.actions.processEvents(1000, 0);
        assertEquals(2, r.calls);
        assertFalse(r.given);
        assertEquals(5, r.n);
        assertEquals("again", r.text());
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void whatDoesNotFitIsTakenByTheNextReceivesAndAFullReadLeavesTheSocketReady() throws Exception {
        Armed a = armed(4, false);
        Connection c = a.c();
        Reader r = a.r();
        send(a.p().peer(), "0123456789");
        f.actions.processEvents(1000, 0);
        assertTrue(r.given);
        assertEquals(4, r.givenCount, "at most the size asked for");

        ByteBuffer three = ByteBuffer.allocateDirect(3);
        assertEquals(3, io.recv(c, three));
        assertTrue(c.read.preread, "one byte left");
        ByteBuffer rest = ByteBuffer.allocateDirect(16);
        assertEquals(1, io.recv(c, rest));
        assertFalse(c.read.preread);
        assertTrue(c.read.ready, "the read ahead filled its size: more may be there");
        assertEquals(6, io.recv(c, rest));
        assertEquals("3456789", new String(bytes(rest), StandardCharsets.ISO_8859_1));
        assertEquals("012", new String(bytes(three), StandardCharsets.ISO_8859_1));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.position()];
        b.duplicate().flip().get(a);
        return a;
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void endOfFileAndAResetAreGivenAsTheReadWouldHaveAnswered() throws Exception {
        Armed eof = armed(1024, true);
        Connection c = eof.c();
        Reader r = eof.r();
        f.closePeer(eof.p().peer());
        f.actions.processEvents(1000, 0);
        assertTrue(r.given);
        assertEquals(0, r.n);
        assertTrue(c.read.eof);
        assertFalse(c.read.ready);

        // a UNIX socket whose peer closes with bytes unread gets ECONNRESET
        Armed reset = armed(1024, true);
        Connection d = reset.c();
        Reader rd = reset.r();
        send(d.fd(), "unread");
        f.closePeer(reset.p().peer());
        f.actions.processEvents(1000, 0);
        assertTrue(rd.given);
        assertEquals(-Errors.ECONNRESET, rd.givenCount);
        assertEquals(Rc.ERROR, rd.n);
        assertTrue(d.read.error);
        assertTrue(f.logText().contains("recv() failed (" + Errors.ECONNRESET + ": Connection reset by peer)"),
                   f.logText());
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void bytesNotYetTakenAreNeverOverwritten() throws Exception {
        Armed a = armed(1024, false);
        Armed b = armed(1024, true);
        Reader ra = a.r();
        Reader rb = b.r();
        send(a.p().peer(), "first of a");
        send(b.p().peer(), "first of b");
        f.actions.processEvents(1000, 0);
        assertTrue(ra.given);
        assertTrue(rb.given);
        assertEquals("first of b", rb.text());

        // a has not taken its bytes: the next wait does not read ahead, and the wait disarms what it returns
        f.actions.preread(b.c(), 1024);
        send(b.p().peer(), "second of b");
        f.actions.processEvents(1000, 0);
        assertFalse(rb.given);
        assertEquals("second of b", rb.text());

        ByteBuffer buf = ByteBuffer.allocateDirect(64);
        assertEquals(10, io.recv(a.c(), buf));
        assertEquals("first of a", new String(bytes(buf), StandardCharsets.ISO_8859_1));

        // b's entry was spent by the wait that did not read ahead; armed again, it is read ahead again
        send(b.p().peer(), "third of b");
        f.actions.processEvents(1000, 0);
        assertFalse(rb.given, "not armed");
        f.actions.preread(b.c(), 1024);
        send(b.p().peer(), "fourth of b");
        f.actions.processEvents(1000, 0);
        assertTrue(rb.given);
        assertEquals("fourth of b", rb.text());
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aClosedConnectionsSlotLentAgainIsNotReadAhead() throws Exception {
        Connection c = armed(1024, true).c();
        int slot = c.slot();
        f.loop.closeConnection(c);

        Pair q = f.pair();
        Connection d = q.c();
        assertEquals(slot, d.slot(), "the slot lent again");
        f.actions.addConnection(d);
        Reader r = reader(d);
        f.actions.processEvents(0, 0);
        send(q.peer(), "new");
        f.actions.processEvents(1000, 0);
        assertEquals(1, r.calls);
        assertFalse(r.given);
        assertEquals(3, r.n);
    }
}
