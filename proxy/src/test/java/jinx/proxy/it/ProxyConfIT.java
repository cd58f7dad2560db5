package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.ConfException;
import jinx.kernel.Embedded;
import jinx.testkit.DifferentialSite;

/**
 * Configuration errors of the proxy and upstream directives: Jinx refuses each with nginx's text and place
 * ({@code ... in <file>:<line>}), and where Debian's nginx is installed, {@code nginx -t} on the same file says
 * the same (the file name aside).
 */
class ProxyConfIT {

    /** A snippet inside {@code http {}} (starting on line 3) and nginx's message, without the place. */
    private record Bad(String http, String message, int line) {
    }

    private static final List<Bad> BAD = List.of(
        new Bad("server { location ~ ^/x { proxy_pass http://127.0.0.1:1/uri; } }",
            "\"proxy_pass\" cannot have URI part in location given by regular expression, or inside named location, "
                + "or inside \"if\" statement, or inside \"limit_except\" block", 3),
        new Bad("server {\nlocation @n { proxy_pass http://127.0.0.1:1/uri; } }",
            "\"proxy_pass\" cannot have URI part in location given by regular expression, or inside named location, "
                + "or inside \"if\" statement, or inside \"limit_except\" block", 4),
        new Bad("server {\n\nlocation / { proxy_pass http://nosuch.invalid; } }",
            "host not found in upstream \"nosuch.invalid\"", 5),
        new Bad("upstream u {\n}", "no servers are inside upstream", 4),
        new Bad("upstream u { server 127.0.0.1; }\nupstream u { server 127.0.0.1; }", "duplicate upstream \"u\"", 4),
        new Bad("server { location / { proxy_pass ftp://x; } }", "invalid URL prefix", 3),
        new Bad("upstream u { server 127.0.0.1 weight=0; }", "invalid parameter \"weight=0\"", 3),
        new Bad("upstream u { server 127.0.0.1 slow; }", "invalid parameter \"slow\"", 3),
        new Bad("upstream u { server 127.0.0.1:70000; }", "invalid port in upstream \"127.0.0.1:70000\"", 3),
        new Bad("upstream u { server 127.0.0.1; keepalive 0; }", "invalid value \"0\" in \"keepalive\" directive", 3),
        new Bad("server { location / { proxy_pass http://127.0.0.1; proxy_pass http://127.0.0.1; } }",
            "\"proxy_pass\" directive is duplicate", 3),
        new Bad("proxy_http_version 2.0;", "invalid value \"2.0\"", 3),
        new Bad("server { location / { proxy_pass http://127.0.0.1; proxy_next_upstream sometimes; } }",
            "invalid value \"sometimes\"", 3),
        new Bad("server { proxy_pass http://127.0.0.1; }", "\"proxy_pass\" directive is not allowed here", 3),
        new Bad("server { location / { keepalive 2; } }", "\"keepalive\" directive is not allowed here", 3),
        new Bad("proxy_ignore_headers X-Accel-Nothing;", "invalid value \"X-Accel-Nothing\"", 3),
        new Bad("proxy_intercept_errors maybe;", "invalid value \"maybe\" in \"proxy_intercept_errors\" directive, "
            + "it must be \"on\" or \"off\"", 3),
        new Bad("proxy_cookie_domain sometimes;", "invalid parameter \"sometimes\"", 3),
        new Bad("proxy_cookie_path off;\nproxy_cookie_path /a /b;", "\"proxy_cookie_path\" directive is duplicate", 4),
        new Bad("proxy_bind nowhere;", "invalid address \"nowhere\"", 3),
        new Bad("proxy_bind 127.0.0.1 opaque;", "invalid parameter \"opaque\"", 3),
        new Bad("server {\nlocation / { proxy_busy_buffers_size 1k; proxy_pass http://127.0.0.1; } }",
            "\"proxy_busy_buffers_size\" must be equal to or greater than the maximum of the value of "
                + "\"proxy_buffer_size\" and one of the \"proxy_buffers\"", 5),
        new Bad("server {\nlocation / { proxy_busy_buffers_size 64k; proxy_pass http://127.0.0.1; } }",
            "\"proxy_busy_buffers_size\" must be less than the size of all \"proxy_buffers\" minus one buffer", 5),
        new Bad("server {\nlocation / { proxy_temp_file_write_size 1k; proxy_pass http://127.0.0.1; } }",
            "\"proxy_temp_file_write_size\" must be equal to or greater than the maximum of the value of "
                + "\"proxy_buffer_size\" and one of the \"proxy_buffers\"", 5),
        new Bad("server {\nlocation / { proxy_max_temp_file_size 1k; proxy_pass http://127.0.0.1; } }",
            "\"proxy_max_temp_file_size\" must be equal to zero to disable temporary files usage or must be equal to "
                + "or greater than the maximum of the value of \"proxy_buffer_size\" and one of the \"proxy_buffers\"",
            5),
        new Bad("proxy_temp_path t;\nproxy_temp_path u;", "\"proxy_temp_path\" directive is duplicate", 4),
        new Bad("proxy_temp_path t 0;", "\"proxy_temp_path\" directive invalid value", 3),
        new Bad("proxy_temp_path t 6 6;", "\"proxy_temp_path\" directive invalid value", 3),
        new Bad("proxy_temp_path t 1 1 1 1;", "invalid number of arguments in \"proxy_temp_path\" directive", 3),
        new Bad("server { location / { proxy_pass http://$host; proxy_pass http://127.0.0.1; } }",
            "\"proxy_pass\" directive is duplicate", 3),
        new Bad("resolver 127.0.0.1 valid=x;", "invalid parameter: valid=x", 3),
        new Bad("resolver 127.0.0.1 ipv6=maybe;", "invalid parameter: ipv6=maybe", 3),
        new Bad("server {\nresolver valid=5s; }", "no name servers defined", 4),
        new Bad("resolver 127.0.0.1:99999;", "invalid port in resolver \"127.0.0.1:99999\"", 3),
        new Bad("resolver 127.0.0.1:0;", "invalid port in resolver \"127.0.0.1:0\"", 3),
        new Bad("resolver 127.0.0.1:53/x;", "invalid host in resolver \"127.0.0.1:53/x\"", 3),
        new Bad("server { location / { resolver no-such-host.invalid; } }",
            "host not found in resolver \"no-such-host.invalid\"", 3),
        new Bad("resolver 127.0.0.1;\nresolver 127.0.0.2;", "\"resolver\" directive is duplicate", 4),
        new Bad("resolver;", "invalid number of arguments in \"resolver\" directive", 3),
        new Bad("resolver_timeout x;", "\"resolver_timeout\" directive invalid value", 3),
        new Bad("server { resolver_timeout 1s; resolver_timeout 2s; }", "\"resolver_timeout\" directive is duplicate",
            3),
        new Bad("upstream u { zone z 16k; server 127.0.0.1; }", "zone \"z\" is too small", 3),
        new Bad("upstream u { zone z big; server 127.0.0.1; }", "invalid zone size \"big\"", 3),
        new Bad("upstream u { zone z 64k; server 127.0.0.1; }\nupstream v { zone z 128k; server 127.0.0.1; }",
            "the size 131072 of shared memory zone \"z\" conflicts with already declared size 65536", 4),
        new Bad("limit_req_zone $binary_remote_addr zone=z:64k rate=1r/s;\nupstream u { zone z 64k; server 127.0.0.1; }",
            "the shared memory zone \"z\" is already declared for a different use", 4));

    /** Beyond nginx OSS (health checks, peak_ewma): Jinx's own texts, no nginx to compare with. */
    private static final List<Bad> JINX_ONLY = List.of(
        new Bad("upstream u { server 127.0.0.1; }\nserver { location / { proxy_pass http://u; health_check; } }",
            "upstream \"u\" must reside in shared memory", 4),
        new Bad("server { location / { health_check; } }", "health check requires \"proxy_pass\" to an upstream", 3),
        new Bad("upstream u { zone z 64k; server 127.0.0.1; }\n"
            + "server { location / { proxy_pass http://u; health_check match=nope; } }", "match \"nope\" not found", 4),
        new Bad("server { location / { proxy_pass http://127.0.0.1; health_check fails=x; } }",
            "invalid parameter \"fails=x\"", 3),
        new Bad("match m { status abc; }", "invalid status \"abc\"", 3),
        new Bad("match m { body = x; }", "invalid parameter \"=\"", 3),
        new Bad("upstream u { server 127.0.0.1; random two fastest; }", "invalid parameter \"fastest\"", 3),
        new Bad("upstream u { hash $uri; server 127.0.0.1 slow_start=10s; }",
            "balancing method does not support parameter \"slow_start\"", 3));

    private static String file(String http) {
        return "events { worker_connections 64; }\nhttp {\n" + http + "\n}\n";
    }

    private static String jinx(Path dir, String http) throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("conf"));
        Path conf = dir.resolve("conf/test.conf");
        Files.writeString(conf, "master_process off;\n" + file(http).replace("events {", "events {"),
            StandardCharsets.ISO_8859_1);
        ConfException e = assertThrows(ConfException.class, () -> {
            try (Embedded em = Embedded.builder(dir).confFile(conf).build()) {
                em.start();
            }
        }, http);
        return e.getMessage().replace(conf.toString(), "FILE");
    }

    private static String nginx(Path dir, String http) throws Exception {
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, file(http), StandardCharsets.ISO_8859_1);
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
    @Timeout(120)
    void errorsAreNginxsWordForWord() throws Exception {
        boolean withNginx = Files.isExecutable(DifferentialSite.NGINX);
        for (Bad bad : BAD) {
            Path dir = Files.createTempDirectory("jinx-proxy-conf");
            try {
                // Jinx's file has "master_process off;" as its first line: one line more than nginx's
                String expected = bad.message() + " in FILE:" + (bad.line() + 1);
                assertEquals(expected, jinx(dir, bad.http()), bad.http());
                if (withNginx) {
                    assertEquals(bad.message() + " in FILE:" + bad.line(), nginx(dir, bad.http()),
                        "nginx -t on " + bad.http());
                }
            } finally {
                remove(dir);
            }
        }
    }

    @Test
    @Timeout(60)
    void healthCheckErrorsNameTheirPlace() throws Exception {
        for (Bad bad : JINX_ONLY) {
            Path dir = Files.createTempDirectory("jinx-proxy-conf");
            try {
                assertEquals(bad.message() + " in FILE:" + (bad.line() + 1), jinx(dir, bad.http()), bad.http());
            } finally {
                remove(dir);
            }
        }
    }

    private static void remove(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
