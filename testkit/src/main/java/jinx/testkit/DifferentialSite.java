package jinx.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * A prefix for one server of a differential test, Debian's nginx or Jinx, with the same {@code http {}}
 * configuration: each started on a free port of 127.0.0.1 and stopped by pid (nginx) or through the API (Jinx, in
 * this JVM with {@code master_process off}), and a raw client that sends bytes and reads until the server closes or
 * goes quiet. The proxy's and the TLS module's differential tests run the same configuration on one of each and
 * compare what came back.
 */
public final class DifferentialSite implements AutoCloseable {

    /** Debian's nginx, which {@code .ci/run} installs; a test assumes it is executable before using it. */
    public static final Path NGINX = Path.of("/usr/sbin/nginx");

    private final Path root;
    private final int port;
    private Process nginx;
    private Embedded jinx;
    private final ByteArrayOutputStream jinxLog = new ByteArrayOutputStream();

    private DifferentialSite(Path root, int port) {
        this.root = root;
        this.port = port;
    }

    /**
     * Returns a port of 127.0.0.1 that was free a moment ago.
     *
     * @return the port
     * @throws IOException when no socket could be bound
     */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts nginx with {@code http} inside {@code http {}} ({@code %PORT%} is its port).
     *
     * @param name what the temporary prefix is named after ({@code jinx-NAME-nginx...})
     * @param http the configuration
     * @return the running site
     * @throws Exception when nginx does not start listening within 10 s
     */
    public static DifferentialSite nginx(String name, String http) throws Exception {
        return nginxMain(name, "http {\nclient_body_temp_path tmp/body;\nproxy_temp_path tmp/proxy;\n"
            + "fastcgi_temp_path tmp/fastcgi;\nuwsgi_temp_path tmp/uwsgi;\nscgi_temp_path tmp/scgi;\naccess_log off;\n"
            + http + "\n}\n");
    }

    /**
     * Starts nginx with {@code main} in the main context after {@code events {}} ({@code %PORT%} is its port):
     * for a {@code stream {}} block, which needs {@code load_module} of Debian's stream module in nginx's text.
     *
     * @param name what the temporary prefix is named after
     * @param main the configuration's main context
     * @return the running site
     * @throws Exception when nginx does not start listening within 10 s
     */
    public static DifferentialSite nginxMain(String name, String main) throws Exception {
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-" + name + "-nginx"),
            freePort());
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("tmp"));
        Files.createDirectories(r.resolve("conf"));
        String body = main.replace("%PORT%", Integer.toString(site.port));
        int load = body.startsWith("load_module") ? body.indexOf('\n') + 1 : 0;
        // load_module stands before events {}
        Files.writeString(r.resolve("conf/nginx.conf"), body.substring(0, load)
            + "events { worker_connections 1024; }\n" + body.substring(load));
        ProcessBuilder pb = new ProcessBuilder(NGINX.toString(), "-p", r + "/", "-c", "conf/nginx.conf",
            "-e", r.resolve("logs/error.log").toString(), "-g", "daemon off; master_process off; error_log "
            + r.resolve("logs/error.log") + " info; pid " + r.resolve("logs/n.pid") + ";");
        pb.redirectErrorStream(true);
        pb.redirectOutput(r.resolve("logs/stdout.log").toFile());
        site.nginx = pb.start();
        site.awaitListening();
        return site;
    }

    /**
     * Starts Jinx in this JVM ({@code master_process off}) with the same configuration.
     *
     * @param name what the temporary prefix is named after ({@code jinx-NAME-jinx...})
     * @param http the configuration
     * @return the running site
     * @throws Exception when the configuration is refused or Jinx does not listen within 10 s
     */
    public static DifferentialSite jinx(String name, String http) throws Exception {
        return jinxMain(name, "http {\naccess_log off;\n" + http + "\n}\n");
    }

    /**
     * Starts Jinx in this JVM with {@code main} in the main context after {@code events {}}.
     *
     * @param name what the temporary prefix is named after
     * @param main the configuration's main context
     * @return the running site
     * @throws Exception when the configuration is refused or Jinx does not listen within 10 s
     */
    public static DifferentialSite jinxMain(String name, String main) throws Exception {
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-" + name + "-jinx"),
            freePort());
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("conf"));
        Files.writeString(r.resolve("conf/jinx.conf"), "master_process off;\nerror_log stderr info;\n"
            + "pid logs/jinx.pid;\nevents { worker_connections 1024; }\n"
            + main.replace("%PORT%", Integer.toString(site.port)));
        PrintStream err = new PrintStream(site.jinxLog, true, StandardCharsets.ISO_8859_1);
        Embedded e = Embedded.builder(r).confFile(r.resolve("conf/jinx.conf")).stderr(err).build();
        site.jinx = e;
        e.start();
        site.awaitListening();
        return site;
    }

    /**
     * Returns the port the server listens on.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Returns the error log so far.
     *
     * @return the text
     * @throws IOException when the log cannot be read
     */
    public String errorLog() throws IOException {
        if (jinx != null) {
            synchronized (jinxLog) {
                return jinxLog.toString(StandardCharsets.ISO_8859_1);
            }
        }
        Path p = root.resolve("logs/error.log");
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    private void awaitListening() throws Exception {
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
     * Sends {@code request} on a new connection and reads until the server closes it or sends nothing for
     * {@code quietMs}; a reset ends the reading as a close does, noted at the end.
     *
     * @param request the bytes, one char each
     * @param quietMs how long a silence ends the reading
     * @return what came, then {@code [closed]}, {@code [open]} or {@code [reset]}
     * @throws IOException when the connection cannot be made
     */
    public String exchange(String request, int quietMs) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(quietMs);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
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
