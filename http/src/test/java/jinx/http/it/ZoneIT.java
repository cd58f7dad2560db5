package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.it.zone.ZoneCounterModule;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.testsuite.ServerSide;

/**
 * Shared zones across two worker processes, through a module loaded with {@code load_module}
 * ({@link ZoneCounterModule}): concurrent clients increment counters in the zone, with compare-and-set and under
 * the zone's lock, and lose no increment; a worker killed with SIGKILL while it holds the zone's lock does not
 * stop the other, because the master releases a reaped worker's lock.
 */
@Tag("slow")
class ZoneIT {

    private static final int CLIENTS = 8;
    private static final int REQUESTS = 200;

    @Test
    @Timeout(180)
    void twoWorkersLoseNoIncrement() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            Process p = start(site, port);
            try {
                List<ProcessHandle> workers = WorkerProcs.workers(p, site, 2);
                WorkerProcs.waitForBody(port, "/read");
                Map<Long, AtomicInteger> served = new ConcurrentHashMap<>();
                ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
                try {
                    List<Future<?>> clients = new ArrayList<>();
                    for (int c = 0; c < CLIENTS; c++) {
                        clients.add(pool.submit(() -> {
                            for (int i = 0; i < REQUESTS; i++) {
                                String[] answer = WorkerProcs.body(port, i % 2 == 0 ? "/cas" : "/lock").split(" ");
                                served.computeIfAbsent(Long.parseLong(answer[1].strip()), k -> new AtomicInteger())
                                    .incrementAndGet();
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : clients) {
                        f.get();
                    }
                } finally {
                    pool.shutdownNow();
                    pool.awaitTermination(10, TimeUnit.SECONDS);
                }
                int half = CLIENTS * REQUESTS / 2;
                String[] counters = WorkerProcs.body(port, "/read").split(" ");
                assertEquals(half + " " + half, counters[0] + " " + counters[1],
                    "compare-and-set and locked counters after " + 2 * half + " requests");
                assertEquals(Set.of(workers.get(0).pid(), workers.get(1).pid()), served.keySet(),
                    "both workers counted: " + served);
                System.out.println("ZONE COUNTER requests=" + 2 * half + " cas=" + counters[0] + " lock="
                    + counters[1] + " per worker " + served);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(180)
    void aWorkerKilledHoldingTheLockDoesNotStopTheOther() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            Process p = start(site, port);
            List<Socket> waiting = new ArrayList<>();
            try {
                List<ProcessHandle> workers = WorkerProcs.workers(p, site, 2);
                WorkerProcs.waitForBody(port, "/read");
                // both workers accept before one takes the lock
                Masters.waitForLog(site, log -> log.split("start worker process", -1).length == 3);
                String[] held = WorkerProcs.body(port, "/hold").strip().split(" ");
                long holder = Long.parseLong(held[1]);
                assertEquals(held[1], held[0], "the lock records its holder");
                assertTrue(workers.stream().anyMatch(w -> w.pid() == holder), held[1]);
                assertEquals(String.valueOf(holder), WorkerProcs.body(port, "/owner").split(" ")[0]);

                // two requests that need the lock, one after the other: while it is held, the worker that takes the
                // first waits, so the second goes to the other worker, which waits too
                for (int i = 0; i < 2; i++) {
                    Socket s = new Socket();
                    waiting.add(s);
                    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                    s.getOutputStream().write("GET /lock HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                    if (i == 0) {
                        // taken by a worker, which now waits for the lock, before the second one connects
                        ServerSide.awaitRead(s);
                    }
                    s.setSoTimeout(1500);
                }
                for (Socket s : waiting) {
                    assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(),
                        "a request that needs the held lock waits");
                }

                Syscalls.kill(holder, Platform.SIGKILL);
                String log = Masters.waitForLog(site, "shared memory zone \"" + ZoneCounterModule.ZONE
                    + "\" was locked by " + holder + "\n");
                assertTrue(log.contains("worker process " + holder + " exited on signal 9"), log);
                // the request the other worker took completes once the master released the lock
                int answered = 0;
                for (Socket s : waiting) {
                    s.setSoTimeout(20_000);
                    String response = readAll(s);
                    answered += response.startsWith("HTTP/1.1 200 OK") ? 1 : 0;
                }
                assertEquals(1, answered, "the other worker's waiting request is answered");
                // and every worker serves what needs the lock
                List<ProcessHandle> after = WorkerProcs.workers(p, site, 2,
                    workers.stream().filter(w -> w.pid() == holder).toList());
                for (int i = 0; i < 20; i++) {
                    WorkerProcs.body(port, "/lock");
                }
                assertEquals("0", WorkerProcs.body(port, "/owner").split(" ")[0], "the lock is free");
                assertEquals(2, after.size());
                Masters.stopMaster(p, site);
            } finally {
                for (Socket s : waiting) {
                    s.close();
                }
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(180)
    void aReloadKeepsTheZoneAndItsCounters() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            Process p = start(site, port);
            try {
                List<ProcessHandle> workers = countToTen(p, site, port);
                // the same zone (name, size, module) in the new cycle: the workers, reloaded in place (issue #35),
                // map the same memory in their new cycle
                reloadInPlace(p, site, "worker_connections 256;", "worker_connections 512;");
                assertEquals("10 0", read(port), "the counters after the reload");
                String[] next = WorkerProcs.body(port, "/cas").strip().split(" ");
                assertEquals("11", next[0]);
                assertTrue(workers.stream().anyMatch(w -> w.pid() == Long.parseLong(next[1])), next[1]);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(180)
    void aReloadInPlaceToAnotherZoneSizeGivesTheWorkersTheNewEmptyZone() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            Process p = start(site, port);
            try {
                List<ProcessHandle> workers = countToTen(p, site, port);
                // another size is another zone: created empty by the master, mapped by the same workers
                reloadInPlace(p, site, "http {", "http { it_counter_pages 16;");
                assertEquals("0 0", read(port), "the counters of the new zone");
                for (int i = 0; i < 6; i++) {
                    String[] next = WorkerProcs.body(port, "/lock").strip().split(" ");
                    assertEquals(Integer.toString(i + 1), next[0]);
                    assertTrue(workers.stream().anyMatch(w -> w.pid() == Long.parseLong(next[1])), next[1]);
                }
                assertEquals("0 6", read(port));
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    /** Waits for the two workers, then counts to ten with compare-and-set; returns the workers. */
    private static List<ProcessHandle> countToTen(Process p, Site site, int port) throws Exception {
        List<ProcessHandle> workers = WorkerProcs.workers(p, site, 2);
        WorkerProcs.waitForBody(port, "/read");
        for (int i = 0; i < 10; i++) {
            WorkerProcs.body(port, "/cas");
        }
        assertEquals("10 0", read(port));
        return workers;
    }

    /** Edits the configuration, reloads, and waits until both workers took it in place (no new JVM). */
    private static void reloadInPlace(Process p, Site site, String from, String to) throws Exception {
        site.write("conf/jinx.conf", site.read("conf/jinx.conf").replace(from, to));
        Syscalls.kill(p.pid(), Platform.SIGHUP);
        String log = Masters.waitForLog(site, l -> l.split(" ready in ", -1).length - 1 == 4);
        assertTrue(log.indexOf("start worker process", log.indexOf(": reconfiguring\n")) < 0, log);
    }

    /** {@code CAS LOCK} of the counters. */
    private static String read(int port) throws IOException {
        String[] r = WorkerProcs.body(port, "/read").strip().split(" ");
        return r[0] + " " + r[1];
    }

    private static Process start(Site site, int port) throws IOException {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        WorkerProcs.moduleJar(site.root().resolve("modules/jinx-it-zone.jar"), ZoneCounterModule.class);
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        site.write("conf/jinx.conf", "load_module modules/jinx-it-zone.jar;\n"
            + "master_process on;\ndaemon off;\nworker_processes 2;\n" + user
            + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 256; }\n"
            + "http { access_log off; server { listen 127.0.0.1:" + port + ";\n"
            + "location = /cas { it_counter cas; }\nlocation = /lock { it_counter lock; }\n"
            + "location = /read { it_counter read; }\nlocation = /hold { it_counter hold; }\n"
            + "location = /owner { it_counter owner; }\n} }\n");
        return WorkerProcs.start(site, Map.of());
    }

    private static String readAll(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder sb = new StringBuilder();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = in.read(b)) > 0; ) {
                sb.append(new String(b, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (IOException e) {
            // the killed worker's connection is reset
        }
        return sb.toString();
    }
}
