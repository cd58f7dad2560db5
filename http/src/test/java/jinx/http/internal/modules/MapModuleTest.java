package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

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
 * The map module: exact keys (case-insensitive), default, hostnames with each wildcard form, regexes with numbered
 * and named captures, values with variables, include, volatile, the hash directives, and nginx's configuration
 * errors.
 */
class MapModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String http, String server) throws Exception {
        f = EngineFixture.modules(http + "\nserver {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String body(String uri) throws Exception {
        return f.get(get(uri)).body();
    }

    @Test
    @Timeout(20)
    void exactKeysDefaultAndVariablesInValues() throws Exception {
        start("map $arg_k $m {\n default dflt;\n one 1;\n Two \"two $uri\";\n \\default escaped;\n"
            + " '' empty;\n}\nmap_hash_max_size 4096;\nmap_hash_bucket_size 128;",
            "location / { return 200 \"[$m]\"; }");
        assertEquals("[1]", body("/?k=one"));
        assertEquals("[1]", body("/?k=ONE"));
        assertEquals("[two /x]", body("/x?k=two"));
        assertEquals("[escaped]", body("/?k=default"));
        assertEquals("[dflt]", body("/?k=three"));
        assertEquals("[empty]", body("/?k="));
    }

    @Test
    @Timeout(20)
    void withoutDefaultTheValueIsEmpty() throws Exception {
        start("map $arg_k $m { a b; }", "location / { return 200 \"[$m]\"; }");
        assertEquals("[]", body("/?k=z"));
        assertEquals("[b]", body("/?k=a"));
    }

    @Test
    @Timeout(20)
    void hostnamesWildcards() throws Exception {
        start("map $arg_h $m {\n hostnames;\n default none;\n example.com exact;\n *.example.com head;\n"
            + " *.b.example.com deeper;\n .example.org both;\n www.example.* tail;\n www.example.net net;\n}",
            "location / { return 200 \"$m\"; }");
        assertEquals("exact", body("/?h=example.com"));
        assertEquals("exact", body("/?h=EXAMPLE.com."));
        assertEquals("head", body("/?h=www.example.com"));
        assertEquals("deeper", body("/?h=a.b.example.com"));
        assertEquals("both", body("/?h=example.org"));
        assertEquals("both", body("/?h=x.y.example.org"));
        assertEquals("tail", body("/?h=www.example.io"));
        assertEquals("net", body("/?h=www.example.net"));
        assertEquals("none", body("/?h=www.example"));
        assertEquals("none", body("/?h=other.com"));
    }

    @Test
    @Timeout(20)
    void regexKeysWithCaptures() throws Exception {
        start("map $uri $m {\n /exact exact;\n ~^/a/(?<word>[a-z]+)/(\\d+)$ \"$word-$2\";\n"
            + " ~*^/CASE/(.*) \"case $1\";\n ~^/exact regex;\n}",
            "location / { return 200 \"$m\"; }");
        assertEquals("abc-42", body("/a/abc/42"));
        assertEquals("case Rest", body("/case/Rest"));
        assertEquals("exact", body("/exact"));
        assertEquals("regex", body("/exactly"));
        assertEquals("", body("/a/ABC/42"));
    }

    @Test
    @Timeout(20)
    void includeReadsMoreLines() throws Exception {
        Path inc = root.resolve("map.inc");
        Files.writeString(inc, "k1 from-include;\nk2 \"second one\";\n");
        start("map $arg_k $m { include " + inc + "; k3 inline; }", "location / { return 200 \"$m\"; }");
        assertEquals("from-include", body("/?k=k1"));
        assertEquals("second one", body("/?k=k2"));
        assertEquals("inline", body("/?k=k3"));
    }

    @Test
    @Timeout(20)
    void volatileIsEvaluatedAgainEachTime() throws Exception {
        start("map $a $cached { default $a; }\nmap $a $fresh { volatile; default $a; }",
            "location / { set $a 1; set $c $cached; set $f $fresh; set $a 2; return 200 \"$c$cached $f$fresh\"; }");
        assertEquals("11 12", body("/"));
    }

    @Test
    void configurationErrors() {
        assertRefused("map $arg_a $m { a b c; }", "invalid number of the map parameters");
        assertRefused("map $arg_a $m { default a; default b; }", "duplicate default map parameter");
        assertRefused("map $arg_a $m { a 1; A 2; }", "conflicting parameter \"A\"");
        assertRefused("map $arg_a $m { hostnames; *.a.* 1; }", "invalid hostname or wildcard \"*.a.*\"");
        assertRefused("map $arg_a $m { hostnames; .a.com 1; *.a.com 2; }", "conflicting parameter \"*.a.com\"");
        assertRefused("map $arg_a m { a 1; }", "invalid variable name \"m\"");
        assertRefused("map $arg_a $m { ~(unclosed 1; }", "regex");
        assertRefused("map $arg_a $uri { a 1; }", "the duplicate \"uri\" variable");
        assertRefused("map $arg_a $m { a $nosuch; }", "unknown \"nosuch\" variable");
    }

    private void assertRefused(String http, String text) {
        Exception e = assertThrows(Exception.class, () -> start(http, ""));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
