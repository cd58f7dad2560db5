package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jinx.kernel.ConfException;
import jinx.kernel.Embedded;
import jinx.testkit.DifferentialSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Configuration errors of the stream directives: the same file given to {@code nginx -t} (Debian's, with its
 * dynamic stream module) and to Jinx must fail with the same text at the same place (the file name aside). Each
 * snippet stands inside {@code stream {}}, from line 4 in both files.
 */
class StreamConfIT {

    private static final List<String> BAD = List.of(
        "server { listen 127.0.0.1:1; proxy_bind nowhere; proxy_pass 127.0.0.1:1; }",
        "server { listen 127.0.0.1:1; proxy_bind 127.0.0.1 opaque; proxy_pass 127.0.0.1:1; }",
        "proxy_bind off;\nproxy_bind 127.0.0.1;",
        "resolver 127.0.0.1 valid=x;",
        "server { listen 127.0.0.1:1; resolver 127.0.0.1 ipv6=maybe; return x; }",
        "resolver valid=5s;",
        "resolver 127.0.0.1:99999;",
        "resolver no-such-host.invalid;",
        "resolver 127.0.0.1;\nresolver 127.0.0.2;",
        "resolver;",
        "resolver_timeout x;",
        "server { listen 127.0.0.1:1; }",
        "server {\nreturn x; }",
        "server { listen 127.0.0.1:1 bogus; return x; }",
        "server { listen 127.0.0.1:1; return x; }\nserver { listen 127.0.0.1:1; return y; }",
        "access_log /dev/null nosuch;",
        "access_log /dev/null;",
        "server { listen 127.0.0.1:1; proxy_pass 127.0.0.1; }",
        "server { listen 127.0.0.1:1; proxy_pass nosuch.invalid:80; }",
        "upstream u {\n}",
        "upstream u { server 127.0.0.1:1 weight=0; }",
        "upstream u { server 127.0.0.1; }",
        "upstream u { server 127.0.0.1:1; }\nupstream u { server 127.0.0.1:2; }",
        "server { listen 127.0.0.1:1; proxy_pass u; proxy_pass u; }",
        "proxy_pass 127.0.0.1:1;",
        "server { listen 127.0.0.1:1 udp backlog=5; return x; }",
        "server { listen 127.0.0.1:1 udp proxy_protocol; return x; }",
        "server { listen 127.0.0.1:1 backlog=0; return x; }",
        "server { listen 127.0.0.1:1 so_keepalive=x; return x; }",
        "server { listen 127.0.0.1:1; return x; deny 10.0.0.1/33; }",
        "server { listen 127.0.0.1:1; return x; allow; }",
        "server { listen 127.0.0.1:1; proxy_timeout 5x; return x; }",
        "server { listen 127.0.0.1:1; proxy_half_close maybe; return x; }",
        "log_format a '$remote_addr';\nlog_format a '$status';",
        "log_format a escape=xml '$remote_addr';",
        "server { listen 127.0.0.1:1; return x; access_log off extra; }",
        "upstream u { server 127.0.0.1:1; random three; }",
        "upstream u { server 127.0.0.1:1; hash $remote_addr inconsistent; }",
        "server { listen 127.0.0.1:1; limit_conn nosuch 1; return x; }",
        "limit_conn_zone $remote_addr zone=a:1k;",
        "limit_conn_zone $remote_addr zone=a;",
        "limit_conn_zone $remote_addr size=1m;",
        "limit_conn_zone $remote_addr zone=a:1m;\nserver { listen 127.0.0.1:1; limit_conn a 0; return x; }",
        "limit_conn_zone $remote_addr zone=a:1m;\nserver { listen 127.0.0.1:1; limit_conn a 1; limit_conn a 2; "
            + "return x; }",
        "limit_conn_log_level debug;",
        "split_clients \"$remote_addr\" $s {\n60% a;\n50% b;\n}",
        "split_clients \"$remote_addr\" $s {\n5 a;\n}",
        "geo $g {\n10.0.0.0/33 x;\n}",
        "geo 1.2.3.4 $g { }",
        "geo $g {\n10.0.0.0/8;\n}",
        "map $remote_addr $m {\ndefault a;\ndefault b;\n}",
        "map $remote_addr $m {\nx a;\nx b;\n}",
        "server { listen 127.0.0.1:1; set x 1; return x; }",
        "server { listen 127.0.0.1:1; set $remote_addr 1; return x; }");

    private static String jinx(Path dir, String stream) throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("jinx.conf");
        Files.writeString(conf, "master_process off;\nevents { worker_connections 64; }\nstream {\n" + stream
            + "\n}\n", StandardCharsets.ISO_8859_1);
        ConfException e = assertThrows(ConfException.class, () -> {
            try (Embedded em = Embedded.builder(dir).confFile(conf).build()) {
                em.start();
            }
        }, stream);
        return e.getMessage().replace(conf.toString(), "FILE");
    }

    private static String nginx(Path dir, String stream) throws Exception {
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, "load_module " + DifferentialSite.STREAM_SO + ";\nevents { worker_connections 64; }\n"
            + "stream {\n" + stream + "\n}\n", StandardCharsets.ISO_8859_1);
        Process p = new ProcessBuilder(DifferentialSite.NGINX.toString(), "-t", "-p", dir + "/", "-c", conf.toString(),
            "-e", dir.resolve("error.log").toString(), "-g", "pid " + dir.resolve("n.pid") + "; error_log "
            + dir.resolve("error.log") + ";").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("nginx: [emerg] ")) {
                return line.substring(15).replace(conf.toString(), "FILE");
            }
        }
        return out;
    }

    @Test
    @Timeout(180)
    void errorsAreNginxsWordForWord() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "Debian's nginx with libnginx-mod-stream is not installed");
        List<String> diffs = new ArrayList<>();
        for (String bad : BAD) {
            Path dir = Files.createTempDirectory("jinx-stream-conf");
            try {
                String want = nginx(dir, bad);
                String got = jinx(dir, bad);
                if (!want.equals(got)) {
                    diffs.add(bad.replace("\n", "\\n") + "\n  nginx: " + want + "\n  jinx:  " + got);
                }
            } finally {
                try (Stream<Path> walk = Files.walk(dir)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
        assertEquals("", String.join("\n", diffs));
    }
}
