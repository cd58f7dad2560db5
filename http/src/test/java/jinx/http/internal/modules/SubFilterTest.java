package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;
import jinx.http.internal.request.Responses;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sub filter: several strings, case-insensitive, once or every time, variables on either side, matches cut
 * by the file's 32 KB read buffers, the headers it clears, and nginx's configuration errors.
 */
class SubFilterTest {

    @TempDir
    Path root;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    /** The body of an HTTP/1.0 exchange, read until the server closes (no length: the filter clears it). */
    private String body(String uri) throws Exception {
        try (LocalConnection lc = f.connect()) {
            lc.send("GET " + uri + " HTTP/1.0\r\n\r\n");
            f.turnUntil(5000, () -> {
                try {
                    return lc.closedByServer();
                } catch (java.io.IOException e) {
                    return true;
                }
            });
            String raw = lc.received();
            return raw.substring(raw.indexOf("\r\n\r\n") + 4);
        }
    }

    private EngineFixture start() throws Exception {
        return EngineFixture.modules("server { listen 127.0.0.1:8080; root " + root + "; default_type text/plain;"
            + " sub_filter_types text/plain; sub_filter_once off;"
            + " location /all/ { sub_filter aab [1]; sub_filter HELLO '[$uri]'; sub_filter ab [2]; }"
            + " location /once/ { sub_filter aab [1]; sub_filter hello [h]; sub_filter_once on; }"
            + " location /lm/ { sub_filter x y; sub_filter_last_modified on; }"
            + " location /var/ { sub_filter $arg_s <$arg_r>; }"
            + " location /ret { sub_filter b B; return 200 'abcabc'; }"
            + " location /css/ { default_type text/css; sub_filter a b; } }");
    }

    /** The replacement nginx's search gives for these strings: leftmost, then the first string in the table. */
    private static String expected(String text, String uri) {
        Matcher m = Pattern.compile("aab|hello|ab", Pattern.CASE_INSENSITIVE).matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String g = m.group().toLowerCase();
            m.appendReplacement(sb, g.equals("aab") ? "[1]" : g.equals("ab") ? "[2]" : Matcher.quoteReplacement(
                "[" + uri + "]"));
        }
        return m.appendTail(sb).toString();
    }

    @Test
    @Timeout(30)
    void replacesAcrossReadBuffers() throws Exception {
        StringBuilder big = new StringBuilder();
        while (big.length() < 32 * 1024 - 3) {
            big.append('x');
        }
        // "hello" cut by the first 32 KB buffer's end, "aab" by the second's
        big.append("HeLlO");
        while (big.length() < 64 * 1024 - 1) {
            big.append("aaab ");
        }
        big.append("aab tail AB\n");
        Files.createDirectories(root.resolve("all"));
        Files.writeString(root.resolve("all/big.txt"), big);
        f = start();
        Responses.Response r = f.get(get("/all/big.txt"));
        assertEquals(200, r.status());
        assertNull(r.header("Content-Length"));
        String body = body("/all/big.txt");
        assertTrue(body.equals(expected(big.toString(), "/all/big.txt")), () -> "differs, length " + body.length());
    }

    @Test
    @Timeout(30)
    void onceVariablesAndHeaders() throws Exception {
        Files.createDirectories(root.resolve("once"));
        Files.createDirectories(root.resolve("lm"));
        Files.createDirectories(root.resolve("var"));
        Files.createDirectories(root.resolve("css"));
        Files.writeString(root.resolve("once/a.txt"), "aab hello aab HELLO");
        Files.writeString(root.resolve("lm/a.txt"), "xx");
        Files.writeString(root.resolve("var/a.txt"), "one two one");
        Files.writeString(root.resolve("css/a.css"), "aaa");
        f = start();
        assertEquals("[1] [h] aab HELLO", body("/once/a.txt"));
        Responses.Response r = f.get(get("/lm/a.txt"));
        assertEquals("yy", body("/lm/a.txt"));
        assertTrue(r.header("Last-Modified") != null && r.header("ETag").startsWith("W/\""), r.headerText());
        r = f.get(get("/once/a.txt"));
        assertNull(r.header("Last-Modified"));
        assertNull(r.header("ETag"));
        assertEquals("<2> two <2>", body("/var/a.txt?s=ONE&r=2"));
        assertEquals("one two one", body("/var/a.txt?r=2"));
        assertEquals("aBcaBc", body("/ret"));
        assertEquals("aaa", body("/css/a.css"));
    }

    @Test
    void tablesAsNginxBuildsThem() {
        SubMatcher.Tables t = new SubMatcher.Tables(List.of(new SubMatcher.Match("xyz".getBytes(), null),
            new SubMatcher.Match("ab".getBytes(), null), new SubMatcher.Match("cb".getBytes(), null)));
        assertEquals(2, t.min);
        assertEquals(3, t.max);
        // sorted by the byte at index 1, stable: "ab", "cb" (b) before "xyz" (y)
        assertEquals("ab", new String(t.matches[0].match()));
        assertEquals("cb", new String(t.matches[1].match()));
        assertEquals("xyz", new String(t.matches[2].match()));
        assertEquals(0, t.shift['b']);
        assertEquals(1, t.shift['a']);
        assertEquals(2, t.shift['q']);
        assertEquals(0, t.index['b']);
        assertEquals(2, t.index['c']);
        assertEquals(3, t.index['z']);
    }

    @Test
    void configurationErrors() {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { sub_filter '' x; } }").close());
        assertTrue(e.getMessage().contains("empty search pattern"), e.getMessage());
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 256; i++) {
            many.append("sub_filter s").append(i).append(" x; ");
        }
        e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { " + many + "} }").close());
        assertTrue(e.getMessage().contains("number of search patterns exceeds 255"), e.getMessage());
        e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { sub_filter_once maybe; } }").close());
        assertTrue(e.getMessage().contains("it must be \"on\" or \"off\""), e.getMessage());
    }
}
