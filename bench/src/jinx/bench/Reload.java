package jinx.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reload under load, against nginx ({@code bench/run reload}, issue #35): each server runs the bench configuration
 * with two workers under {@code wrk -t2 -c100} on {@code /hello} (a {@code return 200}) while the configuration is
 * rewritten with a new body and the master gets HUP once a second. A client polls {@code /hello} on new connections
 * after each HUP until the new body comes back: that is the time from HUP to new content. wrk's timeout is 2 s, so
 * its timeout count is the requests that took longer. Prints and writes {@code reload.md}. Usage:
 * {@code Reload <jinx home> <clk_tck> [--duration S] [--hups N] [--user "nobody nogroup"] [--out DIR]}.
 */
final class Reload {

    private static final Pattern TIMEOUTS = Pattern.compile("Socket errors: .*timeout (\\d+)");

    /** One server's figures. */
    private record Figures(Wrk.Result wrk, long timeouts, List<Long> switchMs, int unseen) {
    }

    private int duration = 20;
    private int hups = 10;
    private Path out;

    private Reload() {
    }

    /**
     * Runs the scenario for nginx, then Jinx.
     *
     * @param args Jinx's home, the clock tick (unused), then the options
     * @throws Exception when a server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Reload r = new Reload();
        r.out = home.resolve("bench/target/results");
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--duration" -> r.duration = Integer.parseInt(args[++i]);
                case "--hups" -> r.hups = Integer.parseInt(args[++i]);
                case "--out" -> r.out = Path.of(args[++i]).toAbsolutePath();
                // as root, the workers of both servers run as another user: the default of a master started as root
                case "--user" -> Conf.user = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        r.run(home);
    }

    private void run(Path home) throws Exception {
        Path work = Files.createTempDirectory("jinx-reload");
        Path docroot = Files.createDirectories(work.resolve("html"));
        if (Conf.user != null) {
            // the workers, another user, must reach the document root
            Files.setPosixFilePermissions(work, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<Figures> all = new ArrayList<>();
        for (Server.Kind kind : Server.Kind.values()) {
            try (Server s = Server.start(kind, home, work.resolve(kind.label), docroot, 2, 1024, false)) {
                all.add(measure(s));
            }
        }
        String md = report(all);
        System.out.print(md);
        Files.createDirectories(out);
        Files.writeString(out.resolve("reload.md"), md, StandardCharsets.UTF_8);
    }

    private Figures measure(Server s) throws Exception {
        String base = s.conf();
        AtomicReference<Object> load = new AtomicReference<>();
        Thread wrk = new Thread(() -> {
            try {
                load.set(Wrk.run("http://127.0.0.1:" + s.port + "/hello", 2, 100, duration, List.of(), 2));
            } catch (Exception e) {
                load.set(e);
            }
        });
        wrk.start();
        // the load runs alone for a while before the first HUP and after the last one
        long start = System.nanoTime();
        Thread.sleep(Math.max(0, (duration - hups) * 1000L / 2));
        List<Long> switchMs = new ArrayList<>();
        int unseen = 0;
        for (int i = 1; i <= hups; i++) {
            long at = System.nanoTime();
            String body = "gen" + i + "\n";
            s.writeConf(base.replace("return 200 \"hello\\n\";", "return 200 \"gen" + i + "\\n\";"));
            s.reload();
            long seen = awaitBody(s, body, at + TimeUnit.SECONDS.toNanos(5));
            if (seen < 0) {
                unseen++;
            } else {
                switchMs.add(TimeUnit.NANOSECONDS.toMillis(seen - at));
            }
            long next = at + TimeUnit.SECONDS.toNanos(1);
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
            }
        }
        wrk.join(TimeUnit.SECONDS.toMillis(duration + 60L) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        if (load.get() instanceof Exception e) {
            throw e;
        }
        Wrk.Result r = (Wrk.Result) load.get();
        Matcher t = TIMEOUTS.matcher(r.output());
        return new Figures(r, t.find() ? Long.parseLong(t.group(1)) : 0, switchMs, unseen);
    }

    /** When {@code body} came back on a new connection (nanoTime), or -1 at the deadline. */
    private static long awaitBody(Server s, String body, long deadline) throws InterruptedException {
        while (System.nanoTime() < deadline) {
            String r = s.get("/hello");
            if (r.endsWith("\r\n\r\n" + body)) {
                return System.nanoTime();
            }
            Thread.sleep(5);
        }
        return -1;
    }

    private String report(List<Figures> all) {
        StringBuilder md = new StringBuilder("# Reload under load, against nginx\n\n")
            .append(String.format("`bench/run reload`: 2 workers, `wrk -t2 -c100 -d%ds --timeout 2s` on `/hello` "
                + "(`return 200`), %d HUPs one second apart with a new body each; the time from HUP until a new "
                + "connection gets the new body.%n%n", duration, hups))
            .append("| | nginx | Jinx |\n| --- | --- | --- |\n");
        row(md, "p99 latency during the run", all, f -> String.format("%.1f ms", f.wrk().p99Ms()));
        row(md, "requests that timed out (> 2 s)", all, f -> Long.toString(f.timeouts()));
        row(md, "other socket errors, non-2xx", all,
            f -> (f.wrk().errors() - f.timeouts()) + ", " + f.wrk().non2xx3xx());
        row(md, "requests/s over the run", all, f -> String.format("%.0f", f.wrk().rps()));
        row(md, "new content after a HUP: median / max", all, f -> switchText(f));
        return md.toString();
    }

    private static String switchText(Figures f) {
        if (f.switchMs().isEmpty()) {
            return "never";
        }
        List<Long> s = new ArrayList<>(f.switchMs());
        Collections.sort(s);
        return s.get(s.size() / 2) + " / " + s.get(s.size() - 1) + " ms"
            + (f.unseen() > 0 ? " (" + f.unseen() + " not within 5 s)" : "");
    }

    private static void row(StringBuilder md, String name, List<Figures> all,
                            java.util.function.Function<Figures, String> cell) {
        md.append("| ").append(name);
        for (Figures f : all) {
            md.append(" | ").append(cell.apply(f));
        }
        md.append(" |\n");
    }
}
