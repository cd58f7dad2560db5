package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;

/**
 * The geo module with the address in {@code $arg_ip}: longest-prefix networks (IPv4 and IPv6), default, delete,
 * include, ranges with a split range, proxy with and without recursion, an invalid address, and nginx's errors and
 * warnings.
 */
class GeoModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String http) throws Exception {
        f = EngineFixture.modules(http + "\nserver {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root
            + ";\n location / { return 200 \"$g\"; }\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
            f = null;
        }
    }

    private String g(String ip, String headers) throws Exception {
        return f.get("GET /?ip=" + ip + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "Connection: close\r\n\r\n")
            .body();
    }

    @Test
    @Timeout(20)
    void networksByLongestPrefix() throws Exception {
        Path inc = root.resolve("geo.inc");
        Files.writeString(inc, "192.168.0.0/16 lan;\n");
        start("geo $arg_ip $g {\n default world;\n 10.0.0.0/8 ten;\n 10.1.0.0/16 ten-one;\n 10.1.2.0/24 gone;\n"
            + " delete 10.1.2.0/24;\n 2001:db8::/32 doc6;\n 255.255.255.255 none;\n include " + inc + ";\n}");
        assertEquals("ten", g("10.9.9.9", ""));
        assertEquals("ten-one", g("10.1.9.9", ""));
        assertEquals("ten-one", g("10.1.2.3", ""));
        assertEquals("world", g("11.0.0.1", ""));
        assertEquals("doc6", g("2001:db8::5", ""));
        assertEquals("world", g("::1", ""));
        assertEquals("ten-one", g("::ffff:10.1.0.1", ""));
        assertEquals("lan", g("192.168.3.4", ""));
        assertEquals("none", g("not-an-address", ""));
    }

    @Test
    @Timeout(20)
    void ranges() throws Exception {
        start("geo $arg_ip $g {\n ranges;\n default out;\n 10.0.0.0-10.0.0.255 a;\n 10.0.0.10-10.0.0.20 b;\n"
            + " 10.0.1.0-10.0.1.9 c;\n delete 10.0.1.0-10.0.1.9;\n}");
        assertEquals("a", g("10.0.0.9", ""));
        assertEquals("b", g("10.0.0.10", ""));
        assertEquals("b", g("10.0.0.20", ""));
        assertEquals("a", g("10.0.0.21", ""));
        assertEquals("out", g("10.0.1.5", ""));
        assertEquals("out", g("2001:db8::1", ""));
        assertEquals("a", g("::ffff:10.0.0.1", ""));
    }

    @Test
    @Timeout(20)
    void proxiesGiveXForwardedForsAddress() throws Exception {
        start("geo $arg_ip $g {\n proxy 10.0.0.0/8;\n default d;\n 10.0.0.0/8 proxy;\n 1.1.1.0/24 one;\n"
            + " 2.2.2.0/24 two;\n}");
        assertEquals("two", g("10.0.0.1", "X-Forwarded-For: 1.1.1.1, 2.2.2.2\r\n"));
        assertEquals("proxy", g("10.0.0.1", "X-Forwarded-For: 10.0.0.2\r\n"));
        assertEquals("one", g("1.1.1.9", "X-Forwarded-For: 2.2.2.2\r\n"));
        assertEquals("proxy", g("10.0.0.1", ""));
        stop();
        start("geo $arg_ip $g { proxy 10.0.0.0/8; proxy_recursive; default d; 1.1.1.0/24 one; 10.0.0.0/8 proxy; }");
        assertEquals("one", g("10.0.0.1", "X-Forwarded-For: 1.1.1.1, 10.0.0.7, 10.0.0.2\r\n"));
        assertEquals("proxy", g("10.0.0.1", "X-Forwarded-For: 10.0.0.7, 10.0.0.2\r\n"));
    }

    @Test
    void configurationErrorsAndWarnings() throws Exception {
        assertRefused("geo $g { 10.0.0.0/33 x; }", "invalid network \"10.0.0.0/33\"");
        assertRefused("geo $g { ranges; 10.0.0.5-10.0.0.1 x; }", "invalid range \"10.0.0.5-10.0.0.1\"");
        assertRefused("geo $g { ranges; 10.0.0.0-10.0.0.9 a; 10.0.0.5-10.0.0.20 b; }",
            "range \"10.0.0.5-10.0.0.20\" overlaps \"10.0.0.0-10.0.0.9\"");
        assertRefused("geo $g { default x; ranges; }",
            "the \"ranges\" directive must be the first directive inside \"geo\" block");
        assertRefused("geo $g { a b c; }", "invalid number of the geo parameters");
        assertRefused("geo $a $b $c { }", "invalid number of arguments in \"geo\" directive");
        start("geo $arg_ip $g { 10.0.0.0/8 a; 10.0.0.0/8 b; delete 11.0.0.0/8; 10.1.2.3/8 c; }");
        assertTrue(f.log().contains("duplicate network \"10.0.0.0/8\", value: \"b\", old value: \"a\""), f.log());
        assertTrue(f.log().contains("no network \"11.0.0.0/8\" to delete"), f.log());
        assertTrue(f.log().contains("low address bits of 10.1.2.3/8 are meaningless"), f.log());
        assertEquals("c", g("10.0.0.1", ""));
    }

    private void assertRefused(String http, String text) {
        Exception e = assertThrows(Exception.class, () -> start(http));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
