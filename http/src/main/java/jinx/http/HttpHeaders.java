package jinx.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Header lines in the order they came or will be sent: nginx's {@code ngx_list_t} of {@code ngx_table_elt_t}.
 * Lookup ignores case; a removed line stays in the list, marked, as nginx clears {@code hash}.
 */
public final class HttpHeaders {

    /**
     * One header line.
     */
    public static final class Entry {
        /** The name as written. */
        public final String name;
        /** The name in lower case. */
        public final String lowcaseName;
        /** The value. */
        public String value;
        /** Removed: skipped when sending and looking up. */
        public boolean removed;
        /** The next line with the same name (nginx's {@code next}, for repeated headers), or null. */
        public Entry next;

        /**
         * Makes a line that belongs to no list, such as {@link HeadersOut#server}.
         *
         * @param name the name
         * @param value the value
         */
        public Entry(String name, String value) {
            this.name = name;
            this.lowcaseName = name.toLowerCase(Locale.ROOT);
            this.value = value;
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /**
     * Appends a line.
     *
     * @param name the name
     * @param value the value
     * @return the new line
     */
    public Entry add(String name, String value) {
        Entry e = new Entry(name, value);
        Entry first = entry(e.lowcaseName);
        if (first != null) {
            Entry last = first;
            while (last.next != null) {
                last = last.next;
            }
            last.next = e;
        }
        entries.add(e);
        return e;
    }

    /**
     * Returns the first line named {@code name} (any case), or null.
     *
     * @param name the name
     * @return the line, or null
     */
    public Entry entry(String name) {
        for (Entry e : entries) {
            if (!e.removed && e.lowcaseName.equalsIgnoreCase(name)) {
                return e;
            }
        }
        return null;
    }

    /**
     * Returns the value of the first line named {@code name}, or null.
     *
     * @param name the name
     * @return the value, or null
     */
    public String get(String name) {
        Entry e = entry(name);
        return e == null ? null : e.value;
    }

    /**
     * Marks every line named {@code name} removed.
     *
     * @param name the name
     */
    public void remove(String name) {
        for (Entry e : entries) {
            if (e.lowcaseName.equalsIgnoreCase(name)) {
                e.removed = true;
            }
        }
    }

    /**
     * Returns every line, removed ones included (check {@link Entry#removed}).
     *
     * @return the lines in order
     */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * Removes every line.
     */
    public void clear() {
        entries.clear();
    }
}
