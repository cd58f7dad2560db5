package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * Signals to a {@code master_process on} server that reach the workers over the channel: USR1 reopens the log
 * files of the master and of every worker (rotation with {@code mv}), and {@code jinx -s reopen|reload|quit|stop}
 * signals the master named by the pid file. Every test kills what it started, by pid, in {@code finally}.
 */
@Tag("slow")
class MasterSignalsIT {

    @BeforeEach
    void built() {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
    }

    @Test
    @Timeout(120)
    void usr1ReopensTheLogsOfTheMasterAndTheWorkers() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            // a location's own error log: the workers open it (they never run initModule)
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v")
                .replace("location = /v", "location /l/ { error_log logs/loc.log; }\nlocation = /v"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                assertEquals("v", ItSupport.get(port, "localhost", "/v").body());
                assertEquals(404, ItSupport.get(port, "localhost", "/l/missing").status());
                Path loc = site.root().resolve("logs/loc.log");
                waitFor(loc, "/l/missing\" failed (2: No such file or directory)");
                String locLog = Files.readString(loc, StandardCharsets.ISO_8859_1);
                assertTrue(workers.stream().anyMatch(w -> locLog.contains(" " + w.pid() + ItSupport.MAIN_TID + ": *")),
                    locLog);
                assertFalse(site.read("logs/error.log").contains("/l/missing"), "not in the location's log");
                Path logs = site.root().resolve("logs").toRealPath();
                Files.move(logs.resolve("error.log"), logs.resolve("error.log.1"));
                Files.move(logs.resolve("access.log"), logs.resolve("access.log.1"));
                Syscalls.kill(p.pid(), Platform.SIGUSR1);
                for (ProcessHandle w : workers) {
                    waitFor(logs.resolve("error.log.1"), " " + w.pid() + ItSupport.MAIN_TID + ": reopening logs\n");
                }
                // every process holds the new files, none the renamed ones
                List<Long> pids = new ArrayList<>(List.of(p.pid()));
                workers.forEach(w -> pids.add(w.pid()));
                for (long pid : pids) {
                    List<String> open = waitForReopened(pid, logs);
                    assertTrue(open.contains(logs.resolve("error.log").toString()), pid + ": " + open);
                    assertTrue(pid == p.pid() || open.contains(logs.resolve("access.log").toString()),
                        pid + ": " + open);
                    assertTrue(pid == p.pid() || open.contains(logs.resolve("loc.log").toString()),
                        pid + ": " + open);
                }
                assertEquals(404, ItSupport.get(port, "localhost", "/missing").status());
                waitFor(logs.resolve("access.log"), "GET /missing ");
                waitFor(logs.resolve("error.log"), "/missing\" failed (2: No such file or directory)");
                String old = Files.readString(logs.resolve("access.log.1"), StandardCharsets.ISO_8859_1);
                assertTrue(old.contains("GET /v "), old);
                assertFalse(old.contains("GET /missing "), old);
                // the master writes to the new error log too
                Masters.stopMaster(p, site);
                String log = Files.readString(logs.resolve("error.log"), StandardCharsets.ISO_8859_1);
                assertTrue(log.contains(" " + p.pid() + ItSupport.MAIN_TID + ": signal 15 (SIGTERM) received from "),
                    log);
                assertTrue(log.endsWith(" " + p.pid() + ItSupport.MAIN_TID + ": exit\n"), log);
            });
        }
    }

    @Test
    @Timeout(120)
    void quitAndTermRemoveTheListeningUnixSocket() throws Exception {
        for (int signo : new int[] {Platform.SIGQUIT, Platform.SIGTERM}) {
            try (Site site = Site.create()) {
                Path sock = site.root().resolve("logs/jinx.sock");
                int port = Site.freePort();
                site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v")
                    .replace("location = /v", "listen unix:" + sock + ";\nlocation = /v"));
                Masters.withWorkers(site, 2, (p, workers) -> {
                    try (RawClient c = RawClient.unix(sock)) {
                        String raw = c.send("GET /v HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                            .readAll();
                        assertTrue(raw.endsWith("\r\n\r\nv"), raw);
                    }
                    Syscalls.kill(p.pid(), signo);
                    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the master is still running");
                    Masters.assertAllExit(workers);
                    assertFalse(Files.exists(sock), "signal " + signo + " left " + sock);
                    assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                });
            }
        }
    }

    @Test
    @Timeout(300)
    void theSignallerReopensReloadsAndQuits() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "old"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                signaller(site, "reopen");
                Masters.waitForLog(site, " " + p.pid() + ItSupport.MAIN_TID + ": signal 10 (SIGUSR1) received from ");
                site.write("conf/jinx.conf", Masters.conf(port, 2, "", "new"));
                signaller(site, "reload");
                Masters.waitForLog(site, " " + p.pid() + ItSupport.MAIN_TID + ": signal 1 (SIGHUP) received from ");
                // the reload itself is ReloadIT's; here it must have started, and end one way or the other
                Masters.waitForLog(site, log -> log.contains(" " + p.pid() + ItSupport.MAIN_TID + ": reconfiguring\n")
                    && (log.split(" ready in ", -1).length > 4 || log.contains("reload abandoned")));
                workers.addAll(p.toHandle().children().toList());
                signaller(site, "quit");
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the master is still running after -s quit");
                Masters.assertAllExit(workers);
                assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                assertTrue(site.read("logs/error.log").contains(" signal 3 (SIGQUIT) received from "));
            });
        }
    }

    @Test
    @Timeout(300)
    void theSignallerStopsTheMasterOfThePidFile() throws Exception {
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v"));
            Process p = Masters.start(site);
            List<ProcessHandle> workers = new ArrayList<>();
            try {
                workers.addAll(Masters.waitForWorkers(p.toHandle(), 2, List.of(), 60));
                waitFor(site.root().resolve("logs/jinx.pid"), p.pid() + "\n");
                signaller(site, "stop");
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the master is still running after -s stop");
                Masters.assertAllExit(workers);
                assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
                assertTrue(site.read("logs/error.log").contains(" " + p.pid()
                    + ItSupport.MAIN_TID + ": signal 15 (SIGTERM) received from "));
            } finally {
                Masters.kill(p);
                workers.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** Runs {@code jinx -p site -s signal}, which must exit with 0. */
    private static void signaller(Site site, String signal) throws Exception {
        Process s = new ProcessBuilder(Site.distribution().resolve("bin/jinx").toString(), "-p",
            site.root().toString(), "-s", signal).redirectErrorStream(true).start();
        try {
            assertTrue(s.waitFor(60, TimeUnit.SECONDS), "jinx -s " + signal + " did not finish");
            String out = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertEquals(0, s.exitValue(), "jinx -s " + signal + ": " + out);
        } finally {
            s.destroyForcibly();
        }
    }

    /** Waits until process {@code pid} holds no renamed ({@code .1}) log open; returns its open files. */
    private static List<String> waitForReopened(long pid, Path logs) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> open = List.of();
        while (System.nanoTime() < end) {
            open = openFiles(pid);
            if (open.stream().noneMatch(f -> f.startsWith(logs.toString()) && f.endsWith(".1"))) {
                return open;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(pid + " still holds a renamed log: " + open);
    }

    private static List<String> openFiles(long pid) throws java.io.IOException {
        List<String> targets = new ArrayList<>();
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    targets.add(Files.readSymbolicLink(fd).toString());
                } catch (java.io.IOException e) {
                    // closed meanwhile
                }
            }
        }
        return targets;
    }

    private static void waitFor(Path file, String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String content = "";
        while (System.nanoTime() < end) {
            if (Files.exists(file)) {
                content = Files.readString(file, StandardCharsets.ISO_8859_1);
                if (content.contains(text)) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("\"" + text + "\" not in " + file + ":\n" + content);
    }
}
