package jinx.event.poll;

import java.lang.management.ManagementFactory;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Connection;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wait, the scan, add and del, and notify allocate nothing on the loop thread's heap once warm: no boxing,
 * no iterator, no lambda, no message built while debug logging is off.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class PollHotPathTest {

    private static final int ROUNDS = 20_000;
    private static final int PASSES = 4;
    /** A few reflective or JIT-time allocations; anything per round would be ROUNDS times more. */
    private static final long SLACK = 2048;

    private Map<String, String> baseline;
    private PollTesting.CapturedLog captured;
    private PollEventActions actions;
    private EventLoop loop;
    private NativeMemory memory;
    private final int[] peers = new int[10];
    private final Connection[] conns = new Connection[10];
    private long handled;
    private com.sun.management.ThreadMXBean mx;

    @BeforeEach
    void setUp() throws Exception {
        Object bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(),
            "no per-thread allocation counter");
        baseline = PollTesting.baseline();
        captured = new PollTesting.CapturedLog(LogLevel.INFO);
        actions = new PollEventActions();
        loop = new EventLoop(null, actions, 64, 0, EventLoop.AcceptSettings.SINGLE, captured.log);
        memory = new NativeMemory();
        long buf = memory.allocate(16);
        for (int i = 0; i < conns.length; i++) {
            int[] sv = PollTesting.socketpair();
            peers[i] = sv[1];
            Connection c = loop.getConnection(sv[0], captured.log);
            c.read.handler = ev -> handled++;
            c.write.handler = ev -> handled++;
            conns[i] = c;
            // one byte never read: level-triggered, so every wait reports it
            assertEquals(1, Sockets.send(sv[1], buf, 1));
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        if (loop == null) {
            return;
        }
        loop.done();
        PollTesting.closeQuietly(peers);
        memory.close();
        PollTesting.assertFdsBackTo(baseline);
    }

    private long measure(Round round) throws Exception {
        long bytes = 0;
        for (int pass = 0; pass < PASSES; pass++) {
            // the first passes warm up: class loading, jnr's invokers, the JIT's escape analysis
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ROUNDS; i++) {
                round.run();
            }
            bytes = mx.getCurrentThreadAllocatedBytes() - before;
        }
        return bytes;
    }

    @FunctionalInterface
    private interface Round {
        void run() throws Exception;
    }

    @Test
    void waitAndScanAllocateNothing() throws Exception {
        for (Connection c : conns) {
            actions.addConnection(c);
        }
        handled = 0;
        long bytes = measure(() -> actions.processEvents(0, 0));
        assertTrue(bytes < SLACK, bytes + " bytes allocated in " + ROUNDS + " waits");
        assertEquals((long) PASSES * ROUNDS * 20, handled, "each wait reported both directions of ten");
        assertTrue(!captured.text().contains("[alert]"), captured.text());
    }

    @Test
    void postingAllocatesNothing() throws Exception {
        for (Connection c : conns) {
            actions.add(c.read, EventActions.READ_EVENT, 0);
        }
        long bytes = measure(() -> {
            actions.processEvents(0, EventActions.POST_EVENTS);
            for (Connection c : conns) {
                loop.deletePosted(c.read);
            }
        });
        assertTrue(bytes < SLACK, bytes + " bytes allocated in " + ROUNDS + " waits");
    }

    @Test
    void addAndDelAllocateNothing() throws Exception {
        long bytes = measure(() -> {
            for (Connection c : conns) {
                actions.add(c.read, EventActions.READ_EVENT, 0);
                actions.add(c.write, EventActions.WRITE_EVENT, 0);
            }
            for (int i = conns.length - 1; i >= 0; i -= 2) {
                actions.delConnection(conns[i], EventActions.CLOSE_EVENT);
            }
            for (int i = 0; i < conns.length; i += 2) {
                actions.del(conns[i].write, EventActions.WRITE_EVENT, 0);
                actions.del(conns[i].read, EventActions.READ_EVENT, 0);
            }
        });
        assertTrue(bytes < SLACK, bytes + " bytes allocated in " + ROUNDS + " rounds of 40 adds and dels");
        assertEquals(1, actions.entries());
    }

    @Test
    void notifyAndDrainAllocateNothing() throws Exception {
        Runnable handler = () -> handled++;
        handled = 0;
        long bytes = measure(() -> {
            actions.notify(handler);
            actions.notify(handler);
            actions.processEvents(0, 0);
        });
        assertTrue(bytes < SLACK, bytes + " bytes allocated in " + ROUNDS + " notifies and wake-ups");
        assertEquals(2L * PASSES * ROUNDS, handled);
    }
}
