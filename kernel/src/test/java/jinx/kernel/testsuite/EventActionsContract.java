package jinx.kernel.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.EventLoop;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.LoopHarness.Fd;
import jinx.kernel.testsuite.LoopHarness.LoopThread;

/**
 * The contract every event method ({@link EventActions}) keeps, in the style of Netty's testsuite: a module's test
 * extends this class and returns a fresh table from {@link #newActions()}. The suite reads the table's
 * {@link EventActions#flags()} and asserts edge-triggered ({@link EventActions#USE_CLEAR_EVENT}) or
 * level-triggered semantics accordingly.
 *
 * <p>This class holds the cases on one socket at a time: add and del in both directions, enable and disable,
 * read and write readiness, edge versus level, EOF and RDHUP, notify from another thread, timers through the
 * loop. The loop-wide cases (5,000 connections, slot exhaustion, a keep-alive protocol with an idle timer, stale
 * events) are inherited from {@link EventLoopScenarios}, the loop's settings ({@code timer_resolution},
 * {@code multi_accept}, EMFILE in accept) from {@link AcceptAndTimeScenarios}, the in-memory connection of the
 * socketless path from {@link MemoryConnectionScenarios}, and UDP sessions on a listening datagram socket from
 * {@link DatagramScenarios}, so every method runs all of them.
 *
 * <p>Every test runs on Linux only (an assumption), uses socket pairs or sockets on 127.0.0.1, closes every
 * descriptor it opened, and ends with {@code /proc/self/fd} back to what it was before the test.
 */
public abstract class EventActionsContract extends DatagramScenarios {

    /**
     * Returns a fresh, uninitialised method table; the loop calls {@code init} on it.
     *
     * @return the table
     */
    @Override
    protected abstract EventActions newActions();

    /* ---- add, del, enable, disable, readiness ---- */

    /** A read event is reported once data arrives, with {@code ready} set, and not at all after {@code del}. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void addAndDelRead() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        long buf = h.memory(64);
        int[] calls = {0};
        c.read.handler = ev -> calls[0]++;

        loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));
        assertTrue(c.read.active, "active after add");
        loop.actions().processEvents(0, EventActions.UPDATE_TIME);
        assertEquals(0, calls[0], "reported with nothing to read");
        assertFalse(c.read.ready, "ready with nothing to read");

        pair[1].send(buf, ascii("ping"));
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > 0), "data never reported");
        assertTrue(c.read.ready, "ready");
        assertEquals("ping", drain(c.fd(), buf, 64));

        loop.actions().del(c.read, EventActions.READ_EVENT, 0);
        assertFalse(c.read.active, "active after del");
        int before = calls[0];
        pair[1].send(buf, ascii("pong"));
        turnFor(loop, 150);
        assertEquals(before, calls[0], "reported after del");
    }

    /**
     * A write event on an empty socket buffer is reported at once; once more on the next turn only when the
     * method is level-triggered; never after {@code del}.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void addAndDelWrite() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        int[] calls = {0};
        c.write.handler = ev -> calls[0]++;

        loop.actions().add(c.write, EventActions.WRITE_EVENT, addFlags(loop));
        assertTrue(c.write.active, "active after add");
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > 0), "an empty buffer is writable");
        assertTrue(c.write.ready, "ready");

        int after = calls[0];
        turnFor(loop, 100);
        if (clear(loop)) {
            assertEquals(after, calls[0], "edge-triggered: an unchanged writable socket is reported once");
        } else {
            assertTrue(calls[0] > after, "level-triggered: a writable socket is reported on every turn");
        }

        loop.actions().del(c.write, EventActions.WRITE_EVENT, 0);
        assertFalse(c.write.active, "active after del");
        int before = calls[0];
        turnFor(loop, 150);
        assertEquals(before, calls[0], "reported after del");
    }

    /** A disabled read event reports nothing; enabled again, the data that came meanwhile is reported. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void enableAndDisable() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        long buf = h.memory(64);
        int[] calls = {0};
        c.read.handler = ev -> calls[0]++;

        loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));
        loop.actions().disable(c.read, EventActions.READ_EVENT, EventActions.DISABLE_EVENT);
        pair[1].send(buf, ascii("abc"));
        turnFor(loop, 150);
        assertEquals(0, calls[0], "reported while disabled");

        loop.actions().enable(c.read, EventActions.READ_EVENT, addFlags(loop));
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > 0), "not reported once enabled");
        assertTrue(c.read.ready, "ready");
        assertEquals("abc", drain(c.fd(), buf, 64));
    }

    /** {@code addConnection} registers both directions, {@code delConnection} removes both. */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void addAndDelConnection() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        long buf = h.memory(64);
        int[] reads = {0};
        int[] writes = {0};
        c.read.handler = ev -> reads[0]++;
        c.write.handler = ev -> writes[0]++;

        loop.actions().addConnection(c);
        assertTrue(c.read.active && c.write.active, "both directions active");
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> writes[0] > 0), "write readiness not reported");
        pair[1].send(buf, ascii("x"));
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> reads[0] > 0), "read readiness not reported");
        assertEquals("x", drain(c.fd(), buf, 64));

        loop.actions().delConnection(c, 0);
        assertFalse(c.read.active || c.write.active, "a direction still active");
        int r = reads[0];
        int w = writes[0];
        pair[1].send(buf, ascii("y"));
        turnFor(loop, 150);
        assertEquals(r, reads[0], "read reported after delConnection");
        assertEquals(w, writes[0], "write reported after delConnection");
    }

    /**
     * Read readiness carries a stream through: 4 MB sent from another thread over TCP arrive whole and in order,
     * the handler reading until AGAIN on every report (what an edge-triggered method requires).
     */
    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void readReadinessCarriesAStream() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.tcpPair();
        Connection c = lend(loop, pair[0]);
        int size = 64 * 1024;
        long total = 4L * 1024 * 1024;
        long in = h.memory(size);
        long out = h.memory(size);
        byte[] bytes = new byte[size];
        long[] received = {0};
        boolean[] eof = {false};
        boolean[] corrupt = {false};
        c.read.handler = ev -> {
            try {
                for (;;) {
                    int n = Sockets.recv(c.fd(), in, size);
                    if (n == Rc.AGAIN) {
                        return;
                    }
                    if (n == 0) {
                        eof[0] = true;
                        return;
                    }
                    NativeMemory.get(in, bytes, 0, n);
                    for (int i = 0; i < n; i++) {
                        corrupt[0] |= bytes[i] != pattern(received[0] + i);
                    }
                    received[0] += n;
                }
            } catch (NativeIoException e) {
                throw new AssertionError(e);
            }
        };
        loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));

        Fd peer = pair[1];
        AtomicReference<Throwable> senderFailure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                byte[] chunk = new byte[size];
                for (long sent = 0; sent < total; sent += size) {
                    for (int i = 0; i < size; i++) {
                        chunk[i] = pattern(sent + i);
                    }
                    peer.send(out, chunk);
                }
                Sockets.shutdown(peer.fd(), Platform.SHUT_WR);
            } catch (Throwable t) {
                senderFailure.set(t);
            }
        }, "contract-sender");
        sender.start();
        boolean done = LoopHarness.turnUntil(loop, 100, 25_000, () -> eof[0] || senderFailure.get() != null);
        sender.join(5000);
        assertEquals(null, senderFailure.get(), "sender");
        assertTrue(done, "stream not finished: " + received[0] + " of " + total + " bytes");
        assertEquals(total, received[0], "bytes received");
        assertFalse(corrupt[0], "bytes out of order");
    }

    private static byte pattern(long position) {
        return (byte) (position * 31 + (position >>> 8));
    }

    /**
     * Unread data is reported again only by a level-triggered method; new data is reported by both kinds; a
     * drained socket by neither.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void edgeVersusLevel() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        long buf = h.memory(64);
        int[] calls = {0};
        c.read.handler = ev -> calls[0]++;
        loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));

        pair[1].send(buf, ascii("0123456789"));
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > 0), "data never reported");
        assertEquals(1, Sockets.recv(c.fd(), buf, 1), "one byte read, nine left");

        int after = calls[0];
        turnFor(loop, 150);
        if (clear(loop)) {
            assertEquals(after, calls[0], "edge-triggered: unread data must not be reported again");
        } else {
            assertTrue(calls[0] > after, "level-triggered: unread data must be reported again");
        }

        after = calls[0];
        pair[1].send(buf, ascii("x"));
        int seen = after;
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > seen), "new data not reported");
        assertEquals("123456789x", drain(c.fd(), buf, 64));

        after = calls[0];
        turnFor(loop, 150);
        assertEquals(after, calls[0], "a drained socket reported");
    }

    /**
     * The peer's half-close (data, then FIN) over a socket pair and over TCP: the read event is ready, the data
     * comes first, then recv() returns 0; with epoll's RDHUP ({@link EventActions#USE_EPOLL_EVENT}) the event
     * carries {@code pendingEof}. A full close with nothing sent is reported the same way.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void eofAndRdhup() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        boolean rdhup = (loop.methodFlags() & EventActions.USE_EPOLL_EVENT) != 0;
        long buf = h.memory(64);
        for (boolean tcp : new boolean[] {false, true}) {
            String kind = tcp ? "tcp: " : "unix: ";
            Fd[] pair = tcp ? h.tcpPair() : h.socketPair();
            Connection c = lend(loop, pair[0]);
            int[] calls = {0};
            boolean[] pendingEof = {false};
            c.read.handler = ev -> {
                calls[0]++;
                pendingEof[0] |= ev.pendingEof;
            };
            loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));
            pair[1].send(buf, ascii("bye"));
            Sockets.shutdown(pair[1].fd(), Platform.SHUT_WR);
            assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> calls[0] > 0 && (!rdhup || pendingEof[0])),
                kind + "half-close not reported" + (rdhup ? " with pendingEof" : ""));
            assertTrue(c.read.ready, kind + "ready");
            assertEquals("byeEOF", drain(c.fd(), buf, 64), kind + "data, then recv() returns 0");
            c.close();

            Fd[] quiet = tcp ? h.tcpPair() : h.socketPair();
            Connection q = lend(loop, quiet[0]);
            int[] qcalls = {0};
            q.read.handler = ev -> qcalls[0]++;
            loop.actions().add(q.read, EventActions.READ_EVENT, addFlags(loop));
            quiet[1].close();
            assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> qcalls[0] > 0), kind + "close not reported");
            assertTrue(q.read.ready, kind + "ready after close");
            assertEquals("EOF", drain(q.fd(), buf, 64), kind + "recv() returns 0");
            q.close();
        }
        assertEquals(SLOTS, loop.freeConnectionCount(), "slots back");
    }

    /* ---- notify and timers ---- */

    /**
     * {@code notify} from other threads wakes a loop asleep in {@code processEvents(-1)} and runs every runnable
     * on the loop's thread, none lost; a runnable may notify again.
     */
    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void notifyFromAnotherThread() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        LoopThread t = h.start(loop, "contract-notify");
        Thread.sleep(200);
        assertEquals(0, t.turns(), "with no timer and no event the loop must sleep in processEvents(-1)");

        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> on = new AtomicReference<>();
        loop.notify(() -> {
            on.set(Thread.currentThread());
            ran.countDown();
        });
        assertTrue(ran.await(5, TimeUnit.SECONDS), "notify did not wake the loop");
        assertSame(t.thread(), on.get(), "ran on the loop's thread");

        CountDownLatch nested = new CountDownLatch(1);
        loop.notify(() -> loop.notify(nested::countDown));
        assertTrue(nested.await(5, TimeUnit.SECONDS), "a notify from the loop's own thread was lost");

        int threads = 4;
        int each = 500;
        AtomicInteger count = new AtomicInteger();
        AtomicBoolean elsewhere = new AtomicBoolean();
        Thread[] notifiers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            notifiers[i] = new Thread(() -> {
                for (int k = 0; k < each; k++) {
                    loop.notify(() -> {
                        elsewhere.compareAndSet(false, Thread.currentThread() != t.thread());
                        count.incrementAndGet();
                    });
                }
            }, "contract-notifier-" + i);
            notifiers[i].start();
        }
        for (Thread n : notifiers) {
            n.join(10_000);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.get() < threads * each && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertEquals(threads * each, count.get(), "runnables run");
        assertFalse(elsewhere.get(), "a runnable ran off the loop's thread");
        t.stop();
    }

    /**
     * A timer is the wait's timeout: {@code processEventsAndTimers()} sleeps until it expires (a few turns, not a
     * spin), then calls the event's handler with {@code timedout} set and the timer gone; a deleted timer never
     * fires.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void timersThroughTheLoop() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] pair = h.socketPair();
        Connection c = lend(loop, pair[0]);
        int[] fired = {0};
        int[] deletedFired = {0};
        boolean[] timedout = {false};
        boolean[] timerSet = {true};
        long[] firedAt = {0};
        c.read.handler = ev -> {
            fired[0]++;
            firedAt[0] = System.nanoTime();
            timedout[0] = ev.timedout;
            timerSet[0] = ev.timerSet();
        };
        c.write.handler = ev -> deletedFired[0]++;

        // the cached clock is the loop's "now": refreshed here so that the 300 ms count from this moment
        long start = System.nanoTime();
        loop.updateTime();
        loop.addTimer(c.write, 100);
        loop.addTimer(c.read, 300);
        assertEquals(2, loop.timerCount());
        loop.deleteTimer(c.write);
        assertEquals(1, loop.timerCount());

        int turns = 0;
        while (fired[0] == 0 && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
            loop.processEventsAndTimers();
            turns++;
        }
        assertEquals(1, fired[0], "timer fired");
        assertEquals(0, deletedFired[0], "deleted timer fired");
        assertTrue(timedout[0], "handler saw timedout");
        assertFalse(timerSet[0], "timer still set in its handler");
        long ms = TimeUnit.NANOSECONDS.toMillis(firedAt[0] - start);
        // the cached clock is whole milliseconds: the key may be up to 1 ms behind the real "now" it was set at
        assertTrue(ms >= 299 && ms < 300 + 500, "fired after " + ms + " ms");
        assertTrue(turns <= 5, "the loop should sleep until the timer, not spin: " + turns + " turns");
    }
}
