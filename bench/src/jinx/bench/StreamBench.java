package jinx.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stream proxy against nginx's ({@code bench/run stream}, issue #32): both with one worker, {@code proxy_pass}
 * to the same backend (Debian's nginx serving HTTP/1.0 with {@code sendfile}), the same client in this JVM. Figures:
 * one large transfer through the proxy (GB/s, the best of the rounds), request/response over many short sessions
 * (sessions/s with {@code --threads} clients for {@code --duration} seconds), and the proxy worker's user CPU per GB
 * and per session. Prints and writes {@code stream.md}. Usage:
 * {@code StreamBench <jinx home> <clk_tck> [--size MB] [--rounds N] [--duration S] [--threads N] [--out DIR]}.
 */
final class StreamBench {

    private static final String STREAM_SO = "/usr/lib/nginx/modules/ngx_stream_module.so";

    private long sizeMb = 1024;
    private int rounds = 3;
    private int duration = 10;
    private int threads = 8;
    private Path out;
    private long clkTck;

    private StreamBench() {
    }

    /**
     * Runs the scenarios.
     *
     * @param args Jinx's home, the clock tick, then the options
     * @throws Exception when a server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        StreamBench b = new StreamBench();
        b.clkTck = Long.parseLong(args[1]);
        b.out = home.resolve("bench/target/results");
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> b.sizeMb = Long.parseLong(args[++i]);
                case "--rounds" -> b.rounds = Integer.parseInt(args[++i]);
                case "--duration" -> b.duration = Integer.parseInt(args[++i]);
                case "--threads" -> b.threads = Integer.parseInt(args[++i]);
                case "--out" -> b.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        b.run(home);
    }

    /** A running server: its process (the master, in the foreground) and port. */
    private record Proxy(String label, Process process, int port) implements AutoCloseable {
        List<Integer> workers() {
            return Proc.children((int) process.pid());
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void run(Path home) throws Exception {
        Path work = Files.createTempDirectory("jinx-stream-bench");
        Path docroot = Files.createDirectories(work.resolve("html"));
        try (RandomAccessFile f = new RandomAccessFile(docroot.resolve("big").toFile(), "rw")) {
            f.setLength(sizeMb << 20);
        }
        Files.writeString(docroot.resolve("small"), "pong\n");
        // the backend's workers run as nobody under a root master: the files must be theirs to read
        for (Path p : List.of(work, docroot)) {
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        for (String f : List.of("big", "small")) {
            Files.setPosixFilePermissions(docroot.resolve(f),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
        int backendPort = freePort();
        StringBuilder table = new StringBuilder();
        try (Proxy backend = start("backend", List.of("/usr/sbin/nginx"), work.resolve("backend"), backendPort,
                "worker_processes 1;\ndaemon off;\nevents { worker_connections 4096; }\nhttp {\n"
                + "access_log off;\nsendfile on;\nkeepalive_timeout 0;\n"
                + "server { listen 127.0.0.1:" + backendPort + "; root " + docroot + "; }\n}\n")) {
            List<String[]> rows = new ArrayList<>();
            for (String kind : List.of("nginx", "jinx")) {
                int port = freePort();
                String stream = "stream {\n    server {\n        listen 127.0.0.1:" + port + ";\n"
                    + "        proxy_pass 127.0.0.1:" + backendPort + ";\n    }\n}\n";
                String main = "worker_processes 1;\ndaemon off;\nevents { worker_connections 4096; }\n";
                List<String> cmd = kind.equals("nginx") ? List.of("/usr/sbin/nginx")
                    : List.of(home.resolve("bin/jinx").toString());
                String conf = (kind.equals("nginx") ? "load_module " + STREAM_SO + ";\n" : "") + main + stream;
                try (Proxy p = start(kind, cmd, work.resolve(kind), port, conf)) {
                    rows.add(measure(p));
                }
            }
            table.append("| proxy | large transfer GB/s | user CPU s per GB | sessions/s | user CPU us per session |\n")
                .append("|---|---|---|---|---|\n");
            for (String[] r : rows) {
                table.append("| ").append(String.join(" | ", r)).append(" |\n");
            }
        }
        String text = "# Stream proxy: Jinx against nginx\n\n"
            + "One worker each, `proxy_pass` to the same backend (Debian's nginx, HTTP/1.0, sendfile); the client in "
            + "the harness's JVM on the same 2 cores. Large transfer: " + sizeMb + " MB read through the proxy, best "
            + "of " + rounds + "; sessions: " + threads + " clients each connecting, sending a 19-byte request and "
            + "reading the 5-byte body's response to the close, for " + duration + " s. User CPU is the proxy "
            + "worker's (utime). Load average at the end: " + Files.readString(Path.of("/proc/loadavg")).trim()
            + " (on 2 cores).\n\n" + table;
        System.out.println(text);
        Files.createDirectories(out);
        Files.writeString(out.resolve("stream.md"), text);
    }

    private Proxy start(String label, List<String> cmd, Path prefix, int port, String conf) throws Exception {
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("conf"));
        Path file = prefix.resolve("conf/stream.conf");
        Files.writeString(file, conf);
        List<String> all = new ArrayList<>(cmd);
        all.addAll(List.of("-p", prefix + "/", "-c", file.toString(), "-e", prefix.resolve("logs/error.log")
            .toString()));
        Process p = new ProcessBuilder(all).redirectErrorStream(true)
            .redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        Proxy proxy = new Proxy(label, p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (;;) {
            if (!p.isAlive()) {
                throw new IOException(label + " exited: " + Files.readString(prefix.resolve("logs/stdout.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                if (!proxy.workers().isEmpty()) {
                    return proxy;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    proxy.close();
                    throw new IOException(label + " did not listen in 60 s", e);
                }
            }
            Thread.sleep(20);
        }
    }

    private String[] measure(Proxy p) throws Exception {
        byte[] big = "GET /big HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] small = "GET /small HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        // warm-up: a JIT's first minutes are not what is measured
        long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < warmEnd) {
            exchange(p.port, small);
        }
        exchange(p.port, big);
        double best = 0;
        long userTicks = 0;
        long bytes = 0;
        for (int r = 0; r < rounds; r++) {
            long u0 = user(p);
            long t0 = System.nanoTime();
            long n = exchange(p.port, big);
            if (n < sizeMb << 20) {
                throw new IOException(p.label + ": " + n + " bytes of the large transfer, not " + (sizeMb << 20));
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            userTicks += user(p) - u0;
            bytes += n;
            best = Math.max(best, n / secs / 1e9);
        }
        double cpuPerGb = userTicks / (double) clkTck / (bytes / 1e9);
        AtomicLong sessions = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(duration);
        long u0 = user(p);
        long t0 = System.nanoTime();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    try {
                        exchange(p.port, small);
                        sessions.incrementAndGet();
                    } catch (IOException e) {
                        // counted as not done
                    }
                }
            });
            t.start();
            ts.add(t);
        }
        for (Thread t : ts) {
            t.join();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long used = user(p) - u0;
        double perSession = used / (double) clkTck * 1e6 / Math.max(1, sessions.get());
        return new String[] {p.label, fmt(best), fmt(cpuPerGb), String.format(Locale.ROOT, "%,.0f",
            sessions.get() / secs), String.format(Locale.ROOT, "%.1f", perSession)};
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static long user(Proxy p) {
        long sum = 0;
        for (int pid : p.workers()) {
            sum += Proc.ticks(pid)[0];
        }
        return sum;
    }

    /** Sends the request and reads to the close; returns the bytes read. */
    private static long exchange(int port, byte[] request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(30000);
            OutputStream o = s.getOutputStream();
            o.write(request);
            o.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256 * 1024];
            long total = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                total += n;
            }
            return total;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
