package jinx.contrib.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;

/**
 * A module upgraded by a reload: version 1 of a module jar serves under {@code master_process on} with two
 * workers while clients keep sending requests; the jar is replaced on disk by version 2 and the master gets HUP.
 * The answers change from version 1 to version 2, no request fails, and no request sent after the old workers
 * announced their graceful shutdown (the master tells them once the new workers are ready) is answered by
 * version 1.
 */
@Tag("slow")
class ModuleUpgradeIT {

    /** One request as a client saw it. */
    private record Exchange(long startNanos, long endNanos, String body, String failure) {
    }

    @Test
    @Timeout(240)
    void replacingTheJarAndReloadingUpgradesWithoutAFailedRequest() throws Exception {
        assumeTrue(Files.isRegularFile(Server.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Server s = new Server()) {
            Path work = s.root().resolve("build");
            Path v1 = work.resolve("v1.jar");
            Path v2 = work.resolve("v2.jar");
            Files.createDirectories(work);
            ModuleJars.build(work.resolve("1"), ModuleJars.probeSource("version 1"), v1);
            ModuleJars.build(work.resolve("2"), ModuleJars.probeSource("version 2"), v2);
            s.installModule(v1, "probe.jar");
            s.conf("master_process on;\nworker_processes 2;\nload_module modules/probe.jar;\n"
                + "events { worker_connections 256; }\n"
                + "http { access_log off; server { listen 127.0.0.1:" + s.port() + "; } }\n");
            s.start();
            List<ProcessHandle> old = s.waitForWorkers(2, List.of());
            assertEquals("version 1\n", Server.body(s.get("/")));

            AtomicBoolean stop = new AtomicBoolean();
            List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
            List<Thread> clients = new ArrayList<>();
            // two clients, each pausing a moment between requests: load, but not so much that the new worker JVMs
            // (two cores on the test machine) cannot start within the master's readiness limit
            for (int t = 0; t < 2; t++) {
                Thread c = new Thread(() -> {
                    while (!stop.get()) {
                        pause(2);
                        long start = System.nanoTime();
                        try {
                            String r = s.get("/");
                            String failure = r.startsWith("HTTP/1.1 200 OK\r\n") ? null : r;
                            exchanges.add(new Exchange(start, System.nanoTime(), Server.body(r), failure));
                        } catch (Exception e) {
                            exchanges.add(new Exchange(start, System.nanoTime(), null, e.toString()));
                        }
                    }
                });
                c.start();
                clients.add(c);
            }
            Thread.sleep(500);
            s.installModule(v2, "probe.jar");
            long hup = System.nanoTime();
            s.signal(Platform.SIGHUP);
            // the old workers log their graceful shutdown when the master, seeing the new ones ready, QUITs them
            List<String> oldPids = old.stream().map(h -> Long.toString(h.pid())).toList();
            s.waitForLog(log -> oldPids.stream().allMatch(p -> log.contains(" " + p + "#")
                && shutdownLine(log, p)), "the old workers' graceful shutdown");
            long ready = System.nanoTime();
            for (ProcessHandle w : old) {
                assertTrue(w.onExit().get(30, TimeUnit.SECONDS) != null);
            }
            Thread.sleep(500);
            stop.set(true);
            for (Thread c : clients) {
                c.join(30_000);
            }
            List<Exchange> all;
            synchronized (exchanges) {
                all = new ArrayList<>(exchanges);
            }
            List<String> failures = all.stream().filter(e -> e.failure() != null).map(Exchange::failure).toList();
            assertTrue(failures.isEmpty(), failures.size() + " failed: " + failures);
            long v1Count = all.stream().filter(e -> "version 1\n".equals(e.body())).count();
            long v2Count = all.stream().filter(e -> "version 2\n".equals(e.body())).count();
            assertEquals(all.size(), v1Count + v2Count, "every answer is version 1 or 2");
            assertTrue(v1Count > 0 && v2Count > 0, "v1=" + v1Count + " v2=" + v2Count);
            List<Exchange> lateV1 = all.stream().filter(e -> e.startNanos() > ready && "version 1\n".equals(e.body()))
                .toList();
            assertTrue(lateV1.isEmpty(), lateV1.size() + " requests sent after the new workers were ready got v1");
            long firstV2 = all.stream().filter(e -> "version 2\n".equals(e.body())).mapToLong(Exchange::endNanos)
                .min().orElseThrow();
            List<ProcessHandle> fresh = s.waitForWorkers(2, old);
            for (int i = 0; i < 10; i++) {
                assertEquals("version 2\n", Server.body(s.get("/")));
            }
            System.out.println("MODULE-UPGRADE requests=" + all.size() + " v1=" + v1Count + " v2=" + v2Count
                + " failed=0 first v2 " + TimeUnit.NANOSECONDS.toMillis(firstV2 - hup) + "ms after HUP, old workers"
                + " shut down " + TimeUnit.NANOSECONDS.toMillis(ready - hup) + "ms after HUP, new workers "
                + fresh.stream().map(ProcessHandle::pid).toList());
            s.stop();
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the worker {@code pid} logged that it is shutting down gracefully. */
    private static boolean shutdownLine(String log, String pid) {
        for (String line : log.split("\n")) {
            if (line.contains(" " + pid + "#") && line.contains("gracefully shutting down")) {
                return true;
            }
        }
        return false;
    }
}
