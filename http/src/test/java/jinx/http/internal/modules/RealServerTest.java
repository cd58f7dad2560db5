package jinx.http.internal.modules;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The content modules behind the real server: a static file, a range, 304 and 412 over TCP.
 */
@Tag("slow")
class RealServerTest {

    @TempDir
    Path root;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String exchange(String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", f.port()), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[65536];
            try {
                for (int n; (n = in.read(buf)) >= 0;) {
                    out.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                // what came is what there is
            }
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    @Timeout(30)
    void staticFileRangesAndConditionsOverTcp() throws Exception {
        write(root.resolve("f.txt"), "0123456789");
        f = EngineFixture.modulesSockets("server {\n listen 127.0.0.1:0;\n server_name localhost;\n root " + root
            + ";\n}\n");
        f.serve();
        String get = "GET /f.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n";
        Responses.Response r = Responses.first(exchange(get + "\r\n"), false);
        assertEquals("0123456789", r.body());
        r = Responses.first(exchange(get + "Range: bytes=2-4\r\n\r\n"), false);
        assertEquals(206, r.status());
        assertEquals("234", r.body());
        r = Responses.first(exchange(get + "If-None-Match: " + r.header("ETag") + "\r\n\r\n"), false);
        assertEquals(304, r.status());
        String raw = exchange(get + "If-Match: \"nope\"\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 412 Precondition Failed\r\n"), raw);
    }
}
