package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import jinx.kernel.os.NativeMemory;

/**
 * The strings a request's bytes make, remembered: a keep-alive client sends the same method, URI, protocol and
 * header lines request after request, and making each a new {@code String} was most of what a request allocated.
 * A direct-mapped table keyed by a hash of the bytes; a hit compares the bytes with the cached string's own, a miss
 * makes the string and takes the slot. Entries are immutable and published through their final fields, so the table
 * may be read and written by several loops at once without a lock: a race costs a miss, never a wrong string.
 *
 * <p>A direct buffer (the loop's header buffers) is read at its native address: hashing and comparing through
 * {@code ByteBuffer.get(int)}, with its checks on every byte, cost a worker about a tenth of its user time per
 * hello request, for the six strings a request line and a {@code Host} make.
 */
final class StringCache {

    /** Slots: 2^BITS. */
    private static final int BITS = 12;
    private static final int SIZE = 1 << BITS;
    /** Longer strings are made every time: they rarely repeat and would crowd the table. */
    static final int MAX_LENGTH = 256;

    /**
     * A cached string and its bytes, to compare with; a string made from native memory also keeps its bytes as
     * native-order words ({@code words}, the full eight-byte words, and {@code tail}, see {@link #tail}), which
     * the native path compares a word at a time. Null words: made from a heap array, compared byte by byte.
     */
    private record Entry(String string, byte[] bytes, long[] words, long tail) {
    }

    private static final Entry[] SLOTS = new Entry[SIZE];
    /** The multiplier of the word hash (2^64 / the golden ratio, odd). */
    private static final long MIX = 0x9E3779B97F4A7C15L;

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
        if (!b.isDirect()) {
            return heapString(b, start, end);
        }
        long address = address(b, start, end);
        // hashed and compared a word at a time: the bytes of a request line and a Host header took a tenth of
        // a hello request's user time byte by byte
        long x = 0;
        for (int i = 0, words = len >>> 3; i < words; i++) {
            x = mix(x, NativeMemory.getLong(address + ((long) i << 3)));
        }
        return lookup(b, start, address, len, x);
    }

    /**
     * As {@link #string(ByteBuffer, int, int)} for a direct buffer whose full words the caller already hashed
     * while it read them ({@link PlainHeaderLine}): {@code words} is {@link #mix} over the {@code len >>> 3}
     * native-order words from {@code start}, starting from 0.
     *
     * @param b the buffer, direct
     * @param start the first byte
     * @param end the byte after the last
     * @param words the hash of the full words
     * @return the string, a cached one when the same bytes were seen before
     */
    static String string(ByteBuffer b, int start, int end, long words) {
        int len = end - start;
        if (len > MAX_LENGTH) {
            return make(b, start, len);
        }
        return lookup(b, start, address(b, start, end), len, words);
    }

    /**
     * One step of the word hash: the hash so far and the next native-order word of the bytes.
     *
     * @param x the hash so far, 0 at the start
     * @param word the next eight bytes
     * @return the hash with them
     */
    static long mix(long x, long word) {
        return (x ^ word) * MIX;
    }

    private static long address(ByteBuffer b, int start, int end) {
        if (start < 0 || end > b.capacity()) {
            throw new IndexOutOfBoundsException("bytes " + start + ".." + end + " of " + b.capacity());
        }
        return NativeMemory.address(b) + start;
    }

    /** The slot of the full words' hash {@code x} with the tail and the length, then a hit or a new entry. */
    private static String lookup(ByteBuffer b, int start, long address, int len, long x) {
        long tail = tail(address, len);
        int slot = (int) (mix(x, tail ^ len) >>> (64 - BITS));
        Entry e = SLOTS[slot];
        if (e != null && same(e, address, len, tail)) {
            return e.string;
        }
        int words = len >>> 3;
        long[] w = new long[words];
        for (int i = 0; i < words; i++) {
            w[i] = NativeMemory.getLong(address + ((long) i << 3));
        }
        byte[] a = bytes(b, start, len);
        String s = new String(a, StandardCharsets.ISO_8859_1);
        SLOTS[slot] = new Entry(s, a, w, tail);
        return s;
    }

    /**
     * The last bytes of {@code len} at {@code address} as one word: the eight that end there (overlapping the
     * full words before) when there are eight, else the bytes one by one. Never reads outside the bytes.
     */
    private static long tail(long address, int len) {
        if (len >= 8) {
            return NativeMemory.getLong(address + len - 8);
        }
        long t = 0;
        for (int i = 0; i < len; i++) {
            t = t << 8 | (NativeMemory.getByte(address + i) & 0xff);
        }
        return t;
    }

    private static boolean same(Entry e, long address, int len, long tail) {
        long[] w = e.words;
        if (w == null || e.bytes.length != len || e.tail != tail) {
            return false;
        }
        for (int i = 0; i < w.length; i++) {
            if (w[i] != NativeMemory.getLong(address + ((long) i << 3))) {
                return false;
            }
        }
        return true;
    }

    private static String heapString(ByteBuffer b, int start, int end) {
        int len = end - start;
        int h = len;
        for (int i = start; i < end; i++) {
            h = 31 * h + b.get(i);
        }
        int slot = slot(h);
        Entry e = SLOTS[slot];
        if (e != null && same(e.bytes, b, start, len)) {
            return e.string;
        }
        return put(slot, bytes(b, start, len));
    }

    /**
     * Returns the string of the first {@code len} bytes of an array, one char per byte (ISO-8859-1).
     *
     * @param a the bytes
     * @param len how many
     * @return the string, a cached one when the same bytes were seen before
     */
    static String string(byte[] a, int len) {
        int h = len;
        for (int i = 0; i < len; i++) {
            h = 31 * h + a[i];
        }
        int slot = slot(h);
        Entry e = SLOTS[slot];
        if (e != null && Arrays.equals(e.bytes, 0, e.bytes.length, a, 0, len)) {
            return e.string;
        }
        return put(slot, Arrays.copyOf(a, len));
    }

    private static int slot(int h) {
        return (h ^ (h >>> 15)) & (SIZE - 1);
    }

    /** A miss: the string of {@code bytes} (which the entry keeps) takes the slot. */
    private static String put(int slot, byte[] bytes) {
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        SLOTS[slot] = new Entry(s, bytes, null, 0);
        return s;
    }

    private static boolean same(byte[] bytes, ByteBuffer b, int start, int len) {
        if (bytes.length != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (bytes[i] != b.get(start + i)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(ByteBuffer b, int start, int len) {
        byte[] a = new byte[len];
        b.get(start, a);
        return a;
    }

    private static String make(ByteBuffer b, int start, int len) {
        return new String(bytes(b, start, len), StandardCharsets.ISO_8859_1);
    }
}
