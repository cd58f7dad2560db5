package jinx.contrib.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.FakeUpstream;

/**
 * An upstream with a {@code zone} under {@code master_process on} with two workers, {@code upstream_status} of the
 * contrib status module, and health checks: the zone's figures add up across the workers (each peer's requests are
 * what that backend received, whichever worker sent them, and the total is every request made); a backend stopped
 * turns {@code unhealthy} in the JSON, gets nothing, and is {@code up} again once restarted; the Prometheus text
 * carries the same numbers.
 */
@Tag("slow")
class UpstreamStatusIT {

    private static final int REQUESTS = 60;

    private static String peer(String json, int port, String field) {
        Matcher m = Pattern.compile("\"name\":\"127\\.0\\.0\\.1:" + port + "\",[^}]*?\"" + field
            + "\":\"?(\\w+)").matcher(json);
        assertTrue(m.find(), field + " of " + port + " in " + json);
        return m.group(1);
    }

    private static long proxied(FakeUpstream up) {
        return up.requests().stream().filter(r -> r.path().startsWith("/status/")).count();
    }

    @Test
    @Timeout(240)
    void figuresAddUpAcrossWorkersAndFollowABackendStoppedAndStarted() throws Exception {
        assumeTrue(Files.isRegularFile(Server.distribution().resolve("proxy/target/jinx-proxy.jar")),
            "the jars are not built");
        for (String m : List.of("status", "headers-more")) {
            assumeTrue(Files.isRegularFile(Server.contribJar(m)), "the contrib jars are not built");
        }
        FakeUpstream a = FakeUpstream.start();
        FakeUpstream b = FakeUpstream.start();
        int bPort = b.port();
        try (Server s = new Server()) {
            s.installModule(Server.contribJar("status"), "jinx-status.jar");
            s.installModule(Server.contribJar("headers-more"), "jinx-headers-more.jar");
            s.conf("master_process on;\nworker_processes 2;\nload_module modules/jinx-status.jar;\n"
                + "load_module modules/jinx-headers-more.jar;\nevents { worker_connections 256; }\n"
                + "http {\n access_log off;\n more_set_headers 'X-Worker: $pid';\n"
                + " upstream backend { zone backend 64k; server 127.0.0.1:" + a.port() + "; server 127.0.0.1:"
                + bPort + "; }\n"
                + " match ok { status 200; body ~ hello; }\n"
                + " server {\n  listen 127.0.0.1:" + s.port() + ";\n"
                + "  location / { proxy_pass http://backend; health_check interval=2s fails=2 passes=2 uri=/hello "
                + "match=ok; }\n"
                + "  location = /upstreams { upstream_status; }\n"
                + "  location = /metrics { upstream_status; status_format prometheus; }\n"
                + " }\n}\n");
            s.start();
            s.waitForWorkers(2, List.of());
            s.waitForLog(l -> l.split("ready in", -1).length > 2, "both workers ready");
            // a probe made while a worker's JVM is still cold may time out: both peers up before the traffic
            awaitState(s, a.port(), "up");
            awaitState(s, bPort, "up");
            Set<String> pids = ConcurrentHashMap.newKeySet();
            AtomicInteger ok = new AtomicInteger();
            List<String> failures = new ArrayList<>();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread c = new Thread(() -> {
                    for (int i = 0; i < REQUESTS / 4; i++) {
                        try {
                            String r = s.get("/status/200");
                            assertTrue(r.startsWith("HTTP/1.1 200 "), r);
                            pids.add(Server.header(r, "X-Worker"));
                            ok.incrementAndGet();
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
                c.join(120_000);
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first " + failures.get(0) + "\nLOG " + logOf(s));
            assertEquals(REQUESTS, ok.get());
            String json = s.get("/upstreams");
            System.out.println("UPSTREAM-STATUS workers " + pids + " after " + REQUESTS + " requests:\n"
                + Server.body(json));
            assertTrue(json.startsWith("HTTP/1.1 200 ") && json.contains("Content-Type: application/json"), json);
            long onA = Long.parseLong(peer(json, a.port(), "requests"));
            long onB = Long.parseLong(peer(json, bPort, "requests"));
            assertEquals(proxied(a), onA, "a's requests, from both workers");
            assertEquals(proxied(b), onB, "b's requests, from both workers");
            assertEquals(REQUESTS, onA + onB, "the zone's figures add up across workers: " + pids);
            assertTrue(Server.body(json).contains("\"2xx\":" + onA + ","), json);
            String metrics = Server.body(s.get("/metrics"));
            assertTrue(metrics.contains("jinx_upstream_server_requests_total{protocol=\"http\",upstream=\"backend\","
                + "server=\"127.0.0.1:" + a.port() + "\"} " + onA + "\n"), metrics);

            b.close();
            String down = awaitState(s, bPort, "unhealthy");
            System.out.println("UPSTREAM-STATUS b stopped:\n" + down);
            for (int i = 0; i < 10; i++) {
                assertTrue(s.get("/status/200").startsWith("HTTP/1.1 200 "));
            }
            assertEquals(onB, Long.parseLong(peer(s.get("/upstreams"), bPort, "requests")), "b gets nothing");
            try (FakeUpstream b2 = FakeUpstream.start(bPort)) {
                String up = awaitState(s, bPort, "up");
                System.out.println("UPSTREAM-STATUS b started again:\n" + up);
                for (int i = 0; i < 10; i++) {
                    assertTrue(s.get("/status/200").startsWith("HTTP/1.1 200 "));
                }
                assertTrue(proxied(b2) > 0, "b serves again");
            }
            String log = s.log();
            for (String line : log.split("\n")) {
                if (line.contains("peer is")) {
                    System.out.println("UPSTREAM-STATUS log: " + line);
                }
            }
            assertTrue(log.contains("peer is unhealthy") && log.contains("peer is healthy"), log);
            assertFalse(log.contains("[emerg]") || log.contains("[alert]"), log);
            s.stop();
        } finally {
            a.close();
        }
    }

    private static String logOf(Server s) {
        try {
            return s.log();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private static String awaitState(Server s, int port, String state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            String json = Server.body(s.get("/upstreams"));
            if (peer(json, port, "state").equals(state)) {
                return json;
            }
            assertTrue(System.nanoTime() < deadline, "never " + state + ": " + json);
            Thread.sleep(100);
        }
    }
}
