package jinx.bench;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * UDP datagrams per second through the stream proxy, against nginx's ({@code bench/run udp}, issue #32): one worker
 * each, a UDP echo backend in this JVM, clients on distinct source ports sending in lock step (the next datagram
 * once the last was answered, a lost one given up after 200 ms). Two servers: {@code proxy_responses 1} (a session,
 * and an upstream socket, per datagram: DNS's pattern) and a long session per client ({@code proxy_timeout 10s}).
 * The figures: answers per second and the server's user CPU (its master and worker, from {@code /proc}) per
 * 100,000 answers. Writes {@code udp.md}. Usage: {@code Udp <jinx home> <clk_tck> [--seconds N] [--clients N]
 * [--out DIR]}.
 */
final class Udp {

    private int seconds = 10;
    private int clients = 8;
    private Path out;
    private long clkTck;

    private Udp() {
    }

    /**
     * Runs both servers, both scenarios.
     *
     * @param args Jinx's home, the clock tick, then the options
     * @throws Exception when a server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Udp u = new Udp();
        u.clkTck = Long.parseLong(args[1]);
        u.out = home.resolve("bench/target/results");
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> u.seconds = Integer.parseInt(args[++i]);
                case "--clients" -> u.clients = Integer.parseInt(args[++i]);
                case "--out" -> u.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        u.run(home);
    }

    private void run(Path home) throws Exception {
        StringBuilder md = new StringBuilder("# UDP through the stream proxy, against nginx\n\n")
            .append(String.format("`bench/run udp`: one worker each, %d clients in lock step, %d s a run, "
                + "8-byte datagrams to an echo backend.%n%n", clients, seconds))
            .append("| scenario | server | answers/s | lost | user CPU s per 100k | ratio (Jinx/nginx) answers/s | "
                + "ratio user CPU per answer |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        try (DatagramSocket backend = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            backend.setReceiveBufferSize(4 << 20);
            Thread echo = new Thread(() -> echo(backend), "udp-echo");
            echo.setDaemon(true);
            echo.start();
            Path work = Files.createTempDirectory("jinx-udp");
            for (String scenario : new String[] {"per-datagram", "per-client"}) {
                double[][] f = new double[2][];
                int k = 0;
                for (Server.Kind kind : Server.Kind.values()) {
                    f[k++] = measure(home, work.resolve(kind.label + "-" + scenario), kind, scenario,
                        backend.getLocalPort());
                }
                for (int i = 0; i < 2; i++) {
                    md.append(String.format("| %s | %s | %.0f | %.0f | %.2f | %s | %s |%n", scenario,
                        Server.Kind.values()[i].label, f[i][0], f[i][1], f[i][2],
                        i == 1 ? String.format("%.2f", f[1][0] / f[0][0]) : "",
                        i == 1 ? String.format("%.2f", f[1][2] / f[0][2]) : ""));
                }
            }
        }
        System.out.print(md);
        Files.createDirectories(out);
        Files.writeString(out.resolve("udp.md"), md, StandardCharsets.UTF_8);
    }

    /** Answers per second, datagrams lost, user CPU seconds per 100,000 answers. */
    private double[] measure(Path home, Path prefix, Server.Kind kind, String scenario, int backend)
        throws Exception {
        int port = freePort();
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("conf"));
        String session = scenario.equals("per-datagram") ? "proxy_responses 1;" : "proxy_timeout 10s;";
        String conf = (kind == Server.Kind.NGINX ? "load_module /usr/lib/nginx/modules/ngx_stream_module.so;\n" : "")
            + "master_process on;\ndaemon off;\nworker_processes 1;\npid logs/server.pid;\n"
            + "error_log logs/error.log notice;\nevents { worker_connections 4096; }\n"
            + "stream {\n    server { listen 127.0.0.1:" + port + " udp; proxy_pass 127.0.0.1:" + backend + "; "
            + session + " }\n}\n";
        Path file = prefix.resolve("conf/udp.conf");
        Path errorLog = prefix.resolve("logs/error.log");
        Files.writeString(file, conf);
        List<String> cmd = kind == Server.Kind.NGINX
            ? List.of("/usr/sbin/nginx", "-p", prefix + "/", "-c", file.toString(), "-e", errorLog.toString())
            : List.of(home.resolve("bin/jinx").toString(), "-p", prefix.toString(), "-c", file.toString(), "-e",
                errorLog.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        try {
            awaitAnswer(port, p);
            // a short warm-up (the JIT, for Jinx), then the measured run
            load(port, 2);
            List<Integer> pids = new ArrayList<>(Proc.children((int) p.pid()));
            pids.add((int) p.pid());
            long before = userTicks(pids);
            long[] r = load(port, seconds);
            long ticks = userTicks(pids) - before;
            double cpu = ticks / (double) clkTck;
            return new double[] {r[0] / (double) seconds, r[1], r[0] == 0 ? 0 : cpu * 100_000 / r[0]};
        } finally {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static long userTicks(List<Integer> pids) {
        long t = 0;
        for (int pid : pids) {
            t += Proc.ticks(pid)[0];
        }
        return t;
    }

    /** The clients for {@code secs}: answers and losses, summed. */
    private long[] load(int port, int secs) throws Exception {
        AtomicLong answers = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Thread t = new Thread(() -> client(port, stop, answers, lost), "udp-client-" + i);
            t.start();
            threads.add(t);
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(secs));
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        return new long[] {answers.get(), lost.get()};
    }

    private static void client(int port, AtomicBoolean stop, AtomicLong answers, AtomicLong lost) {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.setSoTimeout(200);
            InetSocketAddress to = new InetSocketAddress("127.0.0.1", port);
            byte[] out = "datagram".getBytes(StandardCharsets.US_ASCII);
            byte[] in = new byte[64];
            long n = 0;
            long l = 0;
            while (!stop.get()) {
                s.send(new DatagramPacket(out, out.length, to));
                try {
                    s.receive(new DatagramPacket(in, in.length));
                    n++;
                } catch (SocketTimeoutException e) {
                    l++;
                }
            }
            answers.addAndGet(n);
            lost.addAndGet(l);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitAnswer(int port, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.setSoTimeout(100);
            byte[] b = "ready?".getBytes(StandardCharsets.US_ASCII);
            while (System.nanoTime() < deadline) {
                if (!p.isAlive()) {
                    throw new IOException("the server exited with " + p.exitValue());
                }
                s.send(new DatagramPacket(b, b.length, new InetSocketAddress("127.0.0.1", port)));
                try {
                    s.receive(new DatagramPacket(new byte[64], 64));
                    return;
                } catch (SocketTimeoutException e) {
                    // not serving yet
                }
            }
        }
        throw new IOException("no answer on UDP port " + port + " within 60 s");
    }

    private static void echo(DatagramSocket backend) {
        byte[] buf = new byte[65536];
        while (!backend.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                backend.receive(p);
                backend.send(new DatagramPacket(buf, p.getLength(), p.getSocketAddress()));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
