package jinx.http.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** End to end with a real client: curl fetches static files whole, by ranges and conditionally. */
@Tag("slow")
class CurlIT {

    private static final Path CURL = Path.of("/usr/bin/curl");

    /** Runs curl with {@code args}; returns its standard output, one char per byte. */
    private static String curl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CURL.toString(), "-s", "--max-time", "20"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(out, StandardCharsets.ISO_8859_1));
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    @Test
    @Timeout(120)
    void staticFilesRangesAndConditionalRequests() throws Exception {
        assumeTrue(Files.isExecutable(CURL), "curl is not installed (.ci/run installs it)");
        byte[] large = new byte[3 << 20];
        new Random(7).nextBytes(large);
        try (Site site = Site.create()) {
            site.write("html/file.txt", "0123456789abcdef\n");
            site.write("html/large.bin", large);
            try (JinxServer s = JinxServer.start(site, "include mime.types;\nserver {\n listen 127.0.0.1:0;\n"
                     + " server_name localhost;\n root html;\n}\n")) {
                String base = "http://127.0.0.1:" + s.port();

                String head = curl("-i", "-r", "0-4", base + "/file.txt");
                assertTrue(head.startsWith("HTTP/1.1 206 Partial Content\r\n"), head);
                assertTrue(head.contains("\r\nContent-Range: bytes 0-4/17\r\n"), head);
                assertTrue(head.endsWith("\r\n\r\n01234"), head);

                String multi = curl("-i", "-r", "0-1,-2", base + "/file.txt");
                assertTrue(multi.contains("Content-Type: multipart/byteranges; boundary="), multi);
                assertTrue(multi.contains("Content-Range: bytes 15-16/17\r\n\r\nf\n\r\n"), multi);

                String notModified = curl("-i", "-z", Site.MTIME_HTTP, base + "/file.txt");
                assertTrue(notModified.startsWith("HTTP/1.1 304 Not Modified\r\n"), notModified);
                String modified = curl("-i", "-z", "Mon, 01 Jan 2001 00:00:00 GMT", base + "/file.txt");
                assertTrue(modified.startsWith("HTTP/1.1 200 OK\r\n") && modified.endsWith("abcdef\n"), modified);
                String etag = "\"" + Long.toHexString(Site.MTIME.getEpochSecond()) + "-11\"";
                assertTrue(curl("-i", "-H", "If-None-Match: " + etag, base + "/file.txt")
                    .startsWith("HTTP/1.1 304 Not Modified\r\n"));

                Path out = site.root().resolve("download.bin");
                assertEquals("200 3145728", curl("-o", out.toString(), "-w", "%{http_code} %{size_download}",
                    base + "/large.bin"));
                assertArrayEquals(large, Files.readAllBytes(out));
                // a resumed download: the rest of the file from byte 1000000
                Files.write(out, java.util.Arrays.copyOf(large, 1_000_000));
                assertEquals("206", curl("-C", "-", "-o", out.toString(), "-w", "%{http_code}", base + "/large.bin"));
                assertArrayEquals(large, Files.readAllBytes(out));
                s.assertNoAlerts();
            }
        }
    }
}
