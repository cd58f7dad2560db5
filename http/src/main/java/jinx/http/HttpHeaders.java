package jinx.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Header lines in the order they came or will be sent: nginx's {@code ngx_list_t} of {@code ngx_table_elt_t}.
 * Lookup ignores case; a removed line stays in the list, marked, as nginx clears {@code hash}. Lines are indexed
 * by name (open addressing on the name's case-folded hash), so adding and finding a line take the same time
 * whether the request has three lines or a thousand, as nginx's list push and header hash do.
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
        /** The name's case-folded hash ({@link #fold}): the index's key. */
        final int hash;
        /** In the first line of a name in a table's index: the last line chained after it. */
        Entry tail;

        /**
         * Makes a line that belongs to no list, such as {@link HeadersOut#server}.
         *
         * @param name the name
         * @param value the value
         */
        public Entry(String name, String value) {
            Lower l = lower(name);
            this.name = name;
            this.lowcaseName = l.lower;
            this.value = value;
            this.hash = l.hash;
        }
    }

    /**
     * A name, its lower case and its {@link #fold}, remembered: response headers are added by the same few names,
     * and a request's lines give a repeated name as the same string, whose bytes a hit then does not read.
     */
    private record Lower(String name, String lower, int hash) {
    }

    /** 2^32 divided by the golden ratio, odd: a hash times it has its top bits mixed from all of the hash's. */
    private static final int GOLDEN = 0x9E3779B9;

    /** Lower-cased names, a direct-mapped table; racy reads see whole records or null. */
    private static final Lower[] LOWER = new Lower[1 << 11];

    private static Lower lower(String name) {
        // mixed: names such as X1 ... X999 have hashes whose low bits, taken as they are, share slots
        int slot = (name.hashCode() * GOLDEN) >>> (32 - 11);
        Lower l = LOWER[slot];
        if (l != null && l.name.equals(name)) {
            return l;
        }
        l = new Lower(name, name.toLowerCase(Locale.ROOT), fold(name));
        LOWER[slot] = l;
        return l;
    }

    /**
     * The hash of a name as {@link String#equalsIgnoreCase} compares it: each code point upper-cased, then
     * lower-cased, so that two names equal ignoring case have the same hash.
     */
    static int fold(String name) {
        int h = 0;
        for (int i = 0, n = name.length(); i < n; ) {
            int cp = name.charAt(i);
            if (cp < 0x80) {
                // ASCII, all a header name from the wire is: the letters fold to lower case, nothing else changes
                i++;
                h = 31 * h + (cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp);
                continue;
            }
            cp = name.codePointAt(i);
            i += Character.charCount(cp);
            h = 31 * h + Character.toLowerCase(Character.toUpperCase(cp));
        }
        return h ^ (h >>> 16);
    }

    /** The index's size after a request that needed more: requests repeat a handful of names. */
    private static final int INDEX_SIZE = 16;

    private final List<Entry> entries = new ArrayList<>();
    /** The first line of each name (removed or not), open addressing; at most half full. */
    private Entry[] index = new Entry[INDEX_SIZE];
    /** The names in {@link #index}. */
    private int names;
    /**
     * Entries of this table's previous use, taken again by {@link #add} for the same name (the same string), in the
     * order they were added then: the next request usually sends the same names in the same order, so the search
     * starts after the last one taken. A taken entry leaves null.
     */
    private Entry[] spare = new Entry[MAX_SPARE];
    /** The spare entries' next array, filled by {@link #recycle} (the two take turns). */
    private Entry[] nextSpare = new Entry[MAX_SPARE];
    /** Entries in {@link #spare}, taken ones included. */
    private int spares;
    /** Where the next search of {@link #spare} starts. */
    private int spareFrom;
    /** At most this many spare entries are kept. */
    private static final int MAX_SPARE = 32;
    /**
     * Searches of {@link #spare} in this use that found nothing: after {@link #MAX_SPARE} of them the rest of the
     * lines are new names too (a request of a thousand distinct names searched all the spares for each).
     */
    private int spareMisses;

    private Entry spare(String name) {
        if (spareMisses == MAX_SPARE) {
            return null;
        }
        int n = spares;
        for (int k = 0, i = spareFrom; k < n; k++) {
            Entry e = spare[i];
            int next = i + 1 == n ? 0 : i + 1;
            if (e != null && e.name == name) {
                spare[i] = null;
                spareFrom = next;
                return e;
            }
            i = next;
        }
        if (n > 0) {
            spareMisses++;
        }
        return null;
    }

    /**
     * Empties the table for the next request of a reused request object, keeping its entries for {@link #add}:
     * request and response headers repeat their names request after request, and the parser gives a repeated name
     * as the same string.
     */
    void recycle() {
        Entry[] next = nextSpare;
        int n = 0;
        for (int i = 0, size = entries.size(); i < size && n < MAX_SPARE; i++) {
            Entry e = entries.get(i);
            e.value = null;
            e.removed = false;
            e.next = null;
            e.tail = null;
            next[n++] = e;
        }
        // the spares this use did not take stay, after the ones it used
        Entry[] old = spare;
        for (int i = 0; i < spares; i++) {
            if (old[i] != null && n < MAX_SPARE) {
                next[n++] = old[i];
            }
            old[i] = null;
        }
        nextSpare = old;
        spare = next;
        spares = n;
        spareFrom = 0;
        spareMisses = 0;
        entries.clear();
        clearIndex();
    }

    private void clearIndex() {
        if (index.length > 4 * INDEX_SIZE && names * 8 <= index.length) {
            // a request of many names does not make every later one clear a large table; the next of as many
            // names (a client that repeats such a request) clears it instead of growing a new one a step at a time
            index = new Entry[INDEX_SIZE];
        } else if (names > 0) {
            Arrays.fill(index, null);
        }
        names = 0;
    }

    /**
     * The slot of the name's first line, or of the empty slot where it goes. The hash picks the first slot by its
     * product with the golden ratio's top bits: names such as {@code X1}, {@code X2}, ... have consecutive hashes,
     * which taken as they are filled one run of slots that every new name then walked to its end.
     */
    private int slot(String name, int hash) {
        int mask = index.length - 1;
        int start = (hash * GOLDEN) >>> Integer.numberOfLeadingZeros(mask);
        for (int i = start; ; i = (i + 1) & mask) {
            Entry e = index[i];
            if (e == null || e.hash == hash && e.lowcaseName.equalsIgnoreCase(name)) {
                return i;
            }
        }
    }

    private void grow() {
        Entry[] old = index;
        index = new Entry[old.length * 2];
        for (Entry e : old) {
            if (e != null) {
                index[slot(e.lowcaseName, e.hash)] = e;
            }
        }
    }

    /** The first line not removed in the chain from {@code head}, or null. */
    private static Entry live(Entry head) {
        for (Entry e = head; e != null; e = e.next) {
            if (!e.removed) {
                return e;
            }
        }
        return null;
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
        int i = slot(e.lowcaseName, e.hash);
        Entry head = index[i];
        if (head != null && live(head) != null) {
            // chained after the last line of the name, as nginx links a repeated header
            Entry last = head.tail != null ? head.tail : head;
            last.next = e;
            head.tail = e;
        } else {
            // the first line of the name, or the first since every earlier one was removed
            index[i] = e;
            if (head == null && ++names * 2 > index.length) {
                grow();
            }
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
        return live(index[slot(name, fold(name))]);
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
        clearIndex();
    }
}
