package jinx.http.internal.parse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import jinx.http.HttpHeaders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

@Timeout(10)
class ArgsAndCookiesTest {

    @ParameterizedTest(name = "[{index}] arg({0}, {1}) = {2}")
    @CsvSource(delimiter = ' ', nullValues = "NULL", value = {
        "a=1&b=2 a 1",
        "a=1&b=2 b 2",
        "a=1&b=2 A 1",
        "A=1&b=2 a 1",
        "a=1&b=2 c NULL",
        "ab=1&b=2 b 2",
        "xa=1 a NULL",
        "b b NULL",
        "b= b ''",
        "b=&c=1 b ''",
        "x&b=3 b 3",
        "a=1&&b=2 b 2",
        "a=1=2 a 1=2",
        "a=b=c b NULL",
        "a=%20x a %20x",
        "a=1&a=2 a 1",
        "foo=bar&foo_bar=baz foo_bar baz",
        "a=b&ab= ab ''",
    })
    void argAsNginx(String args, String name, String expected) {
        assertEquals(expected, HttpParser.arg(args, name), args + " " + name);
    }

    @Test
    void argOfNothing() {
        assertNull(HttpParser.arg("", "a"));
        assertNull(HttpParser.arg(null, "a"));
        assertNull(HttpParser.arg("=1", ""));
    }

    @Test
    void splitArgs() {
        assertEquals(new UriArgs("/a", "b=c"), HttpParser.splitArgs("/a?b=c"));
        assertEquals(new UriArgs("/a", ""), HttpParser.splitArgs("/a"));
        assertEquals(new UriArgs("/a", ""), HttpParser.splitArgs("/a?"));
        assertEquals(new UriArgs("/a", "b?c"), HttpParser.splitArgs("/a?b?c"));
        assertEquals(new UriArgs("", "x"), HttpParser.splitArgs("?x"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ' ', nullValues = "NULL", value = {
        "/a/b /a/b NULL",
        "/a?x=1 /a x=1",
        "/a? /a ''",
        "/a?x=/../ /a x=/../",
        "a/b a/b NULL",
        "/a/..b /a/..b NULL",
        "/a/b.. /a/b.. NULL",
        "/... /... NULL",
        "/a%2Fb /a/b NULL",
        "/a%zz /azz NULL",
        "/a%4zb /ab NULL",
        "/a% /a NULL",
        "/%2e/ /./ NULL",
        "/%3F?x /? x",
        "'' NULL NULL",
        "?x NULL NULL",
        ".. NULL NULL",
        "../a NULL NULL",
        "/.. NULL NULL",
        "/../ NULL NULL",
        "/a/.. NULL NULL",
        "/a/../b NULL NULL",
        "/a/..?x /a/.. x",
        "/a%2F..%2Fb NULL NULL",
        "/%2e%2e/x NULL NULL",
        "%2e%2e/x NULL NULL",
        "/a/%2E%2E NULL NULL",
        "/a%00 NULL NULL",
        "/a%00b?x NULL NULL",
    })
    void unsafeUriAsNginx(String uri, String path, String args) {
        UriArgs found = HttpParser.parseUnsafeUri(uri);
        if (path == null) {
            assertNull(found, uri);
        } else {
            assertEquals(new UriArgs(path, args), found, uri);
        }
    }

    @Test
    void unsafeUriIsDecoded() {
        assertEquals(new UriArgs("/a b", null), HttpParser.parseUnsafeUri("/a%20b"));
    }

    @Test
    void unsafeUriWithARawNul() {
        assertNull(HttpParser.parseUnsafeUri("/a\u0000b"));
        assertEquals(new UriArgs("/a", "b\u0000"), HttpParser.parseUnsafeUri("/a?b\u0000"), "after ? nginx stops");
    }

    private static HttpHeaders.Entry lines(String name, String... values) {
        HttpHeaders h = new HttpHeaders();
        HttpHeaders.Entry first = null;
        for (String v : values) {
            HttpHeaders.Entry e = h.add(name, v);
            if (first == null) {
                first = e;
            }
        }
        return first;
    }

    @ParameterizedTest(name = "[{index}] {0} / {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", ignoreLeadingAndTrailingWhitespace = false,
        value = {
            "a=1; b=2|b|2",
            "a=1; b=2|a|1",
            "a=1; b=2|B|2",
            "a=1; b=2|c|NULL",
            "ab=3; b=4|b|4",
            "ab=3; b=4|a|NULL",
            "a=1;b=2|b|2",
            "a=1, b=2|b|2",
            "a = 1|a|1",
            "a=  1 ; b=2|a|1 ",
            "a=hello world; b|a|hello world",
            "a=|a|''",
            "a=x=y; b|a|x=y",
            "a; a=5|a|NULL",
            "a;b=6|b|6",
            "x=1;  ;  b=7|b|7",
            "caf\u00c9=1|caf\u00e9|NULL",
            "A=1|a|1",
        })
    void cookieAsNginx(String header, String name, String expected) {
        assertEquals(expected, HttpParser.parseMultiHeaderValue(lines("Cookie", header), name));
    }

    @Test
    void cookiesAcrossLines() {
        HttpHeaders.Entry cookies = lines("Cookie", "x=1", "y=2; z=3");
        assertEquals("1", HttpParser.parseMultiHeaderValue(cookies, "x"));
        assertEquals("3", HttpParser.parseMultiHeaderValue(cookies, "z"));
        assertNull(HttpParser.parseMultiHeaderValue(cookies, "w"));
        cookies.next.removed = true;
        assertNull(HttpParser.parseMultiHeaderValue(cookies, "z"), "a removed line is not looked at");
    }

    @Test
    void tokenInMultiHeaderLines() {
        HttpHeaders.Entry cc = lines("Cache-Control", "max-age=0", "private, No-Cache ,x");
        assertSame(cc.next, HttpParser.parseMultiHeaderLines(cc, "no-cache"));
        assertNull(HttpParser.parseMultiHeaderLines(cc, "max-age"), "max-age has a value");
        assertSame(cc.next, HttpParser.parseMultiHeaderLines(cc, "private"));
        assertSame(cc.next, HttpParser.parseMultiHeaderLines(cc, "x"));
        assertNull(HttpParser.parseMultiHeaderLines(cc, "no-store"));
        assertNull(HttpParser.parseMultiHeaderLines(cc, "priv"));
    }

    @Test
    void setCookieLines() {
        HttpHeaders.Entry sc = lines("Set-Cookie", "SID=abc; Path=/", "lang = en ; HttpOnly", "x");
        assertEquals("abc", HttpParser.parseSetCookieLines(sc, "SID"));
        assertEquals("abc", HttpParser.parseSetCookieLines(sc, "sid"));
        assertEquals("en ", HttpParser.parseSetCookieLines(sc, "lang"));
        assertNull(HttpParser.parseSetCookieLines(sc, "Path"), "only the cookie's own name counts");
        assertNull(HttpParser.parseSetCookieLines(sc, "x"), "a name as long as the line is skipped");
    }
}
