package jinx.http.it;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Content: static files (types, {@code Last-Modified}, {@code ETag}, sendfile on and off), {@code index},
 * {@code alias} with captures, {@code try_files}, {@code return}, {@code add_header}, {@code expires}, byte
 * ranges, conditional requests, HEAD and chunked responses.
 */
@Tag("slow")
class StaticIT {

    private static final String FILE = "0123456789abcdef\n";
    private static final byte[] LARGE = new byte[1 << 20];

    private static Site site;
    private static JinxServer server;
    private static int port;
    private static String etag;

    @BeforeAll
    static void start() throws Exception {
        new Random(4).nextBytes(LARGE);
        site = Site.create();
        site.write("html/file.txt", FILE);
        site.write("html/page.html", "<p>page</p>\n");
        site.write("html/large.bin", LARGE);
        site.write("html/sub/index.htm", "sub index\n");
        site.write("html/images/logo.png", "PNG\n");
        site.write("html/fallback.txt", "fallback\n");
        site.mkdir("html/empty");
        etag = "\"" + Long.toHexString(Site.MTIME.getEpochSecond()) + "-" + Long.toHexString(FILE.length()) + "\"";
        // a port of its own, not :0: redirects name the port of the listen directive, as nginx's do
        port = Site.freePort();
        server = JinxServer.start(site, ("""
            include mime.types;
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:%PORT%;
                server_name localhost;
                root html;
                index missing.html index.htm;
                """ + ItSupport.ALIVE + """
                location /nosendfile/ { alias html/; sendfile off; }
                location ~ ^/img/(.+)$ { alias html/images/$1; }
                location /tried/ { try_files $uri /fallback.txt; }
                location /strict/ { try_files $uri =404; }
                location /to-named/ { try_files $uri @named; }
                location @named { return 200 "named $uri\\n"; }
                location = /ret/text { return 200 "hello $arg_name\\n"; }
                location = /ret/code { return 404; }
                location = /ret/url { return https://example.com$request_uri; }
                location = /ret/301 { return 301 /file.txt; }
                location = /ret/nolength { return 202; }
                location /headers/ {
                    alias html/;
                    add_header X-Plain plain;
                    add_header X-Always always always;
                    expires 1h;
                }
                location /epoch/ { alias html/; expires epoch; }
                location /relative/ { absolute_redirect off; alias html/; }
                location /noport/ { port_in_redirect off; alias html/; }
                location /chunked { it_echo chunked; }
                location /unchunked { it_echo chunked; chunked_transfer_encoding off; }
            }
            """).replace("%PORT%", Integer.toString(port)));
    }

    @AfterAll
    static void stop() throws Exception {
        ItSupport.assertAlive(server);
        server.close();
        site.close();
    }

    private static Response get(String uri, String... headers) throws Exception {
        return ItSupport.request(port, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + String.join("", headers)
            + "\r\n");
    }

    @Test
    @Timeout(30)
    void staticFileAsNginxSendsIt() throws Exception {
        Response r = get("/file.txt");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals(List.of("Server", "Date", "Content-Type", "Content-Length", "Last-Modified", "Connection",
            "ETag", "Accept-Ranges"), r.headerNames());
        assertEquals("text/plain", r.header("Content-Type"));
        assertEquals(Site.MTIME_HTTP, r.header("Last-Modified"));
        assertEquals(etag, r.header("ETag"));
        assertEquals("bytes", r.header("Accept-Ranges"));
        assertEquals(FILE, r.body());
        assertEquals("text/html", get("/page.html").header("Content-Type"));
        assertEquals("image/png", get("/img/logo.png").header("Content-Type"));
    }

    @Test
    @Timeout(30)
    void largeFileWithAndWithoutSendfile() throws Exception {
        for (String uri : List.of("/large.bin", "/nosendfile/large.bin")) {
            Response r = get(uri);
            assertEquals("application/octet-stream", r.header("Content-Type"));
            assertArrayEquals(LARGE, r.body().getBytes(StandardCharsets.ISO_8859_1), uri);
        }
    }

    @Test
    @Timeout(30)
    void indexAndDirectoryRedirects() throws Exception {
        assertEquals("sub index\n", get("/sub/").body());
        Response r = get("/sub");
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://localhost:" + port + "/sub/", r.header("Location"));
        assertEquals("/relative/sub/", get("/relative/sub").header("Location"));
        assertEquals("http://localhost/noport/sub/", get("/noport/sub").header("Location"));
        assertEquals("HTTP/1.1 403 Forbidden", get("/empty/").statusLine());
        server.awaitLog("error", "directory index of \"" + site.root().resolve("html/empty") + "/\" is forbidden");
        assertEquals("HTTP/1.1 404 Not Found", get("/missing.txt").statusLine());
        server.awaitLog("error", "open() \"" + site.root().resolve("html/missing.txt") + "\" failed (2: No such file "
            + "or directory)");
    }

    @Test
    @Timeout(30)
    void tryFiles() throws Exception {
        assertEquals("fallback\n", get("/tried/nothing").body());
        assertEquals("HTTP/1.1 404 Not Found", get("/strict/nothing").statusLine());
        assertEquals("named /to-named/nothing\n", get("/to-named/nothing").body());
    }

    @Test
    @Timeout(30)
    void returnCodesTextAndUrls() throws Exception {
        Response r = get("/ret/text?name=jinx");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("application/octet-stream", r.header("Content-Type"));
        assertEquals("hello jinx\n", r.body());
        assertEquals("HTTP/1.1 404 Not Found", get("/ret/code").statusLine());
        r = get("/ret/url?a=1");
        assertEquals("HTTP/1.1 302 Moved Temporarily", r.statusLine());
        assertEquals("https://example.com/ret/url?a=1", r.header("Location"));
        r = get("/ret/301");
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://localhost:" + port + "/file.txt", r.header("Location"));
        assertTrue(r.body().contains("<center><h1>301 Moved Permanently</h1></center>"), r.body());
        r = get("/ret/nolength");
        assertEquals("HTTP/1.1 202 Accepted", r.statusLine());
    }

    @Test
    @Timeout(30)
    void addHeaderAndExpires() throws Exception {
        Response r = get("/headers/file.txt");
        assertEquals("plain", r.header("X-Plain"));
        assertEquals("always", r.header("X-Always"));
        assertEquals("max-age=3600", r.header("Cache-Control"));
        DateTimeFormatter http = DateTimeFormatter.RFC_1123_DATE_TIME;
        ZonedDateTime date = ZonedDateTime.parse(r.header("Date"), http);
        assertEquals(date.plusHours(1), ZonedDateTime.parse(r.header("Expires"), http));
        r = get("/headers/missing");
        assertEquals(404, r.status());
        assertNull(r.header("X-Plain"));
        assertEquals("always", r.header("X-Always"));
        r = get("/epoch/file.txt");
        assertEquals("Thu, 01 Jan 1970 00:00:01 GMT", r.header("Expires"));
        assertEquals("no-cache", r.header("Cache-Control"));
    }

    @Test
    @Timeout(30)
    void ranges() throws Exception {
        Response r = get("/file.txt", "Range: bytes=0-4\r\n");
        assertEquals("HTTP/1.1 206 Partial Content", r.statusLine());
        assertEquals("bytes 0-4/17", r.header("Content-Range"));
        assertEquals("01234", r.body());
        assertEquals("def\n", get("/file.txt", "Range: bytes=-4\r\n").body());
        assertEquals("ef\n", get("/file.txt", "Range: bytes=14-\r\n").body());
        r = get("/file.txt", "Range: bytes=0-1,4-5\r\n");
        assertEquals("HTTP/1.1 206 Partial Content", r.statusLine());
        String type = r.header("Content-Type");
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String boundary = type.substring(type.indexOf('=') + 1);
        assertEquals("\r\n--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/17\r\n\r\n01"
            + "\r\n--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 4-5/17\r\n\r\n45"
            + "\r\n--" + boundary + "--\r\n", r.body());
        r = get("/file.txt", "Range: bytes=17-20\r\n");
        assertEquals("HTTP/1.1 416 Requested Range Not Satisfiable", r.statusLine());
        assertEquals("bytes */17", r.header("Content-Range"));
        // If-Range: the range only while the validator still holds
        assertEquals(206, get("/file.txt", "Range: bytes=0-1\r\nIf-Range: " + etag + "\r\n").status());
        assertEquals(206, get("/file.txt", "Range: bytes=0-1\r\nIf-Range: " + Site.MTIME_HTTP + "\r\n").status());
        r = get("/file.txt", "Range: bytes=0-1\r\nIf-Range: \"other\"\r\n");
        assertEquals(200, r.status());
        assertEquals(FILE, r.body());
    }

    @Test
    @Timeout(30)
    void conditionalRequests() throws Exception {
        Response r = get("/file.txt", "If-Modified-Since: " + Site.MTIME_HTTP + "\r\n");
        assertEquals("HTTP/1.1 304 Not Modified", r.statusLine());
        assertEquals(etag, r.header("ETag"));
        assertNull(r.header("Content-Length"));
        assertEquals(200, get("/file.txt", "If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n").status());
        assertEquals(304, get("/file.txt", "If-None-Match: " + etag + "\r\n").status());
        assertEquals(304, get("/file.txt", "If-None-Match: \"x\", W/" + etag + "\r\n").status());
        assertEquals(200, get("/file.txt", "If-None-Match: \"x\"\r\n").status());
        assertEquals(200, get("/file.txt", "If-Match: " + etag + "\r\n").status());
        assertEquals(412, get("/file.txt", "If-Match: \"x\"\r\n").status());
        assertEquals(412, get("/file.txt", "If-Unmodified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n").status());
        assertEquals(200, get("/file.txt", "If-Unmodified-Since: " + Site.MTIME_HTTP + "\r\n").status());
    }

    @Test
    @Timeout(30)
    void headSendsTheHeaderOnly() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            Response r = c.send("HEAD /file.txt HTTP/1.1\r\nHost: localhost\r\n\r\n").responses(1, true).get(0);
            assertEquals("HTTP/1.1 200 OK", r.statusLine());
            assertEquals("17", r.header("Content-Length"));
            assertFalse(c.closedByServer(300));
            assertEquals(r.headerText(), c.received(), "no body after the header");
            c.send("HEAD /ret/text HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("7", c.responses(2, true).get(1).header("Content-Length"));
        }
    }

    @Test
    @Timeout(30)
    void chunkedResponses() throws Exception {
        Response r = get("/chunked");
        assertEquals("chunked", r.header("Transfer-Encoding"));
        assertEquals("6\r\nfirst \r\n6\r\nsecond\r\n0\r\n\r\n", r.body());
        assertEquals("first second", r.content());
        try (RawClient c = RawClient.connect(port)) {
            String raw = c.send("GET /chunked HTTP/1.0\r\n\r\n").readAll();
            assertTrue(raw.endsWith("Connection: close\r\n\r\nfirst second"), raw);
        }
        try (RawClient c = RawClient.connect(port)) {
            String raw = c.send("GET /unchunked HTTP/1.1\r\nHost: localhost\r\n\r\n").readAll();
            assertFalse(raw.contains("Transfer-Encoding"), raw);
            assertTrue(raw.endsWith("Connection: close\r\n\r\nfirst second"), raw);
        }
    }
}
