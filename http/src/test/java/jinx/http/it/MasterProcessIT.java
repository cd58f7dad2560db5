package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * {@code master_process on} through the real {@code bin/jinx}: a master that spawns worker JVMs, respawns one
 * killed with SIGKILL in the same slot, and stops them all on TERM. The test kills the master and its workers in
 * {@code finally}.
 */
@Tag("slow")
class MasterProcessIT {

    @Test
    @Timeout(90)
    void aKilledWorkerIsRespawnedAndTermStopsAll() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("html/index.html", "hello\n");
            // as root, workers would run as nobody, who cannot read the test's private directory
            String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 2;\n" + user
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
                + "events { worker_connections 64; }\n"
                + "http { access_log off; server { listen 127.0.0.1:" + port + "; root html; } }\n");
            Process p = new ProcessBuilder(Site.distribution().resolve("bin/jinx").toString(), "-p",
                site.root().toString()).redirectErrorStream(true).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.ISO_8859_1));
                assertEquals("jinx: [notice] listening on 127.0.0.1:" + port, out.readLine());
                List<ProcessHandle> workers = Masters.waitForWorkers(p.toHandle(), 2, List.of(), 60);
                waitForServing(port);
                assertEquals(p.pid() + "\n", site.read("logs/jinx.pid"));
                String log = site.read("logs/error.log");
                for (ProcessHandle w : workers) {
                    assertTrue(log.contains(": start worker process " + w.pid() + "\n"), log);
                }

                ProcessHandle killed = workers.get(0);
                Syscalls.kill(killed.pid(), Platform.SIGKILL);
                // the other worker serves all along
                assertEquals("HTTP/1.1 200 OK", ItSupport.get(port, "localhost", "/").statusLine());
                List<ProcessHandle> after = Masters.waitForWorkers(p.toHandle(), 2, List.of(killed));
                ProcessHandle fresh = after.stream().filter(h -> !workers.contains(h)).findFirst().orElseThrow();
                log = Masters.waitForLog(site, ": start worker process " + fresh.pid() + "\n");
                assertTrue(log.contains(": worker process " + killed.pid() + " exited on signal 9\n"), log);
                // a worker still starting when TERM comes would be SIGKILLed after nginx's 1.55 s: wait for it
                Masters.waitForReady(site, fresh.pid());
                // the new worker serves within its start: every request is answered while both accept
                for (int i = 0; i < 20; i++) {
                    assertEquals("HTTP/1.1 200 OK", ItSupport.get(port, "localhost", "/").statusLine());
                }

                Syscalls.kill(p.pid(), Platform.SIGTERM);
                assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the master is still running after SIGTERM");
                for (ProcessHandle w : after) {
                    assertTrue(w.onExit().get(10, TimeUnit.SECONDS) != null);
                }
                assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                log = site.read("logs/error.log");
                assertTrue(log.contains(": signal 15 (SIGTERM) received from " + ProcessHandle.current().pid()
                    + ", exiting\n"), log);
                assertTrue(log.contains(": worker process " + fresh.pid() + " exited with code 0\n"), log);
                assertTrue(log.endsWith(": exit\n"), log);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(90)
    void aWorkerThatFailsToStartIsNotRespawned() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 1;\n" + user
                + "working_directory " + site.root().resolve("missing") + ";\n"
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
                + "events { worker_connections 64; }\n"
                + "http { access_log off; server { listen 127.0.0.1:" + port + "; root html; } }\n");
            Process p = new ProcessBuilder(Site.distribution().resolve("bin/jinx").toString(), "-p",
                site.root().toString()).redirectErrorStream(true).start();
            try {
                String log = Masters.waitForLog(site, " exited with fatal code 2 and cannot be respawned\n");
                assertTrue(log.contains("chdir(\"" + site.root().resolve("missing") + "\") failed"), log);
                assertTrue(log.contains(" exited with code 2\n"), log);
                // a respawn would be started before the master handles the next signal
                Masters.handledBefore(p, site, 1);
                log = site.read("logs/error.log");
                assertEquals(1, log.split("start worker process", -1).length - 1, log);
                assertTrue(p.isAlive(), "the master stays, as nginx's");
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    private static void waitForServing(int port) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (;;) {
            try {
                assertEquals("HTTP/1.1 200 OK", ItSupport.get(port, "localhost", "/").statusLine());
                return;
            } catch (java.io.IOException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
