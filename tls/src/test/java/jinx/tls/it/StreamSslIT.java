package jinx.tls.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
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

    static final Path STREAM_SO = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");

    static final String BACKEND = """
        http {
            access_log off;
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
        }
        """;

    static final String FRONT = """
        stream {
            upstream tlsback { server 127.0.0.1:%B%; }
            proxy_ssl_protocols TLSv1.2 TLSv1.3;
            server { listen 127.0.0.1:%PORT%; proxy_pass 127.0.0.1:%B%; proxy_ssl on; proxy_ssl_session_reuse off; }
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
        }
        """;

    private static final String[][] CASES = {
        {"no server name", "PORT", "/a"},
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
        assumeTrue(Files.exists(STREAM_SO), "libnginx-mod-stream is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(dir);
        String certsDir = certs.dir.toAbsolutePath().toString();
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ports.add(DifferentialSite.freePort());
        }
        List<String> fromNginx;
        List<String> fromJinx;
        String nginxLog;
        String jinxLog;
        try (DifferentialSite backend = backend(certsDir, ports);
             DifferentialSite nginx = DifferentialSite.nginxMain("stream-ssl", "load_module " + STREAM_SO + ";\n"
                 + front(certsDir, backend, ports))) {
            fromNginx = run(nginx, ports);
            nginxLog = nginx.errorLog();
        }
        try (DifferentialSite backend = backend(certsDir, ports);
             DifferentialSite jinx = DifferentialSite.jinxMain("stream-ssl", front(certsDir, backend, ports))) {
            fromJinx = run(jinx, ports);
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

    private static DifferentialSite backend(String certs, List<Integer> ports) throws Exception {
        return DifferentialSite.nginxMain("stream-ssl-backend", BACKEND.replace("%CERTS%", certs)
            .replace("%PP%", ports.get(7).toString()).replace("%PLAIN%", ports.get(8).toString()));
    }

    private static String front(String certs, DifferentialSite backend, List<Integer> ports) {
        String s = FRONT.replace("%CERTS%", certs).replace("%B%", Integer.toString(backend.port()))
            .replace("%PP%", ports.get(7).toString()).replace("%PLAIN%", ports.get(8).toString());
        for (int i = 1; i <= 6; i++) {
            s = s.replace("%P" + i + "%", ports.get(i).toString());
        }
        return s;
    }

    private static List<String> run(DifferentialSite site, List<Integer> ports) throws IOException {
        List<String> out = new ArrayList<>();
        for (String[] c : CASES) {
            int port = c[1].equals("PORT") ? site.port() : ports.get(Integer.parseInt(c[1].substring(1)));
            String got = normalize(exchange(port, "GET " + c[2] + " HTTP/1.0\r\n\r\n"));
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

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            String end = "[closed]";
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                end = "[open]";
            } catch (IOException e) {
                end = "[reset]";
            }
            return got.toString(StandardCharsets.ISO_8859_1) + end;
        }
    }
}
