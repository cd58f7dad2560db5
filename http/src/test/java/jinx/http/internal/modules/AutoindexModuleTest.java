package jinx.http.internal.modules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;
import jinx.http.internal.request.Responses;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The autoindex module: the HTML listing byte for byte (directories first, hidden names left out, escaping, long
 * names cut, exact and rounded sizes), JSON, JSONP with its callback check, XML, and what it leaves to others.
 */
class AutoindexModuleTest {

    /** 2001-09-09T01:46:40Z. */
    private static final long MTIME = 1_000_000_000L;

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        Path d = Files.createDirectories(root.resolve("d"));
        write(d.resolve("a&b.txt"), new byte[5]);
        write(d.resolve("big.bin"), new byte[20000]);
        write(d.resolve("n".repeat(52)), new byte[1]);
        write(d.resolve(".hidden"), new byte[1]);
        Path sub = Files.createDirectories(d.resolve("sub dir"));
        Files.setLastModifiedTime(sub, FileTime.from(Instant.ofEpochSecond(MTIME)));
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root + ";\n"
            + server + "\n}\n");
    }

    private static void write(Path p, byte[] data) throws Exception {
        Files.write(p, data);
        Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(MTIME)));
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(20)
    void htmlListing() throws Exception {
        start("autoindex on;");
        Responses.Response r = f.get(get("/d/"));
        assertEquals(200, r.status());
        assertEquals("text/html", r.header("Content-Type"));
        assertNull(r.header("Content-Length"));
        assertEquals("<html>\r\n<head><title>Index of /d/</title></head>\r\n<body>\r\n"
            + "<h1>Index of /d/</h1><hr><pre><a href=\"../\">../</a>\r\n"
            + "<a href=\"sub%20dir/\">sub dir/</a>" + " ".repeat(42) + " 09-Sep-2001 01:46                   -\r\n"
            + "<a href=\"a%26b.txt\">a&amp;b.txt</a>" + " ".repeat(43) + " 09-Sep-2001 01:46                   5\r\n"
            + "<a href=\"big.bin\">big.bin</a>" + " ".repeat(43) + " 09-Sep-2001 01:46               20000\r\n"
            + "<a href=\"" + "n".repeat(52) + "\">" + "n".repeat(47) + "..&gt;</a> 09-Sep-2001 01:46"
            + "                   1\r\n"
            + "</pre><hr></body>\r\n</html>\r\n", body("/d/"));
    }

    @Test
    @Timeout(20)
    void roundedSizesJsonXmlAndJsonp() throws Exception {
        start("location /d/ { autoindex on; autoindex_exact_size off; }\n"
            + " location /j/ { alias " + root + "/d/; autoindex on; autoindex_format json; }\n"
            + " location /p/ { alias " + root + "/d/; autoindex on; autoindex_format jsonp; }\n"
            + " location /x/ { alias " + root + "/d/; autoindex on; autoindex_format xml; }");
        String html = body("/d/");
        assertTrue(html.contains("</a>" + " ".repeat(43) + " 09-Sep-2001 01:46     20K\r\n"), html);
        assertTrue(html.contains(" 09-Sep-2001 01:46       -\r\n"), html);
        String json = "[\r\n{ \"name\":\"sub dir\", \"type\":\"directory\", \"mtime\":\"Sun, 09 Sep 2001 01:46:40 GMT\" },"
            + "\r\n{ \"name\":\"a&b.txt\", \"type\":\"file\", \"mtime\":\"Sun, 09 Sep 2001 01:46:40 GMT\", \"size\":5 },";
        Responses.Response r = f.get(get("/j/"));
        assertEquals("application/json", r.header("Content-Type"));
        String listing = body("/j/");
        assertTrue(listing.startsWith(json), listing);
        assertTrue(listing.endsWith("\"size\":1 }\r\n]"), listing);
        r = f.get(get("/p/?callback=cb.x_1"));
        assertEquals("application/javascript", r.header("Content-Type"));
        listing = body("/p/?callback=cb.x_1");
        assertTrue(listing.startsWith("/* callback */\r\ncb.x_1(" + json), listing);
        assertTrue(listing.endsWith("]);"), listing);
        assertEquals(400, f.get(get("/p/?callback=a-b")).status());
        assertTrue(f.log().contains("client sent invalid callback name: \"a-b\""), f.log());
        assertTrue(body("/p/").startsWith("[\r\n"));
        r = f.get(get("/x/"));
        assertEquals("text/xml; charset=utf-8", r.header("Content-Type"));
        listing = body("/x/");
        assertTrue(listing.startsWith("<?xml version=\"1.0\"?>\r\n<list>\r\n"
            + "<directory mtime=\"2001-09-09T01:46:40Z\">sub dir</directory>\r\n"
            + "<file mtime=\"2001-09-09T01:46:40Z\" size=\"5\">a&amp;b.txt</file>\r\n"), listing);
    }

    @Test
    @Timeout(20)
    void leavesOtherRequestsAlone() throws Exception {
        start("autoindex on;");
        // the index module, before it, answers for a directory that is not there (nginx)
        assertEquals(404, f.get(get("/missing/")).status());
        assertEquals(403, f.get("POST /d/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close"
            + "\r\n\r\n").status());
        assertEquals(200, f.get(get("/d/big.bin")).status());
    }

    /** The body of the chunked response to a GET, read up to the close. */
    private String body(String uri) throws Exception {
        try (LocalConnection lc = LocalConnection.open(f.loop(), f.cycle().listening().get(0))) {
            lc.send(get(uri));
            f.turnUntil(5000, () -> {
                try {
                    return lc.closedByServer();
                } catch (IOException e) {
                    return true;
                }
            });
            String raw = lc.received();
            int end = raw.indexOf("\r\n\r\n");
            assertTrue(raw.contains("\r\nTransfer-Encoding: chunked\r\n"), raw);
            return dechunk(raw.substring(end + 4));
        }
    }

    /** The data of chunks. */
    private static String dechunk(String raw) {
        StringBuilder out = new StringBuilder();
        int p = 0;
        while (p < raw.length()) {
            int eol = raw.indexOf("\r\n", p);
            if (eol < 0) {
                break;
            }
            int n = Integer.parseInt(raw.substring(p, eol).trim(), 16);
            if (n == 0) {
                break;
            }
            out.append(raw, eol + 2, eol + 2 + n);
            p = eol + 2 + n + 2;
        }
        return out.toString();
    }
}
