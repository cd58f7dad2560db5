package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import jinx.kernel.Rc;
import jinx.kernel.os.NativeMemory;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;

/**
 * The header line almost every client sends, in one pass without the state machine: a name of letters, digits
 * and dashes, a colon, spaces, a value without NUL, CRLF, all in the buffer; or the CRLF that ends the
 * header. It sets exactly what {@link HeaderLineParser} sets for such a line, the name's hash and lower-cased
 * copy included; anything else (an underscore, a byte nginx takes as invalid, a bare LF, a repeated CR, a line not
 * read whole) is left to the state machine, which starts over from the same byte. The only thing written before
 * the line is known plain is the lower-cased name, which the state machine writes again, byte for byte.
 */
final class PlainHeaderLine {

    /** The line is not plain, or not whole: the state machine parses it. */
    static final int NOT_PLAIN = Integer.MIN_VALUE;

    private PlainHeaderLine() {
    }

    /**
     * Parses a plain header line that starts at the buffer's position.
     *
     * @param r the state, at nginx's {@code sw_start}
     * @param b the buffer
     * @param base the direct buffer's address, or 0 for a heap buffer
     * @return {@link Rc#OK} or {@link HttpParser#PARSE_HEADER_DONE} as {@link HeaderLineParser} returns them
     *     (position after the LF), or {@link #NOT_PLAIN} with nothing changed
     */
    static int parse(HttpParseState r, ByteBuffer b, long base) {
        int start = b.position();
        int last = b.limit();
        if (last - start < 2) {
            return NOT_PLAIN;
        }
        int ch = at(b, base, start);
        if (ch == CR) {
            if (at(b, base, start + 1) != LF) {
                return NOT_PLAIN;
            }
            r.headerNameStart = start;
            r.invalidHeader = false;
            r.headerEnd = start;
            return HeaderLineParser.headerDone(r, b, start + 1);
        }
        byte[] lowcase = r.lowcaseHeader;
        long hash = 0;
        int i = 0;
        int p = start;
        for (;; p++) {
            if (p >= last) {
                return NOT_PLAIN;
            }
            ch = at(b, base, p);
            int c = HeaderLineParser.LOWCASE[ch];
            if (c == 0) {
                break;
            }
            hash = hash * 31 + c;
            lowcase[i++] = (byte) c;
            i &= HttpParser.LC_HEADER_LEN - 1;
        }
        if (ch != ':' || p == start) {
            return NOT_PLAIN;
        }
        int nameEnd = p++;
        // spaces only, as HeaderLineParser: a tab belongs to the value
        while (p < last && (ch = at(b, base, p)) == ' ') {
            p++;
        }
        int valueStart = p;
        if (base != 0) {
            return wordValue(r, b, base, start, nameEnd, valueStart, hash, i);
        }
        int valueEnd = NONE;
        for (;; p++) {
            if (p >= last) {
                return NOT_PLAIN;
            }
            ch = at(b, base, p);
            if (ch == ' ') {
                // sw_value ends the value at the first of the spaces, sw_space_after_value keeps it
                if (valueEnd == NONE) {
                    valueEnd = p;
                }
            } else if (ch == CR) {
                break;
            } else if (ch == LF || ch == '\0') {
                return NOT_PLAIN;
            } else {
                valueEnd = NONE;
            }
        }
        if (p + 1 >= last || at(b, base, p + 1) != LF) {
            return NOT_PLAIN;
        }
        return line(r, b, start, nameEnd, valueStart, valueEnd == NONE ? p : valueEnd, p + 1, hash, i);
    }

    /** A plain line parsed: its positions set as the state machine sets them, {@code lf} the LF's index. */
    private static int line(HttpParseState r, ByteBuffer b, int start, int nameEnd, int valueStart, int valueEnd,
                            int lf, long hash, int lowcaseIndex) {
        r.headerNameStart = start;
        r.invalidHeader = false;
        r.headerNameEnd = nameEnd;
        r.headerStart = valueStart;
        r.headerEnd = valueEnd;
        return HeaderLineParser.done(r, b, lf, hash, lowcaseIndex);
    }

    /**
     * The value of a line in a direct buffer, read eight bytes at a time: a word with none of CR, LF and NUL is
     * value, hashed as {@link StringCache} hashes it, so that the value's string is looked up without reading its
     * bytes again. Trailing spaces are dropped after the CR is found, as {@code sw_space_after_value}
     * drops them; such a value is hashed again by the cache, since its last word held spaces.
     */
    private static int wordValue(HttpParseState r, ByteBuffer b, long base, int start, int nameEnd, int valueStart,
                                 long nameHash, int lowcaseIndex) {
        int last = b.limit();
        long x = 0;
        int p = valueStart;
        int stop = -1;
        for (; last - p >= Long.BYTES; p += Long.BYTES) {
            long w = NativeMemory.getLong(base + p);
            long m = stops(w);
            if (m != 0) {
                stop = p + first(m);
                break;
            }
            x = StringCache.mix(x, w);
        }
        for (; stop < 0 && p < last; p++) {
            int ch = at(b, base, p);
            if (ch == CR || ch == LF || ch == '\0') {
                stop = p;
            }
        }
        if (stop < 0 || at(b, base, stop) != CR || stop + 1 >= last || at(b, base, stop + 1) != LF) {
            return NOT_PLAIN;
        }
        int end = stop;
        for (; end > valueStart && at(b, base, end - 1) == ' '; ) {
            end--;
        }
        if (end == stop) {
            r.valueHash = x;
            r.valueHashEnd = end;
        }
        return line(r, b, start, nameEnd, valueStart, end, stop + 1, nameHash, lowcaseIndex);
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /**
     * The bytes of a native-order word that are CR, LF or NUL, each as its high bit: exact up to the first such
     * byte (a bit above it may be a borrow's, which {@link #first} never looks at).
     */
    static long stops(long w) {
        return zeros(w ^ CR * ONES) | zeros(w ^ LF * ONES) | zeros(w);
    }

    private static long zeros(long v) {
        return (v - ONES) & ~v & HIGHS;
    }

    /** The offset in memory of the first byte {@link #stops} marked. */
    private static int first(long m) {
        return (LITTLE ? Long.numberOfTrailingZeros(m) : Long.numberOfLeadingZeros(m)) >>> 3;
    }
}
