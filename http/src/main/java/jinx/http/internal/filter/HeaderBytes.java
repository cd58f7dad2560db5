package jinx.http.internal.filter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A response header being written, as bytes: nginx's {@code ngx_cpymem()} into the header buffer. Text goes in as
 * ISO-8859-1, one byte per char (the low eight bits, as the header filter always wrote it); fixed pieces go in
 * preencoded ({@link #bytes(String)}). The whole header then reaches the output buffer in one bulk copy
 * ({@link #copyTo}): writing a direct buffer char by char, or a {@code StringBuilder} first, cost a worker a
 * tenth of its user time per hello request.
 *
 * <p>One per loop thread, reused: it grows (allocating) only for a header longer than any before.
 */
final class HeaderBytes {

    private byte[] buf = new byte[512];
    private int length;

    /**
     * Preencodes a fixed piece of a header.
     *
     * @param s the text, ASCII
     * @return its bytes
     */
    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Empties the header for the next response. */
    void reset() {
        length = 0;
    }

    /**
     * Returns the number of bytes written.
     *
     * @return the length
     */
    int length() {
        return length;
    }

    /**
     * Appends preencoded bytes.
     *
     * @param b the bytes
     * @return this
     */
    HeaderBytes append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, length, b.length);
        length += b.length;
        return this;
    }

    /**
     * Appends text, one byte per char.
     *
     * @param s the text, or null for {@code null}
     * @return this
     */
    @SuppressWarnings("deprecation")
    HeaderBytes append(String s) {
        if (s == null) {
            // what a StringBuilder, which wrote headers before, made of a missing value
            return append("null");
        }
        int n = s.length();
        ensure(n);
        // String.getBytes(int, int, byte[], int) keeps the low eight bits of each char: ISO-8859-1 for the text
        // a header holds, copied at once for a Latin-1 string
        s.getBytes(0, n, buf, length);
        length += n;
        return this;
    }

    /**
     * Appends a byte.
     *
     * @param c the byte, as a char below 256
     * @return this
     */
    HeaderBytes append(char c) {
        ensure(1);
        buf[length++] = (byte) c;
        return this;
    }

    /**
     * Appends a number in decimal.
     *
     * @param v the number
     * @return this
     */
    HeaderBytes append(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return append(Long.toString(v));
            }
            append('-');
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        ensure(digits);
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        length = end;
        return this;
    }

    /**
     * Copies the header into a buffer at its position, which moves past it.
     *
     * @param to the buffer, with room for {@link #length()} bytes
     */
    void copyTo(ByteBuffer to) {
        to.put(buf, 0, length);
    }

    private void ensure(int n) {
        if (length + n > buf.length) {
            byte[] bigger = new byte[Math.max(buf.length * 2, length + n)];
            System.arraycopy(buf, 0, bigger, 0, length);
            buf = bigger;
        }
    }
}
