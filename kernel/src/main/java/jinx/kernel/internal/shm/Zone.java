package jinx.kernel.internal.shm;

import java.io.IOException;
import java.nio.file.Path;

import jinx.kernel.ErrorLog;
import jinx.kernel.SharedZone;
import jinx.kernel.SlabPool;
import jinx.kernel.ZoneLock;
import jinx.kernel.os.NativeIoException;

/**
 * A cycle's shared zone, nginx's {@code ngx_shm_zone_t}: declared while the configuration is parsed (name, size,
 * tag), then bound to memory in one of three ways — created empty in the master, taken over from the previous
 * cycle's zone of the same name, size and tag, or attached in a worker to the descriptor it inherited. Binding
 * happens on the thread that builds the cycle, before any loop thread that uses the zone is started.
 */
public final class Zone implements SharedZone {

    /** The largest zone: one {@link java.nio.MappedByteBuffer} maps at most 2 GiB. */
    public static final long MAX_SIZE = Integer.MAX_VALUE & -PAGE_SIZE;

    private final String name;
    private final String tag;
    private long declared;
    private ZoneMemory mem;
    private Shmtx lock;
    private Slab slab;
    private boolean reused;
    private boolean released;
    private ErrorLog log;

    Zone(String name, long declaredSize, String tag) {
        this.name = name;
        this.declared = declaredSize;
        this.tag = tag;
    }

    /**
     * Rounds a size up to whole pages.
     *
     * @param size bytes
     * @return the rounded size
     */
    public static long round(long size) {
        return (size + PAGE_SIZE - 1) & -PAGE_SIZE;
    }

    /**
     * Creates a zone outside any cycle ({@link SharedZone#create}).
     *
     * @param name the name
     * @param size bytes
     * @param tag the owning module
     * @param log the slab allocator's log
     * @return the zone
     * @throws IOException when the memory cannot be made
     */
    public static Zone createStandalone(String name, long size, String tag, ErrorLog log) throws IOException {
        Zone z = new Zone(name, checkSize(size), tag);
        z.create(log);
        return z;
    }

    /**
     * Attaches to an inherited descriptor outside any cycle ({@link SharedZone#attach}).
     *
     * @param fd the descriptor, owned by the zone from now on
     * @param name the name
     * @param size the size
     * @param tag the owning module
     * @param log the slab allocator's log
     * @return the zone
     * @throws IOException when the descriptor is not that zone
     */
    public static Zone attachStandalone(int fd, String name, long size, String tag, ErrorLog log)
            throws IOException {
        Zone z = new Zone(name, checkSize(size), tag);
        z.attach(fd, log);
        return z;
    }

    /**
     * Maps a zone by path ({@code /proc/PID/fd/N} of the master, or a file): tools and tests.
     *
     * @param path the path
     * @param name the name
     * @param size the size
     * @param tag the owning module
     * @param log the slab allocator's log
     * @return the zone, with no descriptor
     * @throws IOException when the file is not that zone
     */
    public static Zone attachPath(Path path, String name, long size, String tag, ErrorLog log) throws IOException {
        Zone z = new Zone(name, checkSize(size), tag);
        z.bindChecked(ZoneMemory.attach(path, (int) z.size()), log);
        return z;
    }

    private static long checkSize(long size) {
        if (size <= 0 || size > MAX_SIZE) {
            throw new IllegalArgumentException("shared zone size " + size);
        }
        return size;
    }

    /* ---- binding ---- */

    long declared() {
        return declared;
    }

    void declared(long size) {
        declared = size;
    }

    void create(ErrorLog zoneLog) throws IOException {
        ZoneMemory m = ZoneMemory.create(name, (int) size());
        ZoneHeader.format(m, name);
        bind(m, zoneLog);
    }

    void reuse(Zone old, ErrorLog zoneLog) {
        bind(old.mem.retain(), zoneLog);
        reused = true;
    }

    void attach(int fd, ErrorLog zoneLog) throws IOException {
        bindChecked(ZoneMemory.attach(fd, (int) size()), zoneLog);
    }

    /** Binds memory made elsewhere, after checking its header names this zone; releases it if not. */
    private void bindChecked(ZoneMemory m, ErrorLog zoneLog) throws IOException {
        String problem = ZoneHeader.check(m, name);
        if (problem != null) {
            m.release();
            throw new IOException("shared memory zone \"" + name + "\" " + problem);
        }
        bind(m, zoneLog);
    }

    private void bind(ZoneMemory m, ErrorLog zoneLog) {
        this.mem = m;
        this.log = zoneLog;
        this.lock = new Shmtx(m, ZoneHeader.LOCK);
        this.slab = new Slab(m, lock, zoneLog);
    }

    private ZoneMemory mem() {
        ZoneMemory m = mem;
        if (m == null) {
            throw new IllegalStateException("shared memory zone \"" + name + "\" is not created yet");
        }
        return m;
    }

    /* ---- SharedZone ---- */

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return round(declared);
    }

    @Override
    public String tag() {
        return tag;
    }

    @Override
    public boolean isMapped() {
        return mem != null;
    }

    @Override
    public boolean reused() {
        return reused;
    }

    @Override
    public int fd() {
        return released ? -1 : mem().fd();
    }

    @Override
    public ZoneLock lock() {
        mem();
        return lock;
    }

    @Override
    public ZoneLock lockAt(long offset) {
        return new Shmtx(mem(), offset);
    }

    @Override
    public SlabPool slab() {
        mem();
        return slab;
    }

    @Override
    public void release() {
        if (mem == null || released) {
            return;
        }
        released = true;
        try {
            mem.release();
        } catch (NativeIoException e) {
            if (log != null) {
                log.alert("close() shared memory zone \"" + name + "\" failed (" + e.getMessage() + ")");
            }
        }
    }

    /**
     * Tells whether this zone has dropped its hold on the memory.
     *
     * @return true once released
     */
    public boolean isReleased() {
        return released;
    }

    @Override
    public long getLong(long offset) {
        return mem().getLong(offset);
    }

    @Override
    public void putLong(long offset, long value) {
        mem().putLong(offset, value);
    }

    @Override
    public int getInt(long offset) {
        return mem().getInt(offset);
    }

    @Override
    public void putInt(long offset, int value) {
        mem().putInt(offset, value);
    }

    @Override
    public byte getByte(long offset) {
        return mem().getByte(offset);
    }

    @Override
    public void putByte(long offset, byte value) {
        mem().putByte(offset, value);
    }

    @Override
    public void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        mem().getBytes(offset, dst, dstOffset, length);
    }

    @Override
    public void putBytes(long offset, byte[] src, int srcOffset, int length) {
        mem().putBytes(offset, src, srcOffset, length);
    }

    @Override
    public long getLongVolatile(long offset) {
        return mem().getLongVolatile(offset);
    }

    @Override
    public void setLongRelease(long offset, long value) {
        mem().setLongRelease(offset, value);
    }

    @Override
    public boolean compareAndSetLong(long offset, long expected, long value) {
        return mem().compareAndSetLong(offset, expected, value);
    }

    @Override
    public long getAndAddLong(long offset, long delta) {
        return mem().getAndAddLong(offset, delta);
    }

    @Override
    public int getIntVolatile(long offset) {
        return mem().getIntVolatile(offset);
    }

    @Override
    public void setIntRelease(long offset, int value) {
        mem().setIntRelease(offset, value);
    }

    @Override
    public boolean compareAndSetInt(long offset, int expected, int value) {
        return mem().compareAndSetInt(offset, expected, value);
    }

    @Override
    public int getAndAddInt(long offset, int delta) {
        return mem().getAndAddInt(offset, delta);
    }

    @Override
    public String toString() {
        return "shared zone \"" + name + "\" " + size() + " bytes, tag " + tag;
    }
}
