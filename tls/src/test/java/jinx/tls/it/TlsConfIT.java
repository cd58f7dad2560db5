package jinx.tls.it;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.Embedded;
import jinx.testkit.DifferentialSite;
import jinx.tls.TestCerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bad TLS configurations, HTTPS and TLS to upstreams ({@code proxy_ssl_*}): Jinx refuses each as {@code nginx -t} does, word for word (OpenSSL's reasons included),
 * with the place ({@code in file:line}) where nginx gives one.
 */
class TlsConfIT {

    @TempDir
    Path dir;

    /** A snippet inside {@code http {}} ({@code CERTS} is the certificates' directory) and the line it fails at. */
    private record Bad(String http, int line) {
    }

    private static final String KEYS = "ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/ec.key;";

    private static final List<Bad> BAD = List.of(
        new Bad(srv("ssl_certificate CERTS/none.crt; ssl_certificate_key CERTS/ec.key;"), 0),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/none.key;"), 0),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/other.key;"), 0),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/ec.key; ssl_ciphers BOGUS;"), 0),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/ec.key;\nssl_session_cache foo;"), 5),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/ec.key;\n"
            + "ssl_session_cache shared:x:1k;"), 5),
        new Bad(srv("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/ec.key;\nssl_protocols TLSv9;"), 5),
        new Bad(srv("ssl_certificate CERTS/ec.crt;\nssl_certificate_key CERTS/ec.key;\nssl_prefer_server_ciphers x;"),
            6),
        new Bad(srv(""), -3),
        // client certificates, DH parameters, stapling
        new Bad(srv(KEYS + " ssl_verify_client on;"), 0),
        new Bad(srv(KEYS + " ssl_verify_client on; ssl_trusted_certificate CERTS/ec.crt;"), 0),
        new Bad(srv(KEYS + " ssl_verify_client on; ssl_client_certificate CERTS/none.crt;"), 0),
        new Bad(srv(KEYS + " ssl_trusted_certificate CERTS/none.crt;"), 0),
        new Bad(srv(KEYS + " ssl_crl CERTS/none.crl;"), 0),
        new Bad(srv(KEYS + " ssl_dhparam CERTS/none.pem;"), 0),
        new Bad(srv(KEYS + " ssl_dhparam CERTS/ec.crt;"), 0),
        new Bad(srv(KEYS + " ssl_stapling on; ssl_stapling_file CERTS/none.der;"), 0),
        new Bad(srv(KEYS + " ssl_stapling on; ssl_stapling_file CERTS/ec.crt;"), 0),
        new Bad(srv(KEYS + "\nssl_verify_client maybe;"), 5),
        new Bad(srv(KEYS + "\nssl_verify_depth x;"), 5),
        new Bad(srv(KEYS + "\nssl_reject_handshake yes;"), 5),
        // TLS to upstreams: nginx reports what the merge finds without a place
        new Bad(loc("proxy_pass https://127.0.0.1:2; proxy_ssl_verify on;"), 0),
        new Bad(loc("proxy_pass https://127.0.0.1:2; proxy_ssl_certificate CERTS/rsa.crt;"), 0),
        new Bad(loc("proxy_pass https://127.0.0.1:2;\nproxy_ssl_protocols TLSv9;"), 6),
        new Bad(loc("proxy_pass https://127.0.0.1:2; proxy_ssl_verify on; "
            + "proxy_ssl_trusted_certificate CERTS/none.crt;"), 0),
        new Bad(loc("proxy_pass https://127.0.0.1:2; proxy_ssl_certificate CERTS/none.crt; "
            + "proxy_ssl_certificate_key CERTS/rsa.key;"), 0),
        new Bad(loc("proxy_pass https://127.0.0.1:2;\nproxy_ssl_password_file CERTS/none;"), 6));

    private static String loc(String body) {
        return "server {\nlisten 127.0.0.1:1;\nlocation / { " + body + " }\n}";
    }

    private static String srv(String body) {
        return "server {\nlisten 127.0.0.1:1 ssl; " + body + " }";
    }

    private static String file(String http) {
        return "events { worker_connections 64; }\nhttp {\n" + http + "\n}\n";
    }

    /** Stream's: nginx's file loads the stream module in its first line, Jinx's says master_process off there. */
    private static final List<Bad> BAD_STREAM = List.of(
        new Bad("server {\nlisten 127.0.0.1:1 ssl;\nreturn x;\n}", 0),
        new Bad("ssl_certificate CERTS/ec.crt;\nserver {\nlisten 127.0.0.1:1 ssl;\nreturn x;\n}", 0),
        new Bad("ssl_certificate CERTS/none.crt; ssl_certificate_key CERTS/ec.key;\n"
            + "server {\nlisten 127.0.0.1:1 ssl;\nreturn x;\n}", 0),
        new Bad("ssl_certificate CERTS/ec.crt; ssl_certificate_key CERTS/other.key;\n"
            + "server {\nlisten 127.0.0.1:1 ssl;\nreturn x;\n}", 0),
        new Bad("server {\nlisten 127.0.0.1:1;\nssl_alpn foo;\nssl_alpn bar;\n}", 6),
        new Bad("server {\nlisten 127.0.0.1:1;\nssl_handshake_timeout x;\n}", 5),
        new Bad("ssl_protocols TLSv9;", 3));

    private static String streamFile(String stream) {
        return "events { worker_connections 64; }\nstream {\n" + stream + "\n}\n";
    }

    private String jinx(Path run, String http) throws Exception {
        return jinxText(run, file(http));
    }

    private String jinxText(Path run, String content) throws Exception {
        Files.createDirectories(run.resolve("logs"));
        Path conf = run.resolve("test.conf");
        Files.writeString(conf, "master_process off;\n" + content, StandardCharsets.ISO_8859_1);
        ConfException e = assertThrows(ConfException.class, () -> {
            try (Embedded em = Embedded.builder(run).confFile(conf).build()) {
                em.start();
            }
        }, content);
        return e.getMessage().replace(conf.toString(), "FILE");
    }

    private static String nginx(Path run, String http) throws Exception {
        return nginxText(run, file(http));
    }

    private static String nginxText(Path run, String content) throws Exception {
        Path conf = run.resolve("nginx.conf");
        Files.writeString(conf, content, StandardCharsets.ISO_8859_1);
        Process p = new ProcessBuilder("/usr/sbin/nginx", "-t", "-p", run + "/", "-c", conf.toString(), "-e",
            run.resolve("error.log").toString(), "-g", "pid " + run.resolve("n.pid") + "; error_log "
            + run.resolve("error.log") + ";").redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            p.waitFor(30, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
        for (String line : out.split("\n")) {
            int at = line.indexOf("[emerg] ");
            if (at >= 0) {
                String text = line.startsWith("nginx: ") ? line.substring(at + 8)
                    : line.substring(line.indexOf(": ", at) + 2);
                return text.replace(conf.toString(), "FILE");
            }
        }
        return out;
    }

    @Test
    @Timeout(120)
    void errorsAreNginxsWordForWord() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/nginx")), "nginx is not installed (.ci/run installs it)");
        TestCerts certs = TestCerts.make(Files.createDirectories(dir.resolve("certs")));
        int i = 0;
        for (Bad bad : BAD) {
            String http = bad.http().replace("CERTS", certs.dir.toAbsolutePath().toString());
            Path run = Files.createDirectories(dir.resolve("run" + i++));
            String expected = nginx(run, http);
            String got = jinx(run, http);
            if (bad.line() < 0) {
                // a place inside the message (the server's line), and the error's own after it in Jinx
                assertEquals(expected.replace("FILE:" + -bad.line(), "FILE:" + (-bad.line() + 1)),
                             got.replaceFirst(" in FILE:\\d+$", ""), http);
            } else if (bad.line() > 0) {
                // Jinx's file has "master_process off;" as its first line: one line more than nginx's
                assertEquals(expected.replace("FILE:" + bad.line(), "FILE:" + (bad.line() + 1)), got, http);
            } else {
                // nginx logs OpenSSL's failures without a place (ngx_ssl_error()); Jinx names the server's
                assertEquals(expected, got.replaceFirst(" in FILE:\\d+$", ""), http);
            }
        }
    }

    @Test
    @Timeout(120)
    void streamErrorsAreNginxsWordForWord() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "nginx's stream module is not installed (.ci/run does)");
        TestCerts certs = TestCerts.make(Files.createDirectories(dir.resolve("certs")));
        int i = 0;
        for (Bad bad : BAD_STREAM) {
            String stream = bad.http().replace("CERTS", certs.dir.toAbsolutePath().toString());
            Path run = Files.createDirectories(dir.resolve("stream" + i++));
            String expected = nginxText(run, "load_module " + DifferentialSite.STREAM_SO + ";\n" + streamFile(stream));
            String got = jinxText(run, streamFile(stream));
            if (bad.line() > 0 || expected.contains(" directive in FILE:")) {
                // the same lines in both files: the place is nginx's, in the message or after it
                assertEquals(expected, got, stream);
            } else {
                // nginx logs what the merge finds without a place; Jinx names where the block is
                assertEquals(expected, got.replaceFirst(" in FILE:\\d+$", ""), stream);
            }
        }
    }
}
