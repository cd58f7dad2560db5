package jinx.tls.it;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
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
 * TLS termination in {@code stream {}} ({@code listen ... ssl}, nginx's {@code ngx_stream_ssl_module}) in Debian's
 * nginx and in Jinx, same configuration and certificates (made at run time): {@code openssl s_client} handshakes
 * per protocol and cipher, with and without SNI, with ALPN chosen and refused, a session resumed from the cache,
 * a proxied session to a plain backend; a client that sends nothing ({@code ssl_handshake_timeout}) and one that
 * speaks plain text. Compared: what each client saw (protocol, cipher, reuse, ALPN, OpenSSL's reason for a
 * failure, the bytes), the access log with the {@code $ssl_*} variables, and the handshake lines of the error log.
 * The report is {@code target/stream-ssl-server.txt}.
 */
@Tag("slow")
class StreamSslServerIT {

    static final String FRONT = """
            log_format tls '$status $ssl_protocol $ssl_cipher $ssl_server_name $ssl_session_reused '
                           '$ssl_alpn_protocol $bytes_received';
            access_log %LOG% tls;
            # nginx 1.22's default has no TLSv1.3 (1.23.4's has), Jinx's has: the same set for both here
            ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
            ssl_certificate %CERTS%/ec.crt;
            ssl_certificate_key %CERTS%/ec.key;
            server {
                listen 127.0.0.1:%P0% ssl;
                return "hello $ssl_protocol $ssl_server_name\\n";
            }
            server {
                listen 127.0.0.1:%P1% ssl;
                ssl_certificate %CERTS%/rsa.crt;
                ssl_certificate_key %CERTS%/rsa.key;
                ssl_protocols TLSv1.2;
                ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384;
                ssl_prefer_server_ciphers on;
                return "hello $ssl_cipher\\n";
            }
            server {
                listen 127.0.0.1:%P2% ssl;
                ssl_alpn foo bar;
                return "hello $ssl_alpn_protocol\\n";
            }
            server {
                listen 127.0.0.1:%P3% ssl;
                ssl_session_cache builtin:100;
                ssl_session_tickets off;
                return "hello $ssl_session_reused\\n";
            }
            server {
                listen 127.0.0.1:%P4% ssl;
                ssl_handshake_timeout 1s;
                return "hello\\n";
            }
            server {
                listen 127.0.0.1:%P5% ssl;
                proxy_pass 127.0.0.1:%PLAIN%;
            }
        """;

    /** Name, port, the client's input, then s_client's arguments ({@code SESS} is a session file). */
    private static final String[][] CASES = {
        {"TLSv1.3 with SNI", "0", "", "-tls1_3", "-servername", "a.example"},
        {"TLSv1.2 without SNI", "0", "", "-tls1_2"},
        {"TLSv1.1 refused (OpenSSL's level)", "0", "", "-tls1_1"},
        {"TLSv1.3 to a TLSv1.2 server", "1", "", "-tls1_3"},
        {"the server's cipher order", "1", "", "-tls1_2", "-cipher",
            "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256"},
        {"ALPN: the server's choice", "2", "", "-alpn", "bar,foo"},
        {"ALPN: none in common", "2", "", "-alpn", "baz"},
        {"ALPN: not offered", "2", ""},
        {"a new session", "3", "", "-tls1_2", "-sess_out", "SESS"},
        {"the session resumed", "3", "", "-tls1_2", "-sess_in", "SESS"},
        {"proxied to a plain backend", "5", "GET /p HTTP/1.0\r\n\r\n"},
    };

    private static final Pattern SEEN = Pattern.compile(
        "(?m)^((?:New|Reused), .*|ALPN protocol: .*|No ALPN negotiated|hello.*|HTTP/1.1 .*|plain)\\r?$"
            + "|error:[0-9A-F]+:SSL routines:[^:\\n]*:([^\\n]*)");
    private static final Pattern STAMP = Pattern.compile("^\\S+ \\S+ \\[(\\w+)\\] \\d+#\\d+: \\*\\d+ ");

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void jinxTerminatesTlsInStreamAsNginxDoes() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "nginx's stream module is not installed (.ci/run does)");
        TestCerts certs = TestCerts.make(dir);
        String certsDir = certs.dir.toAbsolutePath().toString();
        int pp = DifferentialSite.freePort();
        int plain = DifferentialSite.freePort();
        Result nginx;
        Result jinx;
        try (DifferentialSite backend = StreamSslIT.backend(certsDir, pp, plain);
             DifferentialSite site = DifferentialSite.nginxStream(front(certsDir, plain), 6)) {
            nginx = run(site, dir.resolve("nginx.sess"));
        }
        try (DifferentialSite backend = StreamSslIT.backend(certsDir, pp, plain);
             DifferentialSite site = DifferentialSite.jinxStream(front(certsDir, plain), 6)) {
            jinx = run(site, dir.resolve("jinx.sess"));
        }
        StringBuilder report = new StringBuilder();
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < nginx.seen.size(); i++) {
            boolean same = nginx.seen.get(i).equals(jinx.seen.get(i));
            String name = i < CASES.length ? CASES[i][0] : i == CASES.length ? "nothing sent" : "plain text sent";
            report.append("=== ").append(name).append(same ? "" : "  DIFFERS").append("\n--- nginx\n")
                .append(nginx.seen.get(i)).append("\n--- jinx\n").append(jinx.seen.get(i)).append('\n');
            if (!same) {
                differences.add(name);
            }
        }
        report.append("=== access logs\n--- nginx\n").append(nginx.access).append("--- jinx\n").append(jinx.access)
            .append("=== error logs\n--- nginx\n").append(nginx.errors).append("--- jinx\n").append(jinx.errors);
        Path out = Path.of("target", "stream-ssl-server.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences + " differ; see " + out.toAbsolutePath());
        assertEquals(nginx.access, jinx.access, "the access logs differ; see " + out.toAbsolutePath());
        assertEquals(handshakeLines(nginx.errors), handshakeLines(jinx.errors),
                     "the handshake lines differ; see " + out.toAbsolutePath());
        assertTrue(jinx.seen.get(0).contains("hello TLSv1.3 a.example"), jinx.seen.get(0));
        assertTrue(jinx.seen.get(9).contains("Reused, "), jinx.seen.get(9));
        assertTrue(jinx.access.contains("500 "), "the failed handshakes are logged with 500: " + jinx.access);
        assertTrue(!jinx.errors.contains("[alert]") && !jinx.errors.contains("Exception"), jinx.errors);
    }

    private record Result(List<String> seen, String access, String errors) {
    }

    private static String front(String certs, int plain) {
        return FRONT.replace("%CERTS%", certs).replace("%PLAIN%", Integer.toString(plain));
    }

    private static Result run(DifferentialSite site, Path session) throws Exception {
        List<String> seen = new ArrayList<>();
        for (String[] c : CASES) {
            List<String> args = new ArrayList<>(List.of("-ign_eof"));
            for (int i = 3; i < c.length; i++) {
                args.add(c[i].equals("SESS") ? session.toString() : c[i]);
            }
            String out = TlsClient.sClient(site.port(Integer.parseInt(c[1])), c[2], args.toArray(new String[0]));
            seen.add(extract(out));
        }
        // nothing sent: the handshake times out (1 s); plain text: the handshake fails
        seen.add(site.exchange(4, new byte[0], false, 3000));
        String plainText = site.exchange(0, "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), false,
                                         3000);
        // nginx closes with the request unread in its buffer (a FIN), Jinx may reset: nothing came back either way
        seen.add(plainText.replace("[reset]", "[closed]"));
        Thread.sleep(200);
        return new Result(seen, site.accessLog(), site.errorLog());
    }

    private static String extract(String out) {
        StringBuilder sb = new StringBuilder();
        Matcher m = SEEN.matcher(out);
        while (m.find()) {
            sb.append(m.group(1) != null ? m.group(1) : "error: " + m.group(2)).append('\n');
        }
        return sb.toString();
    }

    /** The lines about client handshakes, without time, pid and connection number. */
    static List<String> handshakeLines(String log) {
        List<String> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.contains("SSL_do_handshake()") || line.contains("in SSL handshake")) {
                out.add(STAMP.matcher(line).replaceFirst("[$1] ").replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR"));
            }
        }
        return out;
    }
}
