package jinx.http.internal.modules;

/**
 * nginx's {@code ngx_murmur_hash2()} ({@code src/core/ngx_murmurhash.c}): MurmurHash2 with seed 0 over the bytes of
 * a value, read four at a time little-endian whatever the machine. {@code split_clients} puts a key in the bucket
 * nginx puts it in only with this exact function.
 */
final class MurmurHash2 {

    private static final int M = 0x5bd1e995;

    private MurmurHash2() {
    }

    /**
     * Hashes the bytes of a value held one byte per char (ISO-8859-1, as the request's strings hold them).
     *
     * @param s the value
     * @return the hash, an unsigned 32-bit number
     */
    @SuppressWarnings("fallthrough")
    static long hash(String s) {
        int len = s.length();
        int h = len;
        int i = 0;
        while (len >= 4) {
            int k = (s.charAt(i) & 0xff) | (s.charAt(i + 1) & 0xff) << 8 | (s.charAt(i + 2) & 0xff) << 16
                    | (s.charAt(i + 3) & 0xff) << 24;
            k *= M;
            k ^= k >>> 24;
            k *= M;
            h *= M;
            h ^= k;
            i += 4;
            len -= 4;
        }
        switch (len) {
            case 3:
                h ^= (s.charAt(i + 2) & 0xff) << 16;
                // fall through, as nginx's switch does
            case 2:
                h ^= (s.charAt(i + 1) & 0xff) << 8;
                // fall through
            case 1:
                h ^= s.charAt(i) & 0xff;
                h *= M;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= M;
        h ^= h >>> 15;
        return h & 0xffffffffL;
    }
}
