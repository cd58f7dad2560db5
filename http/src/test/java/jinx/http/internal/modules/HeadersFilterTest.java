package jinx.http.internal.modules;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.parse.HttpTime;
import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;
import jinx.http.internal.variables.TimeFormats;

import static jinx.http.internal.modules.StaticModuleTest.MTIME;
import static jinx.http.internal.modules.StaticModuleTest.get;
import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The headers filter: {@code add_header} with its statuses, {@code always} and inheritance; {@code expires} in its
 * forms with {@code Cache-Control}.
 */
class HeadersFilterTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String http, String server) throws Exception {
        write(root.resolve("a.html"), "a");
        f = EngineFixture.modules(http + "\nserver {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " server_tokens off;\n root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(20)
    void addHeaderAfterTheCoreHeaders() throws Exception {
        start("", "add_header X-One 1;\n add_header X-Uri $uri;\n add_header X-Empty \"\";");
        assertEquals("HTTP/1.1 200 OK\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Content-Type: text/html\r\n"
            + "Content-Length: 1\r\n"
            + "Last-Modified: Fri, 01 Jan 2021 00:00:00 GMT\r\n"
            + "Connection: close\r\n"
            + "ETag: \"5fee6600-1\"\r\n"
            + "X-One: 1\r\n"
            + "X-Uri: /a.html\r\n"
            + "Accept-Ranges: bytes\r\n"
            + "\r\n"
            + "a", f.get(get("/a.html")).masked());
    }

    @Test
    @Timeout(20)
    void addHeaderOnlyForSuccessAndRedirectsUnlessAlways() throws Exception {
        start("", "add_header X-Plain p;\n add_header X-Always a always;\n"
            + " location /r { return 302 /x; }\n location /n { return 204; }");
        Responses.Response r = f.get(get("/missing"));
        assertEquals(404, r.status());
        assertNull(r.header("X-Plain"));
        assertEquals("a", r.header("X-Always"));
        r = f.get(get("/r"));
        assertEquals("p", r.header("X-Plain"));
        r = f.get(get("/n"));
        assertEquals("p", r.header("X-Plain"));
        assertEquals("a", r.header("X-Always"));
    }

    @Test
    @Timeout(20)
    void innerAddHeaderDropsOuterOnes() throws Exception {
        start("add_header X-Http h;", "add_header X-Server s;\n"
            + " location /own { add_header X-Loc l; return 200 own; }\n"
            + " location /inherit { return 200 inherit; }");
        Responses.Response r = f.get(get("/own"));
        assertEquals("l", r.header("X-Loc"));
        assertNull(r.header("X-Server"));
        assertNull(r.header("X-Http"));
        r = f.get(get("/inherit"));
        assertEquals("s", r.header("X-Server"));
        assertNull(r.header("X-Http"));
    }

    @Test
    @Timeout(20)
    void addHeaderReplacesEtagAndAddsCacheControl() throws Exception {
        start("", "add_header ETag \"\\\"mine\\\"\";\n add_header Cache-Control private;");
        Responses.Response r = f.get(get("/a.html"));
        assertEquals("\"mine\"", r.header("ETag"));
        assertEquals("private", r.header("Cache-Control"));
        assertEquals(1, r.headerText().split("ETag:").length - 1, r.headerText());
    }

    @Test
    @Timeout(20)
    void expiresAfterAccess() throws Exception {
        start("", "expires 1h;");
        Responses.Response r = f.get(get("/a.html"));
        assertEquals("max-age=3600", r.header("Cache-Control"));
        long expires = HttpTime.parse(r.header("Expires"));
        long now = System.currentTimeMillis() / 1000;
        assertTrue(Math.abs(expires - (now + 3600)) <= 5, r.header("Expires"));
        assertTrue(r.headerText().indexOf("Expires:") < r.headerText().indexOf("Cache-Control:"), r.headerText());
    }

    @Test
    @Timeout(20)
    void expiresModifiedEpochMaxAndNegative() throws Exception {
        start("", "location /m { expires modified 1d; }\n location /e { expires epoch; }\n"
            + " location /x { expires max; }\n location /neg { expires -1; }\n location /z { expires 0; }\n"
            + " location /off { expires off; }");
        write(root.resolve("m"), "m");
        write(root.resolve("e"), "e");
        write(root.resolve("x"), "x");
        write(root.resolve("neg"), "n");
        write(root.resolve("z"), "z");
        write(root.resolve("off"), "o");
        Responses.Response r = f.get(get("/m"));
        assertEquals(TimeFormats.http(MTIME + 86400), r.header("Expires"));
        assertEquals("no-cache", r.header("Cache-Control"));
        r = f.get(get("/e"));
        assertEquals("Thu, 01 Jan 1970 00:00:01 GMT", r.header("Expires"));
        assertEquals("no-cache", r.header("Cache-Control"));
        r = f.get(get("/x"));
        assertEquals("Thu, 31 Dec 2037 23:55:55 GMT", r.header("Expires"));
        assertEquals("max-age=315360000", r.header("Cache-Control"));
        r = f.get(get("/neg"));
        assertEquals("no-cache", r.header("Cache-Control"));
        r = f.get(get("/z"));
        assertEquals("max-age=0", r.header("Cache-Control"));
        assertEquals(r.header("Date"), r.header("Expires"));
        r = f.get(get("/off"));
        assertNull(r.header("Expires"));
        assertNull(r.header("Cache-Control"));
    }

    @Test
    @Timeout(20)
    void expiresDailyAndNotOnErrors() throws Exception {
        start("", "expires @3h;");
        Responses.Response r = f.get(get("/a.html"));
        long maxAge = Long.parseLong(r.header("Cache-Control").substring("max-age=".length()));
        assertTrue(maxAge > 0 && maxAge <= 86400, r.header("Cache-Control"));
        r = f.get(get("/missing"));
        assertNull(r.header("Expires"));
    }

    @Test
    @Timeout(20)
    void expiresErrors() {
        assertRefused("expires 1h;\n expires 2h;", "\"expires\" directive is duplicate");
        assertRefused("expires soon;", "\"expires\" directive invalid value");
        assertRefused("expires modified @1h;", "daily time cannot be used with \"modified\" parameter");
        assertRefused("expires @25h;", "daily time value must be less than 24 hours");
        assertRefused("add_header X y sometimes;", "invalid parameter \"sometimes\"");
    }

    private void assertRefused(String server, String text) {
        Exception e = assertThrows(Exception.class, () -> start("", server));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
