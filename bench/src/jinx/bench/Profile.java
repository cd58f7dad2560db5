package jinx.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where a server's CPU goes under a scenario's load, from {@code perf} ({@code bench/run --profile}): master and
 * workers sampled on the CPU clock every {@link #PERIOD_NS} ns of CPU while wrk runs, each sample put in one
 * place: the kernel, the server's own code (nginx's binary; Jinx's compiled Java, named through the perf map
 * that {@code jcmd <pid> Compiler.perfmap} writes, its JNI glue and {@code libjinxio}), libc, the JVM (libjvm),
 * another thread than the one that serves (a JVM's compiler, collector and the like) or elsewhere; and the
 * syscalls and context switches per request, counted on their tracepoints. The samples of a paravirtualised
 * kernel land where interrupts are enabled again, so a syscall's cost shows partly in libc, at the instruction
 * after the syscall.
 */
final class Profile {

    /** One sample per 250 us of a process's CPU: about 20,000 samples in 5 s of one busy core. */
    static final long PERIOD_NS = 250_000;
    /** Where samples are put, in the table's order. */
    static final List<String> PLACES = List.of("kernel", "server code", "libc", "JVM", "other threads", "elsewhere");
    /** The syscalls counted per request, and the total. */
    static final List<String> SYSCALLS = List.of("epoll_wait", "accept4", "recvfrom", "read", "writev", "sendto",
        "sendfile64", "openat", "newfstat", "newfstatat", "statx", "close");
    private static final int TOP = 15;
    /** How long syscalls are counted, after the sampling. */
    private static final int COUNT_SECONDS = 2;

    /** A symbol's CPU per request, with where it ran. */
    record Symbol(String place, String dso, String name, double usPerRequest) {
    }

    final String scenario;
    final String server;
    final double rps;
    final double usPerRequest;
    /** Place to microseconds per request. */
    final Map<String, Double> places = new LinkedHashMap<>();
    /** Syscall (and "all syscalls", "context switches") to count per request; empty if perf could not count. */
    final Map<String, Double> counts = new LinkedHashMap<>();
    final List<Symbol> user = new ArrayList<>();
    final List<Symbol> kernel = new ArrayList<>();

    private Profile(String scenario, String server, double rps, double usPerRequest) {
        this.scenario = scenario;
        this.server = server;
        this.rps = rps;
        this.usPerRequest = usPerRequest;
    }

    /**
     * Whether perf can sample another process here: it runs, and this user is root or the kernel lets anyone
     * ({@code perf_event_paranoid} at most 1).
     *
     * @return null if it can, else why not
     */
    static String unavailable() {
        try {
            Process p = new ProcessBuilder("perf", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "perf --version failed (Debian: apt-get install linux-perf)";
            }
        } catch (IOException | InterruptedException e) {
            return "no perf (Debian: apt-get install linux-perf)";
        }
        if ("root".equals(System.getProperty("user.name"))) {
            return null;
        }
        try {
            String level = Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).trim();
            return Integer.parseInt(level) <= 1 ? null : "perf_event_paranoid is " + level + ": run as root";
        } catch (IOException | NumberFormatException e) {
            return "cannot read /proc/sys/kernel/perf_event_paranoid";
        }
    }

    /**
     * Profiles a server: wrk for {@code seconds} + 2 s, and from 1 s in perf samples for {@code seconds} (the
     * requests: wrk's requests/s times that); then another wrk run of {@link #COUNT_SECONDS} inside a window of
     * perf counting syscalls (its requests: all of that run's).
     *
     * @param scenario the scenario's name
     * @param server the server, warm
     * @param url wrk's URL
     * @param s the scenario (wrk's threads and connections)
     * @param headers wrk's extra headers
     * @param seconds how long perf samples
     * @param dir where perf's files go
     * @return the profile
     */
    static Profile record(String scenario, Server server, String url, Scenario s, List<String> headers,
                          int seconds, Path dir) throws Exception {
        Files.createDirectories(dir);
        String label = server.kind.label;
        Path data = dir.resolve(scenario + "-" + label + ".data");
        Path stat = dir.resolve(scenario + "-" + label + ".stat");
        String pids = String.join(",", server.pids().stream().map(String::valueOf).toList());
        CompletableFuture<Wrk.Result> load = CompletableFuture.supplyAsync(() -> {
            try {
                return Wrk.run(url, s.threads(), s.connections(), 1 + seconds + 1, headers);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(1000);
        finish(quiet(List.of("perf", "record", "-q", "-e", "cpu-clock", "-c", String.valueOf(PERIOD_NS),
            "-o", data.toString(), "-p", pids, "--", "sleep", String.valueOf(seconds)),
            dir.resolve("perf-record.log")), seconds);
        Wrk.Result r = load.get(seconds + 60L, TimeUnit.SECONDS);
        // counted apart from the sampling, since the tracepoints cost the kernel about 1 us per request, and over
        // a whole wrk run, whose requests are then all in the window
        List<String> count = new ArrayList<>(List.of("perf", "stat", "-x", ",", "-o", stat.toString(),
            "-e", "raw_syscalls:sys_enter", "-e", "context-switches"));
        for (String call : SYSCALLS) {
            count.add("-e");
            count.add("syscalls:sys_enter_" + call);
        }
        count.addAll(List.of("-p", pids, "--", "sleep", String.valueOf(COUNT_SECONDS + 1)));
        Process counting = quiet(count, dir.resolve("perf-stat.log"));
        Thread.sleep(300);
        Wrk.Result counted = Wrk.run(url, s.threads(), s.connections(), COUNT_SECONDS, headers);
        finish(counting, COUNT_SECONDS + 1);
        if (server.kind == Server.Kind.JINX) {
            // the JIT's code is named by the perf map of each JVM, written now that it is compiled
            String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
            for (int pid : server.pids()) {
                finish(quiet(List.of(jcmd, String.valueOf(pid), "Compiler.perfmap"), dir.resolve("jcmd.log")), 0);
            }
        }
        return read(scenario, label, r.rps(), data, stat, r.rps() * seconds, counted.requests());
    }

    private static Profile read(String scenario, String server, double rps, Path data, Path stat, double requests,
                                double counted) throws IOException, InterruptedException {
        Process report = new ProcessBuilder("perf", "report", "-i", data.toString(), "--stdio", "--no-children",
            "-t", "|", "-F", "sample,comm,dso,sym").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(report.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        report.waitFor(60, TimeUnit.SECONDS);
        List<String[]> rows = new ArrayList<>();
        Map<String, Long> byComm = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\\|", 4);
            if (f.length < 4) {
                continue;
            }
            for (int i = 0; i < 4; i++) {
                f[i] = f[i].trim();
            }
            rows.add(f);
            byComm.merge(f[1], Long.parseLong(f[0]), Long::sum);
        }
        // the serving threads: nginx's processes, or the thread a JVM's main thread runs (named "java")
        String serving = byComm.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
            .orElse("");
        double us = PERIOD_NS / 1000.0 / requests;
        Profile p = new Profile(scenario, server, rps, rows.stream().mapToLong(f -> Long.parseLong(f[0])).sum() * us);
        for (String place : PLACES) {
            p.places.put(place, 0.0);
        }
        Map<String, Symbol> symbols = new LinkedHashMap<>();
        for (String[] f : rows) {
            double v = Long.parseLong(f[0]) * us;
            String place = f[1].equals(serving) ? place(f[2], f[3]) : "other threads";
            p.places.merge(place, v, Double::sum);
            String name = place.equals("other threads") ? f[1] + ": " + shortName(f[3]) : shortName(f[3]);
            symbols.merge(place + "|" + name, new Symbol(place, f[2], name, v),
                (a, b) -> new Symbol(a.place, a.dso, a.name, a.usPerRequest + b.usPerRequest));
        }
        List<Symbol> sorted = new ArrayList<>(symbols.values());
        sorted.sort((a, b) -> Double.compare(b.usPerRequest, a.usPerRequest));
        for (Symbol sym : sorted) {
            List<Symbol> to = sym.place.equals("kernel") ? p.kernel : p.user;
            if (to.size() < TOP) {
                to.add(sym);
            }
        }
        p.readCounts(stat, counted);
        return p;
    }

    private void readCounts(Path stat, double requests) throws IOException {
        if (!Files.exists(stat)) {
            return;
        }
        Map<String, Double> found = new LinkedHashMap<>();
        for (String line : Files.readAllLines(stat)) {
            String[] f = line.split(",");
            if (line.startsWith("#") || f.length < 3 || !f[0].matches("\\d+")) {
                continue;
            }
            String event = f[2];
            String name = event.equals("raw_syscalls:sys_enter") ? "all syscalls"
                : event.equals("context-switches") ? "context switches"
                : event.replace("syscalls:sys_enter_", "");
            found.put(name, Long.parseLong(f[0]) / requests);
        }
        for (String name : List.of("all syscalls", "context switches")) {
            if (found.containsKey(name)) {
                counts.put(name, found.get(name));
            }
        }
        for (String call : SYSCALLS) {
            if (found.getOrDefault(call, 0.0) >= 0.001) {
                counts.put(call, found.get(call));
            }
        }
    }

    /** The place of a sample of the serving thread, from its object file and symbol. */
    static String place(String dso, String sym) {
        if (dso.equals("[kernel.kallsyms]")) {
            return "kernel";
        }
        if (dso.startsWith("libc.so") || dso.startsWith("libc-")) {
            return "libc";
        }
        if (dso.startsWith("libjvm.so") || sym.contains("Interpreter")) {
            return "JVM";
        }
        if (dso.equals("nginx") || dso.startsWith("[JIT]") || dso.startsWith("perf-") || dso.startsWith("libjinxio")
                || dso.startsWith("libjffi")) {
            return "server code";
        }
        return "elsewhere";
    }

    /** {@code [.] void a.b.C.m(long, int)} as {@code C.m}; a symbol without arguments as it is. */
    static String shortName(String sym) {
        // a hidden class (a lambda, a generated link) without its address
        String s = sym.replaceFirst("^\\[[.k]\\] ", "").replaceAll("/0x[0-9a-f]+", "");
        int paren = s.indexOf('(');
        if (paren <= 0) {
            return s;
        }
        s = s.substring(0, paren);
        int space = s.lastIndexOf(' ');
        if (space >= 0) {
            s = s.substring(space + 1);
        }
        int method = s.lastIndexOf('.');
        int type = method > 0 ? s.lastIndexOf('.', method - 1) : -1;
        return type >= 0 ? s.substring(type + 1) : s;
    }

    private static Process quiet(List<String> cmd, Path log) throws IOException {
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
            log.toFile())).start();
    }

    private static void finish(Process p, int seconds) throws Exception {
        if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("perf did not finish");
        }
    }

    /**
     * The profiles as Markdown: CPU per request by place, syscalls per request, the top symbols.
     *
     * @param profiles the profiles, a pair per scenario
     * @return the text
     */
    static String markdown(List<Profile> profiles) {
        StringBuilder b = new StringBuilder();
        b.append("# Where the CPU goes (perf)\n\n");
        b.append(String.format(Locale.ROOT, "CPU-clock samples every %d us of a process's CPU while wrk runs, in us"
            + " per request; master and workers.%n%n", PERIOD_NS / 1000));
        b.append("| scenario | server | req/s | CPU us/req |");
        PLACES.forEach(p -> b.append(' ').append(p).append(" |"));
        b.append("\n|---|---|---|---|");
        PLACES.forEach(p -> b.append("---|"));
        b.append('\n');
        for (Profile p : profiles) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.2f |", p.scenario, p.server, p.rps,
                p.usPerRequest));
            PLACES.forEach(place -> b.append(String.format(Locale.ROOT, " %.2f |", p.places.get(place))));
            b.append('\n');
        }
        b.append(String.format("%nSyscalls and context switches per request (perf stat, over a wrk run of %d s after"
            + " the sampling's):%n%n", COUNT_SECONDS));
        for (Profile p : profiles) {
            b.append("- ").append(p.scenario).append(' ').append(p.server).append(':');
            if (p.counts.isEmpty()) {
                b.append(" not counted (no syscall tracepoints: see perf-stat.log)");
            }
            p.counts.forEach((k, v) -> b.append(String.format(Locale.ROOT, " %s %.3f,", k, v)));
            b.setLength(b.length() - (p.counts.isEmpty() ? 0 : 1));
            b.append('\n');
        }
        for (Profile p : profiles) {
            b.append(String.format("%n## %s, %s: top symbols, us per request%n%n", p.scenario, p.server));
            b.append("| us/req | place | symbol |   | us/req | kernel symbol |\n|---|---|---|---|---|---|\n");
            for (int i = 0; i < Math.max(p.user.size(), p.kernel.size()); i++) {
                Symbol u = i < p.user.size() ? p.user.get(i) : null;
                Symbol k = i < p.kernel.size() ? p.kernel.get(i) : null;
                b.append(u == null ? "| | | |" : String.format(Locale.ROOT, "| %.3f | %s | %s |", u.usPerRequest,
                    u.place, u.name.replace("|", "\\|")));
                b.append(k == null ? "   | | |\n" : String.format(Locale.ROOT, "   | %.3f | %s |%n", k.usPerRequest,
                    k.name));
            }
        }
        return b.toString();
    }
}
