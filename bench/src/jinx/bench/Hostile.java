package jinx.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a large hostile request costs a worker, against nginx ({@code bench/run hostile}): both servers run the
 * bench configuration with one worker, and each kind of request below is sent on a new connection of its own, read
 * to the server's close, first to warm both up, then in alternating sets whose CPU is the master's and the
 * worker's time on a CPU from {@code /proc/<pid>/task/<tid>/schedstat} (nanoseconds; the ticks of {@code stat} are
 * too coarse for a set of a few hundred milliseconds). Prints and writes {@code hostile.md} with the median of the
 * sets and each set's figure: only figures of the same set compare, since the host moves them by up to half within
 * minutes. Usage: {@code Hostile <jinx home> <clk_tck> [--quick] [--warm N] [--sets N] [--per-set N] [--only a,b]
 * [--out DIR]}.
 */
final class Hostile {

    /**
     * One kind of request.
     *
     * @param name the option's name
     * @param what what the table says
     * @param request the bytes sent
     * @param cost how many times a plain request's work it makes, roughly: it is sent that many times fewer
     */
    private record Case(String name, String what, byte[] request, int cost) {
    }

    private int warm = 12_000;
    private int sets = 5;
    private int perSet = 4_000;
    private List<String> only = List.of();
    private Path out;
    private long clkTck = 100;

    private Hostile() {
    }

    /**
     * Runs the cases.
     *
     * @param args Jinx's home, the clock tick ({@code getconf CLK_TCK}), then the options
     * @throws Exception when a server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Hostile h = new Hostile();
        h.out = home.resolve("bench/target/results");
        h.clkTck = Long.parseLong(args[1]);
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> {
                    h.warm = 1_000;
                    h.perSet = 500;
                }
                case "--warm" -> h.warm = Integer.parseInt(args[++i]);
                case "--sets" -> h.sets = Integer.parseInt(args[++i]);
                case "--per-set" -> h.perSet = Integer.parseInt(args[++i]);
                case "--only" -> h.only = List.of(args[++i].split(","));
                case "--out" -> h.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        h.run(home);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String times(String s, int n) {
        return s.repeat(n);
    }

    /** The requests of {@code bench/FINDINGS.md}'s table, each 7-18 KB but the first. */
    static List<Case> cases() {
        String close = "Host: localhost\r\nConnection: close\r\n";
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 999; i++) {
            lines.append('X').append(i).append(": 1\r\n");
        }
        StringBuilder ranges = new StringBuilder("bytes=0-0");
        for (int i = 1; i < 1000; i++) {
            ranges.append(',').append(i).append('-').append(i);
        }
        List<Case> c = new ArrayList<>();
        c.add(new Case("plain", "`GET /hello` with `Connection: close` (for comparison)",
            bytes("GET /hello HTTP/1.1\r\n" + close + "\r\n"), 1));
        c.add(new Case("dots", "`GET /a/../a/../...hello` (1,400 dot segments)",
            bytes("GET " + times("/a/..", 1400) + "/hello HTTP/1.1\r\n" + close + "\r\n"), 1));
        c.add(new Case("escapes", "`GET /%61%61...` (2,500 escapes, a 404 and its log line)",
            bytes("GET /" + times("%61", 2500) + " HTTP/1.1\r\n" + close + "\r\n"), 1));
        c.add(new Case("cookie", "`Cookie: k=v; k=v; ...` (1,500 pairs)",
            bytes("GET /hello HTTP/1.1\r\n" + close + "Cookie: k=v" + times("; k=v", 1499) + "\r\n\r\n"), 1));
        c.add(new Case("value", "one 8,000-byte header value",
            bytes("GET /hello HTTP/1.1\r\n" + close + "X-Long: " + times("v", 8000) + "\r\n\r\n"), 1));
        c.add(new Case("args", "`GET /hello?a=1&a=1&...` (1,900 arguments)",
            bytes("GET /hello?a=1" + times("&a=1", 1899) + " HTTP/1.1\r\n" + close + "\r\n"), 1));
        c.add(new Case("chunks", "chunked body of 3,000 one-byte chunks, discarded (18 KB)",
            bytes("POST /hello HTTP/1.1\r\n" + close + "Transfer-Encoding: chunked\r\n\r\n"
                + times("1\r\na\r\n", 3000) + "0\r\n\r\n"), 1));
        c.add(new Case("ranges", "`Range: bytes=0-0,1-1,...` on a 1 KB file (1,000 ranges, multipart 206)",
            bytes("GET /1k.bin HTTP/1.1\r\n" + close + "Range: " + ranges + "\r\n\r\n"), 50));
        c.add(new Case("slashes", "`GET /////...hello` (7,000 slashes, `merge_slashes on`)",
            bytes("GET " + times("/", 7000) + "hello HTTP/1.1\r\n" + close + "\r\n"), 1));
        c.add(new Case("names", "999 header lines `Xn: 1` (a 400: 1,001 lines with `Host` and `Connection`)",
            bytes("GET /hello HTTP/1.1\r\n" + close + lines + "\r\n"), 1));
        return c;
    }

    private void run(Path home) throws Exception {
        Path work = Files.createTempDirectory("jinx-hostile");
        Path docroot = Files.createDirectories(work.resolve("html"));
        Files.write(docroot.resolve("1k.bin"), new byte[1024]);
        List<Case> cases = new ArrayList<>();
        for (Case c : cases()) {
            if (only.isEmpty() || only.contains(c.name())) {
                cases.add(c);
            }
        }
        StringBuilder md = new StringBuilder("# What a hostile request costs, against nginx\n\n")
            .append(String.format("`bench/run hostile`: %d requests of each kind to warm up (all kinds "
                + "interleaved, and more until Jinx's JIT compilers rest), then %d sets of %d, alternating the servers; us of CPU per request of "
                + "master and worker (one worker), each request on a new connection; the median of the sets, each "
                + "set's figure in brackets. Requests of a cost above one are sent that many times fewer. The last "
                + "column: CPU of Jinx's JIT compiler threads during the kind's sets, which the figures include.%n%n",
                warm, sets, perSet))
            .append("| request | status nginx / Jinx | nginx | Jinx | Jinx / nginx | Jinx JIT ms in the sets |\n")
            .append("| --- | --- | --- | --- | --- | --- |\n");
        try (Server nginx = Server.start(Server.Kind.NGINX, home, work.resolve("nginx"), docroot, 1, 1024, false);
             Server jinx = Server.start(Server.Kind.JINX, home, work.resolve("jinx"), docroot, 1, 1024, false)) {
            List<Map<String, Integer>> statuses = new ArrayList<>();
            for (int k = 0; k < cases.size(); k++) {
                statuses.add(new LinkedHashMap<>());
                statuses.add(new LinkedHashMap<>());
            }
            // the kinds are interleaved, so that the JIT compiles with a profile of all of them: one kind after
            // another, each compiled method met the next kind's branches as never taken, and was compiled again
            warm(nginx, cases, statuses, 0);
            warm(jinx, cases, statuses, 1);
            awaitCompilersRest(jinx);
            for (int k = 0; k < cases.size(); k++) {
                Case c = cases.get(k);
                Map<String, Integer> nginxStatus = statuses.get(2 * k);
                Map<String, Integer> jinxStatus = statuses.get(2 * k + 1);
                double[] a = new double[sets];
                double[] b = new double[sets];
                int m = Math.max(1, perSet / c.cost());
                long jit = Proc.compilerTicks(jinx.pids());
                for (int s = 0; s < sets; s++) {
                    // the server that goes first alternates, so that neither always meets the host's drift first
                    if (s % 2 == 0) {
                        a[s] = measure(nginx, c, m, nginxStatus);
                        b[s] = measure(jinx, c, m, jinxStatus);
                    } else {
                        b[s] = measure(jinx, c, m, jinxStatus);
                        a[s] = measure(nginx, c, m, nginxStatus);
                    }
                }
                jit = (Proc.compilerTicks(jinx.pids()) - jit) * 1000 / clkTck;
                String line = String.format("| %s | %s / %s | %s | %s | %.2fx | %d |", c.what(), statuses(nginxStatus),
                    statuses(jinxStatus), figure(a), figure(b), median(b) / median(a), jit);
                System.err.println("hostile: " + c.name() + ": " + line);
                md.append(line).append('\n');
            }
        } finally {
            delete(work);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("hostile.md"), md);
        System.out.println(md);
        System.err.println("hostile: written to " + out.resolve("hostile.md"));
    }

    /**
     * Sends {@link #warm} requests of each kind, interleaved, then more, a tenth of that at a time, until the JIT
     * compiler threads did not run during such a tenth (ten times at most): Jinx's workers compile a method at its
     * 15,000th call ({@code -XX:CompileThresholdScaling=3}), and a method called once per request then compiled in
     * the middle of the measured sets.
     *
     * @param statuses two per kind, nginx's then Jinx's
     * @param which 0 for nginx's, 1 for Jinx's
     */
    private void warm(Server server, List<Case> cases, List<Map<String, Integer>> statuses, int which)
            throws IOException {
        interleaved(server, cases, statuses, which, warm);
        for (int i = 0; i < 10; i++) {
            long before = Proc.compilerTicks(server.pids());
            interleaved(server, cases, statuses, which, warm / 10);
            if (Proc.compilerTicks(server.pids()) == before) {
                return;
            }
        }
    }

    /** Sends {@code n} rounds of one request of each kind (of a kind of cost c, every c-th round). */
    private static void interleaved(Server server, List<Case> cases, List<Map<String, Integer>> statuses, int which,
                                    int n) throws IOException {
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < cases.size(); k++) {
                Case c = cases.get(k);
                if (i % c.cost() == 0) {
                    send(server, c, 1, statuses.get(2 * k + which));
                }
            }
        }
    }

    /** Waits until the server's JIT compiler threads used no CPU for two seconds, 60 s at most. */
    private static void awaitCompilersRest(Server server) throws InterruptedException {
        long last = Proc.compilerTicks(server.pids());
        int still = 0;
        for (int i = 0; i < 60 && still < 2; i++) {
            Thread.sleep(1000);
            long now = Proc.compilerTicks(server.pids());
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    /** Sends {@code n} requests and returns the CPU of master and worker per request in us. */
    private static double measure(Server server, Case c, int n, Map<String, Integer> status) throws IOException {
        List<Integer> pids = server.pids();
        long before = Proc.cpuNanos(pids);
        send(server, c, n, status);
        return (Proc.cpuNanos(pids) - before) / 1000.0 / n;
    }

    private static void send(Server server, Case c, int n, Map<String, Integer> status) throws IOException {
        byte[] buf = new byte[16384];
        for (int i = 0; i < n; i++) {
            status.merge(exchange(server.port, c.request(), buf), 1, Integer::sum);
        }
    }

    /** One request on a new connection, read to the server's close: the response's status code, or what failed. */
    private static String exchange(int port, byte[] request, byte[] buf) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream o = s.getOutputStream();
            o.write(request);
            o.flush();
            InputStream in = s.getInputStream();
            // "HTTP/1.1 200": the status is in the first twelve bytes; the rest is read and dropped
            byte[] head = new byte[12];
            int have = 0;
            for (int r; (r = in.read(buf)) >= 0; ) {
                int take = Math.min(r, head.length - have);
                System.arraycopy(buf, 0, head, have, take);
                have += take;
            }
            return have < head.length ? "closed" : new String(head, 9, 3, StandardCharsets.ISO_8859_1);
        }
    }

    private static String statuses(Map<String, Integer> status) {
        return status.size() == 1 ? status.keySet().iterator().next() : status.toString();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String figure(double[] v) {
        StringBuilder sb = new StringBuilder(String.format("%.0f (", median(v)));
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format("%.0f", v[i]));
        }
        return sb.append(')').toString();
    }

    private static void delete(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
