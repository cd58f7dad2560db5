package jinx.event.epoll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Event;

import static jinx.kernel.spi.EventActions.POST_EVENTS;
import static jinx.kernel.spi.EventActions.UPDATE_TIME;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code notify} through the eventfd: from other threads, it wakes a wait without a timeout and runs the runnable
 * on the loop's thread.
 */
@EnabledOnOs(OS.LINUX)
class EpollNotifyTest {

    private Map<String, String> baseline;
    private EpollFixture f;

    @BeforeEach
    void setUp() throws Exception {
        baseline = Fds.baseline();
        f = new EpollFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void notifyFromAnotherThreadWakesAnInfiniteWait() throws Exception {
        Thread loopThread = Thread.currentThread();
        Thread[] ranOn = new Thread[1];
        CountDownLatch waiting = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                waiting.await();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            f.actions.notify(() -> ranOn[0] = Thread.currentThread());
        }, "notifier");
        other.start();
        waiting.countDown();
        long start = System.nanoTime();
        f.actions.processEvents(-1, UPDATE_TIME);
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        other.join();
        assertSame(loopThread, ranOn[0]);
        assertTrue(waitedMs >= 50, "woke after the notify, not before: " + waitedMs + " ms");
        assertTrue(f.logText().contains("epoll timer: -1"), f.logText());
    }

    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void manyThreadsManyNotifiesAllRunOnce() throws Exception {
        int threads = 4;
        int each = 2_000;
        AtomicInteger ran = new AtomicInteger();
        int[] perThread = new int[threads];
        Thread loopThread = Thread.currentThread();
        List<Thread> notifiers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread n = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    f.actions.notify(() -> {
                        if (Thread.currentThread() == loopThread) {
                            perThread[id]++;
                        }
                        ran.incrementAndGet();
                    });
                }
            }, "notifier-" + t);
            notifiers.add(n);
            n.start();
        }
        while (ran.get() < threads * each) {
            f.actions.processEvents(1000, UPDATE_TIME);
        }
        for (Thread n : notifiers) {
            n.join();
        }
        // nothing left over: a wait with nothing queued times out
        f.actions.processEvents(50, UPDATE_TIME);
        assertEquals(threads * each, ran.get());
        int[] all = new int[threads];
        Arrays.fill(all, each);
        assertArrayEquals(all, perThread);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aNotifyFromARunnableRunsInTheNextWakeUp() throws Exception {
        List<String> ran = new ArrayList<>();
        f.actions.notify(() -> {
            ran.add("first");
            f.actions.notify(() -> ran.add("second"));
        });
        f.actions.processEvents(1000, 0);
        assertEquals(List.of("first"), ran);
        f.actions.processEvents(1000, 0);
        assertEquals(List.of("first", "second"), ran);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aThrowingRunnableLeavesTheRestForTheNextWakeUp() throws Exception {
        List<String> ran = new ArrayList<>();
        f.actions.notify(() -> {
            throw new IllegalStateException("boom");
        });
        f.actions.notify(() -> ran.add("after"));
        assertThrows(IllegalStateException.class, () -> f.actions.processEvents(1000, 0));
        assertEquals(List.of(), ran);
        f.actions.processEvents(1000, 0);
        assertEquals(List.of("after"), ran);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void withPostEventsTheNotifyIsPosted() throws Exception {
        List<String> ran = new ArrayList<>();
        f.actions.notify(() -> ran.add("notified"));
        f.actions.processEvents(1000, POST_EVENTS);
        assertEquals(List.of(), ran, "posted, not run");
        Event tick = new Event();
        tick.handler = ev -> ran.add("timer");
        f.loop.addTimer(tick, 0);
        f.loop.processEventsAndTimers();
        // the eventfd is level-triggered: this turn's wait (without POST_EVENTS) may see it again and run the
        // queue at once; either way the runnable runs once, and the posted handler finds the queue empty
        assertEquals(2, ran.size(), ran.toString());
        assertTrue(ran.contains("timer") && ran.contains("notified"), ran.toString());
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void notifyAfterDoneIsRefused() throws Exception {
        EpollEventActions fresh = new EpollEventActions(8);
        assertThrows(IllegalStateException.class, () -> fresh.notify(() -> { }), "before init");
        f.actions.done();
        assertThrows(IllegalStateException.class, () -> f.actions.notify(() -> { }));
        f.actions.done();
    }
}
