package jinx.tls.it;

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
 * TLS to upstreams ({@code proxy_pass https://} and the {@code proxy_ssl_*} directives) in Debian's nginx and in
 * Jinx, both in front of the same HTTPS backend (Debian's nginx, one process, certificates made at run time), same
 * configuration: every response must be equal byte for byte (Date and Server masked). The backend answers with what
 * it saw of the TLS connection — protocol, server name (SNI), whether the session was resumed, the client
 * certificate's verification, the connection's request count — so the cases compare SNI on and off,
 * {@code proxy_ssl_name}, verification passing and failing (by chain and by name, 502 and nginx's log line),
 * a client certificate, session reuse and its absence, protocols, keep-alive over TLS, a URL of variables, a plain
 * HTTP backend (a failed handshake) and a refused connection. The report is {@code target/proxy-ssl.txt}.
 */
@Tag("slow")
class ProxySslIT {

    static final String BACKEND = """
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name localhost;
            ssl_certificate %CERTS%/ec.crt;
            ssl_certificate_key %CERTS%/ec.key;
            ssl_protocols TLSv1.2 TLSv1.3;
            ssl_session_cache builtin:1000;
            ssl_verify_client optional;
            ssl_client_certificate %CERTS%/ca.crt;
            location / {
                return 200 "backend $ssl_protocol|$ssl_server_name|$ssl_session_reused|$ssl_client_verify|$connection_requests|$http_host|$request_uri\\n";
            }
        }
        server {
            listen 127.0.0.1:%PLAIN%;
            location / { return 200 "plain\\n"; }
        }
        """;

    static final String FRONT = """
        upstream tlsback { server 127.0.0.1:%B%; }
        upstream tlskeep { server 127.0.0.1:%B%; keepalive 2; }
        server {
            listen 127.0.0.1:%PORT%;
            proxy_ssl_session_reuse off;
            # nginx 1.22's default leaves TLSv1.3 out, Jinx's (nginx 1.23.4's) has it
            proxy_ssl_protocols TLSv1.2 TLSv1.3;
            location /plain/ { proxy_pass https://127.0.0.1:%B%/; }
            location /sni/ { proxy_pass https://127.0.0.1:%B%/; proxy_ssl_server_name on; proxy_ssl_name a.example; }
            location /sni-ip/ { proxy_pass https://127.0.0.1:%B%/; proxy_ssl_server_name on; }
            location /sni-var/ {
                proxy_pass https://127.0.0.1:%B%/; proxy_ssl_server_name on; proxy_ssl_name $arg_n;
            }
            location /upstream/ { proxy_pass https://tlsback/; proxy_ssl_server_name on; }
            location /verify/ {
                proxy_pass https://127.0.0.1:%B%/; proxy_ssl_verify on;
                proxy_ssl_trusted_certificate %CERTS%/ca.crt; proxy_ssl_name localhost;
            }
            location /verify-name/ {
                proxy_pass https://127.0.0.1:%B%/; proxy_ssl_verify on;
                proxy_ssl_trusted_certificate %CERTS%/ca.crt; proxy_ssl_name wrong.example;
            }
            location /verify-chain/ {
                proxy_pass https://127.0.0.1:%B%/; proxy_ssl_verify on;
                proxy_ssl_trusted_certificate %CERTS%/c.crt; proxy_ssl_name localhost;
            }
            location /cert/ {
                proxy_pass https://127.0.0.1:%B%/;
                proxy_ssl_certificate %CERTS%/rsa.crt; proxy_ssl_certificate_key %CERTS%/rsa.key;
            }
            location /tls12/ { proxy_pass https://127.0.0.1:%B%/; proxy_ssl_protocols TLSv1.2; }
            location /keep/ {
                proxy_pass https://tlskeep/; proxy_http_version 1.1; proxy_set_header Connection "";
            }
            location /var/ { proxy_pass https://127.0.0.1:$arg_p/; }
            location /plain-backend/ { proxy_pass https://127.0.0.1:%PLAIN%/; }
            location /refused/ { proxy_pass https://127.0.0.1:%DEAD%/; }
        }
        server {
            listen 127.0.0.1:%PORT%;
            server_name reuse;
            proxy_ssl_protocols TLSv1.2 TLSv1.3;
            location / { proxy_pass https://127.0.0.1:%B2%; }
        }
        """;

    @TempDir
    Path dir;

    private static String get(String uri) {
        return "GET " + uri + " HTTP/1.1\r\nHost: front\r\nConnection: close\r\n\r\n";
    }

    private static List<String[]> cases(int backendPort) {
        List<String[]> c = new ArrayList<>();
        c.add(new String[] {"no server name", get("/plain/a?x=1")});
        c.add(new String[] {"proxy_ssl_name sent", get("/sni/")});
        c.add(new String[] {"an address is not sent as a name", get("/sni-ip/")});
        c.add(new String[] {"a name from a variable, its port taken off", get("/sni-var/?n=b.example:8443")});
        c.add(new String[] {"an upstream's name", get("/upstream/")});
        c.add(new String[] {"verified", get("/verify/")});
        c.add(new String[] {"verification: another name", get("/verify-name/")});
        c.add(new String[] {"verification: an untrusted chain", get("/verify-chain/")});
        c.add(new String[] {"a client certificate", get("/cert/")});
        c.add(new String[] {"TLSv1.2 only", get("/tls12/")});
        c.add(new String[] {"keep-alive over TLS", "GET /keep/1 HTTP/1.1\r\nHost: front\r\n\r\n"
            + "GET /keep/2 HTTP/1.1\r\nHost: front\r\nConnection: close\r\n\r\n"});
        c.add(new String[] {"a URL of variables", get("/var/v?p=" + backendPort)});
        c.add(new String[] {"a plain HTTP backend", get("/plain-backend/")});
        c.add(new String[] {"refused", get("/refused/")});
        c.add(new String[] {"session reuse: first", "GET /s1 HTTP/1.1\r\nHost: reuse\r\nConnection: close\r\n\r\n"});
        c.add(new String[] {"session reuse: second", "GET /s2 HTTP/1.1\r\nHost: reuse\r\nConnection: close\r\n\r\n"});
        c.add(new String[] {"session reuse off: again", get("/plain/again")});
        return c;
    }

    @Test
    @Timeout(300)
    void jinxProxiesToHttpsAsNginxDoes() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(dir);
        String certsDir = certs.dir.toAbsolutePath().toString();
        int plain = DifferentialSite.freePort();
        int dead = DifferentialSite.freePort();
        List<String> fromNginx;
        List<String> fromJinx;
        String nginxLog;
        String jinxLog;
        // each front gets a backend of its own, so that both start with no session and the same ticket history
        try (DifferentialSite backend = backend(certsDir, plain);
             DifferentialSite backend2 = backend(certsDir, DifferentialSite.freePort());
             DifferentialSite nginx = DifferentialSite.nginx("proxy-ssl", front(certsDir, backend, backend2, plain,
                                                                                 dead))) {
            fromNginx = run(nginx, backend.port());
            nginxLog = nginx.errorLog();
        }
        try (DifferentialSite backend = backend(certsDir, plain);
             DifferentialSite backend2 = backend(certsDir, DifferentialSite.freePort());
             DifferentialSite jinx = DifferentialSite.jinx("proxy-ssl", front(certsDir, backend, backend2, plain,
                                                                               dead))) {
            fromJinx = run(jinx, backend.port());
            jinxLog = jinx.errorLog();
        }
        List<String[]> cases = cases(0);
        List<String> differences = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < cases.size(); i++) {
            boolean same = fromNginx.get(i).equals(fromJinx.get(i));
            report.append("=== ").append(cases.get(i)[0]).append(same ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(fromNginx.get(i)).append("\n--- jinx\n").append(fromJinx.get(i))
                .append('\n');
            if (!same) {
                differences.add(cases.get(i)[0]);
            }
        }
        List<String> nginxLines = upstreamLines(nginxLog);
        List<String> jinxLines = upstreamLines(jinxLog);
        report.append("=== nginx's upstream lines\n").append(String.join("\n", nginxLines))
            .append("\n=== jinx's upstream lines\n").append(String.join("\n", jinxLines))
            .append("\n=== nginx's error log\n").append(nginxLog).append("=== jinx's error log\n").append(jinxLog);
        Path out = Path.of("target", "proxy-ssl.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + cases.size() + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
        assertTrue(fromJinx.get(1).contains("|a.example|"), "the server name went out: " + fromJinx.get(1));
        assertTrue(fromJinx.get(15).contains("|r|"), "the second connection resumed: " + fromJinx.get(15));
        assertEquals(nginxLines, jinxLines, "the upstream error lines differ; see " + out);
        assertTrue(!jinxLog.contains("[alert]") && !jinxLog.contains("[crit]") && !jinxLog.contains("Exception"),
                   jinxLog);
    }

    private static DifferentialSite backend(String certs, int plain) throws Exception {
        return DifferentialSite.nginx("proxy-ssl-backend", BACKEND.replace("%CERTS%", certs)
            .replace("%PLAIN%", Integer.toString(plain)));
    }

    private static String front(String certs, DifferentialSite backend, DifferentialSite backend2, int plain,
                                int dead) {
        return FRONT.replace("%CERTS%", certs).replace("%B2%", Integer.toString(backend2.port()))
            .replace("%B%", Integer.toString(backend.port())).replace("%PLAIN%", Integer.toString(plain))
            .replace("%DEAD%", Integer.toString(dead));
    }

    private static List<String> run(DifferentialSite site, int backendPort) throws Exception {
        List<String> out = new ArrayList<>();
        for (String[] c : cases(backendPort)) {
            out.add(normalize(site.exchange(c[1], 5000), backendPort));
        }
        return out;
    }

    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server): .*$");
    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");

    private static String normalize(String raw, int backendPort) {
        String s = MASKED.matcher(raw.replace("=" + backendPort, "=PORT").replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR"))
            .replaceAll("$1: X");
        if (VERSION.matcher(s).find()) {
            s = VERSION.matcher(s).replaceAll("V").replaceAll("(?m)^Content-Length: \\d+", "Content-Length: N");
        }
        return s;
    }

    private static final Pattern STAMP = Pattern.compile("^\\S+ \\S+ \\[(\\w+)\\] \\d+#\\d+: \\*\\d+ ");

    /**
     * The error log's lines about upstreams, time, pid, connection number and ports masked, and the address of
     * the refused connect (whose text differs by port only).
     */
    static List<String> upstreamLines(String log) {
        List<String> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (!line.contains("upstream") || !(line.contains("[error]") || line.contains("[crit]"))) {
                continue;
            }
            out.add(STAMP.matcher(line).replaceFirst("[$1] ").replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR"));
        }
        return out;
    }
}
