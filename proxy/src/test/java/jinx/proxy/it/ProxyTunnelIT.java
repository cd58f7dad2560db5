package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;

/**
 * WebSocket through the proxy: the 101 answer, then a two-way tunnel. The exchange (handshake, two messages each
 * way, the client's half-close, the upstream's echo of what was still in flight, the close) is the same through
 * Jinx as through Debian's nginx where it is installed, and Jinx alone is checked without it.
 */
class ProxyTunnelIT {

    static final String HTTP = """
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location /ws/ {
                proxy_pass http://127.0.0.1:%UP%/;
                proxy_http_version 1.1;
                proxy_set_header Upgrade $http_upgrade;
                proxy_set_header Connection "upgrade";
                proxy_read_timeout 5s;
            }
        }
        """;

    private static final String HANDSHAKE = "GET /ws/upgrade HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    /** The client's view of one tunnel, normalised (Date and Server masked). */
    static String exchange(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(HANDSHAKE.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            StringBuilder sb = new StringBuilder(readHead(in).replaceAll("(?m)^(Date|Server): .*$", "$1: X"));
            for (String msg : new String[] {"first message", "second, longer message"}) {
                out.write(msg.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                sb.append("[echo:").append(new String(in.readNBytes(msg.length()), StandardCharsets.ISO_8859_1))
                    .append(']');
            }
            out.write("last words".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput();
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            in.transferTo(rest);
            return sb.append("[after half-close:").append(rest.toString(StandardCharsets.ISO_8859_1))
                .append("][closed]").toString();
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }

    @Test
    @Timeout(60)
    void aWebSocketTunnelsBothWaysAndEndsOnTheHalfClose() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String http = HTTP.replace("%UP%", Integer.toString(up.port()));
            String jinx;
            try (DifferentialSite site = DifferentialSite.jinx("proxy", http)) {
                jinx = exchange(site.port());
                String log = site.errorLog();
                assertTrue(!log.contains("[alert]") && !log.contains("[crit]"), log);
            }
            assertTrue(jinx.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), jinx);
            assertTrue(jinx.contains("\r\nUpgrade: websocket\r\nConnection: upgrade\r\n")
                || jinx.contains("\r\nConnection: upgrade\r\n"), jinx);
            assertTrue(jinx.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), jinx);
            assertTrue(jinx.endsWith("[echo:first message][echo:second, longer message]"
                + "[after half-close:last words][closed]"), jinx);
            assertEquals("Upgrade: websocket", up.lastRequest().headers("Upgrade").isEmpty() ? ""
                : "Upgrade: " + up.lastRequest().header("Upgrade"));
            if (Files.isExecutable(DifferentialSite.NGINX)) {
                String nginx;
                try (DifferentialSite site = DifferentialSite.nginx("proxy", http)) {
                    nginx = exchange(site.port());
                }
                String withoutHalfClose = "[after half-close:";
                // nginx 1.22 ends the tunnel when the client half-closes: the echo of the last words may be lost
                assertEquals(nginx.substring(0, nginx.indexOf(withoutHalfClose)),
                    jinx.substring(0, jinx.indexOf(withoutHalfClose)));
            }
        }
    }
}
