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

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same HTTPS configuration and certificates (made at run time) in Debian's nginx and in Jinx: for every case
 * the client's view must be equal — the response bytes over TLS 1.3 and 1.2 (with the variables {@code $https},
 * {@code $scheme}, {@code $ssl_protocol}, {@code $ssl_cipher}, {@code $ssl_server_name},
 * {@code $ssl_session_reused}, {@code $ssl_alpn_protocol}), the server and certificate the TLS server name selects,
 * the 497 answer to plain HTTP, what garbage, a truncated ClientHello and a bare close get (bytes and close), which
 * protocols {@code openssl s_client} can handshake with, and session resumption ({@code -sess_out}/{@code -sess_in}
 * shows {@code Reused}). The report is written to {@code target/tls-differential.txt}.
 */
@Tag("slow")
class TlsDifferentialIT {

    static final String HTTP = """
        client_header_timeout 2s;
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name localhost;
            ssl_certificate %CERTS%/ec.crt;
            ssl_certificate_key %CERTS%/ec.key;
            ssl_certificate %CERTS%/rsa.crt;
            ssl_certificate_key %CERTS%/rsa.key;
            ssl_protocols TLSv1.2 TLSv1.3;
            ssl_session_cache builtin:1000;
            location / {
                return 200 "default $https|$scheme|$ssl_protocol|$ssl_cipher|$ssl_server_name|$ssl_session_reused|$ssl_alpn_protocol|$request_uri\\n";
            }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name c.example;
            ssl_certificate %CERTS%/c.crt;
            ssl_certificate_key %CERTS%/c.key;
            location / { return 200 "c $https|$scheme|$ssl_server_name|$host\\n"; }
        }
        """;

    @TempDir
    Path dir;

    private record Tls(String name, String protocol, String sni, String request) {
    }

    private static String get(String uri, String host) {
        return "GET " + uri + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
    }

    static List<Tls> tlsCases() {
        List<Tls> c = new ArrayList<>();
        c.add(new Tls("TLSv1.3 without a name", "TLSv1.3", null, get("/a?b=1", "localhost")));
        c.add(new Tls("TLSv1.2 without a name", "TLSv1.2", null, get("/x", "localhost")));
        c.add(new Tls("name localhost", "TLSv1.3", "localhost", get("/", "localhost")));
        c.add(new Tls("name c.example", "TLSv1.3", "c.example", get("/", "c.example")));
        c.add(new Tls("name c.example over 1.2", "TLSv1.2", "c.example", get("/", "c.example")));
        c.add(new Tls("unknown name", "TLSv1.3", "unknown.example", get("/", "unknown.example")));
        c.add(new Tls("name and host differ", "TLSv1.3", "c.example", get("/", "localhost")));
        c.add(new Tls("keep-alive", "TLSv1.3", "localhost", "GET /1 HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
        c.add(new Tls("http/1.0", "TLSv1.3", null, "GET /ten HTTP/1.0\r\n\r\n"));
        c.add(new Tls("bad request over TLS", "TLSv1.3", null, "GARBAGE\r\n\r\n"));
        return c;
    }

    private record Raw(String name, String bytes) {
    }

    static List<Raw> rawCases() {
        List<Raw> c = new ArrayList<>();
        c.add(new Raw("plain HTTP to the HTTPS port", get("/", "localhost")));
        c.add(new Raw("plain HTTP keep-alive", "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        c.add(new Raw("garbage record", "\u0016\u0003\u0001\u0000\u0005hello"));
        c.add(new Raw("truncated ClientHello", "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u01fc\u0003\u0003"));
        c.add(new Raw("binary garbage", "\u0000\u0001\u0002 garbage\r\n\r\n"));
        c.add(new Raw("a bare close", ""));
        return c;
    }

    static final List<String[]> PROTOCOLS = List.of(new String[] {"-tls1_3"}, new String[] {"-tls1_2"},
        new String[] {"-tls1_1"}, new String[] {"-tls1"});

    @Test
    @Timeout(300)
    void jinxServesHttpsAsNginxDoes() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/nginx")), "nginx is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(dir);
        String http = HTTP.replace("%CERTS%", certs.dir.toAbsolutePath().toString());
        List<String> fromNginx;
        List<String> fromJinx;
        String jinxLog;
        String nginxLog;
        try (DifferentialSite nginx = DifferentialSite.nginx("tls", http)) {
            fromNginx = run(nginx);
            nginxLog = nginx.errorLog();
        }
        try (DifferentialSite jinx = DifferentialSite.jinx("tls", http)) {
            fromJinx = run(jinx);
            jinxLog = jinx.errorLog();
        }
        List<String> names = names();
        StringBuilder report = new StringBuilder();
        List<String> differences = TlsDifferentialIT.compare(names, fromNginx, fromJinx, report);
        report.append("=== nginx's error log\n").append(nginxLog).append("=== jinx's error log\n").append(jinxLog);
        Path out = Path.of("target", "tls-differential.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + names.size() + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
        assertTrue(!jinxLog.contains("[alert]") && !jinxLog.contains("[crit]") && !jinxLog.contains("Exception"),
                   jinxLog);
        assertTrue(jinxLog.contains("client sent plain HTTP request to HTTPS port while reading client request"
            + " headers"), jinxLog);
        assertTrue(infoLines(jinxLog).equals(infoLines(nginxLog)), "the [info] lines differ; see " + out);
    }

    /**
     * Compares the two servers' results case by case into {@code report}.
     *
     * @return the names of the cases that differ
     */
    static List<String> compare(List<String> names, List<String> fromNginx, List<String> fromJinx,
                                StringBuilder report) {
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            boolean same = fromNginx.get(i).equals(fromJinx.get(i));
            report.append("=== ").append(names.get(i)).append(same ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(fromNginx.get(i)).append("\n--- jinx\n").append(fromJinx.get(i))
                .append('\n');
            if (!same) {
                differences.add(names.get(i));
            }
        }
        return differences;
    }

    /** The {@code [info]} lines of a log, time, pid and port masked: the client-caused events in order. */
    static List<String> infoLines(String log) {
        List<String> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            int at = line.indexOf(" [info] ");
            if (at >= 0) {
                out.add(line.substring(line.indexOf(": ", at) + 2).replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR"));
            }
        }
        return out;
    }

    private static List<String> names() {
        List<String> n = new ArrayList<>();
        tlsCases().forEach(c -> n.add("tls " + c.name()));
        rawCases().forEach(c -> n.add("raw " + c.name()));
        PROTOCOLS.forEach(p -> n.add("handshake " + p[0]));
        n.add("session reuse over TLSv1.2");
        return n;
    }

    private static List<String> run(DifferentialSite site) throws Exception {
        List<String> out = new ArrayList<>();
        for (Tls c : tlsCases()) {
            out.add(normalize(TlsClient.exchangeTls(site.port(), c.protocol(), c.sni(), c.request()), site.port()));
        }
        for (Raw c : rawCases()) {
            out.add(hexTls(normalize(site.exchange(c.bytes(), 3000), site.port())));
        }
        for (String[] p : PROTOCOLS) {
            out.add(handshake(TlsClient.sClient(site.port(), "", p[0], "-servername", "localhost")));
        }
        Path sess = Files.createTempFile("jinx-tls", ".sess");
        try {
            String first = TlsClient.sClient(site.port(), "", "-tls1_2", "-sess_out", sess.toString());
            String second = TlsClient.sClient(site.port(), "", "-tls1_2", "-sess_in", sess.toString());
            out.add(handshake(first) + " then " + handshake(second));
        } finally {
            Files.deleteIfExists(sess);
        }
        return out;
    }

    private static final Pattern SUMMARY = Pattern.compile("(?m)^(New|Reused), (\\S+), Cipher is (\\S+)$");
    private static final Pattern ERROR = Pattern.compile("error:([0-9A-F]{8}:[^:]*::[^:\\n]*)");

    /** What s_client says of the handshake: new or reused, protocol and cipher, or OpenSSL's error. */
    static String handshake(String sClient) {
        Matcher m = SUMMARY.matcher(sClient);
        if (m.find()) {
            return m.group(1) + " " + m.group(2) + " " + m.group(3);
        }
        Matcher e = ERROR.matcher(sClient);
        return e.find() ? "failed: " + e.group(1) : "failed";
    }

    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server): .*$");
    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");

    static String normalize(String raw, int port) {
        String s = MASKED.matcher(raw.replace(":" + port, ":PORT")).replaceAll("$1: X");
        if (VERSION.matcher(s).find()) {
            s = VERSION.matcher(s).replaceAll("jinx/V").replaceAll("(?m)^Content-Length: \\d+", "Content-Length: N");
        }
        return s;
    }

    /** A TLS alert the server sent is shown in hexadecimal. */
    static String hexTls(String s) {
        if (s.isEmpty() || s.charAt(0) != 0x15) {
            return s;
        }
        StringBuilder sb = new StringBuilder("[tls record");
        int end = s.lastIndexOf('[');
        for (int i = 0; i < end; i++) {
            sb.append(' ').append(Integer.toHexString(s.charAt(i)));
        }
        return sb.append("] ").append(s.substring(end)).toString();
    }
}
