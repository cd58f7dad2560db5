package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
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

import jinx.kernel.internal.process.MasterProcess;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * Accepting across two workers, each way nginx has: the listening socket registered with EPOLLEXCLUSIVE (the
 * default with several workers on epoll), {@code accept_mutex on} (a lock in a shared zone decides who listens)
 * and {@code listen ... reuseport} (a socket per worker). Each test shows the mode is in force in the worker
 * processes ({@code /proc}) and that connections spread over both: every response names the worker that
 * accepted it ({@code $pid}).
 */
@Tag("slow")
class AcceptIT {

    /** The first listening socket's descriptor in a worker (after the snapshot and the channel). */
    private static final int LISTENING_FD = MasterProcess.FIRST_LISTENING_FD;

    private static final long EXCLUSIVE = Platform.EPOLLEXCLUSIVE & 0xffffffffL;

    @Test
    @Timeout(120)
    void epollExclusiveIsTheDefault() throws Exception {
        serve("", "", (port, workers) -> {
            for (ProcessHandle w : workers) {
                Map<Integer, String> listening = WorkerProcs.listeningFds(w.pid(), port);
                assertEquals(Set.of(LISTENING_FD), listening.keySet(), "the shared socket at its fixed descriptor");
                Long events = WorkerProcs.epollRegistrations(w.pid()).get(LISTENING_FD);
                assertTrue(events != null && (events & EXCLUSIVE) != 0, "EPOLLEXCLUSIVE: " + events);
                assertFalse(WorkerProcs.fds(w.pid()).containsValue("/memfd:jinx:jinx_shared_zone (deleted)"));
            }
        });
    }

    @Test
    @Timeout(120)
    void acceptMutexTakesItsLockInASharedZone() throws Exception {
        serve("accept_mutex on;\naccept_mutex_delay 20ms;\n", "", (port, workers) -> {
            for (ProcessHandle w : workers) {
                assertTrue(WorkerProcs.fds(w.pid()).containsValue("/memfd:jinx:jinx_shared_zone (deleted)"),
                    "the accept mutex's zone is mapped: " + WorkerProcs.fds(w.pid()));
                Long events = WorkerProcs.epollRegistrations(w.pid()).get(LISTENING_FD);
                // with the mutex a worker registers the socket only while it holds the lock, never exclusive
                assertTrue(events == null || (events & EXCLUSIVE) == 0, "not exclusive: " + events);
            }
        });
    }

    @Test
    @Timeout(120)
    void reuseportGivesEachWorkerItsOwnSocket() throws Exception {
        serve("", " reuseport", (port, workers) -> {
            Set<String> inodes = WorkerProcs.listeningInodes(port);
            assertEquals(2, inodes.size(), "two sockets listen on the port: " + inodes);
            List<String> held = new ArrayList<>();
            for (ProcessHandle w : workers) {
                Map<Integer, String> listening = WorkerProcs.listeningFds(w.pid(), port);
                assertEquals(1, listening.size(), "a worker holds its own socket only: " + listening);
                held.addAll(listening.values());
            }
            assertNotEquals(held.get(0), held.get(1), "each worker its own socket");
        });
    }

    /** What a test checks in the running workers. */
    private interface Check {
        void check(int port, List<ProcessHandle> workers) throws Exception;
    }

    private static void serve(String events, String listen, Check check) throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        assumeTrue(Platform.EPOLLEXCLUSIVE != 0, "Linux epoll");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 2;\n" + user
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
                + "events {\nworker_connections 256;\n" + events + "}\n"
                + "http { access_log off; server { listen 127.0.0.1:" + port + listen + ";\n"
                + "location / { return 200 \"$pid\\n\"; } } }\n");
            Process p = WorkerProcs.start(site, Map.of());
            try {
                List<ProcessHandle> workers = WorkerProcs.workers(p, site, 2);
                WorkerProcs.waitForBody(port, "/");
                Masters.waitForLog(site, log -> log.split("start worker process", -1).length == 3);
                Map<Long, AtomicInteger> served = spread(port);
                // both workers have served: both are past their start, their listening sockets registered
                check.check(port, workers);
                Set<Long> pids = new HashSet<>();
                workers.forEach(w -> pids.add(w.pid()));
                assertEquals(pids, served.keySet(), "connections accepted by both workers: " + served);
                System.out.println("ACCEPT " + (events + listen).replace('\n', ' ').strip() + " served " + served);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    /**
     * Four clients send requests, each on a new connection, until both workers have answered at least 10 (60 s
     * at most); returns how many each worker answered.
     */
    private static Map<Long, AtomicInteger> spread(int port) throws Exception {
        Map<Long, AtomicInteger> served = new ConcurrentHashMap<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                clients.add(pool.submit(() -> {
                    int done = 0;
                    while (System.nanoTime() < end && (done < 50 || !bothServed(served))) {
                        long pid = Long.parseLong(WorkerProcs.body(port, "/").strip());
                        served.computeIfAbsent(pid, k -> new AtomicInteger()).incrementAndGet();
                        done++;
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
        return served;
    }

    private static boolean bothServed(Map<Long, AtomicInteger> served) {
        return served.size() >= 2 && served.values().stream().allMatch(n -> n.get() >= 10);
    }
}
