package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The index module: the first existing index by internal redirect, variables in names, the 403 of a directory
 * without index, the 404 of a missing directory, absolute names.
 */
class IndexModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(20)
    void defaultIndexIsIndexHtml() throws Exception {
        write(root.resolve("index.html"), "home\n");
        start("");
        Responses.Response r = f.get(get("/"));
        assertEquals(200, r.status());
        assertEquals("home\n", r.body());
        assertEquals("text/html", r.header("Content-Type"));
    }

    @Test
    @Timeout(20)
    void firstExistingIndexWins() throws Exception {
        Files.createDirectories(root.resolve("a"));
        write(root.resolve("a/second.txt"), "second");
        write(root.resolve("a/third.txt"), "third");
        start("index first.html second.txt third.txt;");
        Responses.Response r = f.get(get("/a/?x=1"));
        assertEquals(200, r.status());
        assertEquals("second", r.body());
        assertEquals("text/plain", r.header("Content-Type"));
    }

    @Test
    @Timeout(20)
    void indexWithVariables() throws Exception {
        write(root.resolve("page-localhost.html"), "by host");
        start("index page-$host.html;");
        assertEquals("by host", f.get(get("/")).body());
    }

    @Test
    @Timeout(20)
    void absoluteIndexRedirectsWithoutTest() throws Exception {
        Files.createDirectories(root.resolve("d"));
        write(root.resolve("fallback.html"), "fallback");
        start("index missing.html /fallback.html;");
        assertEquals("fallback", f.get(get("/d/")).body());
    }

    @Test
    @Timeout(20)
    void directoryWithoutIndexIsForbidden() throws Exception {
        Files.createDirectories(root.resolve("empty"));
        start("");
        Responses.Response r = f.get(get("/empty/"));
        assertEquals("HTTP/1.1 403 Forbidden", r.statusLine());
        assertTrue(f.log().contains("directory index of \"" + root + "/empty/\" is forbidden"), f.log());
    }

    @Test
    @Timeout(20)
    void missingDirectoryIsNotFound() throws Exception {
        start("");
        Responses.Response r = f.get(get("/nodir/"));
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertTrue(f.log().contains("\"" + root + "/nodir/index.html\" is not found (2: No such file or directory)"),
            f.log());
    }

    @Test
    @Timeout(20)
    void fileInPlaceOfDirectoryIsNotFound() throws Exception {
        write(root.resolve("file"), "x");
        start("");
        assertEquals(404, f.get(get("/file/")).status());
        assertTrue(f.log().contains("\"" + root + "/file/index.html\" is not found (20: Not a directory)"), f.log());
    }

    @Test
    @Timeout(20)
    void indexInLocationOverridesServer() throws Exception {
        Files.createDirectories(root.resolve("docs"));
        write(root.resolve("docs/start.html"), "start");
        write(root.resolve("docs/index.html"), "index");
        start("index index.html;\n location /docs/ { index start.html; }");
        assertEquals("start", f.get(get("/docs/")).body());
    }

    @Test
    @Timeout(20)
    void emptyIndexIsRefused() {
        Exception e = assertThrows(Exception.class, () -> start("index \"\";"));
        assertTrue(String.valueOf(e.getMessage()).contains("index \"\" in \"index\" directive is invalid"),
            e.getMessage());
    }
}
