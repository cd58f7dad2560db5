package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;

/**
 * Temporary files of buffered responses (nginx's {@code ngx_event_pipe.c}), in Debian's nginx and in Jinx with the
 * same configuration and the same slow client (a 16 KB receive buffer, reading a little and then waiting): with
 * {@code proxy_temp_path} the whole response is read into the file and the upstream connection is released while
 * the client has hardly begun, and nginx's warning names the file; with {@code proxy_max_temp_file_size 0} the
 * upstream is read only as fast as the client takes it; a temporary file directory that fills up (a 128 KB tmpfs
 * mounted at run time, root only) fails the request as nginx's fails it, with its {@code [crit]} line, and the
 * worker serves on with no descriptor left open on the file.
 */
@Tag("slow")
class ProxyTempIT {

    /** Well over what the sockets' buffers hold between the upstream and a client that does not read. */
    static final int SIZE = 16 << 20;

    static final String HTTP = """
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location /spool/ { proxy_pass http://127.0.0.1:%UP%/; proxy_temp_path spool 1 2; }
            location /nofile/ { proxy_pass http://127.0.0.1:%UP%/; proxy_max_temp_file_size 0; }
            location /bounded/ {
                proxy_pass http://127.0.0.1:%UP%/;
                proxy_temp_path spool 1 2;
                proxy_max_temp_file_size 256k;
                proxy_temp_file_write_size 16k;
            }
            location /full/ { proxy_pass http://127.0.0.1:%UP%/; proxy_temp_path full; }
            location /hello { proxy_pass http://127.0.0.1:%UP%; }
        }
        """;

    private static final Pattern WARN = Pattern.compile("\\[warn\\] .*an upstream response is buffered to a "
        + "temporary file \\S+/spool/\\d/\\d\\d/\\d{10} while reading upstream, client: 127\\.0\\.0\\.1, server: "
        + "localhost, request: \"GET /spool/size/" + SIZE + " HTTP/1\\.1\", upstream: \"http://127\\.0\\.0\\.1:\\d+/size/"
        + SIZE + "\", host: \"localhost\"");

    @Test
    @Timeout(180)
    void slowClientsResponseGoesToTheFileAndTheUpstreamIsReleased() throws Exception {
        try (FakeUpstream up = FakeUpstream.start()) {
            String http = HTTP.replace("%UP%", Integer.toString(up.port()));
            for (boolean nginx : new boolean[] {true, false}) {
                assumeTrue(!nginx || Files.isExecutable(DifferentialSite.NGINX), "no nginx");
                try (DifferentialSite site = nginx ? DifferentialSite.nginx("temp", http)
                    : DifferentialSite.jinx("temp", http)) {
                    String who = nginx ? "nginx" : "jinx";
                    try (Socket s = slowClient(site.port(), "/spool/size/" + SIZE)) {
                        InputStream in = s.getInputStream();
                        byte[] first = in.readNBytes(1000);
                        // the proxy read the whole response while the client took 1000 bytes
                        assertTrue(awaitOpen(up, 0, 20_000), who + ": the upstream connection is still open");
                        assertTrue(WARN.matcher(site.errorLog()).find(), who + ": " + site.errorLog());
                        byte[] rest = in.readAllBytes();
                        assertBody(first, rest, who);
                    }
                    if (!nginx) {
                        assertEquals(List.of(), awaitNoDescriptors(site.root().resolve("spool")));
                    }

                    // proxy_max_temp_file_size 0: the upstream waits for the client
                    try (Socket s = slowClient(site.port(), "/nofile/size/" + SIZE)) {
                        InputStream in = s.getInputStream();
                        byte[] first = in.readNBytes(1000);
                        Thread.sleep(1500);
                        assertEquals(1, up.openConnections(), who + ": the upstream was read without a file");
                        assertBody(first, in.readAllBytes(), who);
                    }
                    assertTrue(awaitOpen(up, 0, 10_000));

                    // a bounded file: used up to its size, then the upstream waits too
                    try (Socket s = slowClient(site.port(), "/bounded/size/" + SIZE)) {
                        InputStream in = s.getInputStream();
                        byte[] first = in.readNBytes(1000);
                        Thread.sleep(1500);
                        assertEquals(1, up.openConnections(), who + ": the file went over its bound");
                        assertBody(first, in.readAllBytes(), who);
                    }
                    assertTrue(awaitOpen(up, 0, 10_000));
                    String log = site.errorLog();
                    assertTrue(log.contains("an upstream response is buffered to a temporary file "
                        + site.root().resolve("spool")), who + ": " + log);
                    assertTrue(!log.contains("/nofile/") && !log.contains("[crit]") && !log.contains("[alert]")
                        && !log.contains("Exception"), who + ": " + log);
                }
            }
        }
    }

    @Test
    @Timeout(180)
    void aFullTemporaryDirectoryFailsTheRequestAndTheWorkerServesOn() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        try (FakeUpstream up = FakeUpstream.start()) {
            String http = HTTP.replace("%UP%", Integer.toString(up.port()));
            List<String> cuts = new ArrayList<>();
            for (boolean nginx : new boolean[] {true, false}) {
                if (nginx && !Files.isExecutable(DifferentialSite.NGINX)) {
                    continue;
                }
                try (DifferentialSite site = nginx ? DifferentialSite.nginx("tempfull", http)
                    : DifferentialSite.jinx("tempfull", http)) {
                    String who = nginx ? "nginx" : "jinx";
                    Path full = site.root().resolve("full");
                    Files.createDirectories(full);
                    assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", full.toString()) == 0,
                        "tmpfs could not be mounted");
                    try {
                        byte[] got;
                        try (Socket s = slowClient(site.port(), "/full/size/" + SIZE)) {
                            InputStream in = s.getInputStream();
                            byte[] first = in.readNBytes(1000);
                            assertTrue(awaitOpen(up, 0, 20_000), who + ": the upstream connection is still open");
                            ByteArrayOutputStream all = new ByteArrayOutputStream();
                            all.write(first);
                            all.write(in.readAllBytes());
                            got = all.toByteArray();
                        }
                        // the header went out: the response is cut, the connection closed
                        String head = new String(got, 0, 12, StandardCharsets.ISO_8859_1);
                        assertEquals("HTTP/1.1 200", head, who);
                        assertTrue(got.length < SIZE, who + ": " + got.length + " bytes came");
                        cuts.add(who);
                        String log = site.errorLog();
                        assertTrue(Pattern.compile("\\[crit\\] .*pwritev?\\(\\) \"" + Pattern.quote(full.toString())
                            + "/\\d{10}\" failed \\(28: No space left on device\\) while reading upstream, client: "
                            + "127\\.0\\.0\\.1, server: localhost, request: \"GET /full/size/" + SIZE).matcher(log)
                            .find(), who + ": " + log);
                        String hello = site.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n"
                            + "Connection: close\r\n\r\n", 5000);
                        assertTrue(hello.startsWith("HTTP/1.1 200") && hello.contains("\r\n\r\nhello\n"), hello);
                        if (!nginx) {
                            assertEquals(List.of(), awaitNoDescriptors(full));
                        }
                    } finally {
                        run("umount", full.toString());
                    }
                }
            }
            assertTrue(!cuts.isEmpty());
        }
    }

    private static Socket slowClient(int port, String path) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(16384);
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(20_000);
        s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
        return s;
    }

    private static void assertBody(byte[] first, byte[] rest, String who) {
        byte[] all = new byte[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        int end = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(end > 0, who);
        assertTrue(new String(all, 0, 12, StandardCharsets.ISO_8859_1).equals("HTTP/1.1 200"), who);
        byte[] body = Arrays.copyOfRange(all, end + 4, all.length);
        assertEquals(SIZE, body.length, who);
        assertArrayEquals(FakeUpstream.pattern(SIZE), body, who);
    }

    private static int indexOf(byte[] a, byte[] p) {
        outer:
        for (int i = 0; i + p.length <= a.length; i++) {
            for (int k = 0; k < p.length; k++) {
                if (a[i + k] != p[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static boolean awaitOpen(FakeUpstream up, int n, long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (up.openConnections() != n) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** This JVM's descriptors (Jinx runs in it) open on a file under {@code dir}, after the request was freed. */
    private static List<String> awaitNoDescriptors(Path dir) throws Exception {
        List<String> open = List.of();
        for (int i = 0; i < 100; i++) {
            open = descriptorsUnder(dir);
            if (open.isEmpty()) {
                return open;
            }
            Thread.sleep(20);
        }
        return open;
    }

    private static List<String> descriptorsUnder(Path dir) throws IOException {
        List<String> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(dir.toString())) {
                        open.add(fd.getFileName() + " -> " + target);
                    }
                } catch (IOException e) {
                    // closed while listed
                }
            }
        }
        return open;
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
