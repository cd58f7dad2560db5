package jinx.kernel.internal.shm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.EventLoop;
import jinx.kernel.SharedAcceptMutex;
import jinx.kernel.SharedZone;
import jinx.kernel.ZoneLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The zone lock and the accept mutex over it, within one process: the word holds the pid, a second mapping sees
 * it, mutual exclusion holds under contention, and a forced unlock frees a lock whose holder is gone.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class ShmtxTest {

    private static final long PID = ProcessHandle.current().pid();

    private final List<SharedZone> zones = new ArrayList<>();

    @AfterEach
    void tearDown() {
        zones.forEach(SharedZone::release);
    }

    private SharedZone create(String name) throws IOException {
        SharedZone z = SharedZone.create(name, 16 * SharedZone.PAGE_SIZE, "test", null);
        zones.add(z);
        return z;
    }

    private SharedZone second(SharedZone z) throws IOException {
        SharedZone m = Zone.attachPath(Path.of("/proc/self/fd/" + z.fd()), z.name(), z.size(), z.tag(), null);
        zones.add(m);
        return m;
    }

    @Test
    void wordHoldsTheOwnersPid() throws IOException {
        SharedZone z = create("lock_word");
        ZoneLock lock = z.lock();
        assertEquals(ZoneHeader.LOCK, lock.offset());
        assertEquals(0, lock.owner());
        assertTrue(lock.tryLock());
        assertEquals(PID, lock.owner());
        assertEquals(PID, z.getLongVolatile(ZoneHeader.LOCK));
        assertFalse(lock.tryLock(), "not reentrant");
        assertFalse(second(z).lock().tryLock(), "held for every mapping");
        lock.unlock();
        assertEquals(0, lock.owner());
        lock.unlock();
        assertEquals(0, lock.owner(), "unlocking a free lock changes nothing");
    }

    @Test
    void forceUnlockFreesOnlyTheDeadOwnersLock() throws IOException {
        SharedZone z = create("force");
        ZoneLock lock = z.lock();
        long dead = 999_999_999L;
        z.setLongRelease(ZoneHeader.LOCK, dead);
        assertFalse(lock.tryLock());
        lock.unlock();
        assertEquals(dead, lock.owner(), "only the holder unlocks");
        assertFalse(lock.forceUnlock(PID));
        assertFalse(lock.forceUnlock(0));
        assertTrue(lock.forceUnlock(dead));
        assertEquals(0, lock.owner());
        assertFalse(lock.forceUnlock(dead), "once");
        assertTrue(lock.tryLock());
        lock.unlock();
    }

    @Test
    void lockAtAnyAlignedWord() throws IOException {
        SharedZone z = create("lock_at");
        long word = z.slab().calloc(8);
        ZoneLock a = z.lockAt(word);
        ZoneLock b = second(z).lockAt(word);
        assertTrue(a.tryLock());
        assertFalse(b.tryLock());
        assertEquals(0, z.lock().owner(), "the zone's own lock is another word");
        b.unlock();
        assertEquals(0, z.getLongVolatile(word), "same process: the holder's pid is ours, so b may unlock");
    }

    @Test
    void lockExcludesThreadsOnTwoMappings() throws Exception {
        SharedZone a = create("contended");
        SharedZone b = second(a);
        long counter = a.slab().calloc(16);
        int threads = 4;
        int perThread = 200_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> list = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SharedZone z = (t & 1) == 0 ? a : b;
            ZoneLock lock = z.lock();
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    lock.lock();
                    try {
                        // a plain read-modify-write of two words: torn or lost without mutual exclusion
                        long v = z.getLong(counter);
                        z.putLong(counter, v + 1);
                        z.putLong(counter + 8, -(v + 1));
                    } finally {
                        lock.unlock();
                    }
                }
            });
            th.start();
            list.add(th);
        }
        go.countDown();
        for (Thread th : list) {
            th.join();
        }
        assertEquals((long) threads * perThread, a.getLongVolatile(counter));
        assertEquals(-(long) threads * perThread, b.getLongVolatile(counter + 8));
        assertEquals(0, a.lock().owner());
    }

    @Test
    void lockWaitsForTheHolder() throws Exception {
        SharedZone z = create("waits");
        ZoneLock lock = z.lock();
        lock.lock();
        CountDownLatch taken = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            lock.lock();
            taken.countDown();
            lock.unlock();
        });
        waiter.start();
        assertFalse(taken.await(200, TimeUnit.MILLISECONDS), "waits while held");
        lock.unlock();
        assertTrue(taken.await(5, TimeUnit.SECONDS));
        waiter.join();
    }

    @Test
    void acceptMutexTrylockAndUnlock() throws IOException {
        SharedZone z = SharedZone.create(SharedAcceptMutex.ZONE_NAME, SharedZone.PAGE_SIZE,
                                         SharedAcceptMutex.TAG, null);
        zones.add(z);
        EventLoop.AcceptMutex one = SharedAcceptMutex.of(z);
        EventLoop.AcceptMutex two = SharedAcceptMutex.of(second(z));
        assertTrue(one.tryLock());
        assertFalse(two.tryLock(), "one worker accepts at a time");
        one.unlock();
        assertTrue(two.tryLock());
        assertFalse(one.tryLock());
        assertEquals(PID, ((SharedAcceptMutex) two).lock().owner());
        two.unlock();
        assertEquals(0, ((SharedAcceptMutex) one).lock().owner());
        // a one-page zone has no slab pages: the mutex needs none
        assertEquals(0, z.slab().pages());
        assertEquals(0, z.slab().alloc(8));
    }
}
