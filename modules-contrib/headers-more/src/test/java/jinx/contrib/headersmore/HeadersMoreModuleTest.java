package jinx.contrib.headersmore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.kernel.ConfException;
import jinx.kernel.LoadedModule;
import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The headers-more filter through the test kit: built-in headers set and cleared, add_header's lines overridden
 * (the filter runs after http_headers_filter), -s and -t conditions, wildcards, inheritance.
 */
@Timeout(60)
class HeadersMoreModuleTest {

    @RegisterExtension
    static final JinxExtension JINX = JinxExtension.create()
        .module(HeadersMoreModule::new)
        .file("html/typed/page.txt", "text file\n")
        .http("more_set_headers 'Server: my-server';")
        .server("location = /plain { return 200 \"plain\\n\"; }\n"
            + "location = /noserver { more_clear_headers Server; return 200 \"x\"; }\n"
            + "location = /override { add_header X-Foo from-add-header; more_set_headers 'X-Foo: more $arg_v';"
            + " return 200 \"x\"; }\n"
            + "location = /type { more_set_headers 'Content-Type: text/foo'; return 200 \"x\"; }\n"
            + "location = /wild { add_header X-Hidden-A a; add_header X-Hidden-B b; add_header X-Shown c;"
            + " more_clear_headers 'x-hidden-*'; return 200 \"x\"; }\n"
            + "location /status { more_set_headers -s '404 500' -s 410 'X-Miss: yes'; return 404; }\n"
            + "location = /status-ok { more_set_headers -s 404 'X-Miss: yes'; return 200 \"x\"; }\n"
            + "location /typed { more_set_headers -t 'text/plain text/css' 'X-Typed: yes'; }\n"
            + "location = /empty { add_header X-Gone v; more_set_headers 'X-Gone:'; return 200 \"x\"; }\n"
            + "location = /length { more_clear_headers Content-Length; return 200 \"abc\"; }");

    @Test
    void setsTheServerHeaderEverywhereFromHttp() throws Exception {
        Response r = JINX.client().get("/plain");
        assertEquals(List.of("my-server"), r.headers("Server"), r.head());
    }

    @Test
    void clearsTheServerHeader() throws Exception {
        Response r = JINX.client().get("/noserver");
        assertEquals(200, r.status());
        assertTrue(r.headers("Server").isEmpty(), r.head());
    }

    @Test
    void overridesAddHeaderBecauseItRunsAfterIt() throws Exception {
        Response r = JINX.client().get("/override?v=7");
        assertEquals(List.of("more 7"), r.headers("X-Foo"), r.head());
    }

    @Test
    void setsContentType() throws Exception {
        assertEquals("text/foo", JINX.client().get("/type").header("Content-Type"));
    }

    @Test
    void wildcardClears() throws Exception {
        Response r = JINX.client().get("/wild");
        assertNull(r.header("X-Hidden-A"), r.head());
        assertNull(r.header("X-Hidden-B"), r.head());
        assertEquals("c", r.header("X-Shown"));
    }

    @Test
    void statusCondition() throws Exception {
        Response miss = JINX.client().get("/status");
        assertEquals(404, miss.status());
        assertEquals("yes", miss.header("X-Miss"), miss.head());
        assertNull(JINX.client().get("/status-ok").header("X-Miss"));
    }

    @Test
    void typeCondition() throws Exception {
        Response typed = JINX.client().get("/typed/page.txt");
        assertEquals(200, typed.status(), typed.head());
        assertEquals("yes", typed.header("X-Typed"), typed.head());
        Response notFound = JINX.client().get("/typed/missing");
        assertEquals(404, notFound.status());
        assertNull(notFound.header("X-Typed"), "text/html is not in the list: " + notFound.head());
    }

    @Test
    void anEmptyValueClears() throws Exception {
        assertNull(JINX.client().get("/empty").header("X-Gone"));
    }

    @Test
    void clearsContentLength() throws Exception {
        Response r = JINX.client().request("GET /length HTTP/1.0\r\nHost: localhost\r\n\r\n");
        assertNull(r.header("Content-Length"), r.head());
        assertEquals("abc", r.body());
    }

    @Test
    void runsBetweenTheHeadersFilterAndTheHeaderWriter() {
        List<String> names = JINX.cycle().modules().stream().map(LoadedModule::name).toList();
        int me = names.indexOf(HeadersMoreModule.NAME);
        assertTrue(names.indexOf("http_headers_filter") < me, names.toString());
        assertTrue(me < names.indexOf("http_header_filter"), names.toString());
    }

    @Test
    void badDirectives() throws Exception {
        String[][] cases = {
            {"more_set_headers -x 'A: b';", "invalid option name: \"-x\" in "},
            {"more_set_headers 'NoColon';", "invalid header: \"NoColon\" in "},
            {"more_set_headers -s abc 'A: b';", "status code value is invalid: \"abc\" in "},
            {"more_clear_headers -s 404;", "\"more_clear_headers\" directive has no headers in "},
        };
        for (String[] c : cases) {
            try (JinxExtension bad = JinxExtension.create().module(HeadersMoreModule::new).server(c[0])) {
                ConfException e = assertThrows(ConfException.class, bad::start, c[0]);
                assertTrue(e.getMessage().startsWith(c[1]), e.getMessage());
                assertFalse(e.getMessage().isEmpty());
            }
        }
    }
}
