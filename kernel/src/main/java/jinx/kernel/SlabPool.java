package jinx.kernel;

import java.util.List;

/**
 * The slab allocator of a shared zone, nginx's {@code ngx_slab_pool_t} ({@code src/core/ngx_slab.c}): whole
 * pages for requests over half a page, and chunks of a power-of-two size class (8 bytes to half a page) carved
 * out of pages for smaller ones. Allocations return offsets into the zone, 0 meaning none. The plain methods take
 * the zone's lock ({@link SharedZone#lock()}); the {@code Locked} ones expect the caller to hold it already.
 *
 * <p>When the memory runs out, {@code alloc} returns 0 and logs {@code ngx_slab_alloc() failed: no memory} at
 * {@code crit}, followed by the {@link #logContext(String) context}, unless {@link #logNomem(boolean)} turned that
 * off (a module that frees old entries and retries does).
 */
public interface SlabPool {

    /** Allocations smaller than this are rounded up to it: nginx's {@code 1 << pool->min_shift}. */
    int MIN_SIZE = 8;

    /** The largest chunk size; anything larger takes whole pages: nginx's {@code ngx_slab_max_size}. */
    int MAX_SIZE = SharedZone.PAGE_SIZE / 2;

    /**
     * One size class's counters (nginx's {@code ngx_slab_stat_t}).
     *
     * @param size the chunk size
     * @param total chunks in the pages this class holds
     * @param used chunks in use
     * @param reqs allocations asked for
     * @param fails allocations that failed
     */
    record SlotStat(int size, long total, long used, long reqs, long fails) {
    }

    /**
     * Allocates under the zone's lock ({@code ngx_slab_alloc()}).
     *
     * @param size bytes, at least 1
     * @return the offset, or 0 when the zone is full
     */
    long alloc(long size);

    /**
     * Allocates with the zone's lock held by the caller ({@code ngx_slab_alloc_locked()}).
     *
     * @param size bytes, at least 1
     * @return the offset, or 0 when the zone is full
     */
    long allocLocked(long size);

    /**
     * Allocates zeroed memory under the zone's lock ({@code ngx_slab_calloc()}).
     *
     * @param size bytes, at least 1
     * @return the offset, or 0 when the zone is full
     */
    long calloc(long size);

    /**
     * Allocates zeroed memory with the zone's lock held ({@code ngx_slab_calloc_locked()}).
     *
     * @param size bytes, at least 1
     * @return the offset, or 0 when the zone is full
     */
    long callocLocked(long size);

    /**
     * Frees under the zone's lock ({@code ngx_slab_free()}). A bad offset is logged at {@code alert}
     * ({@code ngx_slab_free(): pointer to wrong chunk}, {@code chunk is already free}, {@code outside of pool})
     * and ignored, as nginx does.
     *
     * @param offset an offset {@code alloc} returned
     */
    void free(long offset);

    /**
     * Frees with the zone's lock held ({@code ngx_slab_free_locked()}).
     *
     * @param offset an offset {@code alloc} returned
     */
    void freeLocked(long offset);

    /**
     * Returns the module's root offset kept in the zone's header (nginx's {@code shpool->data}): how the module
     * finds its structures in a worker and after a reload that kept the zone.
     *
     * @return the offset, 0 until set
     */
    long data();

    /**
     * Sets the module's root offset.
     *
     * @param offset the offset
     */
    void data(long offset);

    /**
     * Returns the number of pages the allocator manages.
     *
     * @return the count
     */
    long pages();

    /**
     * Returns the number of free pages (nginx's {@code pool->pfree}).
     *
     * @return the count
     */
    long freePages();

    /**
     * Returns the counters of each size class, smallest first.
     *
     * @return the counters
     */
    List<SlotStat> stats();

    /**
     * Turns the "no memory" message on or off for this zone, in every process (nginx's {@code log_nomem}).
     *
     * @param on whether to log
     */
    void logNomem(boolean on);

    /**
     * Sets what this process appends to the allocator's messages (nginx's {@code log_ctx}, such as
     * {@code  in limit_req zone "one"}).
     *
     * @param context the text, empty for none
     */
    void logContext(String context);
}
