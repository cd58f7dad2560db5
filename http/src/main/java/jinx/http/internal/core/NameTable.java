package jinx.http.internal.core;

import java.util.Map;

/**
 * A read-only hash table of names, looked up by a region of a {@link CharSequence} without making a string: the
 * server names of an address (nginx's {@code ngx_hash_t}, {@code ngx_hash_find()}). Names are compared as they
 * are: the caller lower-cases hosts.
 *
 * @param <V> the values
 */
final class NameTable<V> {

    private final String[] keys;
    private final Object[] values;
    private final int mask;

    NameTable(Map<String, V> entries) {
        int size = Integer.highestOneBit(Math.max(4, entries.size() * 2 - 1)) << 1;
        keys = new String[size];
        values = new Object[size];
        mask = size - 1;
        entries.forEach((k, v) -> {
            int i = hash(k, 0, k.length()) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            values[i] = v;
        });
    }

    boolean isEmpty() {
        for (String k : keys) {
            if (k != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns the value of the name {@code s[from, to)}.
     *
     * @param s the text
     * @param from the name's first character
     * @param to after the name's last character
     * @return the value, or null
     */
    @SuppressWarnings("unchecked")
    V get(CharSequence s, int from, int to) {
        int i = hash(s, from, to) & mask;
        for (;;) {
            String k = keys[i];
            if (k == null) {
                return null;
            }
            if (regionEquals(k, s, from, to)) {
                return (V) values[i];
            }
            i = (i + 1) & mask;
        }
    }

    private static boolean regionEquals(String k, CharSequence s, int from, int to) {
        if (k.length() != to - from) {
            return false;
        }
        for (int j = 0; j < k.length(); j++) {
            if (k.charAt(j) != s.charAt(from + j)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(CharSequence s, int from, int to) {
        int h = 0;
        for (int j = from; j < to; j++) {
            h = 31 * h + s.charAt(j);
        }
        return h ^ h >>> 16;
    }
}
