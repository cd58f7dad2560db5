package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;

/**
 * Failures injected around the proxy: a client that goes away mid-response releases the upstream connection, a
 * backend that dies mid-response costs that response only, {@code max_conns} turns the request over it into
 * nginx's 502 with "no live upstreams", and 400 concurrent keep-alive clients share a small upstream cache. The
 * worker serves the next request every time and logs no alert.
 */
class ProxyFailureIT {

    static final String HTTP = """
        upstream one { server 127.0.0.1:%UP% max_conns=1; }
        upstream ka { server 127.0.0.1:%UP%; keepalive 8; }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location / { proxy_pass http://127.0.0.1:%UP%; }
            location /one/ { proxy_pass http://one/; }
            location /ka/ { proxy_pass http://ka/; proxy_http_version 1.1; proxy_set_header Connection ""; }
        }
        """;

    private static String get(DifferentialSite site, String uri) throws Exception {
        return site.exchange("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 5000);
    }

    @Test
    @Timeout(120)
    void failuresCostOneResponseAndReleaseWhatTheyHeld() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String http = HTTP.replace("%UP%", Integer.toString(up.port()));
            try (DifferentialSite site = DifferentialSite.jinx("proxy", http)) {
                // a client that goes away while the upstream is still sending: the upstream connection is closed
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", site.port()), 5000);
                    s.getOutputStream().write("GET /slow-body/3000 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                    s.setSoTimeout(5000);
                    InputStream in = s.getInputStream();
                    assertTrue(new String(in.readNBytes(12), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
                    up.awaitOpenConnections(1);
                }
                up.awaitOpenConnections(0);
                assertTrue(get(site, "/hello").contains("\r\n\r\nhello\n"));

                // max_conns=1: a second request while the first holds the only connection gets nginx's 502
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    Future<String> slow = pool.submit(() -> get(site, "/one/slow-header/1500"));
                    up.awaitOpenConnections(1);
                    String second = get(site, "/one/hello");
                    assertTrue(second.startsWith("HTTP/1.1 502 Bad Gateway"), second);
                    String first = slow.get(10, TimeUnit.SECONDS);
                    assertTrue(first.contains("\r\n\r\nslow\n"), first);
                    assertTrue(site.errorLog().contains("[error]") && site.errorLog().contains("no live upstreams "
                        + "while connecting to upstream, client: 127.0.0.1, server: localhost, request: \"GET "
                        + "/one/hello HTTP/1.1\", upstream: \"http://one/hello\""), site.errorLog());
                } finally {
                    pool.shutdownNow();
                }

                // 400 concurrent keep-alive clients, three requests each, through an upstream cache of 8
                int clients = 400;
                ExecutorService many = Executors.newFixedThreadPool(64);
                try {
                    List<Future<Integer>> done = new ArrayList<>();
                    for (int i = 0; i < clients; i++) {
                        done.add(many.submit(() -> keepAliveClient(site.port())));
                    }
                    int ok = 0;
                    for (Future<Integer> f : done) {
                        ok += f.get(60, TimeUnit.SECONDS);
                    }
                    assertEquals(3 * clients, ok);
                } finally {
                    many.shutdownNow();
                }

                // the backend dies in the middle of a response: that response is cut, the next one is served
                // the response has begun (its header and first line arrived) when the backend goes away
                String truncated;
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", site.port()), 5000);
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("GET /slow-body/3000 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                    InputStream in = s.getInputStream();
                    StringBuilder got = new StringBuilder();
                    while (!got.toString().endsWith("first\n")) {
                        int c = in.read();
                        assertTrue(c >= 0, got.toString());
                        got.append((char) c);
                    }
                    up.close();
                    got.append(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).append("[closed]");
                    truncated = got.toString();
                }
                assertTrue(truncated.startsWith("HTTP/1.1 200") && truncated.endsWith("[closed]"), truncated);
                String refused = get(site, "/hello");
                assertTrue(refused.startsWith("HTTP/1.1 502 Bad Gateway"), refused);
                String log = site.errorLog();
                assertTrue(!log.contains("[alert]") && !log.contains("[crit]") && !log.contains("Exception"), log);
            }
        }
    }

    /** Three requests on one connection; answers how many came back whole with 200. */
    private static int keepAliveClient(int port) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            int ok = 0;
            for (int i = 0; i < 3; i++) {
                out.write("GET /ka/hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    int c = in.read();
                    if (c < 0) {
                        return ok;
                    }
                    head.append((char) c);
                }
                byte[] body = in.readNBytes(6);
                if (head.toString().startsWith("HTTP/1.1 200") && "hello\n".equals(new String(body,
                    StandardCharsets.ISO_8859_1))) {
                    ok++;
                }
            }
            return ok;
        }
    }
}
