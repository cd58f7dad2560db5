package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;

/**
 * What the proxy does over time rather than in bytes: {@code proxy_limit_rate} reads a buffered response no faster
 * than its rate (nginx's event pipe: {@code rate * (seconds since start + 1)} bytes so far, so 100,000 bytes at
 * 40,000 per second take two seconds, never less than one), and {@code proxy_ignore_client_abort on} reads the
 * upstream's response to its end after the client went away, where the default closes the upstream connection at
 * once. Bounds are generous: only the lower bound of the rate is asserted, the machine may be slow.
 */
class ProxyRateIT {

    static final String HTTP = """
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location /rated/ { proxy_pass http://127.0.0.1:%UP%/; proxy_limit_rate 40000; }
            location /unrated/ { proxy_pass http://127.0.0.1:%UP%/; }
            location /keep/ { proxy_pass http://127.0.0.1:%UP%/; proxy_ignore_client_abort on; }
        }
        """;

    @Test
    @Timeout(60)
    void limitRateAndClientAbort() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            try (DifferentialSite site = DifferentialSite.jinx("proxy", HTTP.replace("%UP%", Integer.toString(up.port())))) {
                long t0 = System.nanoTime();
                String fast = site.exchange("GET /unrated/size/100000 HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n", 10_000);
                long unrated = (System.nanoTime() - t0) / 1_000_000;
                t0 = System.nanoTime();
                String slow = site.exchange("GET /rated/size/100000 HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n", 20_000);
                long rated = (System.nanoTime() - t0) / 1_000_000;
                assertEquals(body(fast), body(slow));
                assertEquals(100_000, body(slow).length());
                assertTrue(rated >= 1000, "100000 bytes at 40000/s came in " + rated + " ms (unrated: " + unrated
                    + " ms)");

                // the client leaves after the first part; the upstream connection stays until its body is done
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", site.port()), 5000);
                    s.setSoTimeout(5000);
                    s.getOutputStream().write("GET /keep/slow-body/1500 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                    InputStream in = s.getInputStream();
                    assertTrue(new String(in.readNBytes(12), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
                    up.awaitOpenConnections(1);
                }
                Thread.sleep(500);
                assertEquals(1, up.openConnections(), "the upstream connection was closed with the client's");
                up.awaitOpenConnections(0);
                assertTrue(site.exchange("GET /unrated/hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                    5000).contains("\r\n\r\nhello\n"));
                String log = site.errorLog();
                assertTrue(!log.contains("[alert]") && !log.contains("[crit]") && !log.contains("Exception"), log);
            }
        }
    }

    private static String body(String response) {
        int i = response.indexOf("\r\n\r\n");
        String b = response.substring(i + 4);
        return b.endsWith("[closed]") ? b.substring(0, b.length() - "[closed]".length()) : b;
    }
}
