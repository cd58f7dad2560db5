package jinx.stream.internal;

import java.nio.charset.StandardCharsets;

import jinx.kernel.SharedZone;

/**
 * The connection counts of a {@code limit_conn_zone}, in its shared memory so that every worker counts against
 * the same numbers (nginx's {@code ngx_stream_limit_conn_ctx_t} with its rbtree of nodes, here an open-addressed
 * table of fixed slots): a slot holds a key's hash, its count, its length and up to {@link #KEY_MAX} key bytes.
 * Every change happens under the zone's lock; a slot whose count falls to 0 is free again and keeps its hash, so
 * that a probe goes on past it and stops only at a slot never used.
 */
final class ConnTable {

    /** nginx refuses keys longer than 255 bytes. */
    static final int KEY_MAX = 255;
    private static final int HASH = 0;
    private static final int COUNT = 8;
    private static final int LEN = 12;
    private static final int KEY = 16;
    private static final int SLOT = KEY + KEY_MAX + 1;
    /** The table's header: its slot count. */
    private static final int HEADER = 8;

    private ConnTable() {
    }

    /** Lays the table out in a new zone (the master's {@code initModule}). */
    static void init(SharedZone zone) {
        long slots = Math.max(1, (zone.slab().freePages() * 4096L * 3 / 4 - HEADER) / SLOT);
        long base = zone.slab().calloc(HEADER + slots * SLOT);
        if (base == 0) {
            slots = 1;
            base = zone.slab().calloc(HEADER + SLOT);
        }
        zone.putLong(base, slots);
        zone.slab().data(base);
    }

    /**
     * Adds a connection for {@code key} unless it has {@code limit} already.
     *
     * @return 1 when counted, 0 when at the limit, -1 when the table is full
     */
    static int acquire(SharedZone zone, String key, int limit) {
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        long hash = hash(k);
        zone.lock().lock();
        try {
            long base = zone.slab().data();
            long slots = zone.getLong(base);
            long free = -1;
            for (long i = 0; i < slots; i++) {
                long slot = base + HEADER + ((hash + i) % slots) * SLOT;
                int count = zone.getInt(slot + COUNT);
                if (count == 0) {
                    if (free < 0) {
                        free = slot;
                    }
                    if (zone.getLong(slot + HASH) == 0) {
                        // never used: the key's chain ends here
                        break;
                    }
                    continue;
                }
                if (zone.getLong(slot + HASH) == hash && same(zone, slot, k)) {
                    if (count >= limit) {
                        return 0;
                    }
                    zone.putInt(slot + COUNT, count + 1);
                    return 1;
                }
            }
            if (free < 0) {
                return -1;
            }
            zone.putLong(free + HASH, hash);
            zone.putInt(free + LEN, k.length);
            zone.putBytes(free + KEY, k, 0, k.length);
            zone.putInt(free + COUNT, 1);
            return 1;
        } finally {
            zone.lock().unlock();
        }
    }

    /** Gives back a connection counted for {@code key} (nginx's {@code ngx_stream_limit_conn_cleanup()}). */
    static void release(SharedZone zone, String key) {
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        long hash = hash(k);
        zone.lock().lock();
        try {
            long base = zone.slab().data();
            long slots = zone.getLong(base);
            for (long i = 0; i < slots; i++) {
                long slot = base + HEADER + ((hash + i) % slots) * SLOT;
                int count = zone.getInt(slot + COUNT);
                long h = zone.getLong(slot + HASH);
                if (h == 0) {
                    return;
                }
                if (count > 0 && h == hash && same(zone, slot, k)) {
                    zone.putInt(slot + COUNT, count - 1);
                    return;
                }
            }
        } finally {
            zone.lock().unlock();
        }
    }

    private static boolean same(SharedZone zone, long slot, byte[] k) {
        if (zone.getInt(slot + LEN) != k.length) {
            return false;
        }
        byte[] have = new byte[k.length];
        zone.getBytes(slot + KEY, have, 0, k.length);
        return java.util.Arrays.equals(have, k);
    }

    /** CRC32, as nginx's limit_conn hashes keys, with a bit above it so that no key hashes to 0 (never used). */
    private static long hash(byte[] k) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(k);
        return crc.getValue() | 1L << 32;
    }
}
