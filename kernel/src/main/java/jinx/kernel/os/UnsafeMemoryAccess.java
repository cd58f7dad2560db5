package jinx.kernel.os;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;

import sun.misc.Unsafe;

/**
 * {@link MemoryAccess} through {@code sun.misc.Unsafe}, whose reads and writes the JIT compiles to plain loads and
 * stores: the fast path on Java 17 to 21 (JEP 471 deprecates its memory access for removal; Java 22+ use the FFM
 * API). This class is loaded only when chosen, so a JVM without Unsafe never links it.
 */
final class UnsafeMemoryAccess extends MemoryAccess {

    // static finals: constants to the JIT, as an instance's final fields are not
    private static final Unsafe U;
    /** The offset of {@code java.nio.Buffer.address}, a direct buffer's native address. */
    private static final long BUFFER_ADDRESS;
    private static final Throwable FAILURE;

    static {
        Unsafe u = null;
        long offset = 0;
        Throwable failure = null;
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            u = (Unsafe) f.get(null);
            offset = bufferAddressOffset(u);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            failure = e;
        }
        U = u;
        BUFFER_ADDRESS = offset;
        FAILURE = failure;
    }

    private UnsafeMemoryAccess() {
    }

    @SuppressWarnings("deprecation")
    private static long bufferAddressOffset(Unsafe u) throws NoSuchFieldException {
        // only the field's offset is read: Buffer.address is never made accessible
        return u.objectFieldOffset(Buffer.class.getDeclaredField("address"));
    }

    /**
     * Reaches {@code theUnsafe}.
     *
     * @return the implementation
     * @throws UnsupportedOperationException when this JVM does not give it
     */
    static UnsafeMemoryAccess create() {
        if (FAILURE != null) {
            throw new UnsupportedOperationException("sun.misc.Unsafe: " + FAILURE, FAILURE);
        }
        return new UnsafeMemoryAccess();
    }

    @Override
    String name() {
        return "unsafe";
    }

    @Override
    byte getByte(long address) {
        return U.getByte(address);
    }

    @Override
    void putByte(long address, byte value) {
        U.putByte(address, value);
    }

    @Override
    short getShort(long address) {
        return U.getShort(address);
    }

    @Override
    void putShort(long address, short value) {
        U.putShort(address, value);
    }

    @Override
    int getInt(long address) {
        return U.getInt(address);
    }

    @Override
    void putInt(long address, int value) {
        U.putInt(address, value);
    }

    @Override
    long getLong(long address) {
        return U.getLong(address);
    }

    @Override
    void putLong(long address, long value) {
        U.putLong(address, value);
    }

    @Override
    long address(ByteBuffer direct) {
        return U.getLong(direct, BUFFER_ADDRESS);
    }

    @Override
    void put(long address, byte[] src, int offset, int length) {
        U.copyMemory(src, Unsafe.ARRAY_BYTE_BASE_OFFSET + offset, null, address, length);
    }

    @Override
    void get(long address, byte[] dst, int offset, int length) {
        U.copyMemory(null, address, dst, Unsafe.ARRAY_BYTE_BASE_OFFSET + offset, length);
    }

    @Override
    void copy(long src, long dst, long length) {
        U.copyMemory(src, dst, length);
    }
}
