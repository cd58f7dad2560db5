package jinx.http.internal.modules;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gzip filter: nginx's {@code Accept-Encoding} scan and {@code q} arithmetic, {@code $gzip_ratio}'s rounding,
 * the weak {@code ETag}, the type test, streams of every size that gunzip to what was sent (header, CRC32 and
 * ISIZE as gzip wants them), and nginx's configuration errors.
 */
class GzipFilterTest {

    @TempDir
    Path root;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void acceptEncodingAsNginxScansIt() {
        for (String yes : new String[] {"gzip", "GZIP", "deflate, gzip", "gzip;q=0.5", "gzip; q=1",
            "br,gzip ;q=0.001", "gzip;q=1.000", "gzip;q=0.1, br", "x, gzip", "gzip;", "gzip;q=1 "}) {
            assertTrue(GzipOk.acceptEncoding(yes), yes);
        }
        for (String no : new String[] {"x-gzip", "gzipx", "gzip;q=0", "gzip;q=0.000", "gzip;q=1.5", "br",
            "gzip;q=2", "gzip;q=0.0001", "gzip;level=1", "deflate,xgzip", "gzip;q="}) {
            assertFalse(GzipOk.acceptEncoding(no), no);
        }
    }

    @Test
    void quantityAddsTheFractionsDigitsAsNginxDoes() {
        assertEquals(100, GzipOk.quantityValue("1", 0, 1));
        assertEquals(5, GzipOk.quantityValue("0.5", 0, 3));
        // 0.9 and 0.09 are both 9 to nginx: only zero and above 100 matter
        assertEquals(9, GzipOk.quantityValue("0.09", 0, 4));
        assertEquals(0, GzipOk.quantityValue("1.5", 0, 3));
        assertEquals(0, GzipOk.quantityValue("0.0001", 0, 6));
    }

    @Test
    void ratioRoundsHalfUpToTwoDecimals() {
        assertEquals("2.13", GzipFilterModule.ratio(2125, 1000));
        assertEquals("2.12", GzipFilterModule.ratio(2124, 1000));
        assertEquals("3.00", GzipFilterModule.ratio(2999, 1000));
        assertEquals("0.50", GzipFilterModule.ratio(1, 2));
        assertEquals("1.00", GzipFilterModule.ratio(38, 38));
    }

    @Test
    void strongEtagBecomesWeakAndAnUnquotedOneGoes() {
        HeadersOut h = new HeadersOut();
        h.etag = h.headers.add("ETag", "\"abc\"");
        GzipFilterModule.weakEtag(h);
        assertEquals("W/\"abc\"", h.etag.value);
        GzipFilterModule.weakEtag(h);
        assertEquals("W/\"abc\"", h.etag.value);
        HttpHeaders.Entry bare = h.headers.add("ETag", "abc");
        h.etag = bare;
        GzipFilterModule.weakEtag(h);
        assertNull(h.etag);
        assertTrue(bare.removed);
    }

    @Test
    void typeTestTakesTheTypeBeforeItsParameters() {
        HeadersOut h = new HeadersOut();
        h.contentType = "Text/HTML; charset=utf-8";
        assertTrue(GzipFilterModule.typeMatches(h, List.of("text/html")));
        assertFalse(GzipFilterModule.typeMatches(h, List.of("text/htm")));
        h.contentType = null;
        assertFalse(GzipFilterModule.typeMatches(h, List.of("text/html")));
        assertTrue(GzipFilterModule.typeMatches(h, GzipFilterModule.ANY));
    }

    @Test
    @Timeout(30)
    void everySizeGunzipsToWhatWasSent() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 300_000; i++) {
            sb.append("row ").append(i).append(' ').append(Integer.toString(i * 7919, 36)).append('\n');
        }
        int[] sizes = {20, 21, 4095, 4096, 4097, 32768, 65536, 65537, 300_000};
        for (int size : sizes) {
            Files.writeString(root.resolve("f" + size + ".txt"), sb.substring(0, size));
        }
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n root " + root + ";\n gzip on;\n"
            + " gzip_types text/plain;\n gzip_buffers 2 1k;\n location /l9/ { alias " + root + "/;"
            + " gzip_comp_level 9; }\n}\n");
        for (String prefix : new String[] {"/", "/l9/"}) {
            for (int size : sizes) {
                String raw = chunked("GET " + prefix + "f" + size + ".txt HTTP/1.1\r\nHost: x\r\n"
                    + "Accept-Encoding: gzip\r\n\r\n");
                int end = raw.indexOf("\r\n\r\n");
                String head = raw.substring(0, end + 2);
                assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
                assertTrue(head.contains("\r\nContent-Encoding: gzip\r\n"), head);
                assertFalse(head.contains("Content-Length"), head);
                assertEquals(sb.substring(0, size), gunzip(dechunk(raw.substring(end + 4))), prefix + size);
            }
        }
    }

    @Test
    void configurationErrorsAsNginx() {
        assertRefused("gzip_comp_level 10;", "value must be between 1 and 9");
        assertRefused("gzip_comp_level 0;", "value must be between 1 and 9");
        assertRefused("gzip_buffers 0 4k;", "\"gzip_buffers\" directive invalid value");
        assertRefused("gzip_buffers 4 x;", "\"gzip_buffers\" directive invalid value");
        assertRefused("gzip_window 3k;", "\"gzip_window\" directive must be 512, 1k, 2k, 4k, 8k, 16k, or 32k");
        assertRefused("gzip_hash 256k;", "\"gzip_hash\" directive must be 512, 1k, 2k, 4k, 8k, 16k, 32k, 64k, or 128k");
        assertRefused("gzip_static maybe;", "invalid value \"maybe\" in ");
        assertRefused("gzip_min_length big;", "\"gzip_min_length\" directive invalid value");
    }

    private void assertRefused(String directive, String text) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n"
            + " root " + root + ";\n" + directive + "\n}\n").close());
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }

    /** Sends a request and turns the loop until the last chunk came. */
    private String chunked(String request) throws IOException {
        try (LocalConnection lc = LocalConnection.open(f.loop(), f.cycle().listening().get(0))) {
            lc.send(request);
            f.turnUntil(10_000, () -> {
                try {
                    return lc.received().endsWith("\r\n0\r\n\r\n") || lc.closedByServer();
                } catch (IOException e) {
                    return true;
                }
            });
            return lc.received();
        }
    }

    private static String dechunk(String body) {
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (;;) {
            int eol = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, eol), 16);
            if (size == 0) {
                return sb.toString();
            }
            sb.append(body, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }

    private static String gunzip(String body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(
            body.getBytes(StandardCharsets.ISO_8859_1)))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
