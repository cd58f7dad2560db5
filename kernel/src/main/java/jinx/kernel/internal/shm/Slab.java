package jinx.kernel.internal.shm;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SlabPool;

/**
 * nginx's slab allocator ({@code src/core/ngx_slab.c}) over zone offsets. The zone starts with its header
 * ({@link ZoneHeader}), followed by one list head per size class, the classes' counters, the page descriptors
 * and, aligned to a page, the pages ({@link SlabPages}).
 *
 * <ul>
 * <li>More than half a page: whole pages ({@link SlabPages#alloc}).</li>
 * <li>8 to 32 bytes ("small"): the page starts with its own bitmap.</li>
 * <li>64 bytes ("exact"): the 64 chunks' bitmap is the descriptor's {@code slab} word.</li>
 * <li>128 to 2048 bytes ("big"): the bitmap is the high half of {@code slab}, the shift the low bits.</li>
 * </ul>
 * A page with a free chunk is on its class's list; a full one is off it until a chunk is freed. All of it runs
 * under the zone's lock; plain memory access is enough inside it.
 */
final class Slab implements SlabPool {

    static final int PAGE_SHIFT = SlabPages.PAGE_SHIFT;
    static final int PAGE_SIZE = SlabPages.PAGE_SIZE;
    static final int MIN_SHIFT = 3;
    /** Chunks of this size fill a page exactly with one 64-bit word as bitmap. */
    static final int EXACT_SHIFT = 6;
    static final int SLOTS = PAGE_SHIFT - MIN_SHIFT;
    static final int PAGE_DESC = SlabPages.DESC;
    static final int STAT_SIZE = 32;

    private static final long TYPE_BIG = SlabPages.TYPE_BIG;
    private static final long TYPE_EXACT = SlabPages.TYPE_EXACT;
    private static final long TYPE_SMALL = SlabPages.TYPE_SMALL;

    private static final long SHIFT_MASK = 0xf;
    private static final long MAP_MASK = 0xffffffff00000000L;
    private static final int MAP_SHIFT = 32;
    private static final long BUSY = -1L;

    private static final long STAT_TOTAL = 0;
    private static final long STAT_USED = 8;
    private static final long STAT_REQS = 16;
    private static final long STAT_FAILS = 24;

    private final ZoneMemory mem;
    private final Shmtx mutex;
    private final ErrorLog log;
    private final SlabPages pages;
    private volatile String logContext = "";

    Slab(ZoneMemory mem, Shmtx mutex, ErrorLog log) {
        this.mem = mem;
        this.mutex = mutex;
        this.log = log;
        this.pages = new SlabPages(mem);
    }

    /**
     * Lays out an empty pool in fresh memory (nginx's {@code ngx_slab_init()}, called from
     * {@code ngx_init_zone_pool()}): empty class lists, zeroed counters, every page in one free run.
     *
     * @param mem zeroed memory, its header written but for the pool's fields
     */
    static void init(ZoneMemory mem) {
        for (int i = 0; i < SLOTS; i++) {
            long head = slotHead(i);
            mem.putLong(head, 0);
            mem.putLong(head + 8, head);
            mem.putLong(head + 16, 0);
        }
        mem.putLong(ZoneHeader.LOG_NOMEM, 1);
        SlabPages.init(mem, ZoneHeader.STATS + (long) SLOTS * STAT_SIZE);
    }

    private static long slotHead(int slot) {
        return ZoneHeader.SLOTS + (long) slot * PAGE_DESC;
    }

    private static long stat(int slot, long field) {
        return ZoneHeader.STATS + (long) slot * STAT_SIZE + field;
    }

    private void add(int slot, long field, long delta) {
        long at = stat(slot, field);
        mem.putLong(at, mem.getLong(at) + delta);
    }

    /** Puts a page first on its class's list. */
    private void linkFirst(long page, int slot, long type) {
        long head = slotHead(slot);
        pages.next(page, pages.next(head));
        pages.next(head, page);
        pages.prev(page, head | type);
        pages.prev(pages.next(page), page | type);
    }

    /* ---- allocation ---- */

    @Override
    public long alloc(long size) {
        mutex.lock();
        try {
            return allocLocked(size);
        } finally {
            mutex.unlock();
        }
    }

    @Override
    public long calloc(long size) {
        mutex.lock();
        try {
            return callocLocked(size);
        } finally {
            mutex.unlock();
        }
    }

    @Override
    public long callocLocked(long size) {
        long p = allocLocked(size);
        if (p != 0) {
            mem.zero(p, (int) size);
        }
        return p;
    }

    @Override
    public long allocLocked(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size);
        }
        if (size > MAX_SIZE) {
            long n = (size >> PAGE_SHIFT) + ((size & (PAGE_SIZE - 1)) != 0 ? 1 : 0);
            long page = allocPages(n);
            return page == 0 ? 0 : pages.addr(page);
        }
        int shift;
        if (size > MIN_SIZE) {
            shift = 64 - Long.numberOfLeadingZeros(size - 1);
        } else {
            shift = MIN_SHIFT;
        }
        int slot = shift - MIN_SHIFT;
        add(slot, STAT_REQS, 1);
        long head = slotHead(slot);
        long page = pages.next(head);
        if (page != head) {
            long p = shift < EXACT_SHIFT ? fromSmall(page, shift)
                   : shift == EXACT_SHIFT ? fromExact(page, shift) : fromBig(page, shift);
            if (p != 0) {
                add(slot, STAT_USED, 1);
                return p;
            }
            error(LogLevel.ALERT, "ngx_slab_alloc(): page is busy");
        }
        page = allocPages(1);
        if (page == 0) {
            add(slot, STAT_FAILS, 1);
            return 0;
        }
        add(slot, STAT_USED, 1);
        return newPage(page, shift, slot);
    }

    private long fromSmall(long page, int shift) {
        long bitmap = pages.addr(page);
        int map = (PAGE_SIZE >> shift) / Long.SIZE;
        for (int n = 0; n < map; n++) {
            long word = mem.getLong(bitmap + n * 8L);
            if (word == BUSY) {
                continue;
            }
            int i = Long.numberOfTrailingZeros(~word);
            word |= 1L << i;
            mem.putLong(bitmap + n * 8L, word);
            if (word == BUSY && allBusy(bitmap, n + 1, map)) {
                pages.unlink(page);
                pages.next(page, 0);
                pages.prev(page, TYPE_SMALL);
            }
            return bitmap + ((long) (n * Long.SIZE + i) << shift);
        }
        return 0;
    }

    private boolean allBusy(long bitmap, int from, int map) {
        for (int n = from; n < map; n++) {
            if (mem.getLong(bitmap + n * 8L) != BUSY) {
                return false;
            }
        }
        return true;
    }

    private long fromExact(long page, int shift) {
        long slab = pages.slab(page);
        if (slab == BUSY) {
            return 0;
        }
        int i = Long.numberOfTrailingZeros(~slab);
        slab |= 1L << i;
        pages.slab(page, slab);
        if (slab == BUSY) {
            pages.unlink(page);
            pages.next(page, 0);
            pages.prev(page, TYPE_EXACT);
        }
        return pages.addr(page) + ((long) i << shift);
    }

    private long fromBig(long page, int shift) {
        long mask = ((1L << (PAGE_SIZE >> shift)) - 1) << MAP_SHIFT;
        long slab = pages.slab(page);
        long free = ~slab & mask;
        if (free == 0) {
            return 0;
        }
        int bit = Long.numberOfTrailingZeros(free);
        slab |= 1L << bit;
        pages.slab(page, slab);
        if ((slab & MAP_MASK) == mask) {
            pages.unlink(page);
            pages.next(page, 0);
            pages.prev(page, TYPE_BIG);
        }
        return pages.addr(page) + ((long) (bit - MAP_SHIFT) << shift);
    }

    /** A fresh page for a class, its first chunk (after a small page's own bitmap) handed out. */
    private long newPage(long page, int shift, int slot) {
        long addr = pages.addr(page);
        if (shift < EXACT_SHIFT) {
            int n = bitmapChunks(shift);
            // n chunks hold the bitmap, plus the one requested
            int i = 0;
            for (; i < (n + 1) / Long.SIZE; i++) {
                mem.putLong(addr + i * 8L, BUSY);
            }
            mem.putLong(addr + i * 8L, (1L << ((n + 1) % Long.SIZE)) - 1);
            int map = (PAGE_SIZE >> shift) / Long.SIZE;
            for (i++; i < map; i++) {
                mem.putLong(addr + i * 8L, 0);
            }
            pages.slab(page, shift);
            linkFirst(page, slot, TYPE_SMALL);
            add(slot, STAT_TOTAL, (PAGE_SIZE >> shift) - n);
            return addr + ((long) n << shift);
        }
        if (shift == EXACT_SHIFT) {
            pages.slab(page, 1);
            linkFirst(page, slot, TYPE_EXACT);
            add(slot, STAT_TOTAL, Long.SIZE);
            return addr;
        }
        pages.slab(page, (1L << MAP_SHIFT) | shift);
        linkFirst(page, slot, TYPE_BIG);
        add(slot, STAT_TOTAL, PAGE_SIZE >> shift);
        return addr;
    }

    /** How many chunks of a small page its bitmap takes. */
    private static int bitmapChunks(int shift) {
        int n = (PAGE_SIZE >> shift) / ((1 << shift) * 8);
        return n == 0 ? 1 : n;
    }

    /* ---- freeing ---- */

    @Override
    public void free(long offset) {
        mutex.lock();
        try {
            freeLocked(offset);
        } finally {
            mutex.unlock();
        }
    }

    @Override
    public void freeLocked(long p) {
        long page = pages.pageOf(p);
        if (page == 0) {
            error(LogLevel.ALERT, "ngx_slab_free(): outside of pool");
            return;
        }
        long slab = pages.slab(page);
        long type = pages.type(page);
        String problem;
        if (type == TYPE_SMALL) {
            problem = freeSmall(page, slab, p);
        } else if (type == TYPE_EXACT) {
            problem = freeExact(page, slab, p);
        } else if (type == TYPE_BIG) {
            problem = freeBig(page, slab, p);
        } else {
            problem = freeRun(page, slab, p);
        }
        if (problem != null) {
            error(LogLevel.ALERT, "ngx_slab_free(): " + problem);
        }
    }

    private String freeSmall(long page, long slab, long p) {
        int shift = (int) (slab & SHIFT_MASK);
        if ((p & ((1L << shift) - 1)) != 0) {
            return "pointer to wrong chunk";
        }
        long bitmap = pages.addr(page);
        int n = (int) ((p - bitmap) >> shift);
        long m = 1L << (n % Long.SIZE);
        long word = bitmap + (n / Long.SIZE) * 8L;
        if ((mem.getLong(word) & m) == 0) {
            return "chunk is already free";
        }
        int slot = shift - MIN_SHIFT;
        if (pages.next(page) == 0) {
            linkFirst(page, slot, TYPE_SMALL);
        }
        mem.putLong(word, mem.getLong(word) & ~m);
        add(slot, STAT_USED, -1);
        int chunks = bitmapChunks(shift);
        int i = chunks / Long.SIZE;
        long own = (1L << (chunks % Long.SIZE)) - 1;
        if ((mem.getLong(bitmap + i * 8L) & ~own) != 0) {
            return null;
        }
        int map = (PAGE_SIZE >> shift) / Long.SIZE;
        for (i++; i < map; i++) {
            if (mem.getLong(bitmap + i * 8L) != 0) {
                return null;
            }
        }
        pages.free(page, 1);
        add(slot, STAT_TOTAL, -((PAGE_SIZE >> shift) - chunks));
        return null;
    }

    private String freeExact(long page, long slab, long p) {
        if ((p & ((1L << EXACT_SHIFT) - 1)) != 0) {
            return "pointer to wrong chunk";
        }
        long m = 1L << ((p - pages.addr(page)) >> EXACT_SHIFT);
        if ((slab & m) == 0) {
            return "chunk is already free";
        }
        int slot = EXACT_SHIFT - MIN_SHIFT;
        if (slab == BUSY) {
            linkFirst(page, slot, TYPE_EXACT);
        }
        slab &= ~m;
        pages.slab(page, slab);
        add(slot, STAT_USED, -1);
        if (slab == 0) {
            pages.free(page, 1);
            add(slot, STAT_TOTAL, -Long.SIZE);
        }
        return null;
    }

    private String freeBig(long page, long slab, long p) {
        int shift = (int) (slab & SHIFT_MASK);
        if ((p & ((1L << shift) - 1)) != 0) {
            return "pointer to wrong chunk";
        }
        long m = 1L << (((p - pages.addr(page)) >> shift) + MAP_SHIFT);
        if ((slab & m) == 0) {
            return "chunk is already free";
        }
        int slot = shift - MIN_SHIFT;
        if (pages.next(page) == 0) {
            linkFirst(page, slot, TYPE_BIG);
        }
        slab &= ~m;
        pages.slab(page, slab);
        add(slot, STAT_USED, -1);
        if ((slab & MAP_MASK) == 0) {
            pages.free(page, 1);
            add(slot, STAT_TOTAL, -(PAGE_SIZE >> shift));
        }
        return null;
    }

    private String freeRun(long page, long slab, long p) {
        if ((p & (PAGE_SIZE - 1)) != 0) {
            return "pointer to wrong chunk";
        }
        if ((slab & SlabPages.PAGE_START) == 0) {
            return "page is already free";
        }
        if (slab == SlabPages.PAGE_BUSY) {
            return "pointer to wrong page";
        }
        pages.free(page, slab & ~SlabPages.PAGE_START);
        return null;
    }

    /* ---- pages ---- */

    private long allocPages(long n) {
        long page = pages.alloc(n);
        if (page == 0 && mem.getLong(ZoneHeader.LOG_NOMEM) != 0) {
            error(LogLevel.CRIT, "ngx_slab_alloc() failed: no memory");
        }
        return page;
    }

    /* ---- the rest of the API ---- */

    @Override
    public long data() {
        return mem.getLongVolatile(ZoneHeader.DATA);
    }

    @Override
    public void data(long offset) {
        mem.setLongRelease(ZoneHeader.DATA, offset);
    }

    @Override
    public long pages() {
        return pages.count();
    }

    @Override
    public long freePages() {
        return pages.free();
    }

    @Override
    public List<SlotStat> stats() {
        List<SlotStat> list = new ArrayList<>(SLOTS);
        for (int i = 0; i < SLOTS; i++) {
            list.add(new SlotStat(1 << (i + MIN_SHIFT), mem.getLong(stat(i, STAT_TOTAL)),
                                  mem.getLong(stat(i, STAT_USED)), mem.getLong(stat(i, STAT_REQS)),
                                  mem.getLong(stat(i, STAT_FAILS))));
        }
        return list;
    }

    @Override
    public void logNomem(boolean on) {
        mem.setLongRelease(ZoneHeader.LOG_NOMEM, on ? 1 : 0);
    }

    @Override
    public void logContext(String context) {
        logContext = context == null ? "" : context;
    }

    private void error(LogLevel level, String text) {
        if (log != null) {
            log.log(level, text + logContext);
        }
    }
}
