package jinx.contrib.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A {@code master_process on} server started through the distribution's {@code bin/jinx} on a prefix in a
 * temporary directory, for the tests of {@code load_module}: its files, its error log, its workers, and a plain
 * HTTP/1.0 client. {@link #close()} kills the master and its workers by pid and removes the prefix.
 */
final class Server implements AutoCloseable {

    private final Path root = Files.createTempDirectory("jinx-contrib-it");
    private final int port = freePort();
    private Process master;

    Server() throws IOException {
        Files.createDirectories(root.resolve("conf"));
        Files.createDirectories(root.resolve("logs"));
        Files.createDirectories(root.resolve("modules"));
    }

    /** The repository, where bin/jinx and every built jar are. */
    static Path distribution() {
        String dir = System.getProperty("jinx.distribution");
        Path path = dir != null ? Path.of(dir) : Path.of(System.getProperty("user.dir")).resolve("../..");
        return path.toAbsolutePath().normalize();
    }

    /** A built contrib jar: {@code modules-contrib/<dir>/target/jinx-<dir>.jar}. */
    static Path contribJar(String dir) {
        return distribution().resolve("modules-contrib/" + dir + "/target/jinx-" + dir + ".jar");
    }

    Path root() {
        return root;
    }

    int port() {
        return port;
    }

    /** Copies a jar into the prefix's {@code modules/} under {@code name}, atomically (a rename). */
    void installModule(Path jar, String name) throws IOException {
        Path tmp = root.resolve("modules/." + name + ".tmp");
        Files.copy(jar, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, root.resolve("modules/" + name), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
    }

    /** The configuration: the kit's usual main directives, then {@code text}. */
    void conf(String text) throws IOException {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        Files.writeString(root.resolve("conf/jinx.conf"), user + "daemon off;\nerror_log logs/error.log notice;\n"
            + "pid logs/jinx.pid;\n" + text, StandardCharsets.ISO_8859_1);
    }

    void start() throws IOException {
        master = new ProcessBuilder(distribution().resolve("bin/jinx").toString(), "-p", root.toString())
            .redirectErrorStream(true).redirectOutput(root.resolve("logs/stdout.log").toFile()).start();
    }

    /** Runs {@code bin/jinx -p root args...} to its end and returns its output (stdout and stderr). */
    String command(String... args) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of(distribution().resolve("bin/jinx").toString(), "-p",
            root.toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("jinx " + argv + " did not end");
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    long pid() {
        return master.pid();
    }

    void signal(int signo) throws IOException {
        Syscalls.kill(master.pid(), signo);
    }

    /** Waits until the master has {@code n} live children, none of them in {@code gone}. */
    List<ProcessHandle> waitForWorkers(int n, List<ProcessHandle> gone) throws InterruptedException, IOException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<ProcessHandle> children = List.of();
        while (System.nanoTime() < end) {
            children = master.toHandle().children().filter(ProcessHandle::isAlive).filter(h -> !gone.contains(h))
                .toList();
            if (children.size() == n) {
                return children;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("workers: " + children + "\n" + log());
    }

    String log() throws IOException {
        Path log = root.resolve("logs/error.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    }

    /** Waits (30 s at most) until {@code done} holds for the error log; returns the log. */
    String waitForLog(Predicate<String> done, String what) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String log = "";
        while (System.nanoTime() < end) {
            log = log();
            if (done.test(log)) {
                return log;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(what + " not in the error log:\n" + log);
    }

    /** One HTTP/1.0 request on a new connection: the whole response, one char per byte. */
    String get(String uri) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + uri + " HTTP/1.0\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            in.transferTo(buf);
            return buf.toString(StandardCharsets.ISO_8859_1);
        }
    }

    static String body(String response) {
        int at = response.indexOf("\r\n\r\n");
        return at < 0 ? "" : response.substring(at + 4);
    }

    static String header(String response, String name) {
        for (String line : response.substring(0, Math.max(0, response.indexOf("\r\n\r\n"))).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** TERM to the master: it must exit within 20 s. */
    void stop() throws InterruptedException, IOException {
        signal(Platform.SIGTERM);
        if (!master.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the master is still running after SIGTERM");
        }
    }

    @Override
    public void close() throws Exception {
        if (master != null) {
            List<ProcessHandle> children = master.toHandle().children().toList();
            master.toHandle().destroyForcibly();
            for (ProcessHandle c : children) {
                c.destroyForcibly();
            }
            master.waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
