package jinx.kernel.internal.shm;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

import jinx.kernel.os.FileDescriptor;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;

/**
 * One mapping of a zone's memory: nginx's {@code ngx_shm_t}. The memory is a memfd (created by the master,
 * inherited by the workers); it is mapped with {@link FileChannel#map} through {@code /proc/self/fd/N}, shared,
 * in the platform's byte order, and addressed by byte offsets, never addresses. The atomic operations go through
 * {@link MethodHandles#byteBufferViewVarHandle} views and need naturally aligned offsets.
 *
 * <p>A reload that keeps a zone hands the same {@code ZoneMemory} to the new cycle: {@link #retain()} counts the
 * cycles holding it and the last {@link #release()} closes the descriptor. The mapping itself is not unmapped
 * explicitly: the JVM unmaps it when the buffer is unreachable, so code of an old cycle that still holds a zone
 * (in-flight requests of {@code master_process off}) can never touch unmapped memory.
 */
public final class ZoneMemory {

    /** The {@code memfd_create} name prefix, shown in {@code /proc/PID/fd} as {@code /memfd:jinx:NAME}. */
    static final String MEMFD_PREFIX = "jinx:";

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
                                                                                  ByteOrder.nativeOrder());
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class,
                                                                                 ByteOrder.nativeOrder());

    private final MappedByteBuffer buf;
    private final int size;
    private final FileDescriptor fd;
    private final AtomicInteger refs = new AtomicInteger(1);

    private ZoneMemory(MappedByteBuffer buf, int size, FileDescriptor fd) {
        this.buf = buf;
        this.size = size;
        this.fd = fd;
    }

    /**
     * Creates zeroed memory of {@code size} bytes: a close-on-exec memfd named after the zone, sized with
     * {@code ftruncate}, mapped (nginx's {@code ngx_shm_alloc()}).
     *
     * @param name the zone's name, for {@code /proc/PID/fd}
     * @param size bytes, a multiple of the page size
     * @return the memory, held once
     * @throws IOException when the memfd cannot be made, sized or mapped
     */
    public static ZoneMemory create(String name, int size) throws IOException {
        int fd = Files.memfdCreate(MEMFD_PREFIX + memfdName(name), Platform.MFD_CLOEXEC);
        FileDescriptor owned = new FileDescriptor(fd);
        try {
            Files.ftruncate(fd, size);
            return new ZoneMemory(map(procFd(fd), size), size, owned);
        } catch (IOException | RuntimeException e) {
            closeQuietly(owned, e);
            throw e;
        }
    }

    /**
     * Maps an inherited descriptor: a worker's view of the master's zone. The memory owns the descriptor from
     * now on, also when mapping fails (it is closed then).
     *
     * @param fd the memfd
     * @param size the zone's size in bytes
     * @return the memory, held once
     * @throws IOException when the descriptor's size differs from {@code size} or it cannot be mapped
     */
    public static ZoneMemory attach(int fd, int size) throws IOException {
        FileDescriptor owned = new FileDescriptor(fd);
        try {
            return new ZoneMemory(map(procFd(fd), size), size, owned);
        } catch (IOException | RuntimeException e) {
            closeQuietly(owned, e);
            throw e;
        }
    }

    /**
     * Maps a zone by path ({@code /proc/PID/fd/N} of the process that holds it, or a file): for tools and tests;
     * no descriptor is kept.
     *
     * @param path the path
     * @param size the zone's size in bytes
     * @return the memory, held once
     * @throws IOException when the file's size differs from {@code size} or it cannot be mapped
     */
    public static ZoneMemory attach(Path path, int size) throws IOException {
        return new ZoneMemory(map(path, size), size, null);
    }

    private static MappedByteBuffer map(Path path, int size) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long actual = ch.size();
            if (actual != size) {
                throw new IOException("shared memory \"" + path + "\" has " + actual + " bytes, not " + size);
            }
            MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
            b.order(ByteOrder.nativeOrder());
            return b;
        }
    }

    private static Path procFd(int fd) {
        return Path.of("/proc/self/fd/" + fd);
    }

    /** memfd names are limited to 249 bytes and cannot hold '/' in /proc's display; keep them short and plain. */
    private static String memfdName(String name) {
        StringBuilder sb = new StringBuilder(Math.min(name.length(), 64));
        for (int i = 0; i < name.length() && sb.length() < 64; i++) {
            char c = name.charAt(i);
            sb.append(c > ' ' && c < 0x7f && c != '/' ? c : '_');
        }
        return sb.toString();
    }

    private static void closeQuietly(FileDescriptor fd, Exception cause) {
        try {
            fd.close();
        } catch (NativeIoException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Returns the size in bytes.
     *
     * @return the size
     */
    public int size() {
        return size;
    }

    /**
     * Returns the memfd, or -1 when mapped by path or once released.
     *
     * @return the descriptor
     */
    public int fd() {
        return fd == null ? -1 : fd.fd();
    }

    /**
     * Adds a holder: a new cycle takes the zone over.
     *
     * @return this
     * @throws IllegalStateException when the memory has been released already
     */
    public ZoneMemory retain() {
        for (;;) {
            int n = refs.get();
            if (n <= 0) {
                throw new IllegalStateException("shared memory released");
            }
            if (refs.compareAndSet(n, n + 1)) {
                return this;
            }
        }
    }

    /**
     * Drops a holder; the last one closes the descriptor (nginx's {@code ngx_shm_free()}).
     *
     * @return true when this was the last holder
     * @throws NativeIoException when {@code close()} fails
     */
    public boolean release() throws NativeIoException {
        int n = refs.decrementAndGet();
        if (n != 0) {
            return false;
        }
        if (fd != null) {
            fd.close();
        }
        return true;
    }

    /**
     * Returns the number of holders (cycles).
     *
     * @return the count, 0 once released
     */
    public int holders() {
        return Math.max(refs.get(), 0);
    }

    /* ---- plain access ---- */

    long getLong(long offset) {
        return buf.getLong(index(offset));
    }

    void putLong(long offset, long value) {
        buf.putLong(index(offset), value);
    }

    int getInt(long offset) {
        return buf.getInt(index(offset));
    }

    void putInt(long offset, int value) {
        buf.putInt(index(offset), value);
    }

    byte getByte(long offset) {
        return buf.get(index(offset));
    }

    void putByte(long offset, byte value) {
        buf.put(index(offset), value);
    }

    void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        buf.get(index(offset), dst, dstOffset, length);
    }

    void putBytes(long offset, byte[] src, int srcOffset, int length) {
        buf.put(index(offset), src, srcOffset, length);
    }

    void zero(long offset, int length) {
        int at = index(offset);
        if (length < 0 || at + length > size) {
            throw new IndexOutOfBoundsException("zero " + length + " bytes at " + offset + " of " + size);
        }
        int i = at;
        for (; i < at + length && (i & 7) != 0; i++) {
            buf.put(i, (byte) 0);
        }
        for (; i + 8 <= at + length; i += 8) {
            buf.putLong(i, 0L);
        }
        for (; i < at + length; i++) {
            buf.put(i, (byte) 0);
        }
    }

    /* ---- atomic access: 8-byte words at offsets aligned to 8, 4-byte words at offsets aligned to 4 ---- */

    long getLongVolatile(long offset) {
        return (long) LONGS.getVolatile(buf, aligned(offset, 7));
    }

    void setLongRelease(long offset, long value) {
        LONGS.setRelease(buf, aligned(offset, 7), value);
    }

    boolean compareAndSetLong(long offset, long expected, long value) {
        return LONGS.compareAndSet(buf, aligned(offset, 7), expected, value);
    }

    long getAndAddLong(long offset, long delta) {
        return (long) LONGS.getAndAdd(buf, aligned(offset, 7), delta);
    }

    int getIntVolatile(long offset) {
        return (int) INTS.getVolatile(buf, aligned(offset, 3));
    }

    void setIntRelease(long offset, int value) {
        INTS.setRelease(buf, aligned(offset, 3), value);
    }

    boolean compareAndSetInt(long offset, int expected, int value) {
        return INTS.compareAndSet(buf, aligned(offset, 3), expected, value);
    }

    int getAndAddInt(long offset, int delta) {
        return (int) INTS.getAndAdd(buf, aligned(offset, 3), delta);
    }

    private static int index(long offset) {
        if ((offset >>> 31) != 0) {
            throw new IndexOutOfBoundsException("offset " + offset);
        }
        return (int) offset;
    }

    private static int aligned(long offset, int mask) {
        if ((offset & mask) != 0) {
            throw new IllegalArgumentException("offset " + offset + " is not aligned to " + (mask + 1) + " bytes");
        }
        return index(offset);
    }
}
