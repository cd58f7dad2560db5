package jinx.kernel.internal.shm;

import java.util.concurrent.locks.LockSupport;

import jinx.kernel.ZoneLock;

/**
 * nginx's {@code ngx_shmtx_t} with atomic operations ({@code src/core/ngx_shmtx.c}): the lock word holds the
 * owner's pid. Where nginx sleeps on a POSIX semaphore after spinning, this spins with
 * {@link Thread#onSpinWait()}, then yields, then parks for a moment that grows to a millisecond: a JVM cannot
 * share a semaphore between processes without native code, and the zone locks are held for microseconds.
 */
final class Shmtx implements ZoneLock {

    /** This process. A JVM never forks, so it never changes. */
    static final long PID = ProcessHandle.current().pid();

    /** nginx's {@code mtx->spin}. */
    private static final int SPIN = 2048;
    private static final boolean SMP = Runtime.getRuntime().availableProcessors() > 1;
    private static final int YIELDS = 16;
    private static final long MAX_PARK_NANOS = 1_000_000L;

    private final ZoneMemory mem;
    private final long offset;

    Shmtx(ZoneMemory mem, long offset) {
        if ((offset & 7) != 0 || offset < 0 || offset + 8 > mem.size()) {
            throw new IllegalArgumentException("lock word at " + offset + " is not an aligned word of the zone");
        }
        this.mem = mem;
        this.offset = offset;
    }

    @Override
    public boolean tryLock() {
        return mem.getLongVolatile(offset) == 0 && mem.compareAndSetLong(offset, 0, PID);
    }

    @Override
    public void lock() {
        long park = 1_000L;
        for (int round = 0; ; round++) {
            if (tryLock()) {
                return;
            }
            if (SMP && spin()) {
                return;
            }
            // nginx's ngx_sched_yield(); past a few rounds the holder is descheduled or slow: sleep a little
            if (round < YIELDS) {
                Thread.yield();
                continue;
            }
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
    }

    private boolean spin() {
        for (int n = 1; n < SPIN; n <<= 1) {
            for (int i = 0; i < n; i++) {
                Thread.onSpinWait();
            }
            if (tryLock()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void unlock() {
        mem.compareAndSetLong(offset, PID, 0);
    }

    @Override
    public boolean forceUnlock(long pid) {
        return pid != 0 && mem.compareAndSetLong(offset, pid, 0);
    }

    @Override
    public long owner() {
        return mem.getLongVolatile(offset);
    }

    @Override
    public long offset() {
        return offset;
    }

    @Override
    public String toString() {
        return "shmtx@" + offset + " owner " + owner();
    }
}
