package jinx.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Start, respawn and idle memory, against nginx ({@code bench/run start}, issue #35). Each round, for each server:
 * the time from starting the master to serving ({@code /hello} answered and every worker running: the pid file, the
 * listening sockets and the workers); with one worker, the time from {@code kill -9} of the worker to {@code /hello}
 * answered again (its replacement serves); with two workers idle for 2 s, the master's and each worker's resident
 * memory. Prints and writes {@code start.md}. Usage: {@code Start <jinx home> <clk_tck> [--rounds N] [--out DIR]}.
 */
final class Start {

    private int rounds = 3;
    private Path out;

    private Start() {
    }

    /**
     * Runs the rounds.
     *
     * @param args Jinx's home, the clock tick (unused), then the options
     * @throws Exception when a server does not start
     */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Start s = new Start();
        s.out = home.resolve("bench/target/results");
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> s.rounds = Integer.parseInt(args[++i]);
                case "--out" -> s.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        s.run(home);
    }

    private void run(Path home) throws Exception {
        Path work = Files.createTempDirectory("jinx-start");
        Path docroot = Files.createDirectories(work.resolve("html"));
        Map<String, List<Long>> figures = new TreeMap<>();
        int n = 0;
        for (int r = 0; r < rounds; r++) {
            for (Server.Kind kind : Server.Kind.values()) {
                long t0 = System.nanoTime();
                try (Server s = Server.start(kind, home, work.resolve(kind.label + "-" + n++), docroot, 2, 1024,
                        false)) {
                    add(figures, kind, "start", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                    Thread.sleep(2000);
                    add(figures, kind, "master", Proc.rssKb(s.masterPid()));
                    for (int pid : s.workerPids()) {
                        add(figures, kind, "worker", Proc.rssKb(pid));
                    }
                }
                try (Server s = Server.start(kind, home, work.resolve(kind.label + "-" + n++), docroot, 1, 1024,
                        false)) {
                    add(figures, kind, "respawn", respawnMs(s));
                }
            }
        }
        String md = report(figures);
        System.out.print(md);
        Files.createDirectories(out);
        Files.writeString(out.resolve("start.md"), md, StandardCharsets.UTF_8);
    }

    /** Kills the one worker and times until {@code /hello} is answered again, by its replacement. */
    private static long respawnMs(Server s) throws Exception {
        int worker = s.workerPids().get(0);
        long t0 = System.nanoTime();
        new ProcessBuilder("kill", "-9", Integer.toString(worker)).inheritIO().start().waitFor();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Integer> now = s.workerPids();
            if (!now.isEmpty() && !now.contains(worker) && s.get("/hello").startsWith("HTTP/1.1 200")) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            }
            Thread.sleep(2);
        }
        return -1;
    }

    private static void add(Map<String, List<Long>> figures, Server.Kind kind, String what, long value) {
        figures.computeIfAbsent(kind.label + " " + what, k -> new ArrayList<>()).add(value);
    }

    private String report(Map<String, List<Long>> f) {
        StringBuilder md = new StringBuilder("# Start, respawn and idle memory, against nginx\n\n")
            .append(String.format("`bench/run start`: %d rounds; the median, min-max in brackets.%n%n", rounds))
            .append("| | nginx | Jinx |\n| --- | --- | --- |\n");
        row(md, f, "start to serving (pid file, sockets, 2 workers serving), ms", "start", 1);
        row(md, f, "a killed worker's replacement serving (1 worker), ms", "respawn", 1);
        row(md, f, "RSS idle, master, MiB", "master", 1024);
        row(md, f, "RSS idle, each worker, MiB", "worker", 1024);
        return md.toString();
    }

    private static void row(StringBuilder md, Map<String, List<Long>> f, String name, String what, long unit) {
        md.append("| ").append(name);
        for (Server.Kind kind : Server.Kind.values()) {
            List<Long> v = new ArrayList<>(f.getOrDefault(kind.label + " " + what, List.of()));
            Collections.sort(v);
            md.append(" | ");
            if (v.isEmpty()) {
                md.append('-');
                continue;
            }
            md.append(fmt(v.get(v.size() / 2), unit)).append(" (").append(fmt(v.get(0), unit)).append('-')
                .append(fmt(v.get(v.size() - 1), unit)).append(')');
        }
        md.append(" |\n");
    }

    private static String fmt(long v, long unit) {
        return unit == 1 ? Long.toString(v) : String.format("%.1f", v / (double) unit);
    }
}
