package jinx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The benchmark: for each set of scenarios, nginx and Jinx with the same configuration, each on a free port of
 * 127.0.0.1, a warm-up run each, then alternating rounds; the figures go to {@link Report}. Usage:
 * {@code Bench <jinx home> <clk_tck> [--quick] [--rounds N] [--duration S] [--warmup S] [--only a,b]
 * [--access-log] [--idle N] [--profile] [--out DIR]}.
 */
public final class Bench {

    /** How long a server's processes are left, at most, to finish what a warm-up started (its JIT compilers). */
    private static final long QUIESCE_MS = 8000;
    /** A warm-up ends after a 1 s run in which the JIT compilers used at most this many ticks. */
    private static final long REST_TICKS = 2;
    private static final int QUICK_WARMUP_RUNS = 6;
    private static final int MORE_WARMUP_RUNS = 20;
    /** How long perf samples a server at least (--profile): 5 s, about 20,000 samples of a busy core. */
    private static final int PROFILE_SECONDS = 5;
    /** HotSpot's arena chunk pool cleaner's period and the native heap trim's, with a margin. */
    private static final long CHUNK_POOL_MS = 6500;

    /** How long memory is left to settle at least before it is read (idle-10k); shorter in --quick mode. */
    private long settleMs = 2000;

    private final Path home;
    private final long clkTck;
    // ten rounds of 5 s rather than five of 10: the same measured time, and each pair of rounds twice as close
    // together, so the host's drift moves the two servers' rounds of a pair more alike
    private int rounds = 10;
    private int duration = 5;
    private int warmup = 10;
    private int reloadWindow = 10;
    private int idleConnections = 10_000;
    private boolean accessLog;
    private boolean quick;
    /** Whether each load scenario ends with a perf profile of each server ({@link Profile}). */
    private boolean profile;
    private final List<Profile> profiles = new ArrayList<>();
    /** What reload-warm adds to Jinx's configuration. */
    static final String WARM_UP = "worker_warmup 3s;\n";
    private List<String> only = List.of();
    private Path out;
    private final Map<String, Figures[]> results = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    private Bench(Path home, long clkTck) {
        this.home = home;
        this.clkTck = clkTck;
    }

    /** Runs the benchmark. */
    public static void main(String[] args) throws Exception {
        Bench b = new Bench(Path.of(args[0]).toAbsolutePath().normalize(), Long.parseLong(args[1]));
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> {
                    // two rounds each (nginx, Jinx, Jinx, nginx) of 1 s: with the build, under two minutes
                    b.quick = true;
                    b.rounds = 2;
                    b.duration = 1;
                    b.warmup = 1;
                    b.reloadWindow = 2;
                    b.settleMs = 1000;
                }
                case "--rounds" -> b.rounds = Integer.parseInt(args[++i]);
                case "--duration" -> b.duration = Integer.parseInt(args[++i]);
                case "--warmup" -> b.warmup = Integer.parseInt(args[++i]);
                case "--reload-window" -> b.reloadWindow = Integer.parseInt(args[++i]);
                case "--idle" -> b.idleConnections = Integer.parseInt(args[++i]);
                case "--only" -> b.only = List.of(args[++i].split(","));
                case "--access-log" -> b.accessLog = true;
                case "--profile" -> b.profile = true;
                case "--out" -> b.out = Path.of(args[++i]).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (b.profile) {
            String why = Profile.unavailable();
            if (why != null) {
                System.err.println("bench: --profile: " + why);
                System.exit(1);
            }
        }
        if (b.out == null) {
            // bench/results holds the committed full run: a check of a change writes beside the build instead
            boolean partial = b.quick || !b.only.isEmpty();
            b.out = b.home.resolve(partial ? "bench/target/results" : "bench/results");
        }
        b.run();
    }

    private void run() throws Exception {
        Path tmp = Files.createTempDirectory("jinx-bench-");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path docroot = docroot(tmp.resolve("html"));
        long started = System.nanoTime();
        List<Scenario> todo = new ArrayList<>();
        for (Scenario s : Scenario.all()) {
            if (!only.isEmpty() && !only.contains(s.name())) {
                continue;
            }
            // the two slowest: a reload that waits for a warm-up, and memory that must settle before and after
            // 10,000 connections open (half a minute on this machine)
            boolean slow = s.kind() == Scenario.Kind.RELOAD_WARM || s.kind() == Scenario.Kind.IDLE;
            if (quick && only.isEmpty() && slow) {
                log("scenario " + s.name() + ": skipped in --quick mode (name it with --only to run it)");
                continue;
            }
            todo.add(s);
        }
        if (todo.stream().anyMatch(s -> s.path().startsWith(Scenario.HTTPS) || s.path().startsWith("/proxy-tls/"))) {
            Conf.tls = certificate(tmp.resolve("tls"));
        }
        // the backend of the proxy scenarios: Debian's nginx with one worker, the same for both proxies
        Server backend = Server.start(Server.Kind.NGINX, home, tmp.resolve("backend"), docroot, 1, 4096, false);
        Conf.tlsBackend = backend.tlsPort;
        try {
            runSets(tmp, docroot, todo, backend.port);
        } finally {
            backend.close();
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        Report report = new Report(results, notes, clkTck);
        report.print(System.out);
        String warming = quick ? "warm-up until the compilers rest" : "warm-up " + warmup + " s";
        report.write(out, String.format("%s; rounds %d x %d s, %s, %.1f min", quick ? "--quick" : "full", rounds,
            duration, warming, minutes));
        if (!profiles.isEmpty()) {
            String md = Profile.markdown(profiles);
            System.out.print(md);
            Files.writeString(out.resolve("profile.md"), md);
        }
        log("results in " + out);
        deleteTree(tmp);
    }

    /** A self-signed P-256 certificate and key made with the openssl command, for the HTTPS scenarios. */
    private static Path certificate(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=localhost",
            "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString())
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("openssl req failed: " + out);
        }
        return dir;
    }

    /** Runs the scenarios set by set, each set on a fresh pair of servers. */
    private void runSets(Path tmp, Path docroot, List<Scenario> todo, int backend) throws Exception {
        int n = 0;
        while (!todo.isEmpty()) {
            Scenario.Set set = todo.get(0).set();
            List<Scenario> group = todo.stream().filter(s -> s.set().equals(set)).toList();
            todo.removeAll(group);
            Path dir = tmp.resolve("set" + n++);
            try (Server nginx = Server.start(Server.Kind.NGINX, home, dir.resolve("nginx"), docroot,
                    set.workers(), set.connections(), accessLog, backend);
                 Server jinx = Server.start(Server.Kind.JINX, home, dir.resolve("jinx"), docroot,
                    set.workers(), set.connections(), accessLog, backend)) {
                Server[] pair = {nginx, jinx};
                compare(pair);
                for (Scenario s : group) {
                    log("scenario " + s.name() + " (" + set.workers() + " worker(s))");
                    switch (s.kind()) {
                        case LOAD -> load(s, pair);
                        case IDLE -> idle(s, pair);
                        case RELOAD -> reload(s, pair);
                        case RELOAD_WARM -> reloadWarm(s, pair);
                    }
                }
            }
        }
    }

    /** The document root: a 1 KB and a 1 MB file of random bytes, readable by any worker user. */
    private static Path docroot(Path dir) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(7);
        byte[] k = new byte[1024];
        random.nextBytes(k);
        byte[] m = new byte[1 << 20];
        random.nextBytes(m);
        Files.write(dir.resolve("1k.bin"), k);
        Files.write(dir.resolve("1m.bin"), m);
        // gzip-100k: an HTML page of about 100 KB that compresses as pages do (about 4:1 at level 1)
        StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html><head><title>bench</title></head><body>\n");
        for (int i = 0; page.length() < 100 * 1024; i++) {
            page.append("<div class=\"item item-").append(i % 13).append("\"><a href=\"/p/").append(i)
                .append("\">Item ").append(i).append("</a> <span>").append(Integer.toString(random.nextInt(), 36))
                .append("</span></div>\n");
        }
        Files.createDirectories(dir.resolve("gz"));
        Files.writeString(dir.resolve("gz/page.html"), page.append("</body></html>\n"));
        Files.setPosixFilePermissions(dir.resolve("gz"), PosixFilePermissions.fromString("rwxr-xr-x"));
        // limit-hello: a file of "hello\n" behind limit_req (a return would answer before PREACCESS)
        Files.writeString(dir.resolve("hello.txt"), "hello\n");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /** Checks that both servers answer with the same bytes apart from Date and Server. */
    private void compare(Server[] pair) {
        for (String path : List.of("/hello", "/1k.bin", "/proxy/hello", "/proxy/1k.bin", "/limited", "/mapped",
            "/if")) {
            String a = normalized(pair[0].get(path));
            String b = normalized(pair[1].get(path));
            if (!a.equals(b)) {
                String note = "responses to " + path + " differ beyond Server and Date:\n--- nginx\n" + head(a)
                    + "\n--- jinx\n" + head(b);
                notes.add(note);
                log("WARNING: " + note);
            }
        }
    }

    private static String normalized(String response) {
        return response.replaceAll("(?im)^(Date|Server):[^\r]*\r\n", "");
    }

    private static String head(String response) {
        int end = response.indexOf("\r\n\r\n");
        return end < 0 ? response : response.substring(0, end);
    }

    private List<String> headers(Scenario s, Server server) {
        if (!s.name().equals("304")) {
            return s.headers();
        }
        String lastModified = Server.header(server.get(s.path()), "Last-Modified");
        return List.of("If-Modified-Since: " + lastModified);
    }

    private String url(Scenario s, Server server) {
        if (s.path().startsWith(Scenario.HTTPS)) {
            return "https://127.0.0.1:" + server.tlsPort + s.path().substring(Scenario.HTTPS.length());
        }
        return "http://127.0.0.1:" + server.port + s.path();
    }

    private void load(Scenario s, Server[] pair) throws Exception {
        Figures[] f = {new Figures(), new Figures()};
        List<List<String>> headers = List.of(headers(s, pair[0]), headers(s, pair[1]));
        if (s.name().equals("304")) {
            for (int i = 0; i < 2; i++) {
                String status = pair[i].get(s.path(), headers.get(i).get(0)).split("\r\n", 2)[0];
                if (!status.startsWith("HTTP/1.1 304")) {
                    notes.add(pair[i].kind.label + " answers the conditional request with " + status);
                }
            }
        }
        for (int i = 0; i < 2; i++) {
            warm(s, pair[i], headers.get(i), warmup);
        }
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int i = (r + k) % 2;
                measure(s, pair[i], headers.get(i), duration, f[i]);
            }
        }
        for (int i = 0; i < 2; i++) {
            f[i].rssMb = pair[i].rssPerWorkerKb() / 1024.0;
            f[i].pssMb = pair[i].pssPerWorkerKb() / 1024.0;
        }
        results.put(s.name(), f);
        if (profile) {
            for (int i = 0; i < 2; i++) {
                Profile p = Profile.record(s.name(), pair[i], url(s, pair[i]), s, headers.get(i),
                    Math.max(duration, PROFILE_SECONDS), home.resolve("bench/target/perf"));
                log(String.format("  %-5s profiled: %.2f us of CPU per request, %.2f in the server's code",
                    pair[i].kind.label, p.usPerRequest, p.places.get("server code")));
                profiles.add(p);
            }
        }
    }

    /**
     * The warm-up of one server before a scenario's rounds: {@code seconds} of load (none in --quick mode), then
     * 1 s runs until one in which the server's JIT compiler threads used at most {@link #REST_TICKS} ticks, at
     * most {@link #QUICK_WARMUP_RUNS} runs in --quick mode and {@link #MORE_WARMUP_RUNS} after a full run's
     * warm-up: one run for nginx, four to six for a fresh Jinx worker, one or two for a worker warm from the set's
     * earlier scenarios; with two workers, which share the load, a full run's 10 s left them compiling for another
     * 10-15 s. Then it waits for the server to be quiet: CPU counted in the rounds is meant to be the requests'.
     */
    private void warm(Scenario s, Server server, List<String> headers, int seconds) throws Exception {
        if (!quick) {
            Wrk.run(url(s, server), s.threads(), s.connections(), seconds, headers);
        }
        List<Integer> pids = server.pids();
        StringBuilder trace = new StringBuilder();
        int runs = quick ? QUICK_WARMUP_RUNS : MORE_WARMUP_RUNS;
        for (int run = 0; run < runs; run++) {
            long c0 = Proc.compilerTicks(pids);
            Wrk.Result r = Wrk.run(url(s, server), s.threads(), s.connections(), 1, headers);
            long compiled = Proc.compilerTicks(pids) - c0;
            trace.append(String.format(" %.0f/%d", r.rps(), compiled));
            if (compiled <= REST_TICKS) {
                break;
            }
        }
        log(String.format("  %-5s warm-up, then 1 s runs (req/s / compiler ticks):%s", server.kind.label, trace));
        quiesce(server);
    }

    /**
     * Waits until a quarter second passes with at most one tick of the server's CPU, or {@link #QUIESCE_MS}: a
     * JVM's compilers finish what the load queued.
     */
    private static void quiesce(Server server) throws Exception {
        List<Integer> pids = server.pids();
        long deadline = System.nanoTime() + QUIESCE_MS * 1_000_000;
        long[] last = Proc.ticks(pids);
        while (System.nanoTime() < deadline) {
            Thread.sleep(250);
            long[] now = Proc.ticks(pids);
            boolean quiet = now[0] + now[1] - last[0] - last[1] <= 1;
            last = now;
            if (quiet) {
                return;
            }
        }
        log("  " + server.kind.label + " still busy " + QUIESCE_MS + " ms after its warm-up");
    }

    private Wrk.Result measure(Scenario s, Server server, List<String> headers, int seconds, Figures f)
            throws Exception {
        List<Integer> pids = server.pids();
        long[] t0 = Proc.ticks(pids);
        long gc0 = server.youngCollections();
        long start = System.nanoTime();
        Wrk.Result r = Wrk.run(url(s, server), s.threads(), s.connections(), seconds, headers);
        long[] t1 = Proc.ticks(pids);
        f.youngCollections += server.youngCollections() - gc0;
        f.measuredSeconds += (System.nanoTime() - start) / 1e9;
        f.youngPerSec = f.youngCollections / f.measuredSeconds;
        f.add(r, t1[0] - t0[0], t1[0] + t1[1] - t0[0] - t0[1], clkTck);
        log(String.format("  %-5s %10.0f req/s  p50 %6.2f ms  p99 %6.2f ms", server.kind.label, r.rps(), r.p50Ms(),
            r.p99Ms()));
        return r;
    }

    /**
     * Rounds of the slow scenarios (idle connections, reload), whose rounds each take a reload or 10,000
     * connections and the time to settle: half the rounds (five by default), one in --quick mode, to stay under two
     * minutes.
     */
    private int slowRounds() {
        return quick ? 1 : Math.max(1, (rounds + 1) / 2);
    }

    private void idle(Scenario s, Server[] pair) throws Exception {
        Figures[] f = {new Figures(), new Figures()};
        // what the idle connections add is measured against the workers' memory after the hello warm-up, before
        // the server's first round: a server keeps much of what it grew to for the first round's connections
        // (heap, freed memory its allocator holds, touched connection arrays), so against the memory just before
        // each round every round after the first would count almost nothing. Both figures are read once the
        // memory has settled (settledRssKb). Jinx warms first, and each baseline is read just before that
        // server's first round: the wait for what a fresh JVM's compilers used to go then overlaps nginx's
        // warm-up and round.
        long[] before = {-1, -1};
        long[] warmed = new long[2];
        long[] compiled = new long[2];
        for (int i = 1; i >= 0; i--) {
            warm(s, pair[i], s.headers(), warmup);
            warmed[i] = System.nanoTime();
            compiled[i] = Proc.compilerTicks(pair[i].pids());
        }
        for (int r = 0; r < slowRounds(); r++) {
            for (int k = 0; k < 2; k++) {
                int i = (r + k) % 2;
                if (before[i] < 0) {
                    before[i] = settledRssKb(pair[i], warmed[i], compiled[i]);
                }
                // settled before the connections open: only what the compilers do from here on is waited for
                long settled = System.nanoTime() - CHUNK_POOL_MS * 1_000_000;
                long ticks = Proc.compilerTicks(pair[i].pids());
                try (Idle idle = Idle.open(pair[i].port, idleConnections)) {
                    long held = settledRssKb(pair[i], settled, ticks);
                    log(String.format("  %-5s %d idle connections: workers' RSS %.1f MB, %+.1f MB", pair[i].kind.label,
                        idleConnections, held / 1024.0, (held - before[i]) / 1024.0));
                    measure(s, pair[i], s.headers(), duration, f[i]);
                    int open = idle.stillOpen();
                    if (open != idleConnections) {
                        notes.add(pair[i].kind.label + " closed " + (idleConnections - open) + " of "
                            + idleConnections + " idle connections during the hello run");
                    }
                    f[i].extra.add((held - before[i]) / (double) idleConnections);
                    f[i].rssMb = held / 1024.0 / pair[i].workers;
                    f[i].pssMb = pair[i].pssPerWorkerKb() / 1024.0;
                }
            }
        }
        results.put(s.name(), f);
    }

    /**
     * The workers' RSS in KiB once it has settled: read every half second after the settle time until four
     * readings in a row are within 256 KiB of each other and the JIT compilers have done nothing for {@link
     * #CHUNK_POOL_MS}, or 20 s. The memory a compiler used stays resident for up to 5 s after it finished
     * (HotSpot's arena chunk pool is cleaned every 5 s, and only then does the native heap trim give it back), so
     * a reading sooner may count a plateau that is about to go.
     *
     * @param compiledAt when the compilers may last have worked ({@link System#nanoTime})
     * @param compilerTicks their ticks then ({@link Proc#compilerTicks}): more now means they worked since
     */
    private long settledRssKb(Server server, long compiledAt, long compilerTicks) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        List<Integer> pids = server.pids();
        Thread.sleep(settleMs);
        long last = server.rssWorkersKb();
        int steady = 0;
        while (System.nanoTime() < deadline) {
            long ticks = Proc.compilerTicks(pids);
            if (ticks != compilerTicks) {
                compilerTicks = ticks;
                compiledAt = System.nanoTime();
            }
            if (steady >= 3 && System.nanoTime() - compiledAt >= CHUNK_POOL_MS * 1_000_000) {
                break;
            }
            Thread.sleep(500);
            long now = server.rssWorkersKb();
            steady = Math.abs(now - last) <= 256 ? steady + 1 : 0;
            last = now;
        }
        return last;
    }

    private void reload(Scenario s, Server[] pair) throws Exception {
        Figures[] steady = {new Figures(), new Figures()};
        Figures[] after = {new Figures(), new Figures()};
        for (int i = 0; i < 2; i++) {
            warm(s, pair[i], s.headers(), warmup);
        }
        for (int r = 0; r < slowRounds(); r++) {
            for (int k = 0; k < 2; k++) {
                int i = (r + k) % 2;
                // the workers a reload started run cold code: warm them before the steady window
                pair[i].awaitWorkers(60);
                if (r > 0) {
                    warm(s, pair[i], s.headers(), warmup);
                }
                measure(s, pair[i], s.headers(), duration, steady[i]);
                pair[i].reload();
                Wrk.Result w = Wrk.run(url(s, pair[i]), s.threads(), s.connections(), reloadWindow, s.headers());
                after[i].add(w, -1, -1, clkTck);
                log(String.format("  %-5s after HUP: %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms", pair[i].kind.label,
                    w.rps(), w.p50Ms(), w.p99Ms()));
            }
        }
        for (int i = 0; i < 2; i++) {
            pair[i].awaitWorkers(60);
            steady[i].rssMb = pair[i].rssPerWorkerKb() / 1024.0;
            steady[i].pssMb = pair[i].pssPerWorkerKb() / 1024.0;
            after[i].rssMb = steady[i].rssMb;
            after[i].pssMb = steady[i].pssMb;
        }
        results.put(s.name() + "-steady", steady);
        results.put(s.name() + "-after", after);
    }

    /** The reload with Jinx's warm-up: its workers run requests of their own before they report ready. */
    private void reloadWarm(Scenario s, Server[] pair) throws Exception {
        pair[1].reconfigure(WARM_UP);
        try {
            reload(s, pair);
        } finally {
            pair[1].reconfigure("");
        }
    }

    static void log(String line) {
        System.err.println("bench: " + line);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
