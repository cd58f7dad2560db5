package jinx.kernel.internal.shm;

/**
 * The page level of the slab allocator ({@code ngx_slab_alloc_pages()}, {@code ngx_slab_free_pages()} and the
 * layout of {@code ngx_slab_init()}): one 24-byte descriptor per page ({@code ngx_slab_page_t}: {@code slab},
 * {@code next}, {@code prev}, links as zone offsets, the page's type in the two low bits of {@code prev}), and
 * runs of free pages on one list, first fit. A busy run's first descriptor holds {@code PAGE_START | count}, the
 * others {@code PAGE_BUSY}; a free run's first holds its length and its last points back at the first, so a freed
 * run merges with free neighbours on both sides.
 */
final class SlabPages {

    static final int PAGE_SHIFT = 12;
    static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    static final int DESC = 24;

    static final long TYPE_MASK = 3;
    static final long TYPE_PAGE = 0;
    static final long TYPE_BIG = 1;
    static final long TYPE_EXACT = 2;
    static final long TYPE_SMALL = 3;

    static final long PAGE_FREE = 0;
    static final long PAGE_BUSY = -1L;
    static final long PAGE_START = Long.MIN_VALUE;

    private final ZoneMemory mem;
    private final long start;
    private final long first;
    private final long last;

    SlabPages(ZoneMemory mem) {
        this.mem = mem;
        this.start = mem.getLong(ZoneHeader.START);
        this.first = mem.getLong(ZoneHeader.PAGES_OFF);
        this.last = first + mem.getLong(ZoneHeader.PAGES) * DESC;
    }

    /**
     * Lays out the descriptors and pages after the header's fixed part, every page in one free run.
     *
     * @param mem zeroed memory
     * @param from the first byte free for descriptors
     */
    static void init(ZoneMemory mem, long from) {
        long size = mem.size();
        long pages = (size - from) / (PAGE_SIZE + DESC);
        long begin = (from + pages * DESC + PAGE_SIZE - 1) & -PAGE_SIZE;
        pages = Math.min(pages, (size - begin) / PAGE_SIZE);
        mem.putLong(ZoneHeader.PAGES_OFF, from);
        mem.putLong(ZoneHeader.START, begin);
        mem.putLong(ZoneHeader.PAGES, pages);
        mem.putLong(ZoneHeader.PFREE, pages);
        long free = ZoneHeader.FREE;
        mem.putLong(free, 0);
        mem.putLong(free + 16, 0);
        if (pages == 0) {
            mem.putLong(free + 8, free);
            return;
        }
        mem.putLong(free + 8, from);
        mem.putLong(from, pages);
        mem.putLong(from + 8, free);
        mem.putLong(from + 16, free);
    }

    /* ---- descriptors ---- */

    long slab(long page) {
        return mem.getLong(page);
    }

    void slab(long page, long value) {
        mem.putLong(page, value);
    }

    long next(long page) {
        return mem.getLong(page + 8);
    }

    void next(long page, long value) {
        mem.putLong(page + 8, value);
    }

    long prev(long page) {
        return mem.getLong(page + 16);
    }

    void prev(long page, long value) {
        mem.putLong(page + 16, value);
    }

    long type(long page) {
        return prev(page) & TYPE_MASK;
    }

    /** Takes a descriptor off whichever list it is on. */
    void unlink(long page) {
        long p = prev(page) & ~TYPE_MASK;
        next(p, next(page));
        prev(next(page), prev(page));
    }

    /** The offset of a descriptor's page. */
    long addr(long page) {
        return start + (((page - first) / DESC) << PAGE_SHIFT);
    }

    /** The descriptor of the page holding {@code offset}, or 0 when the offset is not in a page. */
    long pageOf(long offset) {
        if (offset < start || offset >= start + (count() << PAGE_SHIFT)) {
            return 0;
        }
        return first + ((offset - start) >> PAGE_SHIFT) * DESC;
    }

    long count() {
        return (last - first) / DESC;
    }

    long free() {
        return mem.getLong(ZoneHeader.PFREE);
    }

    /**
     * Takes a run of pages, first fit ({@code ngx_slab_alloc_pages()}).
     *
     * @param pages how many
     * @return the run's first descriptor, or 0 when no free run is long enough
     */
    long alloc(long pages) {
        long list = ZoneHeader.FREE;
        for (long page = next(list); page != list; page = next(page)) {
            long run = slab(page);
            if (run < pages) {
                continue;
            }
            if (run > pages) {
                long rest = page + pages * DESC;
                prev(page + (run - 1) * DESC, rest);
                slab(rest, run - pages);
                next(rest, next(page));
                prev(rest, prev(page));
                next(prev(page), rest);
                prev(next(page), rest);
            } else {
                next(prev(page), next(page));
                prev(next(page), prev(page));
            }
            slab(page, pages | PAGE_START);
            next(page, 0);
            prev(page, TYPE_PAGE);
            mem.putLong(ZoneHeader.PFREE, free() - pages);
            for (long i = 1; i < pages; i++) {
                long d = page + i * DESC;
                slab(d, PAGE_BUSY);
                next(d, 0);
                prev(d, TYPE_PAGE);
            }
            return page;
        }
        return 0;
    }

    /**
     * Returns a run to the free list, merged with the free runs right after and right before it
     * ({@code ngx_slab_free_pages()}). The run may still be on a size class's list: it is taken off.
     *
     * @param page the run's first descriptor
     * @param pages its length
     */
    void free(long page, long pages) {
        mem.putLong(ZoneHeader.PFREE, free() + pages);
        slab(page, pages);
        if (pages > 1) {
            mem.zero(page + DESC, (int) ((pages - 1) * DESC));
        }
        if (next(page) != 0) {
            unlink(page);
        }
        long after = page + pages * DESC;
        if (after < last && type(after) == TYPE_PAGE && next(after) != 0) {
            slab(page, slab(page) + slab(after));
            unlink(after);
            clear(after);
        }
        if (page > first) {
            long before = page - DESC;
            if (type(before) == TYPE_PAGE) {
                if (slab(before) == PAGE_FREE) {
                    before = prev(before) & ~TYPE_MASK;
                }
                if (before != 0 && next(before) != 0) {
                    slab(before, slab(before) + slab(page));
                    unlink(before);
                    clear(page);
                    page = before;
                }
            }
        }
        long run = slab(page);
        if (run > 1) {
            prev(page + (run - 1) * DESC, page);
        }
        long list = ZoneHeader.FREE;
        prev(page, list);
        next(page, next(list));
        prev(next(page), page);
        next(list, page);
    }

    private void clear(long page) {
        slab(page, PAGE_FREE);
        next(page, 0);
        prev(page, TYPE_PAGE);
    }
}
