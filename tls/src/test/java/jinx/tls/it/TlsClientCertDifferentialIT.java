package jinx.tls.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Client certificates, {@code ssl_reject_handshake}, {@code ssl_dhparam} and {@code ssl_stapling_file} in Debian's
 * nginx and in Jinx, same configuration and certificates (made at run time): {@code openssl s_client} presents a
 * certificate signed by the CA, a self-signed one, a revoked one (with {@code ssl_crl}), one of another CA or
 * none, to servers with {@code ssl_verify_client on}, {@code optional} and {@code optional_no_ca}; the response
 * bytes (495 and 496 pages, or the {@code $ssl_client_*} variables) must be equal, and so must the log lines of
 * the refusals, the handshakes a name rejects, the DHE handshake with and without parameters, the OCSP
 * response stapled, and certificates named by {@code $ssl_server_name}. The report is
 * {@code target/tls-client-cert.txt}.
 */
@Tag("slow")
class TlsClientCertDifferentialIT {

    static final String VARS = "$ssl_client_verify|$ssl_client_s_dn|$ssl_client_i_dn|$ssl_client_serial|"
        + "$ssl_client_fingerprint|$ssl_client_v_start|$ssl_client_v_end|$ssl_client_v_remain";

    static final String HTTP = """
        client_header_timeout 2s;
        ssl_certificate %CERTS%/ec.crt;
        ssl_certificate_key %CERTS%/ec.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name localhost;
            ssl_client_certificate %CERTS%/ca.crt;
            ssl_verify_client on;
            location / { return 200 "on VARS\\n"; }
            location /raw { return 200 "[$ssl_client_raw_cert]"; }
            location /cert { return 200 "[$ssl_client_cert]"; }
            location /esc { return 200 "[$ssl_client_escaped_cert]"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name optional.example;
            ssl_client_certificate %CERTS%/ca.crt;
            ssl_verify_client optional;
            location / { return 200 "optional VARS\\n"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name noca.example;
            ssl_verify_client optional_no_ca;
            ssl_verify_depth 2;
            location / { return 200 "noca VARS\\n"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name crl.example;
            ssl_client_certificate %CERTS%/ca.crt;
            ssl_crl %CERTS%/ca.crl;
            ssl_verify_client on;
            location / { return 200 "crl VARS\\n"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name trusted.example;
            ssl_client_certificate %CERTS%/other-ca.crt;
            ssl_trusted_certificate %CERTS%/ca.crt;
            ssl_verify_client on;
            location / { return 200 "trusted VARS\\n"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name reject.example;
            ssl_reject_handshake on;
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name dh.example;
            ssl_certificate %CERTS%/rsa.crt;
            ssl_certificate_key %CERTS%/rsa.key;
            ssl_dhparam %CERTS%/dh.pem;
            location / { return 200 "dh $ssl_cipher\\n"; }
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name staple.example;
            ssl_stapling on;
            ssl_stapling_file %CERTS%/ocsp.der;
            ssl_stapling_verify on;
            location / { return 200 "staple\\n"; }
        }
        """.replace("VARS", VARS);

    /** The default server refuses every handshake without a certificate of its own; a named one serves. */
    static final String REJECT = """
        server {
            listen 127.0.0.1:%PORT% ssl default_server;
            ssl_reject_handshake on;
        }
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name localhost;
            ssl_certificate %CERTS%/ec.crt;
            ssl_certificate_key %CERTS%/ec.key;
            location / { return 200 "served $ssl_server_name\\n"; }
        }
        """;

    /** Certificates named by the TLS server name, loaded per handshake. */
    static final String VARIABLES = """
        server {
            listen 127.0.0.1:%PORT% ssl;
            server_name localhost c.example;
            ssl_certificate %CERTS%/$ssl_server_name.crt;
            ssl_certificate_key %CERTS%/$ssl_server_name.key;
            location / { return 200 "var $ssl_server_name\\n"; }
        }
        """;

    @TempDir
    Path dir;

    /** A request over TLS: the name sent (SNI and Host), the URI, the client certificate (or null), the protocol. */
    private record Case(String name, String uri, String cert, String protocol) {
        String label() {
            return name + uri + " with " + cert + " over " + protocol;
        }
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (String cert : new String[] {"client", null, "self", "stranger", "revoked"}) {
            for (String name : new String[] {"localhost", "optional.example", "noca.example", "crl.example",
                "trusted.example"}) {
                c.add(new Case(name, "/", cert, "-tls1_3"));
            }
        }
        c.add(new Case("localhost", "/", "client", "-tls1_2"));
        c.add(new Case("localhost", "/", null, "-tls1_2"));
        c.add(new Case("localhost", "/raw", "client", "-tls1_3"));
        c.add(new Case("localhost", "/cert", "client", "-tls1_3"));
        c.add(new Case("localhost", "/esc", "client", "-tls1_3"));
        c.add(new Case("localhost", "/raw", null, "-tls1_3"));
        c.add(new Case("noca.example", "/esc", "self", "-tls1_3"));
        return c;
    }

    @Test
    @Timeout(600)
    void clientCertificatesAsNginx() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(dir).clientCerts();
        String http = HTTP.replace("%CERTS%", certs.dir.toAbsolutePath().toString());
        String reject = REJECT.replace("%CERTS%", certs.dir.toAbsolutePath().toString());
        List<String> fromNginx = new ArrayList<>();
        List<String> fromJinx = new ArrayList<>();
        String nginxLog;
        String jinxLog;
        try (DifferentialSite nginx = DifferentialSite.nginx("tls-cc", http)) {
            run(nginx, certs, fromNginx);
            nginxLog = nginx.errorLog();
        }
        try (DifferentialSite jinx = DifferentialSite.jinx("tls-cc", http)) {
            run(jinx, certs, fromJinx);
            jinxLog = settled(jinx);
        }
        String variables = VARIABLES.replace("%CERTS%", certs.dir.toAbsolutePath().toString());
        Files.copy(certs.dir.resolve("ec.crt"), certs.dir.resolve("localhost.crt"));
        Files.copy(certs.dir.resolve("ec.key"), certs.dir.resolve("localhost.key"));
        Files.copy(certs.dir.resolve("c.crt"), certs.dir.resolve("c.example.crt"));
        Files.copy(certs.dir.resolve("c.key"), certs.dir.resolve("c.example.key"));
        try (DifferentialSite nginx = DifferentialSite.nginx("tls-var", variables)) {
            runVariables(nginx, fromNginx);
            nginxLog += nginx.errorLog();
        }
        try (DifferentialSite jinx = DifferentialSite.jinx("tls-var", variables)) {
            runVariables(jinx, fromJinx);
            jinxLog += settled(jinx);
        }
        try (DifferentialSite nginx = DifferentialSite.nginx("tls-rj", reject)) {
            runReject(nginx, fromNginx);
            nginxLog += nginx.errorLog();
        }
        try (DifferentialSite jinx = DifferentialSite.jinx("tls-rj", reject)) {
            runReject(jinx, fromJinx);
            jinxLog += settled(jinx);
        }
        List<String> names = names();
        StringBuilder report = new StringBuilder();
        List<String> differences = TlsDifferentialIT.compare(names, fromNginx, fromJinx, report);
        List<String> nginxLines = certLines(nginxLog);
        List<String> jinxLines = certLines(jinxLog);
        report.append("=== nginx's lines\n").append(String.join("\n", nginxLines))
            .append("\n=== jinx's lines\n").append(String.join("\n", jinxLines)).append('\n');
        Path out = Path.of("target", "tls-client-cert.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + names.size() + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
        assertTrue(fromJinx.get(0).contains("SUCCESS|CN=Jinx Client,O=Jinx\\, Inc.,C=XX|CN=Jinx Test CA|"),
                   fromJinx.get(0));
        assertEquals(nginxLines, jinxLines, "the log lines differ; see " + out);
        assertTrue(jinxLines.stream().anyMatch(l -> l.contains("client sent no required SSL certificate")),
                   jinxLog);
        // a certificate that cannot be loaded fails the handshake at [crit], as nginx's "cert cb error"
        assertTrue(!jinxLog.contains("[alert]") && !jinxLog.contains("Exception"), jinxLog);
    }

    private static List<String> names() {
        List<String> n = new ArrayList<>();
        cases().forEach(c -> n.add(c.label()));
        n.addAll(List.of("reject.example", "DHE with dh.example", "DHE without parameters", "stapled",
            "not stapled", "name optional.example, host localhost", "name localhost, host optional.example",
            "name LOCALHOST., host localhost:port"));
        for (String name : VARIABLE_NAMES) {
            n.add("certificate by variable, name " + name);
        }
        n.addAll(List.of("reject: no name", "reject: localhost", "reject: unknown name"));
        return n;
    }

    /**
     * {@code $ssl_client_v_remain} of a certificate made to end two days after the run started is 2 or 1, as the
     * server's clock stands in the same second as its making or a later one: both servers are right with either.
     */
    private static String remain(String response) {
        return response.replaceAll("GMT\\|[12]\n", "GMT|1 or 2\n");
    }

    private static void run(DifferentialSite site, TestCerts certs, List<String> out) throws Exception {
        for (Case c : cases()) {
            List<String> args = new ArrayList<>(List.of(c.protocol(), "-servername", c.name(), "-quiet"));
            if (c.cert() != null) {
                args.addAll(List.of("-cert", certs.path(c.cert() + ".crt"), "-key", certs.path(c.cert() + ".key")));
            }
            String request = "GET " + c.uri() + " HTTP/1.1\r\nHost: " + c.name() + "\r\nConnection: close\r\n\r\n";
            out.add(remain(TlsDifferentialIT.normalize(data(site.port(), request, args), site.port())));
        }
        out.add(failure(TlsClient.sClient(site.port(), "", "-servername", "reject.example")));
        String dhe = "DHE-RSA-AES128-GCM-SHA256";
        out.add(TlsDifferentialIT.handshake(TlsClient.sClient(site.port(), "", "-tls1_2", "-cipher", dhe,
            "-servername", "dh.example")) + tempKey(TlsClient.sClient(site.port(), "", "-tls1_2", "-cipher", dhe,
            "-servername", "dh.example")));
        out.add(failure(TlsClient.sClient(site.port(), "", "-tls1_2", "-cipher", dhe, "-servername", "localhost")));
        out.add(ocsp(TlsClient.sClient(site.port(), "", "-status", "-servername", "staple.example")));
        out.add(ocsp(TlsClient.sClient(site.port(), "", "-status", "-servername", "localhost")));
        List<String> cert = List.of("-cert", certs.path("client.crt"), "-key", certs.path("client.key"), "-quiet");
        String[][] misdirected = {{"optional.example", "localhost"}, {"localhost", "optional.example"},
            {"LOCALHOST.", "localhost:" + site.port()}};
        for (String[] m : misdirected) {
            List<String> args = new ArrayList<>(List.of("-servername", m[0]));
            args.addAll(cert);
            out.add(TlsDifferentialIT.normalize(data(site.port(), "GET / HTTP/1.1\r\nHost: " + m[1]
                + "\r\nConnection: close\r\n\r\n", args), site.port()));
        }
    }

    private static final String[] VARIABLE_NAMES = {"localhost", "c.example", "unknown.example", null};

    /*
     * Over TLS 1.2: Debian's nginx 1.22 with OpenSSL 3.0 refuses TLS 1.3 to a server whose certificates are all
     * named by variables (its handshakes fail with "unsupported protocol", cause not studied); Jinx serves TLS 1.3
     * there, a known difference.
     */
    private static void runVariables(DifferentialSite site, List<String> out) throws Exception {
        for (String name : VARIABLE_NAMES) {
            out.add(TlsDifferentialIT.normalize(TlsClient.exchangeTls(site.port(), "TLSv1.2", name, "GET / HTTP/1.1"
                + "\r\nHost: " + (name == null ? "localhost" : name) + "\r\nConnection: close\r\n\r\n"),
                site.port()));
        }
    }

    private static void runReject(DifferentialSite site, List<String> out) throws Exception {
        out.add(failure(TlsClient.sClient(site.port(), "", "-noservername")));
        out.add(TlsDifferentialIT.normalize(data(site.port(), "GET / HTTP/1.1\r\nHost: localhost\r\n"
            + "Connection: close\r\n\r\n", List.of("-servername", "localhost", "-quiet")), site.port()));
        out.add(failure(TlsClient.sClient(site.port(), "", "-servername", "unknown.example")));
    }

    private static final Pattern ERROR = Pattern.compile("error:[0-9A-F]{8}:[^:]*::([^:\\n]*)");

    /** The handshake's summary and the reason s_client gives for its failure (the alert the server sent). */
    private static String failure(String sClient) {
        Matcher m = ERROR.matcher(sClient);
        return TlsDifferentialIT.handshake(sClient) + (m.find() ? ": " + m.group(1) : ": no error");
    }

    private static final Pattern TEMP_KEY = Pattern.compile("(?m)^Server Temp Key: .*$");

    private static String tempKey(String sClient) {
        Matcher m = TEMP_KEY.matcher(sClient);
        return m.find() ? ", " + m.group() : ", no temp key";
    }

    /** What s_client -status shows of the stapled response, from "OCSP response:" to the next "---". */
    private static String ocsp(String sClient) {
        int from = sClient.indexOf("OCSP response:");
        if (from < 0) {
            return "no OCSP section";
        }
        int to = sClient.indexOf("\n---", from);
        return sClient.substring(from, to < 0 ? sClient.length() : to);
    }

    /**
     * The error log once it stops growing: Jinx's comes through a reader of its standard error, and a worker may
     * write a handshake's last line just after the client saw the alert (the "cert cb error" line, once in CI).
     */
    private static String settled(DifferentialSite site) throws Exception {
        String log = site.errorLog();
        for (int i = 0; i < 20; i++) {
            Thread.sleep(100);
            String again = site.errorLog();
            if (again.equals(log)) {
                return log;
            }
            log = again;
        }
        return log;
    }

    /** The lines of refusals: certificate errors and rejected handshakes, time, pid and port masked. */
    private static List<String> certLines(String log) {
        List<String> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.contains("certificate") || line.contains("handshake rejected") || line.contains("negotiated")
                || line.contains("SSL_do_handshake()")) {
                int at = line.indexOf("] ");
                String l = line.substring(line.indexOf(": ", at) + 2).replaceAll("127\\.0\\.0\\.1:\\d+", "ADDR")
                    .replaceAll(", client: [^,]*", "");
                // a known difference: nginx checks the host while the request is still in the server the TLS name
                // chose, and names that server; Jinx checks once the host chose its own
                out.add(l.contains("negotiated") ? l.replaceAll(", server: [^,]*", ", server: S") : l);
            }
        }
        return out;
    }

    /** The application data {@code openssl s_client -quiet} got for {@code request} (its diagnostics dropped). */
    private static String data(int port, String request, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            p.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            p.getOutputStream().flush();
            byte[] got = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                throw new IOException("s_client did not finish");
            }
            return new String(got, StandardCharsets.ISO_8859_1);
        } finally {
            p.destroyForcibly();
        }
    }
}
