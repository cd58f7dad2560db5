package jinx.tls.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.testkit.DifferentialSite;
import jinx.tls.TestCerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code proxy_ssl} in {@code stream {}} in Debian's nginx (with its dynamic stream module) and in Jinx, each in
 * front of an HTTPS backend of its own (Debian's nginx, certificates made at run time), same configuration: the
 * bytes a client gets through each front must be equal (the backend's Date and Server masked). The backend answers
 * with what it saw of the TLS connection, so the cases compare the server name sent and not sent, an upstream's
 * name, verification passing and failing (the client's connection closed, nginx's log line), the PROXY header sent
 * before TLS, session reuse, and a plain backend (a failed handshake). The report is
 * {@code target/stream-ssl.txt}.
 */
@Tag("slow")
class StreamSslIT {

    static final String BACKEND = """
            server {
                listen 127.0.0.1:%PORT% ssl;
                listen 127.0.0.1:%PP% ssl proxy_protocol;
                server_name localhost;
                ssl_certificate %CERTS%/ec.crt;
                ssl_certificate_key %CERTS%/ec.key;
                ssl_protocols TLSv1.2 TLSv1.3;
                ssl_session_cache builtin:1000;
                location / {
                    return 200 "backend $ssl_protocol|$ssl_server_name|$ssl_session_reused|$proxy_protocol_addr|$request_uri\\n";
                }
            }
            server {
                listen 127.0.0.1:%PLAIN%;
                location / { return 200 "plain\\n"; }
            }
        """;

    static final String FRONT = """
            upstream tlsback { server 127.0.0.1:%B%; }
            proxy_ssl_protocols TLSv1.2 TLSv1.3;
            server { listen 127.0.0.1:%P0%; proxy_pass 127.0.0.1:%B%; proxy_ssl on; proxy_ssl_session_reuse off; }
            server {
                listen 127.0.0.1:%P1%; proxy_pass tlsback; proxy_ssl on; proxy_ssl_server_name on;
                proxy_ssl_session_reuse off;
            }
            server {
                listen 127.0.0.1:%P2%; proxy_pass 127.0.0.1:%B%; proxy_ssl on; proxy_ssl_session_reuse off;
                proxy_ssl_verify on; proxy_ssl_trusted_certificate %CERTS%/ca.crt;
                proxy_ssl_name localhost; proxy_ssl_server_name on;
            }
            server {
                listen 127.0.0.1:%P3%; proxy_pass 127.0.0.1:%B%; proxy_ssl on;
                proxy_ssl_verify on; proxy_ssl_trusted_certificate %CERTS%/ca.crt; proxy_ssl_name wrong.example;
            }
            server {
                listen 127.0.0.1:%P4%; proxy_pass 127.0.0.1:%PP%; proxy_ssl on; proxy_protocol on;
                proxy_ssl_session_reuse off;
            }
            server { listen 127.0.0.1:%P5%; proxy_pass 127.0.0.1:%B%; proxy_ssl on; }
            server { listen 127.0.0.1:%P6%; proxy_pass 127.0.0.1:%PLAIN%; proxy_ssl on; }
        """;

    private static final String[][] CASES = {
        {"no server name", "P0", "/a"},
        {"an upstream's name", "P1", "/b"},
        {"verified, proxy_ssl_name sent", "P2", "/c"},
        {"verification: another name", "P3", "/d"},
        {"the PROXY header before TLS", "P4", "/e"},
        {"session reuse: first", "P5", "/f"},
        {"session reuse: second", "P5", "/g"},
        {"a plain backend", "P6", "/h"},
    };

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void jinxProxiesStreamsOverTlsAsNginxDoes() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "libnginx-mod-stream is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(dir);
        String certsDir = certs.dir.toAbsolutePath().toString();
        int pp = DifferentialSite.freePort();
        int plain = DifferentialSite.freePort();
        List<String> fromNginx;
        List<String> fromJinx;
        String nginxLog;
        String jinxLog;
        try (DifferentialSite backend = backend(certsDir, pp, plain);
             DifferentialSite nginx = DifferentialSite.nginxStream(front(certsDir, backend, pp, plain), 7)) {
            fromNginx = run(nginx);
            nginxLog = nginx.errorLog();
        }
        try (DifferentialSite backend = backend(certsDir, pp, plain);
             DifferentialSite jinx = DifferentialSite.jinxStream(front(certsDir, backend, pp, plain), 7)) {
            fromJinx = run(jinx);
            jinxLog = jinx.errorLog();
        }
        List<String> differences = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < CASES.length; i++) {
            boolean same = fromNginx.get(i).equals(fromJinx.get(i));
            report.append("=== ").append(CASES[i][0]).append(same ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(fromNginx.get(i)).append("\n--- jinx\n").append(fromJinx.get(i))
                .append('\n');
            if (!same) {
                differences.add(CASES[i][0]);
            }
        }
        List<String> nginxLines = ProxySslIT.upstreamLines(nginxLog);
        List<String> jinxLines = ProxySslIT.upstreamLines(jinxLog);
        report.append("=== nginx's error log\n").append(nginxLog).append("=== jinx's error log\n").append(jinxLog);
        Path out = Path.of("target", "stream-ssl.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + CASES.length + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
        assertTrue(fromJinx.get(2).contains("|localhost|"), fromJinx.get(2));
        assertTrue(fromJinx.get(6).contains("|r|"), "the second session resumed: " + fromJinx.get(6));
        assertEquals(nginxLines, jinxLines, "the upstream error lines differ; see " + out);
        assertTrue(!jinxLog.contains("[alert]") && !jinxLog.contains("Exception"), jinxLog);
    }

    static DifferentialSite backend(String certs, int pp, int plain) throws Exception {
        return DifferentialSite.nginx("stream-ssl-backend", BACKEND.replace("%CERTS%", certs)
            .replace("%PP%", Integer.toString(pp)).replace("%PLAIN%", Integer.toString(plain)));
    }

    private static String front(String certs, DifferentialSite backend, int pp, int plain) {
        return FRONT.replace("%CERTS%", certs).replace("%B%", Integer.toString(backend.port()))
            .replace("%PP%", Integer.toString(pp)).replace("%PLAIN%", Integer.toString(plain));
    }

    private static List<String> run(DifferentialSite site) throws IOException {
        List<String> out = new ArrayList<>();
        for (String[] c : CASES) {
            byte[] request = ("GET " + c[2] + " HTTP/1.0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            String got = normalize(site.exchange(Integer.parseInt(c[1].substring(1)), request, false, 5000));
            if (c[1].equals("P6")) {
                // the handshake fails before the client's bytes were read: nginx's close came as a FIN, Jinx's as
                // a reset (the unread bytes); what is compared is that nothing came back
                got = got.replace("[reset]", "[closed]");
            }
            out.add(got);
        }
        return out;
    }

    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server): .*$");

    private static String normalize(String raw) {
        return MASKED.matcher(raw.replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR")).replaceAll("$1: X");
    }
}
