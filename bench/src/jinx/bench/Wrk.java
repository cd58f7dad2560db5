package jinx.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code wrk --latency} and reads its summary. */
final class Wrk {

    /** One run's figures. */
    record Result(long requests, double seconds, double rps, double p50Ms, double p99Ms, long errors,
                  long non2xx3xx, String output) {
    }

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern P50 = Pattern.compile("\\s50%\\s+([\\d.]+)(us|ms|s)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([\\d.]+)(us|ms|s)");
    private static final Pattern ERRORS =
        Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private Wrk() {
    }

    /**
     * Not a header: a scenario's header list with {@code "X-Bench-Post: N"} makes wrk send {@code POST} requests
     * with a body of N bytes (through a script wrk reads with {@code -s}), the rest as for any scenario.
     */
    static final String POST = "X-Bench-Post: ";

    /**
     * Runs wrk.
     *
     * @param url the URL
     * @param threads wrk threads
     * @param connections open connections
     * @param seconds the duration
     * @param headers extra request headers, "Name: value"
     * @return the figures
     */
    static Result run(String url, int threads, int connections, int seconds, List<String> headers)
            throws IOException, InterruptedException {
        return run(url, threads, connections, seconds, headers, 5);
    }

    /**
     * Runs wrk with a request timeout: a request that takes longer counts in its {@code timeout} errors.
     *
     * @param timeoutSeconds wrk's {@code --timeout}
     * @return the figures
     */
    static Result run(String url, int threads, int connections, int seconds, List<String> headers,
                      int timeoutSeconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("wrk", "--latency", "-t" + threads, "-c" + connections,
            "-d" + seconds + "s", "--timeout", timeoutSeconds + "s"));
        java.nio.file.Path script = null;
        for (String h : headers) {
            if (h.startsWith(POST)) {
                int n = Integer.parseInt(h.substring(POST.length()));
                script = java.nio.file.Files.createTempFile("wrk-post", ".lua");
                java.nio.file.Files.writeString(script, "wrk.method = \"POST\"\nwrk.body = string.rep(\"a\", " + n
                    + ")\nwrk.headers[\"Content-Type\"] = \"application/octet-stream\"\n");
                cmd.add("-s");
                cmd.add(script.toString());
                continue;
            }
            cmd.add("-H");
            cmd.add(h);
        }
        cmd.add(url);
        try {
            return run(cmd, seconds);
        } finally {
            if (script != null) {
                java.nio.file.Files.deleteIfExists(script);
            }
        }
    }

    private static Result run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("wrk did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("wrk exited with " + p.exitValue() + ":\n" + text);
        }
        return parse(text);
    }

    /** Reads wrk's output. */
    static Result parse(String text) throws IOException {
        Matcher req = REQUESTS.matcher(text);
        Matcher rps = RPS.matcher(text);
        Matcher p50 = P50.matcher(text);
        Matcher p99 = P99.matcher(text);
        if (!req.find() || !rps.find() || !p50.find() || !p99.find()) {
            throw new IOException("cannot read wrk's output:\n" + text);
        }
        long errors = 0;
        Matcher err = ERRORS.matcher(text);
        if (err.find()) {
            for (int i = 1; i <= 4; i++) {
                errors += Long.parseLong(err.group(i));
            }
        }
        Matcher non = NON2XX.matcher(text);
        long non2xx = non.find() ? Long.parseLong(non.group(1)) : 0;
        double seconds = Double.parseDouble(req.group(2)) * switch (req.group(3)) {
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "m" -> 60;
            default -> 1;
        };
        return new Result(Long.parseLong(req.group(1)), seconds, Double.parseDouble(rps.group(1)),
            ms(p50), ms(p99), errors, non2xx, text);
    }

    private static double ms(Matcher m) {
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }
}
