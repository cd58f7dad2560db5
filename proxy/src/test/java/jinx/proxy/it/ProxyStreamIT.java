package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;

/**
 * {@code proxy_request_buffering off}: the body reaches the upstream while the client is still sending it. A raw
 * backend tells when the first part of a chunked body has arrived, and only then does the client send the rest;
 * with buffering on this could never happen (the proxy would wait for the whole body), so the exchange itself is
 * the proof. The body goes on chunked to an HTTP/1.1 upstream. A 2 MB body with a length goes through an 8 KB
 * receive buffer whole and in order (the backend's CRC matches the client's), the reading paced by the upstream.
 * Both run against Debian's nginx and Jinx, which must give the backend the same request head.
 */
class ProxyStreamIT {

    static final String HTTP = """
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            client_max_body_size 10m;
            client_body_buffer_size 8k;
            location /s/ { proxy_pass http://127.0.0.1:%BACK%/; proxy_request_buffering off; proxy_http_version 1.1; }
        }
        """;

    @Test
    @Timeout(120)
    void bodiesStreamAsTheyCome() throws Exception {
        boolean nginx = Files.isExecutable(DifferentialSite.NGINX);
        String fromNginx = nginx ? run(true) : null;
        String fromJinx = run(false);
        if (nginx) {
            assertEquals(fromNginx, fromJinx);
        }
        assumeTrue(nginx, "nginx is not installed (.ci/run installs it): Jinx alone was checked");
    }

    /** Both exchanges against one server; answers the request heads the backend saw. */
    private static String run(boolean nginx) throws Exception {
        try (ServerSocket back = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            String http = HTTP.replace("%BACK%", Integer.toString(back.getLocalPort()));
            try (DifferentialSite site = nginx ? DifferentialSite.nginx("proxy", http) : DifferentialSite.jinx("proxy", http)) {
                String chunkedHead = chunked(site, back);
                String lengthHead = large(site, back);
                if (!nginx) {
                    String log = site.errorLog();
                    assertTrue(!log.contains("[alert]") && !log.contains("[crit]") && !log.contains("Exception"),
                        log);
                }
                return (chunkedHead + "\n---\n" + lengthHead).replace(":" + back.getLocalPort(), ":BACK");
            }
        }
    }

    private static String chunked(DifferentialSite site, ServerSocket back) throws Exception {
        CountDownLatch firstSeen = new CountDownLatch(1);
        CompletableFuture<String> backend = CompletableFuture.supplyAsync(() -> {
            try (Socket s = back.accept()) {
                s.setSoTimeout(10_000);
                InputStream in = s.getInputStream();
                String got = readUntil(in, "first");
                firstSeen.countDown();
                got += readUntil(in, "0\r\n\r\n");
                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
                return got;
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", site.port()), 5000);
            c.setSoTimeout(10_000);
            OutputStream out = c.getOutputStream();
            out.write(("POST /s/up HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n5\r\nfirst\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertTrue(firstSeen.await(10, TimeUnit.SECONDS), "the first part did not reach the backend");
            out.write("6\r\nsecond\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String response = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200") && response.endsWith("\r\n\r\nok\n"), response);
        }
        String got = backend.get(10, TimeUnit.SECONDS);
        assertTrue(got.contains("\r\nTransfer-Encoding: chunked\r\n") && got.contains("first")
            && got.contains("second") && got.endsWith("0\r\n\r\n"), got);
        return got.substring(0, got.indexOf("\r\n\r\n"));
    }

    private static String large(DifferentialSite site, ServerSocket back) throws Exception {
        byte[] body = new byte[2 << 20];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31 + (i >> 11));
        }
        CRC32 sent = new CRC32();
        sent.update(body);
        CompletableFuture<String> backend = CompletableFuture.supplyAsync(() -> {
            try (Socket s = back.accept()) {
                s.setSoTimeout(20_000);
                InputStream in = s.getInputStream();
                String head = readUntil(in, "\r\n\r\n");
                byte[] got = in.readNBytes(body.length);
                CRC32 crc = new CRC32();
                crc.update(got);
                s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + (Long.toString(crc.getValue())
                    .length() + 1) + "\r\nConnection: close\r\n\r\n" + crc.getValue() + "\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
                return head;
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress("127.0.0.1", site.port()), 5000);
            c.setSoTimeout(20_000);
            OutputStream out = c.getOutputStream();
            out.write(("POST /s/big HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            String response = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200") && response.endsWith("\r\n\r\n" + sent.getValue() + "\n"),
                response);
        }
        return backend.get(20, TimeUnit.SECONDS);
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] tail = end.getBytes(StandardCharsets.ISO_8859_1);
        for (;;) {
            int ch = in.read();
            if (ch < 0) {
                throw new IOException("closed before \"" + end + "\": " + b.toString(StandardCharsets.ISO_8859_1));
            }
            b.write(ch);
            byte[] a = b.toByteArray();
            if (a.length >= tail.length && java.util.Arrays.equals(a, a.length - tail.length, a.length, tail, 0,
                tail.length)) {
                return b.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }
}
