package jinx.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jinx.kernel.Embedded;

/**
 * A prefix for one server of a differential test, Debian's nginx or Jinx, with the same {@code http {}} or
 * {@code stream {}} configuration: each started on free ports of 127.0.0.1 and stopped by pid (nginx) or through the
 * API (Jinx, in this JVM with {@code master_process off}), and a raw client that sends bytes and reads until the
 * server closes or goes quiet. The proxy's, the TLS module's and the stream module's differential tests run the same
 * configuration on one of each and compare what came back. In the configuration {@code %PORT%} is the first free
 * port, {@code %P0%}, {@code %P1%} ... each of them, and {@code %LOG%} the prefix's {@code logs/access.log}.
 */
public final class DifferentialSite implements AutoCloseable {

    /** Debian's nginx, which {@code .ci/run} installs; a test assumes it is executable before using it. */
    public static final Path NGINX = Path.of("/usr/sbin/nginx");
    /** Debian's dynamic stream module for it (libnginx-mod-stream). */
    public static final Path STREAM_SO = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");

    private static final String JINX_MAIN = "master_process off;\nerror_log stderr info;\npid logs/jinx.pid;\n"
        + "events { worker_connections 1024; }\n";

    private final Path root;
    private final int[] ports;
    private Process nginx;
    private Embedded jinx;
    private final ByteArrayOutputStream jinxLog = new ByteArrayOutputStream();

    private DifferentialSite(Path root, int n) throws IOException {
        this.root = root;
        this.ports = new int[n];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            int p;
            do {
                p = freePort();
            } while (!seen.add(p));
            ports[i] = p;
        }
        Files.createDirectories(root.resolve("logs"));
        Files.createDirectories(root.resolve("tmp"));
        Files.createDirectories(root.resolve("conf"));
    }

    /**
     * Whether Debian's nginx and its stream module are installed.
     *
     * @return true when both are there
     */
    public static boolean nginxStreamAvailable() {
        return Files.isExecutable(NGINX) && Files.isReadable(STREAM_SO);
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
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-" + name + "-nginx"), 1);
        return site.startNginx("events { worker_connections 1024; }\nhttp {\n"
            + "client_body_temp_path tmp/body;\nproxy_temp_path tmp/proxy;\nfastcgi_temp_path tmp/fastcgi;\n"
            + "uwsgi_temp_path tmp/uwsgi;\nscgi_temp_path tmp/scgi;\naccess_log off;\n" + site.fill(http) + "\n}\n");
    }

    /**
     * Starts nginx with its stream module and {@code stream} inside {@code stream {}}.
     *
     * @param stream the configuration
     * @param ports how many free ports it names ({@code %P0%} ...)
     * @return the running site, listening on its first port
     * @throws Exception when nginx does not start listening within 10 s
     */
    public static DifferentialSite nginxStream(String stream, int ports) throws Exception {
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-stream-nginx"), ports);
        return site.startNginx("load_module " + STREAM_SO + ";\nevents { worker_connections 1024; }\nstream {\n"
            + site.fill(stream) + "\n}\n");
    }

    private DifferentialSite startNginx(String conf) throws Exception {
        Path r = root;
        Files.writeString(r.resolve("conf/nginx.conf"), conf);
        ProcessBuilder pb = new ProcessBuilder(NGINX.toString(), "-p", r + "/", "-c", "conf/nginx.conf",
            "-e", r.resolve("logs/error.log").toString(), "-g", "daemon off; master_process off; error_log "
            + r.resolve("logs/error.log") + " info; pid " + r.resolve("logs/n.pid") + ";");
        pb.redirectErrorStream(true);
        pb.redirectOutput(r.resolve("logs/stdout.log").toFile());
        nginx = pb.start();
        awaitListening();
        return this;
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
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-" + name + "-jinx"), 1);
        return site.startJinx(JINX_MAIN + "http {\naccess_log off;\n" + site.fill(http) + "\n}\n");
    }

    /**
     * Starts Jinx in this JVM ({@code master_process off}) with {@code stream} inside {@code stream {}}.
     *
     * @param stream the configuration
     * @param ports how many free ports it names ({@code %P0%} ...)
     * @return the running site, listening on its first port
     * @throws Exception when the configuration is refused or Jinx does not listen within 10 s
     */
    public static DifferentialSite jinxStream(String stream, int ports) throws Exception {
        return jinxStream(stream, ports, 1024);
    }

    /**
     * Starts Jinx in this JVM ({@code master_process off}) with {@code stream} inside {@code stream {}} and
     * {@code worker_connections} slots.
     *
     * @param stream the configuration
     * @param ports how many free ports it names ({@code %P0%} ...)
     * @param connections {@code worker_connections}
     * @return the running site, listening on its first port
     * @throws Exception when the configuration is refused or Jinx does not listen within 10 s
     */
    public static DifferentialSite jinxStream(String stream, int ports, int connections) throws Exception {
        DifferentialSite site = new DifferentialSite(Files.createTempDirectory("jinx-stream-jinx"), ports);
        String main = JINX_MAIN.replace("worker_connections 1024;", "worker_connections " + connections + ";");
        return site.startJinx(main + "stream {\n" + site.fill(stream) + "\n}\n");
    }

    private DifferentialSite startJinx(String conf) throws Exception {
        Path r = root;
        Files.writeString(r.resolve("conf/jinx.conf"), conf);
        PrintStream err = new PrintStream(jinxLog, true, StandardCharsets.ISO_8859_1);
        Embedded e = Embedded.builder(r).confFile(r.resolve("conf/jinx.conf")).stderr(err).build();
        jinx = e;
        e.start();
        awaitListening();
        return this;
    }

    private String fill(String conf) {
        String s = conf.replace("%PORT%", Integer.toString(ports[0]))
            .replace("%LOG%", root.resolve("logs/access.log").toString());
        for (int i = 0; i < ports.length; i++) {
            s = s.replace("%P" + i + "%", Integer.toString(ports[i]));
        }
        return s;
    }

    /**
     * Returns the port the server listens on.
     *
     * @return the port
     */
    public int port() {
        return ports[0];
    }

    /**
     * Returns one of the free ports the configuration names.
     *
     * @param i which ({@code %Pi%})
     * @return the port
     */
    public int port(int i) {
        return ports[i];
    }

    /**
     * Returns the access log ({@code %LOG%}) so far.
     *
     * @return the text, empty before the first line
     * @throws IOException when the log cannot be read
     */
    public String accessLog() throws IOException {
        Path p = root.resolve("logs/access.log");
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    /**
     * Returns the prefix the server runs in (its {@code conf/} and {@code logs/}; relative paths of the configuration
     * are taken from it).
     *
     * @return the directory
     */
    public Path root() {
        return root;
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
                s.connect(new InetSocketAddress("127.0.0.1", ports[0]), 1000);
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
        return exchange(0, request.getBytes(StandardCharsets.ISO_8859_1), false, quietMs);
    }

    /**
     * Connects to port {@code i}, sends {@code data}, ends its output when {@code shut}, and reads until the server
     * closes or sends nothing for {@code quietMs}.
     *
     * @param i which port ({@code %Pi%})
     * @param data the bytes
     * @param shut whether the client ends its output after them
     * @param quietMs how long a silence ends the reading
     * @return what came, then {@code [closed]}, {@code [open]} or {@code [reset]}
     * @throws IOException when the connection cannot be made
     */
    public String exchange(int i, byte[] data, boolean shut, int quietMs) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", ports[i]), 5000);
            s.setSoTimeout(quietMs);
            OutputStream out = s.getOutputStream();
            out.write(data);
            out.flush();
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

    /**
     * Sends datagrams to the site's UDP port {@code i} from one socket, one at a time, and after each collects the
     * datagrams that come back until {@code quietMs} pass without one: a UDP session's exchange.
     *
     * @param i the port's index
     * @param datagrams what to send, one datagram each, one char a byte
     * @param quietMs how long a silence ends the wait after each datagram
     * @return what came back after each datagram, the datagrams joined by {@code |}
     * @throws IOException when the socket fails
     */
    public List<String> datagrams(int i, List<String> datagrams, int quietMs) throws IOException {
        List<String> replies = new ArrayList<>();
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.setSoTimeout(quietMs);
            InetSocketAddress to = new InetSocketAddress("127.0.0.1", ports[i]);
            byte[] buf = new byte[65536];
            for (String d : datagrams) {
                byte[] b = d.getBytes(StandardCharsets.ISO_8859_1);
                s.send(new DatagramPacket(b, b.length, to));
                List<String> got = new ArrayList<>();
                try {
                    for (;;) {
                        DatagramPacket p = new DatagramPacket(buf, buf.length);
                        s.receive(p);
                        got.add(new String(buf, 0, p.getLength(), StandardCharsets.ISO_8859_1));
                    }
                } catch (SocketTimeoutException e) {
                    replies.add(String.join("|", got));
                }
            }
        }
        return replies;
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
