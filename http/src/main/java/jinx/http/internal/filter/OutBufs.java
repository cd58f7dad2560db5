package jinx.http.internal.filter;

import java.nio.ByteBuffer;

import jinx.http.internal.request.BufferPool;
import jinx.kernel.Buf;

/**
 * The direct buffers the filters write into (the status line and headers, chunk sizes), from the loop's
 * {@link BufferPool}: nginx takes them from the request's pool and frees them with it; here the write filter
 * gives one back as soon as the socket has taken all of it.
 */
public final class OutBufs {

    /** The tag of a buffer {@link #temp(int)} made. */
    static final Object TAG = new Object();
    /** The tag of a descriptor from {@link #descriptor}: the write filter gives the object back, not memory. */
    static final Object DESCRIPTOR_TAG = new Object();

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
    public static Buf temp(int size) {
        int cap = MIN;
        while (cap < size) {
            cap <<= 1;
        }
        BufferPool pool = BufferPool.current();
        ByteBuffer mem = pool.get(cap);
        mem.clear();
        Buf b = pool.buf();
        b.mem = mem;
        b.temporary = true;
        b.tag = TAG;
        return b;
    }

    /**
     * Releases a buffer of {@link #temp} and gives its descriptor back too, or gives back a {@link #descriptor};
     * other buffers are left alone: for the last holder of a response's buffers (the write filter, or the copy step
     * that read a file buffer under {@code sendfile off}).
     *
     * @param pool the loop's pool
     * @param b the buffer
     */
    public static void free(BufferPool pool, Buf b) {
        if (b.tag == TAG && b.mem != null) {
            pool.release(b.mem);
            pool.free(b);
        } else if (b.tag == DESCRIPTOR_TAG) {
            pool.free(b);
        }
    }

    /**
     * A buffer descriptor from the loop's pool for memory or a file the caller owns, given back by the write filter
     * once sent: the last holder of a response's buffers.
     *
     * @param pool the loop's pool
     * @return the descriptor, empty
     */
    public static Buf descriptor(BufferPool pool) {
        Buf b = pool.buf();
        b.tag = DESCRIPTOR_TAG;
        return b;
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
