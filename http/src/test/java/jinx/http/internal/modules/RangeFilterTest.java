package jinx.http.internal.modules;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The range filter: one range (206 with Content-Range), several (multipart/byteranges with nginx's boundary and
 * part headers), 416, If-Range by date and by tag, {@code max_ranges}, with and without {@code sendfile}.
 */
class RangeFilterTest {

    static final String BODY = "0123456789abcdefghij";
    static final String ETAG = "\"5fee6600-14\"";

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        write(root.resolve("r.txt"), BODY);
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private Responses.Response range(String range, String more) throws Exception {
        return f.get("GET /r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: " + range + "\r\n" + more
            + "\r\n");
    }

    @Test
    @Timeout(20)
    void singleRange() throws Exception {
        start("");
        Responses.Response r = range("bytes=2-5", "");
        assertEquals("HTTP/1.1 206 Partial Content\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Content-Type: text/plain\r\n"
            + "Content-Length: 4\r\n"
            + "Last-Modified: Fri, 01 Jan 2021 00:00:00 GMT\r\n"
            + "Connection: close\r\n"
            + "ETag: " + ETAG + "\r\n"
            + "Content-Range: bytes 2-5/20\r\n"
            + "\r\n"
            + "2345", r.masked());
        assertEquals("ghij", range("bytes=-4", "").body());
        assertEquals("bytes 16-19/20", range("bytes=16-", "").header("Content-Range"));
        assertEquals("ghij", range("bytes=16-100", "").body());
        assertEquals(BODY, range("bytes=-100", "").body());
    }

    @Test
    @Timeout(20)
    void multipleRanges() throws Exception {
        start("");
        Responses.Response r = range("bytes=0-1,5-6", "");
        assertEquals(206, r.status());
        Matcher m = Pattern.compile("multipart/byteranges; boundary=(\\d{20})").matcher(r.header("Content-Type"));
        assertTrue(m.matches(), r.header("Content-Type"));
        String b = m.group(1);
        String expected = "\r\n--" + b + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/20\r\n\r\n01"
            + "\r\n--" + b + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 5-6/20\r\n\r\n56"
            + "\r\n--" + b + "--\r\n";
        assertEquals(expected, r.body());
        assertEquals(String.valueOf(expected.length()), r.header("Content-Length"));
        assertNull(r.header("Content-Range"));
        Responses.Response next = range("bytes=0-1,5-6", "");
        String nb = next.header("Content-Type").substring(next.header("Content-Type").indexOf('=') + 1);
        assertEquals(Long.parseLong(b) + 1, Long.parseLong(nb));
    }

    @Test
    @Timeout(20)
    void multipleRangesWithoutSendfile() throws Exception {
        start("sendfile off;");
        Responses.Response r = range("bytes=1-2,-2", "");
        assertTrue(r.body().contains("Content-Range: bytes 1-2/20\r\n\r\n12\r\n"), r.body());
        assertTrue(r.body().contains("Content-Range: bytes 18-19/20\r\n\r\nij\r\n"), r.body());
        assertEquals("345", range("bytes=3-5", "").body());
    }

    @Test
    @Timeout(20)
    void unsatisfiableIs416() throws Exception {
        start("");
        Responses.Response r = range("bytes=30-40", "");
        assertEquals("HTTP/1.1 416 Requested Range Not Satisfiable", r.statusLine());
        assertEquals("bytes */20", r.header("Content-Range"));
        assertEquals("text/html", r.header("Content-Type"));
        assertTrue(r.body().contains("<title>416 Requested Range Not Satisfiable</title>"), r.body());
        assertEquals(416, range("bytes=x-1", "").status());
        assertEquals(416, range("bytes=5-1", "").status());
    }

    @Test
    @Timeout(20)
    void notRangesAreIgnored() throws Exception {
        start("");
        Responses.Response r = range("items=1-2", "");
        assertEquals(200, r.status());
        assertEquals("bytes", r.header("Accept-Ranges"));
        // overlapping ranges longer than the body: the whole response
        assertEquals(200, range("bytes=0-19,0-19", "").status());
    }

    @Test
    @Timeout(20)
    void ifRangeByDateAndTag() throws Exception {
        start("");
        assertEquals(206, range("bytes=0-0", "If-Range: " + TimeFormats.http(MTIME) + "\r\n").status());
        assertEquals(200, range("bytes=0-0", "If-Range: " + TimeFormats.http(MTIME + 1) + "\r\n").status());
        assertEquals(206, range("bytes=0-0", "If-Range: " + ETAG + "\r\n").status());
        Responses.Response r = range("bytes=0-0", "If-Range: \"stale\"\r\n");
        assertEquals(200, r.status());
        assertEquals(BODY, r.body());
    }

    @Test
    @Timeout(20)
    void maxRanges() throws Exception {
        start("location /one/ { max_ranges 1; alias " + root + "/; }\n"
            + " location /none/ { max_ranges 0; alias " + root + "/; }");
        Responses.Response r = f.get("GET /one/r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + "Range: bytes=0-1,4-5\r\n\r\n");
        assertEquals(200, r.status());
        r = f.get("GET /one/r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=0-1\r\n\r\n");
        assertEquals(206, r.status());
        r = f.get("GET /none/r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=0-1\r\n\r\n");
        assertEquals(200, r.status());
        assertNull(r.header("Accept-Ranges"));
    }

    @Test
    @Timeout(20)
    void headWithRange() throws Exception {
        start("");
        Responses.Response r = f.get("HEAD /r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + "Range: bytes=0-3\r\n\r\n");
        assertEquals(206, r.status());
        assertEquals("4", r.header("Content-Length"));
        assertEquals("bytes 0-3/20", r.header("Content-Range"));
    }
}
