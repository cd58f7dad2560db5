package jinx.http.internal.modules;

import jinx.kernel.SharedZone;

/**
 * The table of keys {@code limit_req} and {@code limit_conn} keep in a shared zone, in place of nginx's red-black
 * tree and LRU queue ({@code ngx_rbtree_t}, {@code ngx_queue_t} of {@code ngx_http_limit_req_shctx_t}): a chained
 * hash table whose buckets are sized from the zone (one per 512 bytes, a power of two), and a doubly linked list
 * in order of use, most recent first, which {@code limit_req} expires from its tail as nginx does. Every offset is
 * relative to the zone; 0 is "none". All methods but {@link #init} expect the caller to hold the zone's lock.
 *
 * <p>Root: {@code +0} bucket count, {@code +8} buckets' offset, {@code +16}/{@code +24} the list's sentinel (its
 * {@code prev} and {@code next}). Node: {@code +0} next in bucket, {@code +8} prev in list, {@code +16} next in
 * list, {@code +24} the key's CRC32, {@code +28} the key's length, {@code +32} the module's payload, then the key.
 */
final class ShmTable {

    private static final int NEXT = 0;
    private static final int PREV = 8;
    private static final int LRU_NEXT = 16;
    private static final int HASH = 24;
    private static final int LEN = 28;
    /** Where a node's payload starts. */
    static final int PAYLOAD = 32;
    private static final int[] CRC = crcTable();

    private final SharedZone zone;
    private final int payload;
    private long root;

    /**
     * A table in {@code zone} whose nodes carry {@code payload} bytes (a multiple of 8).
     *
     * @param zone the zone
     * @param payload the payload's size
     */
    ShmTable(SharedZone zone, int payload) {
        this.zone = zone;
        this.payload = payload;
    }

    SharedZone zone() {
        return zone;
    }

    /**
     * The zone's init (the master's, nginx's {@code init_zone}): a new zone gets its root; a kept one is used as it
     * is. Nothing happens where no memory was mapped ({@code -t}).
     *
     * @param logContext the slab pool's log context, nginx's {@code shpool->log_ctx}
     * @param logNomem whether a failed allocation logs
     */
    void init(String logContext, boolean logNomem) {
        if (!zone.isMapped()) {
            return;
        }
        zone.slab().logContext(logContext);
        zone.slab().logNomem(logNomem);
        if (zone.reused() && zone.slab().data() != 0) {
            return;
        }
        long buckets = 64;
        while (buckets * 512 < zone.size() && buckets < (1 << 24)) {
            buckets <<= 1;
        }
        long r = zone.slab().calloc(32);
        long b = zone.slab().calloc(buckets * 8);
        zone.putLong(r, buckets);
        zone.putLong(r + 8, b);
        long sentinel = r + 8;
        zone.putLong(sentinel + PREV, sentinel);
        zone.putLong(sentinel + LRU_NEXT, sentinel);
        zone.slab().data(r);
    }

    private long root() {
        if (root == 0) {
            root = zone.slab().data();
        }
        return root;
    }

    private long bucket(int hash) {
        long r = root();
        return zone.getLong(r + 8) + (hash & (zone.getLong(r) - 1)) * 8;
    }

    /**
     * Finds a key.
     *
     * @param hash its {@link #crc32}
     * @param key the key, one byte per char
     * @return the node, or 0
     */
    long find(int hash, String key) {
        for (long n = zone.getLong(bucket(hash)); n != 0; n = zone.getLong(n + NEXT)) {
            if (zone.getInt(n + HASH) == hash && sameKey(n, key)) {
                return n;
            }
        }
        return 0;
    }

    private boolean sameKey(long node, String key) {
        int len = zone.getInt(node + LEN);
        if (len != key.length()) {
            return false;
        }
        long at = node + PAYLOAD + payload;
        for (int i = 0; i < len; i++) {
            if (zone.getByte(at + i) != (byte) key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds a key, first in the list, its payload zeroed.
     *
     * @param hash its {@link #crc32}
     * @param key the key, one byte per char
     * @return the node, or 0 when the zone has no room
     */
    long insert(int hash, String key) {
        int len = key.length();
        long n = zone.slab().callocLocked(PAYLOAD + payload + len);
        if (n == 0) {
            return 0;
        }
        zone.putInt(n + HASH, hash);
        zone.putInt(n + LEN, len);
        long at = n + PAYLOAD + payload;
        for (int i = 0; i < len; i++) {
            zone.putByte(at + i, (byte) key.charAt(i));
        }
        long b = bucket(hash);
        zone.putLong(n + NEXT, zone.getLong(b));
        zone.putLong(b, n);
        linkFirst(n);
        return n;
    }

    /**
     * Drops a node: out of its bucket and the list, its memory freed.
     *
     * @param n the node
     */
    void remove(long n) {
        long prev = bucket(zone.getInt(n + HASH));
        for (long p = zone.getLong(prev); p != n; p = zone.getLong(p + NEXT)) {
            prev = p + NEXT;
        }
        zone.putLong(prev, zone.getLong(n + NEXT));
        unlink(n);
        zone.slab().freeLocked(n);
    }

    /**
     * Moves a node to the front of the list: nginx's {@code ngx_queue_remove()} and {@code ngx_queue_insert_head()}.
     *
     * @param n the node
     */
    void touch(long n) {
        unlink(n);
        linkFirst(n);
    }

    /**
     * Returns the least recently used node.
     *
     * @return it, or 0 when the table is empty
     */
    long last() {
        long sentinel = root() + 8;
        long p = zone.getLong(sentinel + PREV);
        return p == sentinel ? 0 : p;
    }

    private void linkFirst(long n) {
        long sentinel = root() + 8;
        long first = zone.getLong(sentinel + LRU_NEXT);
        zone.putLong(n + PREV, sentinel);
        zone.putLong(n + LRU_NEXT, first);
        zone.putLong(first + PREV, n);
        zone.putLong(sentinel + LRU_NEXT, n);
    }

    private void unlink(long n) {
        long prev = zone.getLong(n + PREV);
        long next = zone.getLong(n + LRU_NEXT);
        zone.putLong(prev + LRU_NEXT, next);
        zone.putLong(next + PREV, prev);
    }

    /**
     * nginx's {@code ngx_crc32_short()} of a key, one byte per char, without a copy.
     *
     * @param key the key
     * @return the CRC32
     */
    static int crc32(String key) {
        int crc = 0xffffffff;
        for (int i = 0, n = key.length(); i < n; i++) {
            crc = CRC[(crc ^ key.charAt(i)) & 0xff] ^ (crc >>> 8);
        }
        return ~crc;
    }

    private static int[] crcTable() {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }
}
