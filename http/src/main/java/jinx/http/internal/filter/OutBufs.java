package jinx.http.internal.filter;

import java.nio.ByteBuffer;

import jinx.http.internal.request.BufferPool;
import jinx.kernel.Buf;

/**
 * The direct buffers the filters write into (the status line and headers, chunk sizes), from the loop's
 * {@link BufferPool}: nginx takes them from the request's pool and frees them with it; here the write filter
 * gives one back as soon as the socket has taken all of it.
 */
final class OutBufs {

    /** The tag of a buffer {@link #temp(int)} made. */
    static final Object TAG = new Object();

    private static final int MIN = 32;

    private OutBufs() {
    }

    /**
     * Returns an empty temporary buffer with room for {@code size} bytes: its memory's position 0, limit the
     * capacity; the caller writes and flips it.
     *
     * @param size the bytes needed
     * @return the buffer
     */
    static Buf temp(int size) {
        int cap = MIN;
        while (cap < size) {
            cap <<= 1;
        }
        ByteBuffer mem = BufferPool.current().get(cap);
        mem.clear();
        Buf b = new Buf();
        b.mem = mem;
        b.temporary = true;
        b.tag = TAG;
        return b;
    }

    /**
     * Gives a buffer {@link #temp(int)} made back to the pool; other buffers are left alone.
     *
     * @param b the buffer, no longer in any chain
     */
    static void release(Buf b) {
        if (b.tag == TAG && b.mem != null) {
            BufferPool.current().release(b.mem);
            b.mem = null;
        }
    }

    /**
     * Writes a string as ISO-8859-1, one byte per char.
     *
     * @param to the buffer
     * @param s the string
     */
    static void put(ByteBuffer to, CharSequence s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            to.put((byte) s.charAt(i));
        }
    }
}
