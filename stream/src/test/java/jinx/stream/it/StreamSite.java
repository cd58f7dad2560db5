package jinx.stream.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jinx.kernel.Embedded;

/**
 * One stream proxy under test, Debian's nginx (with its dynamic stream module) or Jinx in this JVM, with the same
 * {@code stream {}} contents: {@code %P0%} to {@code %P23%} are its free ports on 127.0.0.1, {@code %LOG%} its access
 * log. nginx is stopped by pid, Jinx through the API; the prefix is removed.
 */
final class StreamSite implements AutoCloseable {

    static final Path NGINX = Path.of("/usr/sbin/nginx");
    static final Path STREAM_SO = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");
    static final int PORTS = 24;

    private final Path root;
    private final int[] ports = new int[PORTS];
    private Process nginx;
    private Embedded jinx;
    private final ByteArrayOutputStream jinxLog = new ByteArrayOutputStream();

    private StreamSite(Path root) throws IOException {
        this.root = root;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < PORTS; i++) {
            int p;
            do {
                p = freePort();
            } while (!seen.add(p));
            ports[i] = p;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static boolean nginxAvailable() {
        return Files.isExecutable(NGINX) && Files.isReadable(STREAM_SO);
    }

    private String fill(String stream) {
        String s = stream.replace("%LOG%", root.resolve("logs/access.log").toString());
        for (int i = 0; i < PORTS; i++) {
            s = s.replace("%P" + i + "%", Integer.toString(ports[i]));
        }
        return s;
    }

    /** nginx with {@code stream} inside {@code stream {}}. */
    static StreamSite nginx(String stream, int awaitPort) throws Exception {
        StreamSite site = new StreamSite(Files.createTempDirectory("jinx-stream-nginx"));
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("conf"));
        Files.writeString(r.resolve("conf/nginx.conf"), "load_module " + STREAM_SO + ";\n"
            + "events { worker_connections 1024; }\nstream {\n" + site.fill(stream) + "\n}\n");
        ProcessBuilder pb = new ProcessBuilder(NGINX.toString(), "-p", r + "/", "-c", "conf/nginx.conf",
            "-e", r.resolve("logs/error.log").toString(), "-g", "daemon off; master_process off; error_log "
            + r.resolve("logs/error.log") + " info; pid " + r.resolve("logs/n.pid") + ";");
        pb.redirectErrorStream(true);
        pb.redirectOutput(r.resolve("logs/stdout.log").toFile());
        site.nginx = pb.start();
        site.awaitListening(site.port(awaitPort));
        return site;
    }

    /** Jinx in this JVM ({@code master_process off}) with the same configuration. */
    static StreamSite jinx(String stream, int awaitPort) throws Exception {
        StreamSite site = new StreamSite(Files.createTempDirectory("jinx-stream-jinx"));
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("conf"));
        Files.writeString(r.resolve("conf/jinx.conf"), "master_process off;\nerror_log stderr info;\n"
            + "pid logs/jinx.pid;\nevents { worker_connections 1024; }\nstream {\n" + site.fill(stream) + "\n}\n");
        PrintStream err = new PrintStream(site.jinxLog, true, StandardCharsets.ISO_8859_1);
        Embedded e = Embedded.builder(r).confFile(r.resolve("conf/jinx.conf")).stderr(err).build();
        site.jinx = e;
        e.start();
        site.awaitListening(site.port(awaitPort));
        return site;
    }

    int port(int i) {
        return ports[i];
    }

    /** The error log so far. */
    String errorLog() throws IOException {
        if (jinx != null) {
            synchronized (jinxLog) {
                return jinxLog.toString(StandardCharsets.ISO_8859_1);
            }
        }
        Path p = root.resolve("logs/error.log");
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    /** The access log so far. */
    String accessLog() throws IOException {
        Path p = root.resolve("logs/access.log");
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    private void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            if (nginx != null && !nginx.isAlive()) {
                throw new IOException("nginx exited: " + Files.readString(root.resolve("logs/stdout.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * Connects to port {@code i}, sends {@code data}, ends its output when {@code shut}, and reads until the proxy
     * closes or sends nothing for {@code quietMs}; the result ends in {@code [closed]}, {@code [open]} or
     * {@code [reset]}.
     */
    String exchange(int i, byte[] data, boolean shut, int quietMs) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port(i)), 5000);
            s.setSoTimeout(quietMs);
            s.getOutputStream().write(data);
            s.getOutputStream().flush();
            if (shut) {
                s.shutdownOutput();
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
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

    @Override
    public void close() throws Exception {
        try {
            if (nginx != null) {
                ProcessHandle h = nginx.toHandle();
                h.destroy();
                if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                    h.destroyForcibly();
                    nginx.waitFor(10, TimeUnit.SECONDS);
                }
            }
            if (jinx != null) {
                jinx.close();
            }
        } finally {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
