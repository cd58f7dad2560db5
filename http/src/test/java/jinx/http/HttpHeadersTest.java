package jinx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * The header table: lookup ignoring case through the name index, repeated names chained in order (nginx's
 * {@code next}), removed lines skipped, and the index growing for many names and emptied for the next request.
 */
class HttpHeadersTest {

    @Test
    void findsALineInAnyCase() {
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry host = h.add("Host", "a");
        h.add("User-Agent", "b");
        assertSame(host, h.entry("host"));
        assertSame(host, h.entry("HOST"));
        assertEquals("b", h.get("user-agent"));
        assertNull(h.entry("Accept"));
        assertNull(h.get("hos"));
    }

    @Test
    void repeatedNamesAreChainedInOrder() {
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry a = h.add("Cookie", "1");
        h.add("Host", "x");
        HttpHeaders.Entry b = h.add("cookie", "2");
        HttpHeaders.Entry c = h.add("COOKIE", "3");
        assertSame(a, h.entry("cookie"));
        assertSame(b, a.next);
        assertSame(c, b.next);
        assertNull(c.next);
        assertEquals(4, h.entries().size());
    }

    @Test
    void removedLinesAreSkipped() {
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry a = h.add("X-A", "1");
        HttpHeaders.Entry b = h.add("X-A", "2");
        a.removed = true;
        assertSame(b, h.entry("x-a"));
        HttpHeaders.Entry c = h.add("X-A", "3");
        assertSame(c, b.next);
        h.remove("x-a");
        assertNull(h.entry("X-A"));
        assertNull(h.get("X-A"));
        // a line of a name whose every line was removed starts a chain of its own, as it did in a list scan
        HttpHeaders.Entry d = h.add("X-A", "4");
        assertSame(d, h.entry("X-A"));
        assertNull(d.next);
        assertNull(c.next);
    }

    @Test
    void manyNamesAreAllFound() {
        HttpHeaders h = new HttpHeaders();
        for (int i = 0; i < 1000; i++) {
            h.add("X-" + i, String.valueOf(i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(String.valueOf(i), h.get("x-" + i));
        }
        assertNull(h.get("x-1000"));
        h.clear();
        assertNull(h.get("x-1"));
        assertEquals(0, h.entries().size());
        h.add("X-1", "again");
        assertEquals("again", h.get("X-1"));
    }

    @Test
    void recycledTableStartsEmptyAndChainsAfresh() {
        HttpHeaders h = new HttpHeaders();
        h.add("Host", "a");
        h.add("Host", "b");
        h.recycle();
        assertNull(h.entry("host"));
        HttpHeaders.Entry again = h.add("Host", "c");
        assertNull(again.next);
        assertSame(again, h.entry("Host"));
        assertEquals("c", h.get("host"));
        HttpHeaders.Entry second = h.add("Host", "d");
        assertSame(second, again.next);
    }

    @Test
    void caseFoldingBeyondAscii() {
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry e = h.add("X-Ärger", "1");
        assertSame(e, h.entry("x-ärger"));
        assertSame(e, h.entry("X-ÄRGER"));
        assertEquals(HttpHeaders.fold("x-ärger"), HttpHeaders.fold("X-ÄRGER"));
    }

    /** The case-folded hash as it was before its ASCII shortcut: every code point upper-cased, then lower-cased. */
    private static int foldByCodePoints(String name) {
        int h = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            h = 31 * h + Character.toLowerCase(Character.toUpperCase(cp));
        }
        return h ^ (h >>> 16);
    }

    @Test
    void asciiShortcutFoldsAsTheCodePointsDo() {
        char[] two = new char[2];
        for (char a = 0; a < 0x80; a++) {
            for (char b = 0; b < 0x80; b++) {
                two[0] = a;
                two[1] = b;
                String s = new String(two);
                assertEquals(foldByCodePoints(s), HttpHeaders.fold(s), s);
            }
        }
        // non-ASCII letters that fold to ASCII ones (the Kelvin sign, the long s, the dotless i) keep equal hashes
        for (String s : new String[] {"\u212a-Foo", "X-\u017fize", "\u0131d", "X-\ud801\udc00", "X-\u00c4rger"}) {
            assertEquals(foldByCodePoints(s), HttpHeaders.fold(s), s);
        }
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry e = h.add("k-foo", "1");
        assertSame(e, h.entry("\u212a-FOO"));
    }

    @Test
    void consecutiveNamesAndABurstOfNewOnesAreAllFound() {
        HttpHeaders h = new HttpHeaders();
        String host = "Host";
        String accept = "Accept";
        HttpHeaders.Entry first = h.add(host, "a");
        HttpHeaders.Entry second = h.add(accept, "b");
        h.recycle();
        // the next request's same names take the same entries
        assertSame(first, h.add(host, "c"));
        assertSame(second, h.add(accept, "d"));
        h.recycle();
        // a thousand names with consecutive hashes, as a hostile request sends them, after the usual ones
        assertSame(first, h.add(host, "e"));
        for (int i = 1; i <= 999; i++) {
            h.add("X" + i, String.valueOf(i));
        }
        // past the spares' search bound: a new entry, still indexed and chained like any other
        HttpHeaders.Entry late = h.add(accept, "f");
        assertNotSame(second, late);
        for (int i = 1; i <= 999; i++) {
            assertEquals(String.valueOf(i), h.get("x" + i));
        }
        assertEquals("e", h.get("HOST"));
        assertSame(late, h.entry("accept"));
        assertEquals(1001, h.entries().size());
        // the large index is kept, emptied, for a client that repeats such a request
        h.recycle();
        assertNull(h.get("x1"));
        assertSame(first, h.add(host, "g"));
        for (int i = 1; i <= 999; i++) {
            assertNull(h.get("X" + i));
            h.add("X" + i, "again " + i);
        }
        assertEquals("again 999", h.get("x999"));
        assertEquals("g", h.get("host"));
        // and given up after a request of few names
        h.recycle();
        h.add(host, "h");
        h.recycle();
        assertNull(h.get("x999"));
        assertNull(h.get("host"));
        h.add(accept, "i");
        assertEquals("i", h.get("ACCEPT"));
        assertEquals(1, h.entries().size());
    }
}
