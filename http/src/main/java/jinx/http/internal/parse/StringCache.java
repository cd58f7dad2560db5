package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The strings a request's bytes make, remembered: a keep-alive client sends the same method, URI, protocol and
 * header lines request after request, and making each a new {@code String} was most of what a request allocated.
 * A direct-mapped table keyed by a hash of the bytes; a hit compares the bytes with the cached string, a miss makes
 * the string and takes the slot. Strings are immutable and published through their final fields, so the table may be
 * read and written by several loops at once without a lock: a race costs a miss, never a wrong string.
 */
final class StringCache {

    /** Slots; a power of two. */
    private static final int SIZE = 4096;
    /** Longer strings are made every time: they rarely repeat and would crowd the table. */
    static final int MAX_LENGTH = 256;

    private static final String[] SLOTS = new String[SIZE];

    private StringCache() {
    }

    /**
     * Returns the string of the bytes {@code start..end} of a buffer, one char per byte (ISO-8859-1).
     *
     * @param b the buffer
     * @param start the first byte
     * @param end the byte after the last
     * @return the string, a cached one when the same bytes were seen before
     */
    static String string(ByteBuffer b, int start, int end) {
        int len = end - start;
        if (len > MAX_LENGTH) {
            return make(b, start, len);
        }
        int h = len;
        for (int i = start; i < end; i++) {
            h = 31 * h + b.get(i);
        }
        int slot = (h ^ (h >>> 15)) & (SIZE - 1);
        String s = SLOTS[slot];
        if (s != null && same(s, b, start, len)) {
            return s;
        }
        s = make(b, start, len);
        SLOTS[slot] = s;
        return s;
    }

    /**
     * Returns the string of {@code len} bytes of an array, one char per byte, cached as {@link #string}'s.
     *
     * @param a the bytes
     * @param len how many, from 0
     * @return the string
     */
    static String string(byte[] a, int len) {
        int h = len;
        for (int i = 0; i < len; i++) {
            h = 31 * h + a[i];
        }
        int slot = (h ^ (h >>> 15)) & (SIZE - 1);
        String s = SLOTS[slot];
        if (s != null && s.length() == len) {
            boolean same = true;
            for (int i = 0; i < len && same; i++) {
                same = s.charAt(i) == (a[i] & 0xff);
            }
            if (same) {
                return s;
            }
        }
        s = new String(a, 0, len, StandardCharsets.ISO_8859_1);
        SLOTS[slot] = s;
        return s;
    }

    private static boolean same(String s, ByteBuffer b, int start, int len) {
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != (b.get(start + i) & 0xff)) {
                return false;
            }
        }
        return true;
    }

    private static String make(ByteBuffer b, int start, int len) {
        byte[] a = new byte[len];
        b.get(start, a);
        return new String(a, StandardCharsets.ISO_8859_1);
    }
}
