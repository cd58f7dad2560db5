package jinx.kernel;

import java.nio.ByteBuffer;

/**
 * A buffer of data to send or that was received: nginx's {@code ngx_buf_t}. Its data is either in memory (the
 * bytes between {@link #mem}'s position and limit) or in a file (from {@link #filePos} to {@link #fileLast}); a
 * buffer with no data may still carry a flag ({@link #last} ends the response body, {@link #flush} pushes what
 * is pending).
 */
public final class Buf {

    /** The data in memory, between its position and limit; null for a file buffer. */
    public ByteBuffer mem;
    /** The file's descriptor, for a file buffer; -1 otherwise. */
    public int fileFd = -1;
    /** The file's name, for logs. */
    public String fileName;
    /** The first byte of the file to send. */
    public long filePos;
    /** The byte after the last of the file to send. */
    public long fileLast;
    /** The data is in the file, not in {@link #mem}. */
    public boolean inFile;
    /** The last buffer of the response body (nginx's {@code last_buf}). */
    public boolean last;
    /** The last buffer of this chain, though not of the body (nginx's {@code last_in_chain}). */
    public boolean lastInChain;
    /** Send what is pending now. */
    public boolean flush;
    /** A marker without data. */
    public boolean sync;
    /** {@link #mem} may be changed by filters (nginx's {@code temporary}); otherwise it is read-only. */
    public boolean temporary;
    /** Who made the buffer, so its maker can recognise and reuse it. */
    public Object tag;

    /**
     * Tells whether the data is in memory.
     *
     * @return true for a memory buffer
     */
    public boolean inMemory() {
        return mem != null && !inFile;
    }

    /**
     * Returns the number of bytes of data left.
     *
     * @return the size
     */
    public long size() {
        if (inMemory()) {
            return mem.remaining();
        }
        return inFile ? fileLast - filePos : 0;
    }

    /**
     * Tells whether the buffer only carries flags.
     *
     * @return true when it has no data
     */
    public boolean isSpecial() {
        return size() == 0 && (flush || last || sync || lastInChain);
    }

    /**
     * A memory buffer over {@code data}, read-only for filters.
     *
     * @param data the bytes, between its position and limit
     * @return the buffer
     */
    public static Buf of(ByteBuffer data) {
        Buf b = new Buf();
        b.mem = data;
        return b;
    }
}
