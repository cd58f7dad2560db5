package jinx.contrib.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.spi.ApiVersion;

/**
 * The contrib jars loaded with {@code load_module modules/...} by the real {@code bin/jinx}, master and two
 * workers: every worker serves the loaded modules, the status totals are the same whichever worker answers
 * (shared zone), and {@code jinx -m} lists the jars as loaded with their version and API, the filter chain in
 * execution order.
 */
@Tag("slow")
class LoadModuleIT {

    private static final List<String> MODULES = List.of("echo", "status", "headers-more", "hello");
    private static final Pattern REQUESTS =
        Pattern.compile("server accepts handled requests\n (\\d+) (\\d+) (\\d+) \n");

    private static void install(Server s) throws Exception {
        for (String m : MODULES) {
            assumeTrue(Files.isRegularFile(Server.contribJar(m)), "the contrib jars are not built");
            s.installModule(Server.contribJar(m), "jinx-" + m + ".jar");
        }
        StringBuilder conf = new StringBuilder("master_process on;\nworker_processes 2;\n");
        for (String m : MODULES) {
            conf.append("load_module modules/jinx-").append(m).append(".jar;\n");
        }
        conf.append("events { worker_connections 256; }\n"
            + "http {\n access_log off;\n more_set_headers 'X-Worker: $pid';\n"
            + " server {\n  listen 127.0.0.1:" + s.port() + ";\n"
            + "  location = /echo { echo \"echo from $pid\"; }\n"
            + "  location = /status { stub_status; }\n"
            + "  location = /hello { hello; }\n"
            + " }\n}\n");
        s.conf(conf.toString());
    }

    @Test
    @Timeout(180)
    void everyWorkerServesTheLoadedModulesAndReportsTheSameTotals() throws Exception {
        assumeTrue(Files.isRegularFile(Server.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Server s = new Server()) {
            install(s);
            s.start();
            List<ProcessHandle> workers = s.waitForWorkers(2, List.of());
            Set<String> pids = ConcurrentHashMap.newKeySet();
            List<String> failures = new ArrayList<>();
            List<Thread> clients = new ArrayList<>();
            // a worker JVM may still be starting: go on until both have answered (60 s at most), four clients at
            // once so that a busy worker leaves connections to the other
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int t = 0; t < 4; t++) {
                Thread c = new Thread(() -> {
                    for (int i = 0; i < 25 || pids.size() < 2 && System.nanoTime() - deadline < 0; i++) {
                        try {
                            String r = s.get("/echo");
                            String worker = Server.header(r, "X-Worker");
                            boolean ok = r.startsWith("HTTP/1.1 200 ")
                                && Server.body(r).equals("echo from " + worker + "\n");
                            if (!ok) {
                                throw new AssertionError(r);
                            }
                            pids.add(worker);
                        } catch (Exception | AssertionError e) {
                            synchronized (failures) {
                                failures.add(e.toString());
                            }
                        }
                    }
                });
                c.start();
                clients.add(c);
            }
            for (Thread c : clients) {
                c.join(90_000);
            }
            assertTrue(failures.isEmpty(), failures.toString());
            Set<String> workerPids = ConcurrentHashMap.newKeySet();
            workers.forEach(w -> workerPids.add(Long.toString(w.pid())));
            assertEquals(workerPids, pids, "both workers answered with the echo module");
            assertEquals("Hello, world\n", Server.body(s.get("/hello")));

            // one request at a time: whichever worker answers, the total goes up by one (its own request)
            long previous = -1;
            Set<String> statusWorkers = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 40; i++) {
                String r = s.get("/status");
                statusWorkers.add(Server.header(r, "X-Worker"));
                Matcher m = REQUESTS.matcher(Server.body(r));
                assertTrue(m.find(), r);
                long requests = Long.parseLong(m.group(3));
                if (previous != -1) {
                    assertEquals(previous + 1, requests, "totals across workers: " + r);
                }
                assertEquals(m.group(1), m.group(2), "accepts = handled");
                previous = requests;
            }
            System.out.println("LOAD-MODULE status answered by workers " + statusWorkers + ", requests=" + previous);
            String log = s.log();
            assertFalse(log.contains("[emerg]") || log.contains("[alert]"), log);
            s.stop();
        }
    }

    /**
     * A reload's worker that warms up ({@code worker_warmup}) runs thousands of requests of its own: the status
     * totals count none of them, and a location of a module's content handler is never requested.
     */
    @Test
    @Timeout(120)
    void aWarmUpIsNotCounted() throws Exception {
        assumeTrue(Files.isRegularFile(Server.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        assumeTrue(Files.isRegularFile(Server.contribJar("status")), "the contrib jars are not built");
        try (Server s = new Server()) {
            s.installModule(Server.contribJar("status"), "jinx-status.jar");
            String conf = "master_process on;\nworker_processes 1;\nworker_warmup 3s;\n"
                + "load_module modules/jinx-status.jar;\nevents { worker_connections 256; }\n"
                + "http {\n access_log off;\n server {\n  listen 127.0.0.1:" + s.port() + ";\n"
                + "  location = /status { stub_status; }\n  location / { return 200 \"x\"; }\n }\n}\n";
            s.conf(conf);
            s.start();
            List<ProcessHandle> old = s.waitForWorkers(1, List.of());
            long before = requests(s);
            // another env: a worker process's own setting, so the reload starts a new JVM, which warms up (a
            // reload inside the running workers needs no warm-up)
            s.conf("env JINX_IT_RELOAD=1;\n" + conf);
            s.signal(Platform.SIGHUP);
            String log = s.waitForLog(l -> l.contains("warm-up: ")
                && l.indexOf(" ready in ", l.indexOf("warm-up: ")) > 0, "the new worker's warm-up and ready");
            Matcher warm = Pattern.compile("warm-up: (\\d+) requests").matcher(log);
            assertTrue(warm.find() && Long.parseLong(warm.group(1)) > 0, log);
            s.waitForWorkers(1, old);
            // the reload's worker serves now: one more request, this one, and nothing of the warm-up
            assertEquals(before + 1, requests(s), log);
            s.stop();
        }
    }

    private static long requests(Server s) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            try {
                Matcher m = REQUESTS.matcher(Server.body(s.get("/status")));
                assertTrue(m.find());
                return Long.parseLong(m.group(3));
            } catch (IOException e) {
                assertTrue(System.nanoTime() < end, e.toString());
                Thread.sleep(50);
            }
        }
    }

    @Test
    @Timeout(120)
    void dashMListsTheLoadedJarsAndTheChainsInExecutionOrder() throws Exception {
        assumeTrue(Files.isRegularFile(Server.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Server s = new Server()) {
            install(s);
            String out = s.command("-m");
            System.out.println(out);
            for (String m : List.of("echo", "status", "headers_more", "hello")) {
                Matcher row = Pattern.compile("\\n\\d+ +\\d+ +\\d+ +" + m + " +HTTP +loaded +(\\S+) +(\\S+) +(\\S+)")
                    .matcher(out);
                assertTrue(row.find(), m + " in:\n" + out);
                assertEquals("0.1.0-SNAPSHOT", row.group(1), out);
                assertEquals(ApiVersion.MAJOR + "." + ApiVersion.MINOR, row.group(2), out);
                assertTrue(row.group(3).endsWith("modules/jinx-" + m.replace('_', '-') + ".jar"), out);
            }
            assertTrue(out.contains("http_core ") && out.contains(" static "), out);
            Matcher filters = Pattern.compile("header filters: (.*)\n").matcher(out);
            assertTrue(filters.find(), out);
            List<String> chain = List.of(filters.group(1).split(" -> "));
            assertTrue(chain.indexOf("http_headers_filter") < chain.indexOf("headers_more")
                && chain.indexOf("headers_more") < chain.indexOf("http_header_filter"), chain.toString());
            assertTrue(out.contains("in execution order: a module ordered after(\"x\") runs later than x"), out);
        }
    }
}
