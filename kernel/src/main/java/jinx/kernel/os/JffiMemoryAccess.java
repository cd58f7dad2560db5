package jinx.kernel.os;

import java.nio.ByteBuffer;

import com.kenai.jffi.MemoryIO;

/**
 * {@link MemoryAccess} through jnr's own memory API, jffi's {@code MemoryIO}: what is left where neither the FFM
 * API nor {@code sun.misc.Unsafe} is there (jffi then makes a JNI call per access).
 */
final class JffiMemoryAccess extends MemoryAccess {

    static final MemoryIO IO = MemoryIO.getInstance();

    @Override
    String name() {
        return "jffi";
    }

    @Override
    byte getByte(long address) {
        return IO.getByte(address);
    }

    @Override
    void putByte(long address, byte value) {
        IO.putByte(address, value);
    }

    @Override
    short getShort(long address) {
        return IO.getShort(address);
    }

    @Override
    void putShort(long address, short value) {
        IO.putShort(address, value);
    }

    @Override
    int getInt(long address) {
        return IO.getInt(address);
    }

    @Override
    void putInt(long address, int value) {
        IO.putInt(address, value);
    }

    @Override
    long getLong(long address) {
        return IO.getLong(address);
    }

    @Override
    void putLong(long address, long value) {
        IO.putLong(address, value);
    }

    @Override
    long address(ByteBuffer direct) {
        return IO.getDirectBufferAddress(direct);
    }

    @Override
    void put(long address, byte[] src, int offset, int length) {
        IO.putByteArray(address, src, offset, length);
    }

    @Override
    void get(long address, byte[] dst, int offset, int length) {
        IO.getByteArray(address, dst, offset, length);
    }

    @Override
    void copy(long src, long dst, long length) {
        IO.copyMemory(src, dst, length);
    }
}
