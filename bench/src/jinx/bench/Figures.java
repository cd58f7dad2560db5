package jinx.bench;

import java.util.ArrayList;
import java.util.List;

/** One server's figures in one scenario: a value per round, and what is measured once. */
final class Figures {

    final List<Double> rps = new ArrayList<>();
    final List<Double> p50 = new ArrayList<>();
    final List<Double> p99 = new ArrayList<>();
    final List<Double> userUs = new ArrayList<>();
    final List<Double> totalUs = new ArrayList<>();
    long errors;
    long non2xx3xx;
    double rssMb = Double.NaN;
    double pssMb = Double.NaN;
    double youngPerSec = Double.NaN;
    long youngCollections;
    double measuredSeconds;
    /** A scenario's own figure, e.g. KiB per idle connection; NaN when none. */
    final List<Double> extra = new ArrayList<>();

    /** Adds one round. */
    void add(Wrk.Result r, long userTicks, long totalTicks, long clkTck) {
        rps.add(r.rps());
        p50.add(r.p50Ms());
        p99.add(r.p99Ms());
        errors += r.errors();
        non2xx3xx += r.non2xx3xx();
        if (userTicks >= 0 && r.requests() > 0) {
            userUs.add(userTicks * 1e6 / clkTck / r.requests());
            totalUs.add(totalTicks * 1e6 / clkTck / r.requests());
        }
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** The spread of the rounds' requests/s: (max - min) / median, in percent. */
    double spreadPercent() {
        return (max(rps) - min(rps)) / median(rps) * 100;
    }
}
