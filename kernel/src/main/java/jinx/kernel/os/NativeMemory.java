package jinx.kernel.os;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import com.kenai.jffi.MemoryIO;

/**
 * Native memory in slabs: each {@link #allocate(long)} is one zeroed {@code malloc} this object owns until
 * {@link #free(long)} or {@link #close()} frees it. Nothing is left to a {@code Cleaner} or the garbage collector:
 * whoever makes a {@code NativeMemory} closes it (a worker at exit, a connection pool when it is destroyed).
 *
 * <p>An instance is not thread-safe: it belongs to one owner (one loop). The static accessors read and write
 * any native address, in the platform's byte order; they are how struct fields are reached (offsets from
 * {@link Platform}), and they allocate nothing.
 *
 * <p>Those accessors and {@link #address(ByteBuffer)} run on the I/O path of every request, so they go through
 * an implementation the JIT compiles to plain loads and stores: the FFM API on Java 22+, {@code sun.misc.Unsafe}
 * on Java 17 to 21 (see {@link MemoryAccess}, which also names the fallback and the property that chooses).
 * jffi's {@code MemoryIO} makes a JNI call per access when its own Unsafe path is off (as on the module path), some
 * 20 to 40 ns each (measured: about a tenth of a worker's user time per hello request). Allocation stays with jffi.
 */
public final class NativeMemory implements AutoCloseable {

    private static final MemoryIO IO = MemoryIO.getInstance();
    private static final MemoryAccess M = MemoryAccess.probe();

    private long[] slabs = new long[8];
    private int count;
    private boolean closed;

    /**
     * Allocates a zeroed slab this object owns.
     *
     * @param size bytes, at least 1
     * @return its address (aligned as {@code malloc} aligns: 16 bytes on 64-bit Linux)
     * @throws IllegalStateException after {@link #close()}
     * @throws OutOfMemoryError when {@code malloc} fails
     */
    public long allocate(long size) {
        if (closed) {
            throw new IllegalStateException("native memory is closed");
        }
        if (size <= 0) {
            throw new IllegalArgumentException("size " + size);
        }
        long address = IO.allocateMemory(size, true);
        if (address == 0) {
            throw new OutOfMemoryError("malloc(" + size + ") failed");
        }
        if (count == slabs.length) {
            slabs = Arrays.copyOf(slabs, count * 2);
        }
        slabs[count++] = address;
        return address;
    }

    /**
     * Frees one slab before {@link #close()}.
     *
     * @param address an address {@link #allocate(long)} returned
     * @throws IllegalArgumentException when this object does not own it
     */
    public void free(long address) {
        for (int i = count - 1; i >= 0; i--) {
            if (slabs[i] == address) {
                IO.freeMemory(address);
                slabs[i] = slabs[--count];
                return;
            }
        }
        throw new IllegalArgumentException("address 0x" + Long.toHexString(address) + " is not allocated here");
    }

    /**
     * Returns the number of slabs allocated and not freed.
     *
     * @return the count
     */
    public int slabs() {
        return count;
    }

    /**
     * Frees every slab. Idempotent; addresses and views handed out are dangling afterwards.
     */
    @Override
    public void close() {
        for (int i = 0; i < count; i++) {
            IO.freeMemory(slabs[i]);
        }
        count = 0;
        closed = true;
    }

    /**
     * Returns a direct buffer over native memory, in the platform's byte order. The buffer does not own the
     * memory: it must not be used after the memory is freed.
     *
     * @param address the start
     * @param size bytes
     * @return the view
     */
    public static ByteBuffer view(long address, int size) {
        return IO.newDirectByteBuffer(address, size).order(ByteOrder.nativeOrder());
    }

    /**
     * Returns the native address of a direct buffer's first byte (not of its position).
     *
     * @param buffer a direct buffer
     * @return its address
     * @throws IllegalArgumentException when the buffer is not direct
     */
    public static long address(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        return M.address(buffer);
    }

    /**
     * Reads a byte.
     *
     * @param address where
     * @return the byte
     */
    public static byte getByte(long address) {
        return M.getByte(address);
    }

    /**
     * Writes a byte.
     *
     * @param address where
     * @param value the byte
     */
    public static void putByte(long address, byte value) {
        M.putByte(address, value);
    }

    /**
     * Reads a native-order short.
     *
     * @param address where
     * @return the value
     */
    public static short getShort(long address) {
        return M.getShort(address);
    }

    /**
     * Writes a native-order short.
     *
     * @param address where
     * @param value the value
     */
    public static void putShort(long address, short value) {
        M.putShort(address, value);
    }

    /**
     * Reads a native-order int.
     *
     * @param address where
     * @return the value
     */
    public static int getInt(long address) {
        return M.getInt(address);
    }

    /**
     * Writes a native-order int.
     *
     * @param address where
     * @param value the value
     */
    public static void putInt(long address, int value) {
        M.putInt(address, value);
    }

    /**
     * Reads a native-order long.
     *
     * @param address where
     * @return the value
     */
    public static long getLong(long address) {
        return M.getLong(address);
    }

    /**
     * Writes a native-order long.
     *
     * @param address where
     * @param value the value
     */
    public static void putLong(long address, long value) {
        M.putLong(address, value);
    }

    /**
     * Reads an unsigned integer field of 1, 2, 4 or 8 bytes (a C field whose width the probe reports).
     *
     * @param address where
     * @param size its width in bytes
     * @return the value, zero-extended (an 8-byte field is returned as is)
     */
    public static long getUnsigned(long address, int size) {
        switch (size) {
            case 1: return M.getByte(address) & 0xffL;
            case 2: return M.getShort(address) & 0xffffL;
            case 4: return M.getInt(address) & 0xffffffffL;
            case 8: return M.getLong(address);
            default: throw new IllegalArgumentException("field size " + size);
        }
    }

    /**
     * Writes an integer field of 1, 2, 4 or 8 bytes, truncating the value to the width.
     *
     * @param address where
     * @param size its width in bytes
     * @param value the value
     */
    public static void putUnsigned(long address, int size, long value) {
        switch (size) {
            case 1: M.putByte(address, (byte) value); break;
            case 2: M.putShort(address, (short) value); break;
            case 4: M.putInt(address, (int) value); break;
            case 8: M.putLong(address, value); break;
            default: throw new IllegalArgumentException("field size " + size);
        }
    }

    /**
     * Copies bytes from the heap to native memory.
     *
     * @param address the destination
     * @param src the bytes
     * @param offset the first byte of {@code src}
     * @param length how many
     */
    public static void put(long address, byte[] src, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, src.length);
        M.put(address, src, offset, length);
    }

    /**
     * Copies bytes from native memory to the heap.
     *
     * @param address the source
     * @param dst the destination
     * @param offset the first byte of {@code dst}
     * @param length how many
     */
    public static void get(long address, byte[] dst, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, dst.length);
        M.get(address, dst, offset, length);
    }

    /**
     * Copies bytes between native addresses (the areas must not overlap).
     *
     * @param src the source
     * @param dst the destination
     * @param length how many
     */
    public static void copy(long src, long dst, long length) {
        M.copy(src, dst, length);
    }

    /**
     * Fills native memory with a byte.
     *
     * @param address the start
     * @param size bytes
     * @param value the byte
     */
    public static void fill(long address, long size, byte value) {
        IO.setMemory(address, size, value);
    }

    /**
     * Returns how this JVM reads and writes native memory ({@link MemoryAccess#probe()}).
     *
     * @return {@code ffm}, {@code unsafe} or {@code jffi}
     */
    public static String access() {
        return M.name();
    }

    /**
     * Allocates memory outside any {@code NativeMemory}, for a call that is not on the hot path and frees it with
     * {@link #freeTemporary(long)} in a {@code finally}.
     *
     * @param size bytes
     * @return the zeroed memory
     */
    static long allocateTemporary(long size) {
        long address = IO.allocateMemory(size, true);
        if (address == 0) {
            throw new OutOfMemoryError("malloc(" + size + ") failed");
        }
        return address;
    }

    /**
     * Frees what {@link #allocateTemporary(long)} returned.
     *
     * @param address the memory
     */
    static void freeTemporary(long address) {
        IO.freeMemory(address);
    }
}
