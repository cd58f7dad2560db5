package jinx.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak ({@code bench/run soak}, issue #36): Jinx alone, a master and two workers with {@code access_log}, under
 * the mixed load of {@link SoakLoad} for {@code --minutes} (30), while the operator's actions come on a schedule: a
 * reload (HUP) every 30 s (at 10 and 40 s of each minute), {@code kill -9} of a worker every 2 minutes (at 55 s of
 * every other minute, the two workers in turn) and a log rotation every 5 minutes ({@code mv logs/access.log
 * logs/access.log.N} and {@code bin/jinx -s reopen}, at 2:05 of each five). At the end of each minute it prints the
 * requests that succeeded and failed in it (the failures split as {@link SoakLoad} counts them), the resident memory
 * and the open descriptors of the master and of each worker; at the end the totals, the access-log lines lost
 * (requests the clients counted as answered against the clients' lines in the rotated and current logs), the error
 * log's lines by level, and a leak check: the least-squares slope of each figure over the minutes after the first.
 * Prints and writes {@code soak.md}. Usage: {@code Soak <jinx home> <clk_tck> [--minutes N] [--out DIR]}.
 */
final class Soak {

    private static final Pattern LEVEL = Pattern.compile(" \\[(emerg|alert|crit|error|warn)\\] ");
    private static final Pattern PAUSE = Pattern.compile("Pause \\w+.* (\\d+)M->(\\d+)M\\((\\d+)M\\)");

    /** One minute's figures. */
    private record Minute(int n, long ok, long failed, long killed, long nearKill, long retried, String events,
                          long masterRss, int masterFds, List<long[]> workers) {

        double workerRss() {
            return workers.stream().mapToLong(w -> w[1]).average().orElse(0) / 1024.0;
        }

        double workerFds() {
            return workers.stream().mapToLong(w -> w[2]).average().orElse(0);
        }
    }

    private int minutes = 30;
    private Path out;
    private final StringBuilder md = new StringBuilder();

    private Soak() {
    }

    /**
     * Runs the soak.
     *
     * @param args Jinx's home, the clock tick (unused), then the options
     * @throws Exception when the server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Soak s = new Soak();
        s.out = home.resolve("bench/target/results");
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes" -> s.minutes = Integer.parseInt(args[++i]);
                case "--out" -> s.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        s.run(home);
    }

    private void run(Path home) throws Exception {
        Path work = Files.createTempDirectory("jinx-soak");
        Path docroot = Files.createDirectories(work.resolve("html"));
        long big = 4L << 20;
        Files.write(docroot.resolve("big.bin"), new byte[(int) big]);
        Files.write(docroot.resolve("slow.bin"), new byte[256 * 1024]);
        try (Server s = Server.start(Server.Kind.JINX, home, work.resolve("jinx"), docroot, 2, 1024, true)) {
            print(String.format("# Soak: %d minutes%n%nJinx at %s, 2 workers, `access_log` on; load: 4 keep-alive "
                + "clients of `/hello` (5 ms apart), 2 on a new connection each (10 ms), one of a 4 MiB file "
                + "(100 ms), 2 slow ones (a request over 1 s, a 256 KiB file read 4 KiB per 10 ms); HUP every 30 s, "
                + "a worker killed every 2 min, the access log rotated every 5 min. Prefix %s.%n%n", minutes,
                java.time.Instant.now(), s.prefix));
            print("| min | ok | failed | on killed worker | near a kill | keep-alive retried | events | master RSS MiB "
                + "| master fds | workers: pid RSS MiB fds |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- "
                + "| --- |\n");
            SoakLoad load = new SoakLoad(s.port, big);
            load.start(4, 2, 1, 2);
            List<Minute> rows = new ArrayList<>();
            int[] counts = new int[4];
            try {
                drive(home, s, load, rows, counts);
            } finally {
                load.stop();
            }
            summary(s, load, rows, counts);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("soak.md"), md, StandardCharsets.UTF_8);
    }

    /** The schedule, second by second; counts[]: HUPs, kills, rotations, failed reopen commands. */
    private void drive(Path home, Server s, SoakLoad load, List<Minute> rows, int[] counts) throws Exception {
        long t0 = System.nanoTime();
        long[] last = new long[5];
        StringBuilder events = new StringBuilder();
        for (int t = 1; t <= minutes * 60; t++) {
            long wait = t0 + TimeUnit.SECONDS.toNanos(t) - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (t % 30 == 10) {
                s.reload();
                counts[0]++;
                events.append('H');
            }
            if (t % 120 == 55) {
                kill(s, load, counts[1]++);
                events.append('K');
            }
            if (t % 300 == 125) {
                counts[3] += rotate(home, s, ++counts[2]) ? 0 : 1;
                events.append('R');
            }
            if (t % 60 == 0) {
                long[] now = {load.ok.sum(), load.failedOther.sum(), load.failedKilled.sum(),
                    load.failedNearKill.sum(), load.retried.sum()};
                Minute m = sample(s, t / 60, now, last, events.toString());
                rows.add(m);
                print(row(m));
                last = now;
                events.setLength(0);
            }
        }
    }

    private static void kill(Server s, SoakLoad load, int n) throws IOException, InterruptedException {
        List<Integer> workers = s.workerPids();
        if (workers.isEmpty()) {
            return;
        }
        int pid = workers.get(n % workers.size());
        load.killing(Proc.clientPorts(pid, s.port));
        new ProcessBuilder("kill", "-KILL", Integer.toString(pid)).inheritIO().start().waitFor();
    }

    /** Moves the access log aside and runs {@code jinx -s reopen}; whether the command succeeded. */
    private static boolean rotate(Path home, Server s, int n) throws IOException, InterruptedException {
        Path log = s.prefix.resolve("logs/access.log");
        Files.move(log, s.prefix.resolve("logs/access.log." + n));
        Process p = new ProcessBuilder(home.resolve("bin/jinx").toString(), "-p", s.prefix.toString(),
            "-c", s.prefix.resolve("conf/bench.conf").toString(), "-s", "reopen")
            .redirectErrorStream(true).redirectOutput(s.prefix.resolve("logs/reopen-" + n + ".out").toFile()).start();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static Minute sample(Server s, int n, long[] now, long[] last, String events) {
        List<long[]> workers = new ArrayList<>();
        for (int pid : s.workerPids()) {
            workers.add(new long[] {pid, Proc.rssKb(pid), Proc.fdCount(pid)});
        }
        int master = s.masterPid();
        return new Minute(n, now[0] - last[0], now[1] - last[1], now[2] - last[2], now[3] - last[3],
            now[4] - last[4], events.isEmpty() ? "-" : events, Proc.rssKb(master), Proc.fdCount(master), workers);
    }

    private static String row(Minute m) {
        StringBuilder w = new StringBuilder();
        for (long[] x : m.workers()) {
            w.append(w.length() == 0 ? "" : ", ").append(String.format("%d %.1f %d", x[0], x[1] / 1024.0, x[2]));
        }
        return String.format("| %d | %d | %d | %d | %d | %d | %s | %.1f | %d | %s |%n", m.n(), m.ok(), m.failed(),
            m.killed(), m.nearKill(), m.retried(), m.events(), m.masterRss() / 1024.0, m.masterFds(), w);
    }

    private void summary(Server s, SoakLoad load, List<Minute> rows, int[] counts) throws Exception {
        // the server stops first, gracefully, so that every line it will write is in the logs
        s.close();
        long[] lines = logLines(s.prefix.resolve("logs"));
        long ok = load.ok.sum();
        print(String.format("%nEvents: %d HUPs, %d workers killed, %d rotations (%d reopen commands failed).%n%n",
            counts[0], counts[1], counts[2], counts[3]));
        print(String.format("Requests: %d ok, %d failed (other than below), %d failed on the killed workers' "
            + "connections (%.1f per kill), %d failed within %d ms of a kill on connections not seen on the killed "
            + "worker, %d keep-alive connections closed by the server between requests (the request sent again).%n",
            ok, load.failedOther.sum(), load.failedKilled.sum(),
            counts[1] == 0 ? 0.0 : (double) load.failedKilled.sum() / counts[1], load.failedNearKill.sum(),
            SoakLoad.NEAR_KILL_MS, load.retried.sum()));
        synchronized (load.samples) {
            for (String f : load.samples) {
                print("- " + f + "\n");
            }
        }
        print(String.format("%nAccess log: %d lines of the clients' requests in %d files (%d with a status other "
            + "than 200); the clients counted %d ok: %d lost%s.%n", lines[0], lines[2], lines[1], ok,
            Math.max(0, ok - lines[0] + lines[1]),
            lines[0] - lines[1] > ok ? " (" + (lines[0] - lines[1] - ok) + " more 200 lines than ok requests: "
                + "responses logged whose client failed)" : ""));
        print("\nError log: " + errorLevels(s.prefix.resolve("logs/error.log")) + "\n");
        print("\nMaster's collections (its -Xlog:gc): " + collections(s.prefix.resolve("logs"), s.masterPid())
            + "\n");
        leakCheck(rows);
    }

    /** The clients' lines ({@code "soak"} as the user agent), those of them not 200, and the files read. */
    private static long[] logLines(Path logs) throws IOException {
        long[] n = new long[3];
        try (DirectoryStream<Path> files = Files.newDirectoryStream(logs, "access.log*")) {
            for (Path f : files) {
                n[2]++;
                try (var lines = Files.lines(f, StandardCharsets.ISO_8859_1)) {
                    lines.filter(l -> l.endsWith("\"soak\"")).forEach(l -> {
                        n[0]++;
                        if (!l.contains("\" 200 ")) {
                            n[1]++;
                        }
                    });
                }
            }
        }
        return n;
    }

    private static String errorLevels(Path log) throws IOException {
        Map<String, Integer> levels = new TreeMap<>();
        int signal9 = 0;
        List<String> others = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
            Matcher m = LEVEL.matcher(line);
            if (m.find()) {
                levels.merge(m.group(1), 1, Integer::sum);
            }
            if (line.contains("exited on signal 9")) {
                signal9++;
            } else if (m.find(0) && others.size() < 10) {
                others.add("\n- " + line);
            }
        }
        return levels + " (" + signal9 + " lines \"exited on signal 9\")" + String.join("", others);
    }

    /**
     * The collections in a JVM's {@code gc-<pid>.log} files (the master re-execs itself, so it has two), and the
     * heap after the first and the last: a heap that grows without a collection is not a leak yet.
     */
    private static String collections(Path logs, int pid) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(logs, "gc-" + pid + ".log*")) {
            dir.forEach(files::add);
        }
        // gc-<pid>.log.0 is the JVM before the re-exec
        files.sort((a, b) -> Boolean.compare(a.toString().endsWith(".log"), b.toString().endsWith(".log")));
        List<String> after = new ArrayList<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f, StandardCharsets.ISO_8859_1)) {
                Matcher m = PAUSE.matcher(line);
                if (m.find()) {
                    after.add(m.group(2) + "M of " + m.group(3) + "M");
                }
            }
        }
        return after.isEmpty() ? "none" : after.size() + ", heap after the first " + after.get(0) + ", after the last "
            + after.get(after.size() - 1);
    }

    /** The slope of each figure over the minutes after the first, per 10 minutes, and the first and last. */
    private void leakCheck(List<Minute> rows) {
        List<Minute> r = rows.size() > 2 ? rows.subList(1, rows.size()) : rows;
        print("\nLeak check (least-squares slope over minutes " + (r.isEmpty() ? 0 : r.get(0).n()) + "-"
            + rows.size() + ", per 10 minutes; first and last minute):\n\n");
        slope(r, "master RSS", "MiB", m -> m.masterRss() / 1024.0);
        slope(r, "master descriptors", "", m -> m.masterFds());
        slope(r, "worker RSS (mean of the workers)", "MiB", Minute::workerRss);
        slope(r, "worker descriptors (mean)", "", Minute::workerFds);
        slope(r, "workers running", "", m -> m.workers().size());
    }

    private void slope(List<Minute> r, String name, String unit, ToDoubleFunction<Minute> f) {
        if (r.size() < 2) {
            return;
        }
        double mx = 0;
        double my = 0;
        for (Minute m : r) {
            mx += m.n();
            my += f.applyAsDouble(m);
        }
        mx /= r.size();
        my /= r.size();
        double num = 0;
        double den = 0;
        for (Minute m : r) {
            num += (m.n() - mx) * (f.applyAsDouble(m) - my);
            den += (m.n() - mx) * (m.n() - mx);
        }
        double perTen = num / den * 10;
        print(String.format("- %s: %+.2f %s per 10 min (%.1f to %.1f)%n", name, perTen, unit,
            f.applyAsDouble(r.get(0)), f.applyAsDouble(r.get(r.size() - 1))));
    }

    private void print(String s) {
        System.out.print(s);
        System.out.flush();
        md.append(s);
    }
}
