package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;
import jinx.http.internal.request.Responses;
import jinx.http.internal.variables.TimeFormats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The static module through the socketless request path: exact responses for GET and HEAD, 404 and 403 with their
 * log lines, the directory redirect, 405, {@code ../} kept inside the root, symlinks, {@code sendfile off}.
 */
class StaticModuleTest {

    /** 2021-01-01T00:00:00Z. */
    static final long MTIME = 1609459200L;

    @TempDir
    Path root;

    private EngineFixture f;

    @BeforeEach
    void files() throws Exception {
        write(root.resolve("hello.html"), "<p>hello</p>\n");
        write(root.resolve("data.json"), "{}");
        write(root.resolve("noext"), "plain");
        Files.createDirectories(root.resolve("dir"));
        write(root.resolve("dir/page.txt"), "page");
    }

    static void write(Path p, String text) throws Exception {
        Files.writeString(p, text, StandardCharsets.ISO_8859_1);
        Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(MTIME)));
    }

    void start(String extra) throws Exception {
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n" + extra + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    static String get(String uri) {
        return "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    }

    @Test
    @Timeout(20)
    void getSendsTheFileWithNginxHeaders() throws Exception {
        start("");
        Responses.Response r = f.get(get("/hello.html"));
        assertEquals("HTTP/1.1 200 OK\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Content-Type: text/html\r\n"
            + "Content-Length: 13\r\n"
            + "Last-Modified: Fri, 01 Jan 2021 00:00:00 GMT\r\n"
            + "Connection: close\r\n"
            + "ETag: \"5fee6600-d\"\r\n"
            + "Accept-Ranges: bytes\r\n"
            + "\r\n"
            + "<p>hello</p>\n", r.masked());
    }

    @Test
    @Timeout(20)
    void headSendsTheHeaderOnly() throws Exception {
        start("");
        Responses.Response r = f.get("HEAD /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Content-Type: text/html\r\n"
            + "Content-Length: 13\r\n"
            + "Last-Modified: Fri, 01 Jan 2021 00:00:00 GMT\r\n"
            + "Connection: close\r\n"
            + "ETag: \"5fee6600-d\"\r\n"
            + "Accept-Ranges: bytes\r\n"
            + "\r\n", r.masked());
    }

    @Test
    @Timeout(20)
    void typesAndDefaultType() throws Exception {
        start("types { application/json json; text/html html; }\n default_type application/octet-stream;\n"
            + " etag off;");
        assertEquals("application/json", f.get(get("/data.json")).header("Content-Type"));
        Responses.Response r = f.get(get("/noext"));
        assertEquals("application/octet-stream", r.header("Content-Type"));
        assertNull(r.header("ETag"));
        assertEquals("plain", r.body());
    }

    @Test
    @Timeout(20)
    void missingFileIs404AndLogged() throws Exception {
        start("");
        Responses.Response r = f.get(get("/nothing.html"));
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertTrue(r.body().contains("<center>jinx</center>"), r.body());
        assertTrue(f.log().contains("[error]"), f.log());
        assertTrue(f.log().contains("open() \"" + root + "/nothing.html\" failed (2: No such file or directory)"),
            f.log());
    }

    @Test
    @Timeout(20)
    void logNotFoundOffSilences404() throws Exception {
        start("log_not_found off;");
        assertEquals(404, f.get(get("/nothing.html")).status());
        assertFalse(f.log().contains("nothing.html"), f.log());
    }

    @Test
    @Timeout(20)
    void pathThroughAFileIs404() throws Exception {
        start("");
        assertEquals(404, f.get(get("/hello.html/x")).status());
        assertTrue(f.log().contains("(20: Not a directory)"), f.log());
    }

    @Test
    @Timeout(20)
    void unreadableFileIs403() throws Exception {
        Path p = root.resolve("secret.html");
        write(p, "secret");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        Assumptions.assumeFalse(Files.isReadable(p), "running as root: permissions do not apply");
        start("");
        Responses.Response r = f.get(get("/secret.html"));
        assertEquals("HTTP/1.1 403 Forbidden", r.statusLine());
        assertTrue(f.log().contains("open() \"" + p + "\" failed (13: Permission denied)"), f.log());
    }

    @Test
    @Timeout(20)
    void directoryRedirectsWithSlashAndArgs() throws Exception {
        start("");
        Responses.Response r = f.get(get("/dir?a=1"));
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://localhost:8080/dir/?a=1", r.header("Location"));
        assertEquals("text/html", r.header("Content-Type"));
        assertTrue(r.body().contains("<title>301 Moved Permanently</title>"), r.body());
    }

    @Test
    @Timeout(20)
    void otherMethodsAre405() throws Exception {
        start("");
        Responses.Response r = f.get("DELETE /hello.html HTTP/1.1\r\nHost: localhost\r\n"
            + "Connection: close\r\n\r\n");
        assertEquals("HTTP/1.1 405 Not Allowed", r.statusLine());
        r = f.get("POST /hello.html HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc");
        assertEquals(405, r.status());
        r = f.get("POST /nothing HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc");
        assertEquals(404, r.status());
    }

    @Test
    @Timeout(20)
    void dotDotCannotLeaveTheRoot() throws Exception {
        Path outside = root.getParent().resolve(root.getFileName() + "-outside.txt");
        Files.writeString(outside, "outside");
        try {
            start("");
            String name = outside.getFileName().toString();
            // nginx's normalisation: "/.." above the root of the URI is refused (400), a ".." inside it stays inside
            Responses.Response r = f.get(get("/../" + name));
            assertEquals(400, r.status());
            r = f.get(get("/%2e%2e/" + name));
            assertEquals(400, r.status());
            r = f.get(get("/dir/%2E%2E/%2e%2e/" + name));
            assertEquals(400, r.status());
            r = f.get(get("/dir/../hello.html"));
            assertEquals(200, r.status());
            assertEquals("<p>hello</p>\n", r.body());
            r = f.get(get("/dir/%2e%2e/hello.html"));
            assertEquals(200, r.status());
            assertFalse(f.log().contains(name + "\" failed"), f.log());
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    @Timeout(20)
    void symlinksAreFollowed() throws Exception {
        // disable_symlinks is not implemented: links are followed, as nginx's default "disable_symlinks off"
        Files.createSymbolicLink(root.resolve("link.html"), root.resolve("hello.html"));
        start("");
        Responses.Response r = f.get(get("/link.html"));
        assertEquals(200, r.status());
        assertEquals("<p>hello</p>\n", r.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"off", "on"})
    @Timeout(20)
    void largeFileWithAndWithoutSendfile(String sendfile) throws Exception {
        // larger than the socket pair takes at once: "sendfile off" reads 32k at a time as the socket drains
        StringBuilder big = new StringBuilder();
        for (int i = 0; big.length() < 200_000; i++) {
            big.append(i).append('\n');
        }
        write(root.resolve("big.txt"), big.toString());
        start("sendfile " + sendfile + ";");
        Responses.Response r = f.get(get("/big.txt"));
        assertEquals(200, r.status());
        assertEquals(big.toString(), r.body());
        r = f.get("GET /big.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=30000-100000\r\n\r\n");
        assertEquals(206, r.status());
        assertEquals(big.substring(30000, 100001), r.body());
    }

    @Test
    @Timeout(20)
    void symlinkLoopIs403() throws Exception {
        Files.createSymbolicLink(root.resolve("loop1"), root.resolve("loop2"));
        Files.createSymbolicLink(root.resolve("loop2"), root.resolve("loop1"));
        start("");
        assertEquals("HTTP/1.1 403 Forbidden", f.get(get("/loop1")).statusLine());
        assertTrue(f.log().contains("open() \"" + root + "/loop1\" failed (40: Too many levels of symbolic links)"),
            f.log());
    }

    @Test
    @Timeout(20)
    void keepAliveServesSeveralFiles() throws Exception {
        start("");
        try (LocalConnection lc = LocalConnection.open(f.loop(), f.cycle().listening().get(0))) {
            String raw = f.exchange(lc, "HEAD /hello.html HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /dir/page.txt HTTP/1.1\r\nHost: localhost\r\n\r\n", false);
            f.turnUntil(2000, () -> {
                try {
                    return lc.received().endsWith("page");
                } catch (java.io.IOException e) {
                    return true;
                }
            });
            raw = lc.received();
            assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\n"), raw);
            assertEquals(2, raw.split("HTTP/1.1 200 OK").length - 1, raw);
            assertTrue(raw.endsWith("\r\n\r\npage"), raw);
            assertFalse(lc.closedByServer());
        }
    }

    @Test
    @Timeout(30)
    void descriptorsAreClosedWhateverTheOutcome() throws Exception {
        StringBuilder big = new StringBuilder();
        while (big.length() < 300_000) {
            big.append("0123456789");
        }
        write(root.resolve("big.txt"), big.toString());
        start("location /nosf/ { sendfile off; alias " + root + "/; }");
        String[] requests = {
            get("/hello.html"), get("/big.txt"), get("/nosf/big.txt"), get("/nothing"), get("/dir"),
            "HEAD /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
            "GET /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=99-\r\n\r\n",
            "GET /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=0-1,3-4\r\n\r\n",
            "GET /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nIf-Match: \"x\"\r\n\r\n",
            "GET /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nIf-None-Match: *\r\n\r\n",
            "POST /hello.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx",
        };
        for (String req : requests) {
            f.get(req);
        }
        f.turnUntil(200, () -> false);
        long before = openDescriptors();
        for (int i = 0; i < 3; i++) {
            for (String req : requests) {
                f.get(req);
            }
        }
        f.turnUntil(200, () -> false);
        // not more than before: the JVM may close descriptors of its own meanwhile (Java 25: 55 before, 52 after)
        long after = openDescriptors();
        assertTrue(after <= before, before + " descriptors before, " + after + " after");
        // a client that goes away in the middle of a large file: a socket pair, whose full buffer stops the file
        LocalConnection lc = LocalConnection.openSocketPair(f.loop(), f.cycle().listening().get(0));
        lc.send(get("/nosf/big.txt"));
        f.turnUntil(100, () -> false);
        lc.close();
        f.turnUntil(300, () -> false);
        assertEquals(before, openDescriptors());
    }

    private static long openDescriptors() throws Exception {
        try (java.util.stream.Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    @Test
    @Timeout(20)
    void lastModifiedIsTheFilesTime() throws Exception {
        start("");
        assertEquals(TimeFormats.http(MTIME), f.get(get("/hello.html")).header("Last-Modified"));
    }
}
