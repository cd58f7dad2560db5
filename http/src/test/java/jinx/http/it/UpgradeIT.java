package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * The binary upgrade (USR2) and {@code daemon on|off} through the real {@code bin/jinx}, as nginx's documentation
 * and the seed article run them: USR2 starts a new master on the inherited sockets, WINCH stops the old workers,
 * QUIT the old master; or HUP brings the old workers back and QUIT to the new master rolls back. The upgrade runs
 * with {@code daemon on}, as nginx's does (a foreground master ignores USR2). Every process is killed by its
 * handle when a test ends ({@link Daemons}).
 */
@Tag("slow")
class UpgradeIT {

    private static final String PID = "logs/jinx.pid";
    private static final String OLDBIN = "logs/jinx.pid.oldbin";

    private static String conf(int port, String main) {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        return main + user + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 256; }\n"
            + "http { access_log off; server { listen 127.0.0.1:" + port + ";\n"
            + "location / { return 200 \"up\\n\"; } } }\n";
    }

    private static Daemons site(int port, String main) throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        Site site = Site.create();
        site.write("conf/jinx.conf", conf(port, main));
        return new Daemons(site);
    }

    private static void assertServes(int port) throws Exception {
        Response r = ItSupport.get(port, "localhost", "/");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("up\n", r.body());
    }

    private static String log(Daemons d) {
        return d.site().read("logs/error.log");
    }

    private static void awaitLog(Daemons d, String regex) throws InterruptedException {
        Pattern p = Pattern.compile(regex, Pattern.MULTILINE);
        Daemons.awaitTrue(() -> p.matcher(log(d)).find(), 60, "/" + regex + "/ in the error log");
    }

    /** Starts the daemon: the launcher returns 0 and the pid file names another process, with its workers. */
    private static long startDaemon(Daemons d, int workers) throws Exception {
        Daemons.Launch launch = d.launch();
        assertEquals(0, launch.exitCode(), launch.output());
        long master = d.pid(PID);
        assertNotEquals(launch.pid(), master);
        d.awaitChildren(master, workers, List.of());
        return master;
    }

    private static void stop(Daemons d, long master) throws Exception {
        Daemons.Launch stop = d.launch("-s", "stop");
        assertEquals(0, stop.exitCode(), stop.output());
        Daemons.awaitExit(master);
        assertFalse(d.exists(PID), "the pid file is left");
    }

    @Test
    @Timeout(180)
    void usr2WinchQuitHandsOverToANewMasterWithoutAFailedRequest() throws Exception {
        int port = Site.freePort();
        try (Daemons d = site(port, "master_process on;\ndaemon on;\nworker_processes 1;\n")) {
            long old = startDaemon(d, 1);
            long me = ProcessHandle.current().pid();
            try (LoadClient load = LoadClient.start(port, "up\n", 4)) {
                load.awaitMore(100);
                Daemons.kill(old, Platform.SIGUSR2);
                long fresh = d.awaitPid(PID, old);
                assertEquals(old + "\n", d.site().read(OLDBIN), "the old master's pid file is .oldbin");
                awaitLog(d, "\\[notice\\] " + fresh + "#\\d+: using inherited sockets from \"(\\d+;)+\"$");
                List<ProcessHandle> freshWorkers = d.awaitChildren(fresh, 1, List.of());
                List<ProcessHandle> oldWorkers = Daemons.children(old, List.of(fresh));
                assertEquals(1, oldWorkers.size(), oldWorkers.toString());
                load.awaitMore(100);

                // one upgrade at a time: the old master while its new binary runs, the new one while its parent runs
                Daemons.kill(old, Platform.SIGUSR2);
                Daemons.kill(fresh, Platform.SIGUSR2);
                Daemons.awaitTrue(() -> log(d).split("the changing binary signal is ignored", -1).length == 3, 60,
                    "two USR2 ignored");

                Daemons.kill(old, Platform.SIGWINCH);
                for (ProcessHandle w : oldWorkers) {
                    assertTrue(w.onExit().get(30, TimeUnit.SECONDS) != null);
                }
                assertTrue(ProcessHandle.of(old).isPresent(), "the old master stays after WINCH");
                load.awaitMore(200);

                Daemons.kill(old, Platform.SIGQUIT);
                Daemons.awaitExit(old);
                assertFalse(d.exists(OLDBIN), ".oldbin is removed by the old master");
                assertEquals(fresh + "\n", d.site().read(PID));
                load.awaitMore(200);
                load.close();
                assertEquals(List.of(), load.failures());
                System.out.println("UPGRADE requests=" + load.requests() + " failures=" + load.failures().size());

                // the new master serves alone, with its worker
                assertServes(port);
                assertEquals(freshWorkers.stream().map(ProcessHandle::pid).toList(),
                    Daemons.children(fresh, List.of()).stream().map(ProcessHandle::pid).toList());
                String log = log(d);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": signal 12 (SIGUSR2) received from " + me
                    + ", changing binary\n"), log);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": changing binary\n"), log);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": start new binary process " + fresh + "\n"), log);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": signal 28 (SIGWINCH) received from " + me
                    + ", stop accepting connections\n"), log);
                assertTrue(log.contains(fresh + ItSupport.MAIN_TID + ": signal 12 (SIGUSR2) received from " + me
                    + ", ignoring\n"), log);
                stop(d, fresh);
            }
        }
    }

    @Test
    @Timeout(180)
    void usr2ThenHupAndQuitToTheNewMasterRollsBack() throws Exception {
        int port = Site.freePort();
        try (Daemons d = site(port, "master_process on;\ndaemon on;\nworker_processes 1;\n")) {
            long old = startDaemon(d, 1);
            try (LoadClient load = LoadClient.start(port, "up\n", 2)) {
                Daemons.kill(old, Platform.SIGUSR2);
                long fresh = d.awaitPid(PID, old);
                d.awaitChildren(fresh, 1, List.of());
                List<ProcessHandle> oldWorkers = Daemons.children(old, List.of(fresh));
                Daemons.kill(old, Platform.SIGWINCH);
                for (ProcessHandle w : oldWorkers) {
                    assertTrue(w.onExit().get(30, TimeUnit.SECONDS) != null);
                }

                // the new binary misbehaves: HUP brings the old workers back, without reading the configuration
                Daemons.kill(old, Platform.SIGHUP);
                List<Long> notWorkers = List.of(fresh);
                List<ProcessHandle> back = d.awaitChildren(old, 1, notWorkers);
                assertFalse(oldWorkers.contains(back.get(0)));
                Daemons.kill(fresh, Platform.SIGQUIT);
                Daemons.awaitExit(fresh);
                Daemons.awaitTrue(() -> !d.exists(OLDBIN) && d.readPid(PID).orElse(-1L) == old, 60,
                    ".oldbin renamed back to the pid file");
                load.awaitMore(100);
                load.close();
                assertEquals(List.of(), load.failures());
                assertServes(port);
                String log = log(d);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": new binary process " + fresh
                    + " exited with code 0\n"), log);
                assertTrue(log.contains(old + ItSupport.MAIN_TID + ": start worker process " + back.get(0).pid()
                    + "\n"), log);
                assertFalse(log.contains(old + ItSupport.MAIN_TID + ": reconfiguring\n"),
                    "HUP during an upgrade reads nothing\n" + log);
                stop(d, old);
            }
        }
    }

    @Test
    @Timeout(180)
    void daemonOnDetachesIntoItsOwnSessionAndStopsWithDashS() throws Exception {
        int port = Site.freePort();
        try (Daemons d = site(port, "master_process off;\ndaemon on;\n")) {
            long start = System.nanoTime();
            Daemons.Launch launch = d.launch();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(0, launch.exitCode(), launch.output());
            assertTrue(launch.output().contains("jinx: [notice] listening on 127.0.0.1:" + port + "\n"),
                launch.output());
            // the launcher has returned: the daemon is another process, serving already
            long pid = d.pid(PID);
            assertNotEquals(launch.pid(), pid);
            assertTrue(ProcessHandle.of(pid).isPresent(), "the daemon runs");
            assertServes(port);
            assertEquals(pid, session(pid), "a session of its own, led by the daemon");
            assertNotEquals(session(ProcessHandle.current().pid()), session(pid));
            assertEquals("/dev/null", Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/0")).toString());
            assertEquals("/dev/null", Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/1")).toString());
            assertEquals(d.site().root().resolve("logs/error.log").toRealPath(),
                Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/2")).toRealPath());
            // a single process with master_process off: no worker
            assertEquals(List.of(), Daemons.children(pid, List.of()));
            System.out.println("DAEMON launcher returned in " + ms + "ms");
            stop(d, pid);
        }
    }

    @Test
    @Timeout(180)
    void daemonOffKeepsThePidAndIgnoresUsr2() throws Exception {
        int port = Site.freePort();
        try (Daemons d = site(port, "master_process on;\ndaemon off;\nworker_processes 1;\n")) {
            Process p = new ProcessBuilder(Site.distribution().resolve("bin/jinx").toString(), "-p",
                d.site().root().toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                // the pid file names the pid the harness started (bin/jinx execs java, which re-execs itself)
                Daemons.awaitTrue(() -> d.readPid(PID).orElse(-1L) == p.pid(), 60, "the pid file naming " + p.pid());
                d.awaitChildren(p.pid(), 1, List.of());
                assertServes(port);
                // as nginx: a master in the foreground ignores USR2 (its parent has not changed)
                Syscalls.kill(p.pid(), Platform.SIGUSR2);
                awaitLog(d, "the changing binary signal is ignored");
                assertFalse(d.exists(OLDBIN));
                assertTrue(log(d).contains(p.pid() + ItSupport.MAIN_TID + ": signal 12 (SIGUSR2) received from "
                    + ProcessHandle.current().pid() + ", ignoring\n"), log(d));
                Syscalls.kill(p.pid(), Platform.SIGTERM);
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the same process exits");
                assertFalse(d.exists(PID));
            } finally {
                Masters.kill(p);
            }
        }
    }

    /** The session id, field 6 of {@code /proc/<pid>/stat} (after the command in parentheses). */
    private static long session(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.ISO_8859_1);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[3]);
    }
}
