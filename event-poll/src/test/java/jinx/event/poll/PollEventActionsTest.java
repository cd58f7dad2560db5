package jinx.event.poll;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Connection;
import jinx.kernel.EventHandler;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The poll method through a real {@link EventLoop} on socketpairs: readiness, level-triggered repetition, the
 * shared entry and nginx's compaction, hang-ups, notify, posting, and handlers that change the array while it is
 * being scanned.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
class PollEventActionsTest {

    private static final int READ = EventActions.READ_EVENT;
    private static final int WRITE = EventActions.WRITE_EVENT;

    private Map<String, String> baseline;
    private PollTesting.CapturedLog captured;
    private PollEventActions actions;
    private EventLoop loop;
    private NativeMemory memory;
    private long buf;
    private final List<Integer> peers = new ArrayList<>();

    /** A connection under test: its loop slot, the test's end of the pair, and what its handlers saw. */
    private static final class Probe {
        final Connection c;
        int peer;
        int reads;
        int writes;
        EventHandler onRead;
        EventHandler onWrite;

        Probe(Connection c, int peer) {
            this.c = c;
            this.peer = peer;
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        baseline = PollTesting.baseline();
        captured = new PollTesting.CapturedLog(LogLevel.DEBUG);
        actions = new PollEventActions();
        loop = new EventLoop(null, actions, 64, 0, EventLoop.AcceptSettings.SINGLE, captured.log);
        memory = new NativeMemory();
        buf = memory.allocate(4096);
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            loop.done();
            for (int fd : peers) {
                PollTesting.closeQuietly(fd);
            }
            memory.close();
        } finally {
            PollTesting.assertFdsBackTo(baseline);
        }
    }

    private Probe open() throws IOException {
        int[] sv = PollTesting.socketpair();
        peers.add(sv[1]);
        Connection c = loop.getConnection(sv[0], captured.log);
        assertNotNull(c, "no free slot");
        Probe p = new Probe(c, sv[1]);
        c.read.handler = ev -> {
            p.reads++;
            if (p.onRead != null) {
                p.onRead.handle(ev);
            }
        };
        c.write.handler = ev -> {
            p.writes++;
            if (p.onWrite != null) {
                p.onWrite.handle(ev);
            }
        };
        return p;
    }

    private void closePeer(Probe p) throws NativeIoException {
        peers.remove(Integer.valueOf(p.peer));
        Syscalls.close(p.peer);
        p.peer = -1;
    }

    private void send(int fd, int n) throws NativeIoException {
        NativeMemory.fill(buf, n, (byte) 'x');
        assertEquals(n, Sockets.send(fd, buf, n));
    }

    private int drain(int fd) throws NativeIoException {
        int total = 0;
        for (;;) {
            int n = Sockets.recv(fd, buf, 4096);
            if (n == Rc.AGAIN || n == 0) {
                return total;
            }
            total += n;
        }
    }

    /** Every entry names a live connection whose events point back at it, and nothing else points anywhere. */
    private void assertArrayConsistent() {
        assertEquals(actions.notifyFd(), actions.entryFd(0), "entry 0 is the notify eventfd");
        assertEquals(Platform.POLLIN, actions.entryEvents(0));
        assertEquals(-1, actions.entrySlot(0));
        Set<Integer> slots = new HashSet<>();
        for (int i = 1; i < actions.entries(); i++) {
            Connection c = loop.connection(actions.entrySlot(i));
            assertTrue(slots.add(c.slot()), "two entries for slot " + c.slot());
            assertEquals(c.fd(), actions.entryFd(i), "entry " + i + " fd");
            int events = actions.entryEvents(i);
            assertNotEquals(0, events, "empty entry " + i);
            assertEquals((events & Platform.POLLIN) != 0, c.read.index == i, "read index of entry " + i);
            assertEquals((events & Platform.POLLOUT) != 0, c.write.index == i, "write index of entry " + i);
        }
        for (int s = 0; s < loop.connectionCount(); s++) {
            Connection c = loop.connection(s);
            assertEquals(c.read.active, c.read.index != -1, "slot " + s + " read active/index");
            assertEquals(c.write.active, c.write.index != -1, "slot " + s + " write active/index");
            if (c.read.index != -1) {
                assertTrue(c.read.index < actions.entries());
                assertEquals(s, actions.entrySlot(c.read.index));
            }
            if (c.write.index != -1) {
                assertTrue(c.write.index < actions.entries());
                assertEquals(s, actions.entrySlot(c.write.index));
            }
        }
    }

    @Test
    void flagsAreLevelAndFd() {
        assertEquals(EventActions.USE_LEVEL_EVENT | EventActions.USE_FD_EVENT, actions.flags());
        assertEquals(actions.flags(), loop.methodFlags());
        assertEquals(1, actions.entries(), "only the notify eventfd");
    }

    @Test
    void readEventReportsDataAndIsLevelTriggered() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, EventActions.LEVEL_EVENT);
        assertTrue(p.c.read.active);
        assertEquals(1, p.c.read.index);

        actions.processEvents(0, EventActions.UPDATE_TIME);
        assertEquals(0, p.reads, "nothing to read yet");

        send(p.peer, 10);
        actions.processEvents(1000, EventActions.UPDATE_TIME);
        assertEquals(1, p.reads);
        assertTrue(p.c.read.ready);

        // level-triggered: unread data is reported again, and again
        actions.processEvents(1000, 0);
        actions.processEvents(1000, 0);
        assertEquals(3, p.reads);

        assertEquals(10, drain(p.c.fd()));
        actions.processEvents(0, 0);
        assertEquals(3, p.reads, "drained: nothing more");

        // and through the loop's own turn
        send(p.peer, 1);
        loop.processEventsAndTimers();
        assertEquals(4, p.reads);

        String log = captured.text();
        assertTrue(log.contains("poll timer: 0"), log);
        assertTrue(log.contains("poll add event: fd:" + p.c.fd() + " ev:" + Platform.POLLIN), log);
        assertTrue(log.contains("poll ready 1 of 2"), log);
        assertTrue(log.contains("poll: 1: fd:" + p.c.fd() + " ev:0001 rev:0001"), log);
        assertFalse(log.contains("[alert]"), log);
    }

    @Test
    void bothDirectionsShareOneEntry() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, 0);
        actions.add(p.c.write, WRITE, 0);
        assertEquals(2, actions.entries());
        assertEquals(p.c.read.index, p.c.write.index);
        assertEquals(Platform.POLLIN | Platform.POLLOUT, actions.entryEvents(1));
        assertTrue(captured.text().contains("poll add index: 1"));

        actions.processEvents(1000, 0);
        assertEquals(0, p.reads);
        assertEquals(1, p.writes, "an idle socket is writable");
        assertTrue(p.c.write.ready);

        actions.del(p.c.write, WRITE, 0);
        assertEquals(2, actions.entries(), "the read direction keeps the entry");
        assertEquals(Platform.POLLIN, actions.entryEvents(1));
        assertEquals(-1, p.c.write.index);
        assertFalse(p.c.write.active);
        actions.processEvents(0, 0);
        assertEquals(1, p.writes, "write no longer watched");

        send(p.peer, 1);
        actions.processEvents(1000, 0);
        assertEquals(1, p.reads);

        actions.del(p.c.read, READ, 0);
        assertEquals(1, actions.entries());
        assertEquals(-1, p.c.read.index);
        actions.processEvents(0, 0);
        assertEquals(1, p.reads, "read no longer watched");
        assertArrayConsistent();
    }

    @Test
    void addTwiceAndDeleteTwiceAreAlerts() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, 0);
        actions.add(p.c.read, READ, 0);
        assertEquals(2, actions.entries());
        actions.del(p.c.read, READ, 0);
        actions.del(p.c.read, READ, 0);
        assertEquals(1, actions.entries());
        String log = captured.text();
        assertTrue(log.contains("[alert]") && log.contains("poll event fd:" + p.c.fd() + " ev:1 is already set"),
            log);
        assertTrue(log.contains("poll event fd:" + p.c.fd() + " ev:1 is already deleted"), log);
    }

    @Test
    void addConnectionAndDelConnection() throws Exception {
        Probe p = open();
        actions.addConnection(p.c);
        assertTrue(p.c.read.active && p.c.write.active);
        assertEquals(Platform.POLLIN | Platform.POLLOUT, actions.entryEvents(1));
        actions.delConnection(p.c, EventActions.CLOSE_EVENT);
        assertFalse(p.c.read.active || p.c.write.active);
        assertEquals(1, actions.entries());
        // nothing registered: no alert either
        actions.delConnection(p.c, EventActions.CLOSE_EVENT);
        assertFalse(captured.text().contains("[alert]"), captured.text());
    }

    @Test
    void closeConnectionRemovesTheEntry() throws Exception {
        Probe a = open();
        Probe b = open();
        actions.addConnection(a.c);
        actions.add(b.c.read, READ, 0);
        a.c.close();
        assertEquals(2, actions.entries());
        assertEquals(1, b.c.read.index, "b moved into a's place");
        assertArrayConsistent();
        send(b.peer, 1);
        actions.processEvents(1000, 0);
        assertEquals(1, b.reads);
    }

    @Test
    void compactionKeepsEveryIndexPointingAtItsEntry() throws Exception {
        List<int[]> orders = new ArrayList<>();
        orders.add(new int[] {4, 5, 0, 9, 1, 8, 2, 7, 3, 6});
        orders.add(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        orders.add(new int[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
        orders.add(new int[] {9, 0, 8, 1, 7, 2, 6, 3, 5, 4});
        Random random = new Random(20261130);
        for (int r = 0; r < 6; r++) {
            orders.add(shuffled(random));
        }
        Probe[] probes = new Probe[10];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = open();
        }
        for (int[] order : orders) {
            String what = Arrays.toString(order);
            for (int i = 0; i < probes.length; i++) {
                actions.add(probes[i].c.read, READ, 0);
                if (i % 2 == 1) {
                    actions.add(probes[i].c.write, WRITE, 0);
                }
                assertArrayConsistent();
            }
            assertEquals(11, actions.entries(), what);
            for (int k = 0; k < order.length; k++) {
                Connection c = probes[order[k]].c;
                int step = random.nextInt(3);
                if (step == 0) {
                    actions.delConnection(c, EventActions.CLOSE_EVENT);
                } else if (step == 1) {
                    actions.del(c.read, READ, 0);
                    assertArrayConsistent();
                    if (c.write.active) {
                        actions.del(c.write, WRITE, 0);
                    }
                } else {
                    if (c.write.active) {
                        actions.del(c.write, WRITE, 0);
                        assertArrayConsistent();
                    }
                    actions.del(c.read, READ, 0);
                }
                assertArrayConsistent();
                assertEquals(order.length - k, actions.entries(), what + " after " + (k + 1));
                if (k == 4) {
                    // halfway: the survivors still poll right
                    assertSurvivorsReport(probes, order, k);
                }
            }
            assertEquals(1, actions.entries(), what);
        }
        assertFalse(captured.text().contains("[alert]"), captured.text());
    }

    private static int[] shuffled(Random random) {
        int[] a = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    private void assertSurvivorsReport(Probe[] probes, int[] order, int deleted) throws Exception {
        Set<Integer> gone = new HashSet<>();
        for (int k = 0; k <= deleted; k++) {
            gone.add(order[k]);
        }
        for (Probe p : probes) {
            p.reads = 0;
            send(p.peer, 1);
        }
        actions.processEvents(1000, 0);
        for (int i = 0; i < probes.length; i++) {
            assertEquals(gone.contains(i) ? 0 : 1, probes[i].reads, "probe " + i);
            assertEquals(1, drain(probes[i].c.fd()));
        }
    }

    @Test
    void peerCloseWakesTheReadEvent() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, 0);
        closePeer(p);
        actions.processEvents(1000, 0);
        assertEquals(1, p.reads);
        assertTrue(p.c.read.ready);
        assertEquals(0, Sockets.recv(p.c.fd(), buf, 16), "end of file");
        assertTrue(captured.text().contains("rev:" + hex(Platform.POLLIN | Platform.POLLHUP)), captured.text());
    }

    @Test
    void peerCloseWakesAWriteOnlyRegistration() throws Exception {
        Probe p = open();
        // fill the pipe so that the socket is not writable: then only the hang-up can wake the write event
        while (Sockets.send(p.c.fd(), buf, 4096) != Rc.AGAIN) {
            continue;
        }
        actions.add(p.c.write, WRITE, 0);
        actions.processEvents(0, 0);
        assertEquals(0, p.writes, "full");
        closePeer(p);
        actions.processEvents(1000, 0);
        assertEquals(1, p.writes);
        assertEquals(0, p.reads, "read was not registered");
    }

    @Test
    void invalidDescriptorIsAlerted() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, 0);
        int fd = p.c.fd();
        // closed behind the method's back: poll() answers POLLNVAL
        Syscalls.close(fd);
        p.onRead = ev -> {
            try {
                actions.delConnection(p.c, EventActions.CLOSE_EVENT);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            loop.freeConnection(p.c);
        };
        actions.processEvents(1000, 0);
        assertEquals(1, p.reads, "the error woke the active read handler");
        assertTrue(captured.text().contains("[alert]"));
        assertTrue(captured.text().contains("poll() error fd:" + fd + " ev:0001 rev:" + hex(Platform.POLLNVAL)),
            captured.text());
        assertEquals(1, actions.entries());
        // the slot still holds the closed descriptor's number: forget it so done() does not close it again
        Connection again = loop.getConnection(-1, captured.log);
        assertSame(p.c, again);
        loop.freeConnection(again);
    }

    @Test
    void timeoutReturnsWithNothingReady() throws Exception {
        Probe p = open();
        actions.add(p.c.read, READ, 0);
        long start = System.nanoTime();
        actions.processEvents(50, EventActions.UPDATE_TIME);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms >= 40, ms + " ms");
        assertEquals(0, p.reads);
    }

    @Test
    void notifyFromAnotherThreadWakesAnEndlessWait() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                waiting.await();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            loop.notify(() -> ranOn.set(Thread.currentThread()));
        }, "notifier");
        other.start();
        waiting.countDown();
        long start = System.nanoTime();
        actions.processEvents(-1, EventActions.UPDATE_TIME);
        assertSame(Thread.currentThread(), ranOn.get(), "ran on the loop's thread");
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "it did wait");
        other.join();
        assertEquals(0, actions.notifyQueued());
        // the eventfd was reset: the next wait times out
        actions.processEvents(0, 0);
    }

    @Test
    void notifyRunsInOrderAndRequeuedHandlersWaitForTheNextTurn() throws Exception {
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = "h" + i;
            actions.notify(() -> ran.add(name));
        }
        actions.notify(() -> {
            ran.add("again");
            actions.notify(() -> ran.add("next turn"));
        });
        actions.processEvents(1000, 0);
        assertEquals(List.of("h0", "h1", "h2", "h3", "h4", "again"), ran);
        actions.processEvents(1000, 0);
        assertEquals("next turn", ran.get(ran.size() - 1));
        assertEquals(0, actions.notifyQueued());
    }

    @Test
    void aThrowingNotifyHandlerLeavesTheRestForTheNextTurn() throws Exception {
        List<String> ran = new ArrayList<>();
        actions.notify(() -> {
            throw new IllegalStateException("boom");
        });
        actions.notify(() -> ran.add("after"));
        assertThrows(IllegalStateException.class, () -> actions.processEvents(1000, 0));
        actions.processEvents(1000, 0);
        assertEquals(List.of("after"), ran);
    }

    @Test
    void notifyAfterDoneIsDropped() throws Exception {
        loop.done();
        actions.notify(() -> {
            throw new AssertionError("ran after done");
        });
        assertEquals(0, actions.notifyQueued());
    }

    @Test
    void postEventsPostsInsteadOfCalling() throws Exception {
        Probe p = open();
        Probe l = open();
        l.c.read.accept = true;
        actions.add(p.c.read, READ, 0);
        actions.add(l.c.read, READ, 0);
        send(p.peer, 1);
        send(l.peer, 1);
        actions.processEvents(1000, EventActions.POST_EVENTS);
        assertEquals(0, p.reads);
        assertEquals(0, l.reads);
        assertTrue(p.c.read.ready && p.c.read.posted());
        assertTrue(l.c.read.ready && l.c.read.posted());
        loop.deletePosted(p.c.read);
        loop.deletePosted(l.c.read);
    }

    @Test
    void aHandlerClosingALaterEntryDropsItsReadiness() throws Exception {
        Probe[] p = readyProbes(5);
        p[0].onRead = ev -> p[2].c.close();
        actions.processEvents(1000, 0);
        assertEquals(0, p[2].reads);
        assertEquals(1, p[1].reads);
        assertEquals(1, p[3].reads);
        assertEquals(1, p[4].reads, "the last entry, moved into the closed one's place, is still handled");
        assertArrayConsistent();
        assertFalse(captured.text().contains("poll ready != events"), captured.text());
    }

    @Test
    void aHandlerClosingAnEarlierEntrySendsTheScanBack() throws Exception {
        Probe[] p = readyProbes(5);
        p[3].onRead = ev -> p[0].c.close();
        actions.processEvents(1000, 0);
        for (int i = 0; i < 5; i++) {
            assertEquals(1, p[i].reads, "probe " + i);
        }
        assertEquals(1, p[4].c.read.index, "the last entry moved into the first's place");
        assertArrayConsistent();
        assertFalse(captured.text().contains("poll ready != events"), captured.text());
    }

    @Test
    void aHandlerClosingItsOwnConnection() throws Exception {
        Probe[] p = readyProbes(4);
        p[1].onRead = ev -> p[1].c.close();
        p[3].onRead = ev -> p[3].c.close();
        actions.processEvents(1000, 0);
        for (int i = 0; i < 4; i++) {
            assertEquals(1, p[i].reads, "probe " + i);
        }
        assertEquals(3, actions.entries());
        assertArrayConsistent();
        assertFalse(captured.text().contains("poll ready != events"), captured.text());
    }

    @Test
    void aWriteEventOfAConnectionClosedAndLentAgainIsStale() throws Exception {
        Probe a = open();
        actions.addConnection(a.c);
        send(a.peer, 1);
        int[] fresh = new int[1];
        Probe[] b = new Probe[1];
        a.onRead = ev -> {
            try {
                a.c.close();
                b[0] = open();
                fresh[0] = b[0].c.fd();
                actions.add(b[0].c.write, WRITE, 0);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
        long stale = loop.staleEvents();
        actions.processEvents(1000, 0);
        assertEquals(1, a.reads);
        assertSame(a.c, b[0].c, "the slot was lent again");
        assertEquals(0, a.writes + b[0].writes, "the old POLLOUT went nowhere");
        assertEquals(stale + 1, loop.staleEvents());
        assertArrayConsistent();
        actions.processEvents(1000, 0);
        assertEquals(1, b[0].writes, "the new connection's own readiness comes next turn");
        assertTrue(fresh[0] >= 0);
    }

    private Probe[] readyProbes(int n) throws Exception {
        Probe[] p = new Probe[n];
        for (int i = 0; i < n; i++) {
            p[i] = open();
            actions.add(p[i].c.read, READ, 0);
            send(p[i].peer, 1);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(i + 1, p[i].c.read.index);
        }
        return p;
    }

    @Test
    void pollFailureIsANativeIoExceptionNamedPoll() {
        // more entries than RLIMIT_NOFILE allows: EINVAL before the array is touched
        NativeIoException e = assertThrows(NativeIoException.class,
            () -> PollSyscalls.poll(0, Integer.MAX_VALUE, 0));
        assertEquals("poll()", e.call());
        assertTrue(e.getMessage().startsWith("poll() failed (" + e.errno() + ": "), e.getMessage());
    }

    @Test
    void theEventfdIsNonBlockingAndCloseOnExec() throws Exception {
        int efd = actions.notifyFd();
        assertTrue(Syscalls.isCloexec(efd));
        assertTrue(Syscalls.isNonBlocking(efd));
        loop.done();
        assertEquals(0, actions.entries());
        // the descriptor itself: tearDown finds /proc/self/fd back at its baseline
        assertThrows(IllegalStateException.class, () -> actions.processEvents(0, 0), "freed array not touched");
    }

    private static String hex(int v) {
        return String.format("%04X", v);
    }
}
