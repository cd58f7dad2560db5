package jinx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
