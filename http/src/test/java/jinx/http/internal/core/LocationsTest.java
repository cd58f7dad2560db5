package jinx.http.internal.core;


import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Location lookup, mirroring nginx's documentation of {@code location} and its algorithm: exact, longest prefix,
 * {@code ^~}, regexes in order, nested, named, auto redirect; and the location errors.
 */
class LocationsTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private HttpCoreSrvConf server(String locations) throws Exception {
        return fx.http("server {\n listen 8080;\n" + locations + "\n}").core().servers.get(0);
    }

    /** The {@code test_loc} value of the location chosen for a URI, "-" when none matched. */
    private static String find(HttpCoreSrvConf cscf, String uri) {
        LocationMatch m = new LocationMatch();
        int rc = Locations.find(cscf.locConf(), uri, m);
        assertTrue(rc != Rc.ERROR);
        if (m.loc == cscf.locConf()) {
            assertEquals(Rc.DECLINED, rc);
            return "-";
        }
        for (Object o : m.loc.locConf) {
            if (o instanceof HttpConfFixture.TestLoc t) {
                return t.value;
            }
        }
        throw new AssertionError();
    }

    private static final String NGINX_EXAMPLE = """
        test_loc none;
        location = / { test_loc A; }
        location / { test_loc B; }
        location /documents/ { test_loc C; }
        location ^~ /images/ { test_loc D; }
        location ~* \\.(gif|jpg|jpeg)$ { test_loc E; }
        """;

    @ParameterizedTest
    @CsvSource({
        "/, A",
        "/index.html, B",
        "/documents/document.html, C",
        "/images/1.gif, D",
        "/documents/1.jpg, E",
        "/documents/1.JPG, E",
        "/x.jpeg, E",
        "/images, B"})
    void nginxDocumentedExample(String uri, String expected) throws Exception {
        assertEquals(expected, find(server(NGINX_EXAMPLE), uri));
    }

    @Test
    void exactMatchWithoutPrefixFallsBack() throws Exception {
        HttpCoreSrvConf s = server("location = /a { test_loc exact; } location /b { test_loc b; }");
        assertEquals("exact", find(s, "/a"));
        assertEquals("-", find(s, "/ab"));
        assertEquals("-", find(s, "/"));
        assertEquals("b", find(s, "/b/c"));
    }

    @Test
    void exactAndPrefixOfTheSameName() throws Exception {
        HttpCoreSrvConf s = server("location /a { test_loc prefix; } location = /a { test_loc exact; }");
        assertEquals("exact", find(s, "/a"));
        assertEquals("prefix", find(s, "/a/"));
    }

    @Test
    void longestPrefixWinsAmongMany() throws Exception {
        StringBuilder b = new StringBuilder();
        String[] names = {"/", "/a", "/a/b", "/a/b/c", "/ab", "/b", "/c/d", "/c", "/c/d/e/f", "/zz", "/m", "/a/bc"};
        for (String n : names) {
            b.append("location ").append(n).append(" { test_loc ").append(n).append("; }\n");
        }
        HttpCoreSrvConf s = server(b.toString());
        assertEquals("/a/b/c", find(s, "/a/b/c/d"));
        assertEquals("/a/b", find(s, "/a/b/"));
        assertEquals("/a/bc", find(s, "/a/bcd"));
        assertEquals("/ab", find(s, "/abc"));
        assertEquals("/a", find(s, "/a"));
        assertEquals("/c/d", find(s, "/c/d/e"));
        assertEquals("/c/d/e/f", find(s, "/c/d/e/f/g"));
        assertEquals("/c", find(s, "/cd"));
        assertEquals("/", find(s, "/q"));
        assertEquals("/zz", find(s, "/zz"));
        assertEquals("/", find(s, "/z"));
    }

    @Test
    void regexesAreTriedInOrderAfterThePrefix() throws Exception {
        HttpCoreSrvConf s = server("""
            location /static/ { test_loc static; }
            location ~ \\.php$ { test_loc php1; }
            location ~ ^/static/.*\\.php$ { test_loc php2; }
            location ~ (?<name>[a-z]+)\\.html$ { test_loc named; }
            """);
        assertEquals("php1", find(s, "/static/x.php"));
        assertEquals("static", find(s, "/static/x.PHP"));
        LocationMatch m = new LocationMatch();
        assertEquals(Rc.OK, Locations.find(s.locConf(), "/dir/page.html", m));
        assertEquals(2, m.captures.count());
        assertEquals("page", m.captures.group(1));
        assertEquals("page", m.captures.group("name"));
        assertEquals(5, m.captures.start(1));
    }

    @Test
    void nestedLocationsAndTheirRegexes() throws Exception {
        HttpCoreSrvConf s = server("""
            location /a/ {
                test_loc a;
                location /a/b/ {
                    test_loc ab;
                }
                location ~ \\.txt$ {
                    test_loc a-txt;
                }
            }
            location ^~ /n/ {
                test_loc n;
                location ~ \\.txt$ { test_loc n-txt; }
            }
            location ~ \\.txt$ { test_loc txt; }
            location ~ \\.css$ {
                test_loc css;
                location ~ ^/x/ { test_loc x-css; }
            }
            """);
        assertEquals("ab", find(s, "/a/b/c"));
        assertEquals("a-txt", find(s, "/a/b/c.txt"));
        assertEquals("a-txt", find(s, "/a/c.txt"));
        assertEquals("txt", find(s, "/c.txt"));
        assertEquals("n-txt", find(s, "/n/c.txt"));
        assertEquals("n", find(s, "/n/c.css"));
        assertEquals("x-css", find(s, "/x/y.css"));
        assertEquals("css", find(s, "/y/y.css"));
    }

    @Test
    void autoRedirectForADirectoryNameWithoutItsSlash() throws Exception {
        HttpCoreSrvConf s = server("location /dir/ { test_loc dir; test_redirect; } location /d { test_loc d; }");
        LocationMatch m = new LocationMatch();
        assertEquals(Rc.DONE, Locations.find(s.locConf(), "/dir", m));
        assertEquals("/dir/", m.loc.name);
        // nginx's tree: "/dir" is inside "/d", and the redirect of "/dir/" wins over the prefix "/d"
        assertEquals("d", find(s, "/di"));
        assertEquals(Rc.OK, Locations.find(s.locConf(), "/dir/", m));
        assertEquals("/dir/", m.loc.name);
    }

    @Test
    void namedLocationsAreFoundByName() throws Exception {
        HttpCoreSrvConf s = server("location @fallback { test_loc fb; } location @a { } location / { }");
        HttpCoreLocConf fb = Locations.named(s, "@fallback");
        assertTrue(fb.named);
        assertEquals(2, s.namedLocations.length);
        assertEquals("@a", s.namedLocations[0].name);
        assertNull(Locations.named(s, "@none"));
        // named locations are not part of the tree
        assertEquals("-", find(s, "@fallback"));
    }

    @Test
    void limitExceptLocationIsNotInTheTree() throws Exception {
        HttpCoreSrvConf s = server("location /w { test_loc w; limit_except GET { test_loc lmt; } }");
        LocationMatch m = new LocationMatch();
        assertEquals(Rc.DECLINED, Locations.find(s.locConf(), "/w/x", m));
        HttpCoreLocConf w = m.loc;
        assertEquals("w", find(s, "/w/x"));
        assertEquals(~(jinx.http.HttpRequest.GET | jinx.http.HttpRequest.HEAD), w.limitExcept);
        HttpCoreLocConf lmt = HttpCoreModule.locConf(w.limitExceptLocConf);
        assertTrue(lmt.noname);
        assertTrue(lmt.lmtExcpt);
        assertEquals("/w", lmt.name);
    }

    /** {@code levels} locations, each inside the one before: {@code /a}, {@code /a/a}, ..., one a line. */
    private static String nested(int levels) {
        StringBuilder conf = new StringBuilder("http {\n server {\n  listen 8080;\n");
        for (int i = 1; i <= levels; i++) {
            conf.append("location ").append("/a".repeat(i)).append(" { test_loc l").append(i).append(";\n");
        }
        return conf.append("}\n".repeat(levels)).append(" }\n}\n").toString();
    }

    @Test
    void nestingUpToTheLimitIsServedAndDeeperIsOneErrorAtItsLine() throws Exception {
        // http and server are two of the levels; location i is on line 3 + i
        int deepest = 198;
        HttpCoreSrvConf s = HttpConfFixture.block(fx.build(nested(deepest))).core().servers.get(0);
        assertEquals("l" + deepest, find(s, "/a".repeat(deepest) + "/x"));
        assertEquals("l7", find(s, "/a".repeat(7) + "/b"));

        ConfException e = fx.fail(nested(deepest + 1));
        assertEquals(fx.at("blocks are nested deeper than 200", 3 + deepest + 1), e.getMessage());
        // issue #36: 2,000 levels overflowed the stack of -t and of the master's reload
        e = fx.fail(nested(2000));
        assertEquals(fx.at("blocks are nested deeper than 200", 3 + deepest + 1), e.getMessage());
    }

    @Test
    void locationErrorsWithFileAndLine() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  location /x { }\n  location /x { }\n }\n}\n");
        assertEquals(fx.at("duplicate location \"/x\"", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location = /x { }\n  location /y { }\n  location = /x { }\n }\n}\n");
        assertEquals(fx.at("duplicate location \"/x\"", 5), e.getMessage());
        e = fx.fail("http {\n server {\n  location /b {\n   location /a { }\n  }\n }\n}\n");
        assertEquals(fx.at("location \"/a\" is outside location \"/b\"", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location = /b {\n   location /b/c { }\n  }\n }\n}\n");
        assertEquals(fx.at("location \"/b/c\" cannot be inside the exact location \"/b\"", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location @b {\n   location /b/c { }\n  }\n }\n}\n");
        assertEquals(fx.at("location \"/b/c\" cannot be inside the named location \"@b\"", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location /b {\n   location @c { }\n  }\n }\n}\n");
        assertEquals(fx.at("named location \"@c\" can be on the server level only", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location ~~ /b { }\n }\n}\n");
        assertEquals(fx.at("invalid location modifier \"~~\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  location @x {\n   alias /tmp/;\n  }\n }\n}\n");
        assertEquals(fx.at("the \"alias\" directive cannot be used inside the named location", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  location /x { }\n }\n location /y { }\n}\n");
        assertEquals(fx.at("\"location\" directive is not allowed here", 5), e.getMessage());
        e = fx.fail("http {\n server {\n  location /x {\n   limit_except FETCH { }\n  }\n }\n}\n");
        assertEquals(fx.at("invalid method \"FETCH\"", 4), e.getMessage());
    }

    @Test
    void aPrefixInsideARegexLocationMustStartWithTheRegexText() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  location ~ ^/r/ {\n   location /r/inner/ { }\n  }\n }\n}\n");
        assertEquals(fx.at("location \"/r/inner/\" is outside location \"^/r/\"", 4), e.getMessage());
        HttpCoreSrvConf s = server("location ~ ^/r/ { test_loc r; location ^/r/in { test_loc inner; } }");
        assertEquals("r", find(s, "/r/inner/x"));
    }

    @Test
    void aBadRegexIsRefusedWithItsPlace() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  location ~ (?R) { }\n }\n}\n");
        assertEquals(fx.at("the regex \"(?R)\" uses \"(?R\" (recursion or a subroutine call), which "
                           + "java.util.regex cannot run", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  location ~ \"(abc\" { }\n }\n}\n");
        assertTrue(e.getMessage().startsWith("regex compile failed: "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" in \"(abc\" in " + fx.confFile() + ":3"), e.getMessage());
    }

    @Test
    void aCatastrophicRegexIsAbandonedQuickly() throws Exception {
        HttpCoreSrvConf s = server("location ~ ^/(a+)+\\1$ { test_loc bad; } location / { test_loc root; }");
        String uri = "/" + "a".repeat(40) + "!";
        LocationMatch m = new LocationMatch();
        long start = System.nanoTime();
        assertEquals(Rc.ERROR, Locations.find(s.locConf(), uri, m));
        assertTrue(System.nanoTime() - start < 5_000_000_000L);
        assertEquals("^/(a+)+\\1$", m.failed.source());
        assertTrue(m.failed.failure(uri).startsWith("regex match failed: step limit exceeded on \"/aaa"));
        assertEquals("bad", find(s, "/aaaa"));
    }
}
