package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.util.Arrays;

import jinx.kernel.Buf;

/** A growing byte array for SSI's text and blocks; strings are written one char per byte, as Jinx keeps them. */
final class SsiBytes {

    private byte[] bytes = new byte[256];
    private int size;

    void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    void write(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[size++] = (byte) s.charAt(i);
        }
    }

    int size() {
        return size;
    }

    void reset() {
        size = 0;
    }

    /** A memory buffer with a copy of the bytes. */
    Buf toBuf() {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        b.put(bytes, 0, size).flip();
        return Buf.of(b);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
