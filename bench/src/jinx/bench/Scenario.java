package jinx.bench;

import java.util.List;

/**
 * One benchmark scenario: which server set it runs on, what wrk asks for and how.
 *
 * @param name the short name in the table
 * @param set the server set: workers and connections
 * @param kind how it runs
 * @param path the URL path
 * @param threads wrk's threads
 * @param connections wrk's connections
 * @param headers extra request headers
 */
record Scenario(String name, Set set, Kind kind, String path, int threads, int connections, List<String> headers) {

    /** How a scenario runs. */
    enum Kind {
        /** wrk rounds. */
        LOAD,
        /** wrk rounds while idle keep-alive connections are held. */
        IDLE,
        /** a steady wrk window, then HUP and a window right after it. */
        RELOAD,
        /** as RELOAD, Jinx with {@code worker_warmup 3s} (not in --quick runs). */
        RELOAD_WARM
    }

    /**
     * A pair of servers (nginx and Jinx) with the same configuration.
     *
     * @param workers {@code worker_processes}
     * @param connections {@code worker_connections}
     */
    record Set(int workers, int connections) {
    }

    static final Set ONE = new Set(1, 1024);
    static final Set TWO = new Set(2, 1024);
    static final Set MANY = new Set(1, 12000);

    /**
     * The header lines a browser sends with a page's request (Chrome's, with a session cookie): wrk alone sends
     * only {@code Host}, which leaves the cost of header lines out of every other scenario.
     */
    static final List<String> BROWSER = List.of(
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Safari/537.36",
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
        "Accept-Language: en-US,en;q=0.9",
        "Accept-Encoding: gzip, deflate, br",
        "Cookie: session=0123456789abcdef0123456789abcdef; theme=dark; _ga=GA1.2.123456789.1700000000",
        "Referer: http://localhost/index.html",
        "Sec-Fetch-Dest: document",
        "Sec-Fetch-Mode: navigate",
        "Sec-Fetch-Site: same-origin",
        "Upgrade-Insecure-Requests: 1",
        "Cache-Control: max-age=0");

    /** A path that starts with this goes to the servers' HTTPS port (a P-256 certificate, nginx's defaults). */
    static final String HTTPS = "https:";

    /** Every scenario, grouped by set in the order they run. */
    static List<Scenario> all() {
        return List.of(
            new Scenario("hello-1w", ONE, Kind.LOAD, "/hello", 1, 50, List.of()),
            new Scenario("hello-browser", ONE, Kind.LOAD, "/hello", 1, 50, BROWSER),
            new Scenario("static-1k", ONE, Kind.LOAD, "/1k.bin", 1, 50, List.of()),
            new Scenario("static-1m", ONE, Kind.LOAD, "/1m.bin", 1, 10, List.of()),
            new Scenario("close", ONE, Kind.LOAD, "/hello", 1, 50, List.of("Connection: close")),
            new Scenario("304", ONE, Kind.LOAD, "/1k.bin", 1, 50, List.of()),
            new Scenario("gzip-100k", ONE, Kind.LOAD, "/gz/page.html", 1, 10, List.of("Accept-Encoding: gzip")),
            new Scenario("limit-hello", ONE, Kind.LOAD, "/limited", 1, 50, List.of()),
            new Scenario("map-hello", ONE, Kind.LOAD, "/mapped", 1, 50, List.of()),
            new Scenario("if-hello", ONE, Kind.LOAD, "/if", 1, 50, List.of("User-Agent: Mozilla/5.0 (X11)")),
            new Scenario("proxy-hello", ONE, Kind.LOAD, "/proxy/hello", 1, 50, List.of()),
            new Scenario("proxy-1k", ONE, Kind.LOAD, "/proxy/1k.bin", 1, 50, List.of()),
            new Scenario("proxy-1m", ONE, Kind.LOAD, "/proxy/1m.bin", 1, 10, List.of()),
            new Scenario("proxy-1m-nb", ONE, Kind.LOAD, "/proxy-nb/1m.bin", 1, 10, List.of()),
            new Scenario("proxy-post-64k", ONE, Kind.LOAD, "/proxy-post/hello", 1, 50, List.of(Wrk.POST + 65536)),
            new Scenario("proxy-noka", ONE, Kind.LOAD, "/proxy-noka/hello", 1, 50, List.of()),
            new Scenario("proxy-close", ONE, Kind.LOAD, "/proxy/hello", 1, 50, List.of("Connection: close")),
            new Scenario("proxy-https", ONE, Kind.LOAD, "/proxy-tls/1k.bin", 1, 50, List.of()),
            new Scenario("https-hello", ONE, Kind.LOAD, HTTPS + "/hello", 1, 50, List.of()),
            new Scenario("https-1m", ONE, Kind.LOAD, HTTPS + "/1m.bin", 1, 10, List.of()),
            new Scenario("https-handshake", ONE, Kind.LOAD, HTTPS + "/hello", 1, 20, List.of("Connection: close")),
            new Scenario("reload", ONE, Kind.RELOAD, "/hello", 1, 50, List.of()),
            new Scenario("reload-warm", ONE, Kind.RELOAD_WARM, "/hello", 1, 50, List.of()),
            new Scenario("hello-2w", TWO, Kind.LOAD, "/hello", 2, 50, List.of()),
            new Scenario("static-1k-2w", TWO, Kind.LOAD, "/1k.bin", 2, 50, List.of()),
            new Scenario("idle-10k", MANY, Kind.IDLE, "/hello", 1, 50, List.of()));
    }
}
