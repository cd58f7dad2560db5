package jinx.http.internal.modules;

import org.junit.jupiter.api.Test;

import jinx.http.internal.request.EngineFixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The charset module's tables and configuration errors; the recoding itself is compared with nginx in
 * {@code StdModulesDifferentialIT}.
 */
class CharsetModuleTest {

    @Test
    void utf8DecodeAndHex() {
        assertEquals(0x43f, CharsetRecoder.decode(new byte[] {(byte) 0xd0, (byte) 0xbf}, 0, 2));
        assertEquals(0x20ac, CharsetRecoder.decode(new byte[] {(byte) 0xe2, (byte) 0x82, (byte) 0xac}, 0, 3));
        assertEquals(-1, CharsetRecoder.decode(new byte[] {(byte) 0xc0, (byte) 0x80}, 0, 2));
        assertEquals(-1, CharsetRecoder.decode(new byte[] {(byte) 0xd0, 0x0a}, 0, 2));
        assertEquals(0xff, CharsetRecoder.hex("FF"));
        assertEquals(-1, CharsetRecoder.hex("g1"));
    }

    @Test
    void tableMapsBothWays() {
        CharsetRecoder.Table t = new CharsetRecoder.Table(0, 1, true);
        assertTrue(t.map(0xc1, "D0B1"));
        assertFalse(t.map(0xc2, "F0908080"));
        assertEquals(2, t.toUtf8[0xc1].length);
        assertEquals((byte) 0xc1, t.fromUtf8[0x04][0x31]);
        assertEquals((byte) '?', t.toUtf8[0xc3][0]);
    }

    @Test
    void configurationErrors() {
        assertRefused("charset_map a a { }", "\"charset_map\" between the same charsets \"a\" and \"a\"");
        assertRefused("charset_map a b { } charset_map B A { }", "duplicate \"charset_map\" between \"B\" and \"A\"");
        assertRefused("charset_map a b { 100 41; }", "invalid value \"100\"");
        assertRefused("charset_map a b { 41; }", "invalid parameters number");
        assertRefused("server { listen 127.0.0.1:8080; charset utf-8; source_charset koi8-r; }",
            "no \"charset_map\" between the charsets \"koi8-r\" and \"utf-8\"");
        assertRefused("server { listen 127.0.0.1:8080; charset a; charset b; }", "\"charset\" directive is duplicate");
    }

    private static void assertRefused(String http, String text) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(http).close());
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
