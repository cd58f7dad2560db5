package jinx.kernel.internal.shm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The layout of a zone's first bytes: nginx's {@code ngx_slab_pool_t}, which also starts every nginx zone,
 * with a magic number and the zone's name so a worker can check that the descriptor it inherited is the zone it
 * expects. All fields are 8-byte words unless said otherwise.
 *
 * <pre>
 *   0  magic                   "JINXZON1", written last by the creator
 *   8  lock word               the zone's lock: owner pid, 0 when free (nginx's shpool->mutex)
 *  16  size                    the zone's size in bytes
 *  24  data                    the module's root offset (shpool->data)
 *  32  start                   offset of the first slab page (shpool->start)
 *  40  pages                   number of slab pages
 *  48  page descriptors        offset of the first page descriptor (shpool->pages)
 *  56  pfree                   free pages
 *  64  free list head          a page descriptor: slab, next, prev (shpool->free)
 *  88  log_nomem               1 to log "no memory", 0 not to
 *  96  name length             int
 * 100  name                    up to NAME_MAX bytes, ISO-8859-1
 * 256  class list heads        one page descriptor per size class (8 .. 2048 bytes)
 * 472  class counters          total, used, reqs, fails per class
 * 760  page descriptors, then the pages, aligned to 4096
 * </pre>
 */
final class ZoneHeader {

    static final long MAGIC = 0;
    static final long LOCK = 8;
    static final long SIZE = 16;
    static final long DATA = 24;
    static final long START = 32;
    static final long PAGES = 40;
    static final long PAGES_OFF = 48;
    static final long PFREE = 56;
    static final long FREE = 64;
    static final long LOG_NOMEM = 88;
    static final long NAME_LEN = 96;
    static final long NAME = 100;
    static final int NAME_MAX = 124;
    static final long SLOTS = 256;
    static final long STATS = SLOTS + (long) Slab.SLOTS * Slab.PAGE_DESC;

    /** "JINXZON1" read as a big-endian long; stored in native order. */
    static final long MAGIC_VALUE = 0x4A494E585A4F4E31L;

    private ZoneHeader() {
    }

    /**
     * Formats fresh, zeroed memory: the header, then an empty slab pool; the magic goes last, with release
     * semantics, so a process that sees it sees the rest.
     *
     * @param mem the memory
     * @param name the zone's name
     */
    static void format(ZoneMemory mem, String name) {
        mem.putLong(SIZE, mem.size());
        byte[] n = nameBytes(name);
        mem.putInt(NAME_LEN, n.length);
        mem.putBytes(NAME, n, 0, n.length);
        Slab.init(mem);
        mem.setLongRelease(MAGIC, MAGIC_VALUE);
    }

    /**
     * Checks that mapped memory is the zone {@code name}.
     *
     * @param mem the memory
     * @param name the expected name
     * @return null when it is, otherwise what is wrong
     */
    static String check(ZoneMemory mem, String name) {
        if (mem.size() < STATS || mem.getLongVolatile(MAGIC) != MAGIC_VALUE) {
            return "is not a shared zone";
        }
        if (mem.getLong(SIZE) != mem.size()) {
            return "has size " + mem.getLong(SIZE) + ", not " + mem.size();
        }
        byte[] expected = nameBytes(name);
        int len = mem.getInt(NAME_LEN);
        byte[] actual = new byte[Math.max(0, Math.min(len, NAME_MAX))];
        mem.getBytes(NAME, actual, 0, actual.length);
        if (len != expected.length || !Arrays.equals(actual, expected)) {
            return "is the zone \"" + new String(actual, StandardCharsets.ISO_8859_1) + "\"";
        }
        return null;
    }

    private static byte[] nameBytes(String name) {
        byte[] b = name.getBytes(StandardCharsets.ISO_8859_1);
        return b.length <= NAME_MAX ? b : Arrays.copyOf(b, NAME_MAX);
    }
}
