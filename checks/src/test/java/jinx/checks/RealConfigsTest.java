package jinx.checks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.internal.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Configurations of real projects pass {@code jinx -t} as they are (issue #34): h5bp's server-configs-nginx and Debian's
 * {@code /etc/nginx/nginx.conf} with {@code sites-available/default}. Mastodon's {@code dist/nginx.conf}, installed
 * as Debian installs a site, does not pass yet: it needs the proxy cache ({@code proxy_cache_path},
 * {@code proxy_cache}, {@code proxy_cache_valid}, {@code proxy_cache_use_stale}, {@code $upstream_cache_status}) and
 * HTTP/2 ({@code listen ... http2}), which Jinx lacks; its test holds the first refusal, to be turned into a pass when
 * they exist. Their files are under {@code src/test/resources/realconf} with their licences. Only the absolute
 * paths are moved under a temporary prefix ({@code /etc/nginx/}, {@code /var/log/nginx/}, the pid file), so that the
 * test neither reads the machine's files nor writes outside its directory.
 */
class RealConfigsTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void h5bp() throws Exception {
        Path conf = copy("h5bp");
        Files.createDirectories(dir.resolve("custom.d"));
        assertPasses(conf.resolve("nginx.conf"));
    }

    @Test
    @Timeout(60)
    void debianDefault() throws Exception {
        Path conf = copy("debian");
        for (String d : List.of("modules-enabled", "conf.d", "sites-enabled")) {
            Files.createDirectories(dir.resolve(d));
        }
        Files.copy(conf.resolve("sites-available/default"), dir.resolve("sites-enabled/default"));
        assertPasses(conf.resolve("nginx.conf"));
    }

    @Test
    @Timeout(60)
    void mastodonAsADebianSiteNeedsTheProxyCache() throws Exception {
        Path conf = copy("debian");
        copy("mastodon");
        for (String d : List.of("modules-enabled", "conf.d", "sites-enabled")) {
            Files.createDirectories(dir.resolve(d));
        }
        Files.copy(dir.resolve("mastodon.conf"), dir.resolve("sites-enabled/mastodon"));
        Result r = test(conf.resolve("nginx.conf"));
        assertEquals("jinx: [emerg] unknown directive \"proxy_cache_path\" in " + dir + "/sites-enabled/mastodon:14\n"
            + "jinx: configuration file " + conf.resolve("nginx.conf") + " test failed\n", r.err);
        assertEquals(1, r.exit);
    }

    /** Copies a configuration's files into the prefix, its absolute paths moved under it. */
    private Path copy(String name) throws IOException, URISyntaxException {
        Path from = Path.of(RealConfigsTest.class.getResource("/realconf/" + name).toURI());
        Files.createDirectories(dir.resolve("logs"));
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = dir.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                    continue;
                }
                String text = Files.readString(f, StandardCharsets.ISO_8859_1)
                    .replace("/etc/nginx/", dir + "/")
                    .replace("/var/log/nginx/", dir + "/logs/")
                    .replace("/var/run/nginx.pid", dir + "/logs/nginx.pid")
                    .replace("/run/nginx.pid", dir + "/logs/nginx.pid");
                Files.writeString(to, text, StandardCharsets.ISO_8859_1);
            }
        }
        return dir;
    }

    private record Result(int exit, String err) {
    }

    private void assertPasses(Path conf) {
        Result r = test(conf);
        assertEquals("jinx: the configuration file " + conf + " syntax is ok\n"
            + "jinx: configuration file " + conf + " test is successful\n", r.err, r.err);
        assertEquals(0, r.exit);
    }

    private Result test(Path conf) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, Main::discover).run(new String[] {"-p", dir + "/", "-c", conf.toString(), "-t"});
        }
        return new Result(exit, err.toString(StandardCharsets.ISO_8859_1));
    }
}
