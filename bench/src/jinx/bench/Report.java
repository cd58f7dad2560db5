package jinx.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The table: printed, and written as Markdown ({@code results.md}), CSV ({@code results.csv}) and a chart. */
final class Report {

    /** One column: its heading, how to read it from a server's figures, and its number format. */
    private record Column(String heading, Function<Figures, Double> value, String format) {
    }

    private static final List<Column> COLUMNS = List.of(
        new Column("req/s", f -> Figures.median(f.rps), "%.0f"),
        new Column("spread %", Figures::spreadPercent, "%.1f"),
        new Column("p50 ms", f -> Figures.median(f.p50), "%.3f"),
        new Column("p99 ms", f -> Figures.median(f.p99), "%.3f"),
        new Column("user us/req", f -> Figures.median(f.userUs), "%.3f"),
        new Column("total us/req", f -> Figures.median(f.totalUs), "%.3f"),
        new Column("RSS/worker MB", f -> f.rssMb, "%.1f"),
        new Column("PSS/worker MB", f -> f.pssMb, "%.1f"),
        new Column("young GC/s", f -> f.youngPerSec, "%.2f"),
        new Column("KiB/idle conn", f -> Figures.median(f.extra), "%.2f"));

    /** The columns whose ratio means something (the spread's and the collections' do not). */
    private static final List<Integer> RATIO_COLUMNS = List.of(0, 2, 3, 4, 5, 6, 7, 9);

    /**
     * The last columns, on the ratio row only: the median of the rounds' own ratios of requests/s and of user CPU
     * per request (each Jinx round against the nginx round run next to it). The host's speed drifts over minutes
     * by as much as a fifth, for both servers alike; two rounds run back to back share the drift, so their ratio
     * is steadier than the ratio of the two medians.
     */
    private static final List<String> PAIRED = List.of("req/s ratio by round", "user ratio by round");

    private final Map<String, Figures[]> results;
    private final List<String> notes;

    Report(Map<String, Figures[]> results, List<String> notes, long clkTck) {
        this.results = results;
        this.notes = notes;
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    /** The rows: for each scenario nginx, jinx and jinx/nginx. */
    List<List<String>> rows() {
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, Figures[]> e : results.entrySet()) {
            Figures[] f = e.getValue();
            for (int i = 0; i < 2; i++) {
                List<String> row = new ArrayList<>(List.of(e.getKey(), i == 0 ? "nginx" : "jinx"));
                for (Column c : COLUMNS) {
                    row.add(fmt(c.format(), c.value().apply(f[i])));
                }
                PAIRED.forEach(p -> row.add(""));
                rows.add(row);
            }
            List<String> ratio = new ArrayList<>(List.of(e.getKey(), "jinx/nginx"));
            for (int c = 0; c < COLUMNS.size(); c++) {
                ratio.add(RATIO_COLUMNS.contains(c) ? fmt("%.2f", ratio(e.getValue(), c)) : "");
            }
            ratio.add(fmt("%.2f", pairedRatio(f[0].rps, f[1].rps)));
            ratio.add(fmt("%.2f", pairedRatio(f[0].userUs, f[1].userUs)));
            rows.add(ratio);
        }
        return rows;
    }

    private static double ratio(Figures[] f, int column) {
        Function<Figures, Double> v = COLUMNS.get(column).value();
        return v.apply(f[1]) / v.apply(f[0]);
    }

    /** The median of jinx's figure over nginx's, round by round; NaN without rounds. */
    static double pairedRatio(List<Double> nginx, List<Double> jinx) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(nginx.size(), jinx.size()); i++) {
            r.add(jinx.get(i) / nginx.get(i));
        }
        return Figures.median(r);
    }

    private static List<String> headings() {
        List<String> h = new ArrayList<>(List.of("scenario", "server"));
        COLUMNS.forEach(c -> h.add(c.heading()));
        h.addAll(PAIRED);
        return h;
    }

    /** Prints the table as aligned text. */
    void print(PrintStream out) {
        List<List<String>> all = new ArrayList<>();
        all.add(headings());
        all.addAll(rows());
        int[] width = new int[all.get(0).size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(i < 2 ? String.format("%-" + width[i] + "s  ", cell)
                    : String.format("%" + width[i] + "s  ", cell));
            }
            out.println(line.toString().stripTrailing());
        }
        notes.forEach(n -> out.println("note: " + n));
    }

    /** Writes results.md, results.csv and ratios.png into {@code dir}. */
    void write(Path dir, String mode) throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder("# Jinx vs nginx\n\n");
        md.append(machine()).append(", ").append(mode).append(", ").append(Instant.now()).append("\n\n");
        md.append("| ").append(String.join(" | ", headings())).append(" |\n");
        md.append("|").append("---|".repeat(headings().size())).append("\n");
        StringBuilder csv = new StringBuilder(String.join(",", headings())).append("\n");
        for (List<String> row : rows()) {
            md.append("| ").append(String.join(" | ", row)).append(" |\n");
            csv.append(String.join(",", row)).append("\n");
        }
        md.append("\nrequests/s: median of the rounds; spread: (max - min) / median of the rounds' requests/s; ")
            .append("req/s and user ratio by round: the median over the rounds of Jinx's requests/s (user CPU per ")
            .append("request) over nginx's in the same round (the two run back to back, so they share the host's ")
            .append("drift); ")
            .append("latency: wrk --latency, median of the rounds; CPU: utime and stime of master and workers from ")
            .append("/proc/<pid>/stat over the measured rounds, per request; RSS: VmRSS per worker after the ")
            .append("scenario (idle-10k: while the idle connections are held); PSS: Pss of /proc/<pid>/smaps_rollup ")
            .append("per worker at the same moment (shared pages divided among the processes mapping them); young ")
            .append("GC/s: collections in the workers' -Xlog:gc logs over the measured rounds; KiB/idle conn: the ")
            .append("workers' RSS while 10,000 idle connections are held less their RSS after the warm-up, before ")
            .append("the first round, per connection (median of the rounds).\n");
        for (String n : notes) {
            md.append("\n- note: ").append(n.replace("\n", " ")).append("\n");
        }
        Files.writeString(dir.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.csv"), csv.toString(), StandardCharsets.UTF_8);
        List<String> metrics = new ArrayList<>();
        for (int c : List.of(0, 3, 4, 6)) {
            metrics.add(COLUMNS.get(c).heading());
        }
        List<String> scenarios = new ArrayList<>(results.keySet());
        double[][] values = new double[scenarios.size()][metrics.size()];
        for (int s = 0; s < scenarios.size(); s++) {
            int m = 0;
            for (int c : List.of(0, 3, 4, 6)) {
                values[s][m++] = ratio(results.get(scenarios.get(s)), c);
            }
        }
        Chart.draw(dir.resolve("ratios.png"), "Jinx / nginx (1.0 = parity)", scenarios, metrics, values);
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException e) {
            // no cpuinfo: the model stays unknown
        }
        return Runtime.getRuntime().availableProcessors() + " x " + cpu + ", Java " + System.getProperty("java.version")
            + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }
}
