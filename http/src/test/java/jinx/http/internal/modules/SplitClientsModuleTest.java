package jinx.http.internal.modules;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;

/**
 * The split_clients module: keys land in the buckets nginx 1.22.1 put them in (taken from nginx with one hundred
 * 1% buckets and with fractional percentages), MurmurHash2 itself, and the configuration errors.
 */
class SplitClientsModuleTest {

    /** Key, then nginx's answer to {@code "$bucket|$ab"} of {@link #HTTP}. */
    private static final Map<String, String> FROM_NGINX = new LinkedHashMap<>();

    static {
        FROM_NGINX.put("", "b0|");
        FROM_NGINX.put("a", "b57|two");
        FROM_NGINX.put("ab", "b10|");
        FROM_NGINX.put("abc", "b7|two");
        FROM_NGINX.put("abcd", "b15|");
        FROM_NGINX.put("abcde", "b37|two");
        FROM_NGINX.put("hello", "b89|two");
        FROM_NGINX.put("127.0.0.1", "b71|");
        FROM_NGINX.put("192.168.0.1", "b95|two");
        FROM_NGINX.put("%C3%A9t%C3%A9", "b45|two");
        FROM_NGINX.put("user42", "b72|");
        FROM_NGINX.put("xyzzy0123456789", "b46|two");
    }

    private static final String HTTP;

    static {
        StringBuilder sb = new StringBuilder("split_clients \"$arg_k\" $bucket {\n");
        for (int i = 0; i < 99; i++) {
            sb.append(" 1% b").append(i).append(";\n");
        }
        sb.append(" * b99;\n}\n");
        sb.append("split_clients \"${arg_k}AAA\" $ab {\n 0.5% .one;\n 50.25% two;\n * \"\";\n}\n");
        HTTP = sb.toString();
    }

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String http) throws Exception {
        f = EngineFixture.modules(http + "\nserver {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " root " + root + ";\n location / { return 200 \"$bucket|$ab\"; }\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(30)
    void keysLandInNginxsBuckets() throws Exception {
        start(HTTP);
        for (Map.Entry<String, String> e : FROM_NGINX.entrySet()) {
            assertEquals(e.getValue(), f.get(get("/?k=" + e.getKey())).body(), "key \"" + e.getKey() + "\"");
        }
    }

    @Test
    void murmurHash2OfShortValues() {
        assertEquals(0L, MurmurHash2.hash(""));
        // a value is hashed as bytes: the same bytes give the same hash whatever the chars above 0x7f
        assertEquals(MurmurHash2.hash("\u00e9t\u00e9"), MurmurHash2.hash(new String(new byte[] {(byte) 0xe9, 't',
            (byte) 0xe9}, java.nio.charset.StandardCharsets.ISO_8859_1)));
    }

    @Test
    void fixedPointPercentages() {
        assertEquals(1050, SplitClientsModule.atofp("10.5", 2));
        assertEquals(5000, SplitClientsModule.atofp("50.", 2));
        assertEquals(25, SplitClientsModule.atofp(".25", 2));
        assertEquals(-1, SplitClientsModule.atofp("1.234", 2));
        assertEquals(-1, SplitClientsModule.atofp("1.2.3", 2));
        assertEquals(-1, SplitClientsModule.atofp("x", 2));
    }

    @Test
    void configurationErrors() {
        assertRefused("split_clients $arg_a $b { 60% x; 50% y; }", "percent total is greater than 100%");
        assertRefused("split_clients $arg_a $b { 0% x; }", "invalid percent value \"0%\"");
        assertRefused("split_clients $arg_a $b { 10 x; }", "invalid percent value \"10\"");
        assertRefused("split_clients $arg_a $b { 1.234% x; }", "invalid percent value \"1.234%\"");
        assertRefused("split_clients $arg_a b { 10% x; }", "invalid variable name \"b\"");
    }

    private void assertRefused(String http, String text) {
        Exception e = assertThrows(Exception.class, () -> start(http + "\nmap $arg_a $bucket { } map $arg_a $ab { }"));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
