package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.it.crash.ErrorModule;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Syscalls;
import jinx.kernel.testsuite.ServerSide;

/**
 * The worker processes of {@code master_process on} through the real {@code bin/jinx}: respawn in the same slot,
 * graceful exit on reload (idle connections closed at once, in-flight requests finished with
 * {@code Connection: close}, {@code worker_shutdown_timeout}), QUIT and TERM with two workers, TERM escalating to
 * SIGKILL, WINCH, and the channel's end of file when the master is killed. Every test kills what it started, by
 * pid, in {@code finally}.
 */
@Tag("slow")
class WorkerProcessesIT {

    private static final byte[] HALF = "GET /v HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] END = "\r\n".getBytes(StandardCharsets.ISO_8859_1);

    @BeforeEach
    void built() {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
    }

    @Test
    @Timeout(120)
    void aKilledWorkerComesBackInTheSameSlotWithinASecond() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                ProcessHandle killed = workers.get(0);
                int slot = Masters.slotOf(killed);
                long firstStart = 0;
                for (ProcessHandle w : workers) {
                    firstStart = Math.max(firstStart, Masters.waitForReady(site, w.pid()));
                }
                long kill = System.nanoTime();
                Syscalls.kill(killed.pid(), Platform.SIGKILL);
                ProcessHandle fresh = null;
                while (fresh == null && System.nanoTime() - kill < TimeUnit.SECONDS.toNanos(10)) {
                    fresh = p.toHandle().children().filter(h -> !workers.contains(h)).findFirst().orElse(null);
                    Thread.sleep(5);
                }
                long appearedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - kill);
                assertTrue(fresh != null, "no worker was respawned");
                workers.add(fresh);
                assertTrue(appearedMs <= 1000, "respawned " + appearedMs + "ms after the kill");
                // it starts ten nice values up (root may lower it), and takes the master's once ready
                int nice = ProcessSetup.nice();
                int boosted = Syscalls.geteuid() == 0 ? Math.max(-20, nice - 10) : nice;
                assertEquals(boosted, WorkerProcs.nice(fresh.pid()).get(fresh.pid()), "a starting worker's nice");
                assertEquals(slot, Masters.slotOf(fresh), "not in the killed worker's slot");
                long startMs = Masters.waitForReady(site, fresh.pid());
                Map<Long, Integer> threads = WorkerProcs.nice(fresh.pid());
                assertTrue(threads.values().stream().allMatch(n -> n == nice), "a ready worker's nice: " + threads);
                // it serves: a request answered with its pid
                String pid = Long.toString(fresh.pid());
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                String body = "";
                while (!body.equals(pid) && System.nanoTime() < end) {
                    body = ItSupport.get(port, "localhost", "/pid").body();
                }
                assertEquals(pid, body, "the respawned worker never served");
                long servedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - kill);
                System.out.println("RESPAWN appeared=" + appearedMs + "ms start(spawn to ready)=" + startMs
                    + "ms first workers' start=" + firstStart
                    + "ms served=" + servedMs + "ms after the kill");
                // within a second, or on a host that starts a JVM slowly within the slower first worker's start
                // (those two started together; the respawned one starts alone on an idle machine)
                long bound = Math.max(1000, firstStart);
                assertTrue(servedMs <= bound, "the respawned worker served " + servedMs + "ms after the kill, bound "
                    + bound + "ms");
                String log = site.read("logs/error.log");
                assertTrue(log.contains(": worker process " + killed.pid() + " exited on signal 9\n"), log);
                Masters.stopMaster(p, site);
                Masters.assertAllExit(workers);
            });
        }
    }

    @Test
    @Timeout(120)
    void anErrorOnTheLoopThreadExitsTheWorkerWithCode1AndItIsRespawned() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            WorkerProcs.moduleJar(site.root().resolve("modules/jinx-it-error.jar"), ErrorModule.class);
            site.write("conf/jinx.conf", Masters.conf(port, 2, "load_module modules/jinx-it-error.jar;\n", "v")
                .replace("location = /pid", "location = /error { it_error; }\nlocation = /pid"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                java.util.Map<ProcessHandle, Integer> slots = new java.util.HashMap<>();
                for (ProcessHandle w : workers) {
                    slots.put(w, Masters.slotOf(w));
                }
                // the worker that takes the request dies in it: no response, the connection closed
                try (Socket s = connect(port)) {
                    s.getOutputStream().write("GET /error HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                    try {
                        assertEquals(-1, s.getInputStream().read(), "a response to /error");
                    } catch (java.net.SocketException e) {
                        // reset: the JVM exited with the connection open
                    }
                }
                String log = Masters.waitForLog(site, l -> workers.stream()
                    .anyMatch(w -> l.contains(": worker process " + w.pid() + " exited with code 1\n")));
                ProcessHandle died = workers.stream()
                    .filter(w -> log.contains(": worker process " + w.pid() + " exited with code 1\n"))
                    .findFirst().orElseThrow();
                // its trace went to the error log, where a worker's stderr goes
                assertTrue(log.contains("java.lang.InternalError: it_error in /error\n"), log);
                // its slot gets a new worker, and both serve
                List<ProcessHandle> now = Masters.waitForWorkers(p.toHandle(), 2, List.of(died));
                workers.addAll(now);
                ProcessHandle fresh = now.stream().filter(w -> !workers.subList(0, 2).contains(w)).findFirst()
                    .orElseThrow();
                assertEquals(slots.get(died), Masters.slotOf(fresh), "not in the dead worker's slot");
                Masters.waitForReady(site, fresh.pid());
                java.util.Set<String> pids = new java.util.HashSet<>();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pids.size() < 2 && System.nanoTime() < end) {
                    pids.add(ItSupport.get(port, "localhost", "/pid").body());
                }
                assertTrue(pids.contains(Long.toString(fresh.pid())), "the new worker never served: " + pids);
                assertTrue(p.isAlive(), "the master is alive");
                Masters.stopMaster(p, site);
                Masters.assertAllExit(workers);
            });
        }
    }

    @Test
    @Timeout(150)
    void reloadClosesIdleAtOnceFinishesInFlightAndTimesOutTheRest() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            String main = "worker_shutdown_timeout 3s;\n";
            int big = 32 << 20;
            site.write("html/big.bin", new byte[big]);
            site.write("conf/jinx.conf", Masters.conf(port, 2, main, "old"));
            Process p = Masters.start(site);
            List<ProcessHandle> old = new ArrayList<>();
            try {
                old.addAll(Masters.startReady(site, p, 2));
            } catch (Throwable e) {
                Masters.kill(p);
                throw e;
            }
            try (Socket idle = connect(port); Socket slow = connect(port); Socket stuck = new Socket()) {
                idle.getOutputStream().write(HALF);
                idle.getOutputStream().write(END);
                String first = readResponse(idle.getInputStream(), "old");
                assertTrue(first.contains("Connection: keep-alive\r\n"), first);
                slow.getOutputStream().write(HALF);
                // a response that never finishes: the client does not read it
                stuck.setReceiveBufferSize(8192);
                stuck.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5000);
                stuck.setSoTimeout(30_000);
                stuck.getOutputStream().write("GET /big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
                // both requests are in flight on the old cycle: read by a worker
                ServerSide.awaitRead(slow);
                ServerSide.awaitRead(stuck);
                site.write("conf/jinx.conf", Masters.conf(port, 2, main, "new"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                // the idle keep-alive connection is closed once its worker is told to quit, not after keepalive
                assertEquals(-1, idle.getInputStream().read());
                long closed = System.nanoTime();
                // both workers took the new cycle in place (issue #35; the slow request may be on the other one)
                Masters.waitForLog(site, log -> log.split(" ready in ", -1).length - 1 == 4);
                // the slow request finishes on the old configuration, and its connection closes
                slow.getOutputStream().write(END);
                String r = new String(slow.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n"), r);
                assertTrue(r.contains("\r\nConnection: close\r\n"), r);
                assertTrue(r.endsWith("\r\n\r\nold"), r);
                // the response never read is ended by the old cycle's worker_shutdown_timeout (3 s): the worker
                // closes its end before the client reads on
                ServerSide.awaitClosed(stuck, 15);
                long got = 0;
                try {
                    for (int n; (n = stuck.getInputStream().read(new byte[65536])) > 0;) {
                        got += n;
                    }
                } catch (java.net.SocketException e) {
                    // reset: the unread response was cut
                }
                long cutMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
                assertTrue(cutMs < 15_000, "the unread response was cut " + cutMs + "ms after the reload");
                assertTrue(got < big, "the whole response arrived");
                // the same workers serve the new configuration
                List<ProcessHandle> now = p.toHandle().children().filter(ProcessHandle::isAlive).toList();
                assertTrue(now.containsAll(old) && now.size() == 2, old + " -> " + now);
                assertEquals("new", ItSupport.get(port, "localhost", "/v").body());
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
                old.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    @Timeout(150)
    void quitWaitsForTheRequestInFlightAndTermDoesNot() throws Exception {
        for (int signo : new int[] {Platform.SIGQUIT, Platform.SIGTERM}) {
            try (Site site = Site.create()) {
                int port = Site.freePort();
                site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
                Masters.withWorkers(site, 2, (p, workers) -> {
                    try (Socket slow = connect(port)) {
                        slow.getOutputStream().write(HALF);
                        ServerSide.awaitRead(slow);
                        Syscalls.kill(p.pid(), signo);
                        if (signo == Platform.SIGQUIT) {
                            Masters.waitForLog(site, log -> log.split(": gracefully shutting down\n", -1).length > 3);
                            // the worker without a connection has gone through its shutdown and exited
                            Masters.waitForLog(site, " exited with code 0\n");
                            assertTrue(p.isAlive(), "QUIT did not wait for the request in flight");
                            slow.getOutputStream().write(END);
                            String r = new String(slow.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                            assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n"), r);
                            assertTrue(r.contains("\r\nConnection: close\r\n"), r);
                        } else {
                            // TERM: the connection ends without a response
                            assertEquals(-1, slow.getInputStream().read());
                        }
                        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the master is still running");
                        Masters.assertAllExit(workers);
                        assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                        String log = site.read("logs/error.log");
                        assertTrue(log.endsWith(": exit\n"), log);
                        for (ProcessHandle w : workers) {
                            assertTrue(signo != Platform.SIGQUIT
                                || log.contains(": worker process " + w.pid() + " exited with code 0\n"), log);
                        }
                    }
                });
            }
        }
    }

    @Test
    @Timeout(120)
    void termEscalatesToSigkillForAWorkerThatDoesNotExit() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                ProcessHandle stopped = workers.get(0);
                Syscalls.kill(stopped.pid(), Platform.SIGSTOP);
                long term = System.nanoTime();
                Syscalls.kill(p.pid(), Platform.SIGTERM);
                assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the master is still running");
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - term);
                Masters.assertAllExit(workers);
                String log = site.read("logs/error.log");
                assertTrue(log.contains(": kill (" + stopped.pid() + ", 9)\n"), log);
                assertTrue(log.contains(": worker process " + stopped.pid() + " exited on signal 9\n"), log);
                assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                System.out.println("TERM-ESCALATION master exited " + ms + "ms after TERM");
            });
        }
    }

    /** WINCH stops the workers of a daemon only (UpgradeIT shows that); in the foreground it is ignored. */
    @Test
    @Timeout(150)
    void winchInTheForegroundLeavesTheWorkersServing() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                Syscalls.kill(p.pid(), Platform.SIGWINCH);
                Masters.waitForLog(site, ": signal 28 (SIGWINCH) received from " + ProcessHandle.current().pid()
                    + "\n");
                // a QUIT for WINCH would come over the workers' channels before USR1's REOPEN
                Masters.handledBefore(p, site, 3);
                assertFalse(site.read("logs/error.log").contains("gracefully shutting down"));
                for (ProcessHandle w : workers) {
                    assertTrue(w.isAlive(), "worker " + w.pid() + " stopped on WINCH in the foreground");
                }
                assertEquals("v", ItSupport.get(port, "localhost", "/v").body());
                assertFalse(site.read("logs/error.log").contains("stop accepting connections"));
                Masters.stopMaster(p, site);
            });
        }
    }

    @Test
    @Timeout(120)
    void workersStopWhenTheMasterIsKilled() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                assertEquals("v", ItSupport.get(port, "localhost", "/v").body());
                Syscalls.kill(p.pid(), Platform.SIGKILL);
                Masters.assertAllExit(workers);
                Masters.assertRefused(port);
                String log = site.read("logs/error.log");
                for (ProcessHandle w : workers) {
                    assertTrue(log.contains(" " + w.pid() + ItSupport.MAIN_TID
                        + ": the channel to the master process is closed\n"), log);
                }
            });
        }
    }

    static Socket connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(30_000);
        return s;
    }

    /** Reads one response whose body ends with {@code end}. */
    static String readResponse(InputStream in, String end) throws IOException {
        StringBuilder b = new StringBuilder();
        while (!(b.indexOf("\r\n\r\n") > 0 && b.toString().endsWith(end))) {
            int c = in.read();
            if (c == -1) {
                break;
            }
            b.append((char) c);
        }
        return b.toString();
    }
}
