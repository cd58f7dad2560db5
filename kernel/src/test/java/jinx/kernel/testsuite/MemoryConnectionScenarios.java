package jinx.kernel.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.MemoryConnection;
import jinx.kernel.Rc;
import jinx.kernel.testsuite.LoopHarness.Fd;

/**
 * The in-memory connection ({@link MemoryConnection}) on a real event method ({@link EventActionsContract} extends
 * this class, so every method runs it): a slot lent without a descriptor is armed the way protocols arm a socket
 * ({@link EventLoop#handleReadEvent}) without the method ever seeing it, its posted read events run on the next
 * turn without the loop sleeping, it shares the loop with socket connections, and closing it frees the slot and
 * closes no descriptor. The suite's descriptor baseline is checked after each case, as for the others.
 */
public abstract class MemoryConnectionScenarios extends AcceptAndTimeScenarios {

    /** Reads everything the connection holds and re-arms it, as a protocol's read handler does. */
    private static final class Reader {

        final StringBuilder got = new StringBuilder();
        final ByteBuffer buf = ByteBuffer.allocateDirect(256);
        int calls;
        boolean eof;

        void handle(Event rev) {
            calls++;
            Connection c = rev.connection();
            for (;;) {
                int n = c.io().recv(c, buf.clear());
                if (n > 0) {
                    got.append(StandardCharsets.US_ASCII.decode(buf.flip()));
                    continue;
                }
                if (n == 0) {
                    eof = true;
                    c.close();
                    return;
                }
                assertEquals(Rc.AGAIN, n, "recv");
                assertEquals(Rc.OK, c.loop().handleReadEvent(rev, 0), "re-armed");
                return;
            }
        }
    }

    /** One turn of the whole loop, waiting at most {@code ms}: returns how long it took, in ms. */
    private static long turn(EventLoop loop, long ms) throws IOException {
        Event tick = new Event();
        tick.handler = ev -> { };
        loop.addTimer(tick, ms);
        long start = System.nanoTime();
        loop.processEventsAndTimers();
        long took = System.nanoTime() - start;
        loop.deleteTimer(tick);
        return TimeUnit.NANOSECONDS.toMillis(took);
    }

    /**
     * An in-memory connection armed, fed, answered, half-closed by its client and closed by its handler: the
     * method is never asked to register it (it would refuse its descriptor), a posted read event runs on the next
     * turn at once, and afterwards the slot is free and no descriptor was opened or closed.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void anInMemoryConnectionOnThisMethod() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        int fds = OpenFds.count();
        int free = loop.freeConnectionCount();
        MemoryConnection mc = MemoryConnection.open(loop, h.log());
        assertNotNull(mc, "no free slot");
        Connection c = mc.connection();
        Reader reader = new Reader();
        c.read.handler = reader::handle;
        c.write.handler = ev -> { };
        assertEquals(Rc.OK, loop.handleReadEvent(c.read, 0));
        // as if a protocol had removed the write event: arming it again must not reach the method, which would
        // refuse the descriptor (epoll) or keep an entry for it (poll)
        c.write.active = false;
        c.write.ready = false;
        assertEquals(Rc.OK, loop.handleWriteEvent(c.write));
        assertFalse(c.write.active, "the method was asked to register it");
        c.write.active = true;
        c.write.ready = true;

        mc.write("ping".getBytes(StandardCharsets.US_ASCII));
        // ready and registered: a level-triggered method would remove it now, but there is nothing to remove
        assertEquals(Rc.OK, loop.handleReadEvent(c.read, 0));
        assertTrue(c.read.active, "the method was asked to remove it");
        assertTrue(turn(loop, 8_000) < 4_000, "a posted read event does not wait for the timer");
        assertEquals("ping", reader.got.toString());
        assertEquals(1, reader.calls);

        assertEquals(4, c.io().send(c, ByteBuffer.allocateDirect(4).put(new byte[] {'p', 'o', 'n', 'g'}).flip()));
        assertEquals("pong", new String(mc.read(), StandardCharsets.US_ASCII));

        mc.write("more".getBytes(StandardCharsets.US_ASCII));
        mc.shutdownOutput();
        turn(loop, 8_000);
        assertEquals("pingmore", reader.got.toString());
        assertTrue(reader.eof, "the client's end of stream");
        assertTrue(mc.closed());
        assertTrue(mc.eof());
        assertEquals(free, loop.freeConnectionCount());
        assertEquals(fds, OpenFds.count(), "no descriptor opened or closed");
        assertFalse(h.logText().contains("[alert]") || h.logText().contains("[error]"), h.logText());
    }

    /**
     * Socket connections and in-memory ones served by one loop: the sockets' readiness comes from the method, the
     * others' is posted, and neither disturbs the other (poll's array, epoll's registrations).
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void socketsAndInMemoryConnectionsShareTheLoop() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        int free = loop.freeConnectionCount();
        List<Fd[]> pairs = new ArrayList<>();
        List<Reader> sockets = new ArrayList<>();
        List<MemoryConnection> memories = new ArrayList<>();
        List<Reader> inMemory = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Fd[] pair = h.socketPair();
            Connection s = lend(loop, pair[0]);
            Reader r = new Reader();
            s.read.handler = r::handle;
            assertEquals(Rc.OK, loop.handleReadEvent(s.read, 0));
            pairs.add(pair);
            sockets.add(r);
            MemoryConnection mc = MemoryConnection.open(loop, h.log());
            Reader m = new Reader();
            mc.connection().read.handler = m::handle;
            memories.add(mc);
            inMemory.add(m);
        }
        long scratch = h.memory(64);
        for (int i = 0; i < 4; i++) {
            pairs.get(i)[1].send(scratch, ascii("socket " + i));
            memories.get(i).write(ascii("memory " + i));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline && !(allGot(sockets, "socket ") && allGot(inMemory, "memory "))) {
            turn(loop, 50);
        }
        for (int i = 0; i < 4; i++) {
            assertEquals("socket " + i, sockets.get(i).got.toString());
            assertEquals("memory " + i, inMemory.get(i).got.toString());
            pairs.get(i)[1].close();
            memories.get(i).close();
        }
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline && loop.freeConnectionCount() != free) {
            turn(loop, 50);
        }
        assertEquals(free, loop.freeConnectionCount(), "every connection closed on its end of stream");
    }

    private static boolean allGot(List<Reader> readers, String prefix) {
        for (int i = 0; i < readers.size(); i++) {
            if (!readers.get(i).got.toString().equals(prefix + i)) {
                return false;
            }
        }
        return true;
    }
}
