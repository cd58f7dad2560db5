package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A reload inside the running workers when they run as another user than the master (issue #35), the default of
 * a master started as root: the master, root, opens what needs privileges (a listening socket on a port below 1024,
 * a new error log and a new access log in a directory only root may write to) and sends the descriptors along with
 * the snapshot; the workers, {@code nobody}, build the new cycle in their JVMs and write to those files. Needs root
 * and the user nobody (65534). Kills the master and its workers by pid whatever happens.
 */
@Tag("slow")
class UserReloadIT {

    private static final int NOBODY = 65534;
    private static final Pattern READY = Pattern.compile(": worker process \\d+ ready in \\d+ms\n");

    @BeforeEach
    void assumeRootAndNobody() {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        assumeTrue(Syscalls.geteuid() == 0, "the master runs as root to start workers as another user");
        assumeTrue(Syscalls.getpwnam("nobody") == NOBODY, "user nobody is 65534");
    }

    @Test
    @Timeout(180)
    void theWorkersAsNobodyTakeAReloadInPlaceWithANewPrivilegedPortAndNewLogFiles() throws Exception {
        try (Site site = Site.create()) {
            // the workers reach html/ but may not create files in logs/ (root's, 0755), as with nginx
            Files.setPosixFilePermissions(site.root(), PosixFilePermissions.fromString("rwxr-xr-x"));
            int port = Site.freePort();
            int low = freePortBelow1024();
            site.write("conf/jinx.conf", conf("listen 127.0.0.1:" + port + ";", "logs/access.log", "", "one"));
            Masters.withWorkers(site, 2, (p, workers) -> {
                List<Long> pids = workers.stream().map(ProcessHandle::pid).toList();
                for (long pid : pids) {
                    assertEquals("65534\t65534\t65534\t65534", WorkerProcs.status(pid, "Uid"));
                }
                assertEquals("one", ItSupport.get(port, "localhost", "/v").body());
                site.write("conf/jinx.conf", conf("listen 127.0.0.1:" + port + "; listen 127.0.0.1:" + low + ";",
                    "logs/new/access.log", "error_log logs/new/server.log;", "two"));
                Files.createDirectories(site.root().resolve("logs/new"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                String log = Masters.waitForLog(site, l -> InPlaceReloadIT.count(READY, l) == 4);
                for (long pid : pids) {
                    assertTrue(log.contains("reconfiguring worker process " + pid + " in place\n"), log);
                }
                for (int i = 0; i < 10; i++) {
                    assertEquals("two", ItSupport.get(port, "localhost", "/v?n=" + i).body());
                    assertEquals("two", ItSupport.get(low, "localhost", "/v?low=" + i).body());
                    long pid = Long.parseLong(ItSupport.get(low, "localhost", "/pid").body());
                    assertTrue(pids.contains(pid), pid + " is not one of " + pids);
                }
                Path logs = site.root().resolve("logs/new").toRealPath();
                // the workers wrote every request to the files the master created, root's as nginx's are
                for (int i = 0; i < 10; i++) {
                    UserFilesIT.waitFor(logs.resolve("access.log"), "GET /v?low=" + i + " ");
                }
                assertEquals("HTTP/1.1 404 Not Found", ItSupport.get(low, "localhost", "/missing").statusLine());
                UserFilesIT.waitFor(logs.resolve("server.log"), "/missing\" failed (2: No such file or directory)");
                for (String name : List.of("access.log", "server.log")) {
                    Path file = logs.resolve(name);
                    assertEquals(0, (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS));
                    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
                }
                assertTrue(Files.readString(logs.resolve("server.log"), StandardCharsets.ISO_8859_1)
                    .lines().allMatch(l -> pids.stream().anyMatch(pid -> l.contains(" " + pid + "#"))),
                    "a line of server.log is not a worker's");
                String all = site.read("logs/error.log");
                assertFalse(all.contains("Permission denied"), all);
                assertTrue(all.indexOf("start worker process", all.indexOf(": reconfiguring\n")) < 0, all);
                assertEquals(pids.stream().sorted().toList(), p.toHandle().children().filter(ProcessHandle::isAlive)
                    .map(ProcessHandle::pid).sorted().toList());
                Masters.stopMaster(p, site);
            });
        }
    }

    /** Two workers as nobody, {@code server} lines with {@code /v} answering {@code body} and {@code /pid}. */
    private static String conf(String listen, String accessLog, String server, String body) {
        String group = Syscalls.getgrnam("nogroup") != -1 ? "nogroup" : "nobody";
        return "master_process on;\ndaemon off;\nworker_processes 2;\nuser nobody " + group + ";\n"
            + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 64; }\n"
            + "http { access_log " + accessLog + "; server { " + listen + " root html; " + server + "\n"
            + "location = /v { return 200 \"" + body + "\"; }\n"
            + "location = /pid { return 200 \"$pid\"; } } }\n";
    }

    /** A port below 1024 nothing listens on, which only root may bind. */
    private static int freePortBelow1024() throws IOException {
        for (int port = 900 + (int) (ProcessHandle.current().pid() % 50); port < 1024; port++) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                return port;
            } catch (IOException e) {
                // taken: the next one
            }
        }
        throw new IOException("no free port below 1024");
    }
}
