package jinx.http.internal.modules;

import java.util.HashMap;
import java.util.Map;

/**
 * The keys of a {@code map} (and of anything else that nginx keys with {@code ngx_hash_keys_arrays_t} and
 * {@code ngx_hash_find_combined()}): exact keys, and with {@code hostnames} the wildcards {@code *.example.com},
 * {@code .example.com} and {@code www.example.*}. Keys and looked-up names are compared lower-cased (ASCII), as
 * nginx's {@code ngx_hash_add_key()} and {@code ngx_hash_strlow()} make them. An exact key wins over a leading
 * wildcard, which wins over a trailing one; among wildcards of one kind the longest matches.
 *
 * @param <V> the value type
 */
final class HostKeys<V> {

    /** {@link #add} took the key. */
    static final int OK = 0;
    /** {@link #add} refused the key: not a valid wildcard ({@code invalid hostname or wildcard "x"}). */
    static final int INVALID = 1;
    /** {@link #add} refused the key: it is there already ({@code conflicting parameter "x"}). */
    static final int CONFLICT = 2;

    private final Map<String, V> exact = new HashMap<>();
    /** {@code *.example.com} and {@code .example.com}, keyed {@code example.com}. */
    private final Map<String, V> head = new HashMap<>();
    /** {@code www.example.*}, keyed {@code www.example}. */
    private final Map<String, V> tail = new HashMap<>();

    /**
     * Adds a key: nginx's {@code ngx_hash_add_key()}.
     *
     * @param key the key as written
     * @param value its value
     * @param wildcards {@code hostnames}: wildcards are keys of their own kind
     * @return {@link #OK}, {@link #INVALID} or {@link #CONFLICT}
     */
    int add(String key, V value, boolean wildcards) {
        String low = CoreOutput.lowerAscii(key);
        if (!wildcards) {
            return exact.putIfAbsent(low, value) == null ? OK : CONFLICT;
        }
        int stars = 0;
        for (int i = 0; i < low.length(); i++) {
            char c = low.charAt(i);
            if (c == '*' && ++stars > 1 || c == '.' && i + 1 < low.length() && low.charAt(i + 1) == '.'
                || c == '\0') {
                return INVALID;
            }
        }
        int n = low.length();
        if (n > 1 && low.charAt(0) == '.') {
            // ".example.com" is "example.com" and "*.example.com" at once
            String name = low.substring(1);
            if (exact.containsKey(name) || head.containsKey(name)) {
                return CONFLICT;
            }
            exact.put(name, value);
            head.put(name, value);
            return OK;
        }
        if (n > 2 && low.startsWith("*.")) {
            return head.putIfAbsent(low.substring(2), value) == null ? OK : CONFLICT;
        }
        if (n > 2 && low.endsWith(".*")) {
            return tail.putIfAbsent(low.substring(0, n - 2), value) == null ? OK : CONFLICT;
        }
        if (stars > 0) {
            return INVALID;
        }
        return exact.putIfAbsent(low, value) == null ? OK : CONFLICT;
    }

    /**
     * Finds a name: nginx's {@code ngx_hash_find_combined()}.
     *
     * @param name the name, any case
     * @return the value, or null
     */
    V find(String name) {
        String low = CoreOutput.lowerAscii(name);
        V v = exact.get(low);
        if (v != null || head.isEmpty() && tail.isEmpty()) {
            return v;
        }
        // a leading wildcard needs a label before it: "example.com" is not "*.example.com"
        for (int dot = low.indexOf('.'); dot >= 0; dot = low.indexOf('.', dot + 1)) {
            v = head.get(low.substring(dot + 1));
            if (v != null) {
                return v;
            }
        }
        // a trailing wildcard needs a label after it, the longest key wins
        for (int dot = low.lastIndexOf('.'); dot > 0; dot = low.lastIndexOf('.', dot - 1)) {
            v = tail.get(low.substring(0, dot));
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * Tells whether no key was added.
     *
     * @return true when empty
     */
    boolean isEmpty() {
        return exact.isEmpty() && head.isEmpty() && tail.isEmpty();
    }
}
