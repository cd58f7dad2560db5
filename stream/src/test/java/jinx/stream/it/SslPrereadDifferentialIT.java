package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;

/**
 * {@code ssl_preread} in Debian's nginx (its stream module) and in Jinx, same configuration: ClientHellos that
 * {@code openssl s_client} sent (the fuzz corpus of {@code SslPrereadFuzzTest}: TLS 1.3 with a name and ALPN,
 * TLS 1.2 with a name, none, one over two records, truncated, SSLv2, plain HTTP) are routed by
 * {@code map $ssl_preread_server_name} to the backend of their name without terminating TLS, and a server that
 * returns the three variables shows what each client offered, where {@code ssl_preread} is on and where it is off.
 * The bytes each client gets, and how its connection ends, must be equal (where {@code return} answers without
 * reading, a close and a reset are one: the client's unread bytes decide by timing). Report:
 * {@code target/ssl-preread.txt}.
 */
@Tag("slow")
class SslPrereadDifferentialIT {

    static final String STREAM = """
        map $ssl_preread_server_name $backend {
            a.example 127.0.0.1:%P1%;
            backend.example.org 127.0.0.1:%P2%;
            default 127.0.0.1:%P3%;
        }
        server { listen 127.0.0.1:%P0%; ssl_preread on; preread_timeout 1s; proxy_pass $backend; }
        server { listen 127.0.0.1:%P1%; return "A\\n"; }
        server { listen 127.0.0.1:%P2%; return "B\\n"; }
        server { listen 127.0.0.1:%P3%; return "default\\n"; }
        server {
            listen 127.0.0.1:%P4%; ssl_preread on; preread_timeout 1s;
            return "[$ssl_preread_server_name|$ssl_preread_alpn_protocols|$ssl_preread_protocol]\\n";
        }
        server { listen 127.0.0.1:%P5%; return "[$ssl_preread_server_name|$ssl_preread_protocol]\\n"; }
        """;

    static final List<String> HELLOS = List.of("tls13-sni-alpn", "tls12-sni", "no-sni", "tls13-only-alpn",
        "two-records", "truncated", "sslv2-hello", "plain-http");

    private static byte[] hello(String name) throws IOException {
        String path = "/jinx/stream/internal/SslPrereadFuzzTestInputs/" + name;
        try (InputStream in = SslPrereadDifferentialIT.class.getResourceAsStream(path)) {
            return in.readAllBytes();
        }
    }

    @Test
    @Timeout(180)
    void routesByServerNameAsNginxDoes() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "Debian's nginx with libnginx-mod-stream is not installed");
        List<String> nginx;
        try (DifferentialSite site = DifferentialSite.nginxStream(STREAM, 6)) {
            nginx = run(site);
        }
        List<String> jinx;
        try (DifferentialSite site = DifferentialSite.jinxStream(STREAM, 6)) {
            jinx = run(site);
        }
        StringBuilder report = new StringBuilder();
        int same = 0;
        for (int i = 0; i < nginx.size(); i++) {
            boolean eq = nginx.get(i).equals(jinx.get(i));
            same += eq ? 1 : 0;
            report.append(eq ? "SAME " : "DIFF ").append(nginx.get(i)).append('\n');
            if (!eq) {
                report.append("     jinx: ").append(jinx.get(i)).append('\n');
            }
        }
        report.append(same).append(" of ").append(nginx.size()).append(" cases the same\n");
        Path out = Path.of("target/ssl-preread.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        assertEquals(nginx.size(), same, report.toString());
        assertTrue(jinx.get(0).contains("-> A\n"), report.toString());
    }

    private static List<String> run(DifferentialSite site) throws Exception {
        List<String> out = new ArrayList<>();
        for (String name : HELLOS) {
            byte[] h = hello(name);
            for (int port : new int[] {0, 4, 5}) {
                String got = site.exchange(port, h, false, 3000);
                if (port == 5) {
                    // return answers before reading: the client's unread bytes make the close a reset or not,
                    // on either side, by timing
                    got = got.replace("[reset]", "[closed]");
                }
                out.add(name + " to " + port + " -> " + got);
            }
        }
        return out;
    }
}
