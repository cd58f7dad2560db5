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
            this.lowcaseName = lower(name);
            this.value = value;
        }
    }

    /** A name and its lower case, remembered (response headers are added by the same few names). */
    private record Lower(String name, String lower) {
    }

    /** Lower-cased names, a direct-mapped table; racy reads see whole records or null. */
    private static final Lower[] LOWER = new Lower[512];

    private static String lower(String name) {
        int slot = name.hashCode() & (LOWER.length - 1);
        Lower l = LOWER[slot];
        if (l != null && l.name.equals(name)) {
            return l.lower;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        LOWER[slot] = new Lower(name, lower);
        return lower;
    }

    private final List<Entry> entries = new ArrayList<>();
    /** Entries of this table's previous use, taken again by {@link #add} for the same name (the same string). */
    private final ArrayList<Entry> spare = new ArrayList<>();
    /** At most this many spare entries are kept. */
    private static final int MAX_SPARE = 32;

    private Entry spare(String name) {
        for (int i = spare.size() - 1; i >= 0; i--) {
            Entry e = spare.get(i);
            if (e.name == name) {
                spare.remove(i);
                return e;
            }
        }
        return null;
    }

    /**
     * Empties the table for the next request of a reused request object, keeping its entries for {@link #add}:
     * request and response headers repeat their names request after request, and the parser gives a repeated name
     * as the same string.
     */
    void recycle() {
        for (int i = 0, n = entries.size(); i < n && spare.size() < MAX_SPARE; i++) {
            Entry e = entries.get(i);
            e.value = null;
            e.removed = false;
            e.next = null;
            spare.add(e);
        }
        entries.clear();
    }

    /**
     * Appends a line.
     *
     * @param name the name
     * @param value the value
     * @return the new line
     */
    public Entry add(String name, String value) {
        Entry e = spare(name);
        if (e == null) {
            e = new Entry(name, value);
        } else {
            e.value = value;
        }
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
        for (int i = 0, n = entries.size(); i < n; i++) {
            Entry e = entries.get(i);
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
        for (int i = 0, n = entries.size(); i < n; i++) {
            Entry e = entries.get(i);
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
