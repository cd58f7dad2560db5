package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@code geo} block maps addresses to: networks looked up by longest prefix (nginx's radix trees
 * {@code ngx_radix32tree} and {@code ngx_radix128tree}), or with {@code ranges} IPv4 address ranges (nginx's
 * {@code ngx_http_geo_high_ranges_t}). Built while the block is read, then only read.
 */
final class GeoTable {

    /** Networks of one prefix length each: key the masked address. */
    @SuppressWarnings("unchecked")
    private final Map<ByteBuffer, String>[] v4 = new Map[33];
    @SuppressWarnings("unchecked")
    private final Map<ByteBuffer, String>[] v6 = new Map[129];
    /** With {@code ranges}: start address to range. */
    private final TreeMap<Long, Range> ranges = new TreeMap<>();

    /** An IPv4 range and its value. */
    record Range(long start, long end, String value) {
    }

    /**
     * Inserts a network.
     *
     * @param cidr the network
     * @param value its value
     * @return the value it had, or null
     */
    String put(Cidr cidr, String value) {
        return table(cidr, true).put(ByteBuffer.wrap(cidr.addr()), value);
    }

    /**
     * Removes a network.
     *
     * @param cidr the network
     * @return the value it had, or null when there was none
     */
    String remove(Cidr cidr) {
        Map<ByteBuffer, String> t = table(cidr, false);
        return t == null ? null : t.remove(ByteBuffer.wrap(cidr.addr()));
    }

    private Map<ByteBuffer, String> table(Cidr cidr, boolean create) {
        Map<ByteBuffer, String>[] byLength = cidr.addr().length == 4 ? v4 : v6;
        int bits = bits(cidr.mask());
        if (byLength[bits] == null && create) {
            byLength[bits] = new HashMap<>();
        }
        return byLength[bits];
    }

    private static int bits(byte[] mask) {
        int bits = 0;
        for (byte b : mask) {
            bits += Integer.bitCount(b & 0xff);
        }
        return bits;
    }

    /**
     * Finds the value of the longest network holding an address.
     *
     * @param addr 4 or 16 bytes
     * @return the value, or null
     */
    String find(byte[] addr) {
        Map<ByteBuffer, String>[] byLength = addr.length == 4 ? v4 : v6;
        byte[] masked = new byte[addr.length];
        for (int bits = byLength.length - 1; bits >= 0; bits--) {
            if (byLength[bits] == null) {
                continue;
            }
            for (int i = 0; i < addr.length; i++) {
                int s = Math.min(8, Math.max(0, bits - i * 8));
                masked[i] = (byte) (addr[i] & (0xff00 >> s));
            }
            String v = byLength[bits].get(ByteBuffer.wrap(masked));
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * Adds a range: nginx's {@code ngx_http_geo_add_range()}. A range inside one there is splits it; the same
     * range again replaces the value.
     *
     * @param start the first address
     * @param end the last address
     * @param value the value
     * @return null when added, the same range when it replaced one (a warning), or the range it overlaps (an error)
     */
    Range addRange(long start, long end, String value) {
        Map.Entry<Long, Range> e = ranges.floorEntry(end);
        Range over = e != null && e.getValue().end >= start ? e.getValue() : null;
        if (over == null) {
            ranges.put(start, new Range(start, end, value));
            return null;
        }
        Map.Entry<Long, Range> before = ranges.lowerEntry(over.start);
        if (over.start > start || over.end < end || before != null && before.getValue().end >= start) {
            return over;
        }
        ranges.remove(over.start);
        if (over.start < start) {
            ranges.put(over.start, new Range(over.start, start - 1, over.value));
        }
        ranges.put(start, new Range(start, end, value));
        if (end < over.end) {
            ranges.put(end + 1, new Range(end + 1, over.end, over.value));
        }
        return over.start == start && over.end == end ? over : null;
    }

    /**
     * Deletes a range given exactly.
     *
     * @param start the first address
     * @param end the last address
     * @return true when it was there
     */
    boolean deleteRange(long start, long end) {
        Range r = ranges.get(start);
        if (r == null || r.end != end) {
            return false;
        }
        ranges.remove(start);
        return true;
    }

    /**
     * Finds the range holding an IPv4 address.
     *
     * @param addr the address as an unsigned number
     * @return the value, or null
     */
    String findRange(long addr) {
        Map.Entry<Long, Range> e = ranges.floorEntry(addr);
        return e != null && e.getValue().end >= addr ? e.getValue().value : null;
    }

    /**
     * Tells whether any network or range was added.
     *
     * @return true when empty
     */
    boolean isEmpty() {
        for (Map<ByteBuffer, String> m : v4) {
            if (m != null && !m.isEmpty()) {
                return false;
            }
        }
        for (Map<ByteBuffer, String> m : v6) {
            if (m != null && !m.isEmpty()) {
                return false;
            }
        }
        return ranges.isEmpty();
    }
}
