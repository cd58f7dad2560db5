package jinx.http.internal.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class StringCacheTest {

    private static ByteBuffer direct(String s, int at) {
        ByteBuffer b = ByteBuffer.allocateDirect(at + s.length());
        b.put(at, s.getBytes(StandardCharsets.ISO_8859_1));
        return b;
    }

    @Test
    void theSameBytesGiveTheSameStringAtAnyOffsetAndLength() {
        String text = "GET /index.html?a=1&b=2 HTTP/1.1 Host: 127.0.0.1:18080 \u00e9\u00ff";
        for (int len = 0; len <= text.length(); len++) {
            String want = text.substring(0, len);
            String first = StringCache.string(direct(want, 3), 3, 3 + len);
            assertEquals(want, first);
            String second = StringCache.string(direct(want, 5), 5, 5 + len);
            assertEquals(want, second);
            if (len > 0) {
                assertSame(first, second, "a repeated string of " + len + " bytes is the cached one");
            }
        }
    }

    @Test
    void bytesThatDifferOnlyInTheLastWordOrTheTailAreDifferentStrings() {
        // lengths around the word size: the full words agree, the overlapping tail word does not
        for (String base : new String[] {"/abcdefg", "/abcdefgh", "/abcdefghijklmn", "/abcdefghijklmnopq", "/ab"}) {
            String a = base + "x";
            String b = base + "y";
            String sa = StringCache.string(direct(a, 1), 1, 1 + a.length());
            String sb = StringCache.string(direct(b, 1), 1, 1 + b.length());
            assertEquals(a, sa);
            assertEquals(b, sb);
            assertEquals(a, StringCache.string(direct(a, 0), 0, a.length()));
        }
    }

    @Test
    void aHeapBufferAndADirectOneAgreeOnTheString() {
        String s = "Mozilla/5.0 (X11; Linux x86_64)";
        ByteBuffer heap = ByteBuffer.wrap(("  " + s).getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(s, StringCache.string(heap, 2, 2 + s.length()));
        assertEquals(s, StringCache.string(direct(s, 0), 0, s.length()));
        assertEquals(s, StringCache.string(heap, 2, 2 + s.length()));
    }

    @Test
    void longStringsAreMadeEachTime() {
        String s = "a".repeat(StringCache.MAX_LENGTH + 1);
        String first = StringCache.string(direct(s, 0), 0, s.length());
        String second = StringCache.string(direct(s, 0), 0, s.length());
        assertEquals(s, first);
        assertNotSame(first, second);
    }
}
