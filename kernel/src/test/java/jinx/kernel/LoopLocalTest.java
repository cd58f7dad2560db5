package jinx.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LoopLocalTest {

    @Test
    void aThreadGetsItsOwnValueMadeOnce() {
        AtomicInteger made = new AtomicInteger();
        LoopLocal<Object> local = new LoopLocal<>(() -> {
            made.incrementAndGet();
            return new Object();
        });
        Object first = local.get();
        assertSame(first, local.get());
        assertSame(first, local.get());
        assertEquals(1, made.get());
    }

    @Test
    @Timeout(20)
    void threadsThatAlternateNeverSeeEachOthersValue() throws Exception {
        LoopLocal<Thread> local = new LoopLocal<>(Thread::currentThread);
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentHashMap<Thread, Thread> wrong = new ConcurrentHashMap<>();
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int n = 0; n < 200_000; n++) {
                    Thread v = local.get();
                    if (v != Thread.currentThread()) {
                        wrong.put(Thread.currentThread(), v);
                    }
                }
            });
            t.start();
            started.add(t);
        }
        start.countDown();
        for (Thread t : started) {
            t.join(TimeUnit.SECONDS.toMillis(15));
        }
        assertEquals(0, wrong.size(), "threads given another thread's value: " + wrong);
        assertNotSame(null, local.get());
        assertSame(Thread.currentThread(), local.get());
    }
}
