package jinx.kernel;

import java.io.IOException;

import jinx.kernel.internal.shm.Zone;

/**
 * A shared memory zone: nginx's {@code ngx_shm_zone_t} with the slab pool at its start ({@code ngx_slab_pool_t}).
 * A module declares it at configuration time with {@link Cycle#sharedZone(String, long, String)}; the master
 * creates it (a memfd of {@link #size()} bytes, mapped) once the configuration is parsed, the workers inherit the
 * descriptor and map it again ({@link #attach}). A reload keeps a zone whose name, size and tag are unchanged:
 * the new cycle takes over the same memory ({@link #reused()}).
 *
 * <p>Memory is addressed by byte offsets from the zone's start, never by addresses: every process maps the zone
 * somewhere else. Offset 0 is the zone's header, so 0 never names allocated memory and serves as "null" in
 * structures kept in the zone. {@link #slab()} allocates; the module's root structure is found through
 * {@link SlabPool#data()} (nginx's {@code shpool->data}), which survives a reload with the memory.
 *
 * <p>The atomic operations ({@code compareAndSet}, {@code getAndAdd}, {@code getVolatile}, {@code setRelease}) act
 * on naturally aligned words (8-byte offsets for longs, 4 for ints) and are atomic across processes; an unaligned
 * offset throws {@link IllegalArgumentException}. Plain reads and writes are for memory guarded by a
 * {@link ZoneLock}. Any thread may use a zone.
 */
public interface SharedZone {

    /** The page size zones are rounded up to and the slab allocator's page: nginx's {@code ngx_pagesize}. */
    int PAGE_SIZE = 4096;

    /**
     * Creates a standalone zone (not declared in a cycle): for tools and tests. The caller releases it.
     *
     * @param name the name
     * @param size the size in bytes, rounded up to {@link #PAGE_SIZE}
     * @param tag the owning module's name
     * @param log where the slab allocator logs
     * @return the zone, mapped, its slab pool initialised
     * @throws IOException when the memory cannot be made
     */
    static SharedZone create(String name, long size, String tag, ErrorLog log) throws IOException {
        return Zone.createStandalone(name, size, tag, log);
    }

    /**
     * Maps a zone the master created from the descriptor this process inherited (a worker). The zone owns the
     * descriptor from now on and closes it on {@link #release()}, or right away when attaching fails.
     *
     * @param fd the inherited memfd
     * @param name the zone's name, checked against the zone's header
     * @param size the zone's size as the master reported it ({@link #size()})
     * @param tag the owning module's name
     * @param log where the slab allocator logs
     * @return the zone
     * @throws IOException when the descriptor is not that zone, or cannot be mapped
     */
    static SharedZone attach(int fd, String name, long size, String tag, ErrorLog log) throws IOException {
        return Zone.attachStandalone(fd, name, size, tag, log);
    }

    /**
     * Returns the name (nginx's {@code shm.name}).
     *
     * @return the name
     */
    String name();

    /**
     * Returns the size in bytes: the declared size rounded up to {@link #PAGE_SIZE}.
     *
     * @return the size
     */
    long size();

    /**
     * Returns the owning module's name (nginx's {@code tag}).
     *
     * @return the tag
     */
    String tag();

    /**
     * Tells whether the memory is there: false while the configuration is being parsed.
     *
     * @return true once created or attached
     */
    boolean isMapped();

    /**
     * Tells whether the memory was taken over from the previous cycle with its contents (nginx calls the zone's
     * {@code init} with the old zone's data then). False for a zone created empty.
     *
     * @return true for a kept zone
     */
    boolean reused();

    /**
     * Returns the memfd, to be inherited by the workers; -1 when the zone was mapped by path or is released.
     *
     * @return the descriptor
     * @throws IllegalStateException before the memory is there
     */
    int fd();

    /**
     * Returns the zone's own lock (the slab pool's mutex, nginx's {@code shpool->mutex}): the master releases it
     * when it reaps a worker that held it.
     *
     * @return the lock
     * @throws IllegalStateException before the memory is there
     */
    ZoneLock lock();

    /**
     * Returns a lock whose word is at {@code offset} (8-byte aligned, zeroed when free): locks the module keeps in
     * its own structures. The master does not know them, so they are not released when a worker dies.
     *
     * @param offset the word's offset
     * @return the lock
     * @throws IllegalStateException before the memory is there
     */
    ZoneLock lockAt(long offset);

    /**
     * Returns the slab allocator of the zone.
     *
     * @return the pool
     * @throws IllegalStateException before the memory is there
     */
    SlabPool slab();

    /**
     * Drops this cycle's (or process's) hold on the memory; the last holder closes the memfd. Idempotent.
     */
    void release();

    /* ---- plain access, for memory guarded by a lock ---- */

    /**
     * Reads a long.
     *
     * @param offset the offset
     * @return the value
     */
    long getLong(long offset);

    /**
     * Writes a long.
     *
     * @param offset the offset
     * @param value the value
     */
    void putLong(long offset, long value);

    /**
     * Reads an int.
     *
     * @param offset the offset
     * @return the value
     */
    int getInt(long offset);

    /**
     * Writes an int.
     *
     * @param offset the offset
     * @param value the value
     */
    void putInt(long offset, int value);

    /**
     * Reads a byte.
     *
     * @param offset the offset
     * @return the value
     */
    byte getByte(long offset);

    /**
     * Writes a byte.
     *
     * @param offset the offset
     * @param value the value
     */
    void putByte(long offset, byte value);

    /**
     * Copies bytes out of the zone.
     *
     * @param offset where in the zone
     * @param dst the array
     * @param dstOffset where in the array
     * @param length how many
     */
    void getBytes(long offset, byte[] dst, int dstOffset, int length);

    /**
     * Copies bytes into the zone.
     *
     * @param offset where in the zone
     * @param src the array
     * @param srcOffset where in the array
     * @param length how many
     */
    void putBytes(long offset, byte[] src, int srcOffset, int length);

    /* ---- atomic access, across processes ---- */

    /**
     * Reads a long with volatile semantics.
     *
     * @param offset an offset aligned to 8
     * @return the value
     */
    long getLongVolatile(long offset);

    /**
     * Writes a long with release semantics.
     *
     * @param offset an offset aligned to 8
     * @param value the value
     */
    void setLongRelease(long offset, long value);

    /**
     * Sets a long to {@code value} if it is {@code expected} (nginx's {@code ngx_atomic_cmp_set()}).
     *
     * @param offset an offset aligned to 8
     * @param expected the expected value
     * @param value the new value
     * @return true when set
     */
    boolean compareAndSetLong(long offset, long expected, long value);

    /**
     * Adds to a long atomically (nginx's {@code ngx_atomic_fetch_add()}).
     *
     * @param offset an offset aligned to 8
     * @param delta the amount
     * @return the value before
     */
    long getAndAddLong(long offset, long delta);

    /**
     * Reads an int with volatile semantics.
     *
     * @param offset an offset aligned to 4
     * @return the value
     */
    int getIntVolatile(long offset);

    /**
     * Writes an int with release semantics.
     *
     * @param offset an offset aligned to 4
     * @param value the value
     */
    void setIntRelease(long offset, int value);

    /**
     * Sets an int to {@code value} if it is {@code expected}.
     *
     * @param offset an offset aligned to 4
     * @param expected the expected value
     * @param value the new value
     * @return true when set
     */
    boolean compareAndSetInt(long offset, int expected, int value);

    /**
     * Adds to an int atomically.
     *
     * @param offset an offset aligned to 4
     * @param delta the amount
     * @return the value before
     */
    int getAndAddInt(long offset, int delta);
}
