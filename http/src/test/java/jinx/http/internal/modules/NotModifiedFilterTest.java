package jinx.http.internal.modules;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;
import jinx.http.internal.variables.TimeFormats;

import static jinx.http.internal.modules.StaticModuleTest.MTIME;
import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The not-modified filter: 304 by date (with {@code if_modified_since exact}, {@code before}, {@code off}) and by
 * entity tag (weak comparison, lists, {@code *}), 412 for {@code If-Unmodified-Since} and {@code If-Match}.
 */
class NotModifiedFilterTest {

    static final String LM = TimeFormats.http(MTIME);
    static final String ETAG = "\"5fee6600-5\"";

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        write(root.resolve("f.txt"), "12345");
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private Responses.Response get(String header) throws Exception {
        return f.get("GET /f.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + header + "\r\n\r\n");
    }

    @Test
    @Timeout(20)
    void ifModifiedSinceExactGives304() throws Exception {
        start("");
        Responses.Response r = get("If-Modified-Since: " + LM);
        assertEquals("HTTP/1.1 304 Not Modified\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Last-Modified: Fri, 01 Jan 2021 00:00:00 GMT\r\n"
            + "Connection: close\r\n"
            + "ETag: " + ETAG + "\r\n"
            + "\r\n", r.masked());
        assertEquals(200, get("If-Modified-Since: " + TimeFormats.http(MTIME + 10)).status());
        assertEquals(200, get("If-Modified-Since: " + TimeFormats.http(MTIME - 10)).status());
        assertEquals(200, get("If-Modified-Since: garbage").status());
    }

    @Test
    @Timeout(20)
    void ifModifiedSinceBeforeAndOff() throws Exception {
        start("location /b/ { if_modified_since before; alias " + root + "/; }\n"
            + " location /o/ { if_modified_since off; alias " + root + "/; }");
        String later = "If-Modified-Since: " + TimeFormats.http(MTIME + 10);
        assertEquals(304, f.get("GET /b/f.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + later
            + "\r\n\r\n").status());
        assertEquals(200, f.get("GET /o/f.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + "If-Modified-Since: " + LM + "\r\n\r\n").status());
    }

    @Test
    @Timeout(20)
    void ifNoneMatchGives304() throws Exception {
        start("");
        assertEquals(304, get("If-None-Match: " + ETAG).status());
        assertEquals(304, get("If-None-Match: \"other\", W/" + ETAG).status());
        assertEquals(304, get("If-None-Match: *").status());
        assertEquals(200, get("If-None-Match: \"other\"").status());
        // both must agree
        assertEquals(200, get("If-None-Match: " + ETAG + "\r\nIf-Modified-Since: "
            + TimeFormats.http(MTIME - 10)).status());
    }

    @Test
    @Timeout(20)
    void failedPreconditionsGive412() throws Exception {
        start("");
        Responses.Response r = get("If-Unmodified-Since: " + TimeFormats.http(MTIME - 10));
        assertEquals("HTTP/1.1 412 Precondition Failed", r.statusLine());
        assertTrue(r.body().contains("<title>412 Precondition Failed</title>"), r.body());
        assertEquals(200, get("If-Unmodified-Since: " + LM).status());
        assertEquals(412, get("If-Match: \"other\"").status());
        assertEquals(412, get("If-Match: W/" + ETAG).status());
        assertEquals(200, get("If-Match: " + ETAG).status());
        assertEquals(200, get("If-Match: *").status());
    }

    @Test
    @Timeout(20)
    void noValidatorsNoConditions() throws Exception {
        start("etag off;\n location /t { return 200 text; }");
        assertEquals(200, get("If-None-Match: " + ETAG).status());
        assertEquals(200, f.get("GET /t HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nIf-Modified-Since: "
            + LM + "\r\n\r\n").status());
        assertEquals(412, get("If-Match: " + ETAG).status());
    }
}
