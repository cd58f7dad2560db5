package jinx.kernel.internal.shm;

import java.nio.file.Path;

import jinx.kernel.SharedZone;
import jinx.kernel.ZoneLock;

/**
 * A separate JVM for {@link ZoneProcessesTest}: maps the parent's zone through {@code /proc/PARENT/fd/N}, as a
 * worker maps the memfd it inherits, and works on it. The zone's root ({@code data}) points at {@link Words}.
 *
 * <p>Usage: {@code ZoneChild <mode> <path> <name> <size> [count]} with mode {@code add} (count atomic increments
 * and count/5 increments under the lock, after all children are ready), {@code hold} (takes the lock and never lets
 * go) or {@code lockinc} (one increment under the lock, then exit).
 */
public final class ZoneChild {

    /** Offsets of the words in the block the root points at. */
    static final class Words {
        static final int READY = 0;
        static final int GO = 8;
        static final int ATOMIC = 16;
        static final int LOCKED = 24;
        static final int SIZE = 32;

        private Words() {
        }
    }

    private ZoneChild() {
    }

    /**
     * Runs one mode.
     *
     * @param args mode, path, name, size, count
     * @throws Exception on failure (exit code 1)
     */
    public static void main(String[] args) throws Exception {
        SharedZone zone = Zone.attachPath(Path.of(args[1]), args[2], Long.parseLong(args[3]), "test", null);
        long words = zone.slab().data();
        ZoneLock lock = zone.lock();
        switch (args[0]) {
            case "add" -> add(zone, lock, words, Integer.parseInt(args[4]));
            case "hold" -> {
                lock.lock();
                zone.getAndAddLong(words + Words.READY, 1);
                Thread.sleep(Long.MAX_VALUE);
            }
            case "lockinc" -> {
                zone.getAndAddLong(words + Words.READY, 1);
                lock.lock();
                zone.putLong(words + Words.LOCKED, zone.getLong(words + Words.LOCKED) + 1);
                lock.unlock();
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void add(SharedZone zone, ZoneLock lock, long words, int count) throws InterruptedException {
        zone.getAndAddLong(words + Words.READY, 1);
        while (zone.getLongVolatile(words + Words.GO) == 0) {
            Thread.onSpinWait();
        }
        for (int i = 0; i < count; i++) {
            zone.getAndAddLong(words + Words.ATOMIC, 1);
            if (i % 5 == 0) {
                lock.lock();
                zone.putLong(words + Words.LOCKED, zone.getLong(words + Words.LOCKED) + 1);
                lock.unlock();
            }
        }
    }
}
