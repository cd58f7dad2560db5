package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * Files of a master running as root with workers as {@code user nobody} (issue #36): log rotation gives the new
 * files to the workers' user as nginx's {@code ngx_reopen_files()} does, so no line is lost to the rotated file;
 * and no worker leaves HotSpot's root-owned attach socket {@code /tmp/.java_pid<pid>} behind. Needs root and the
 * user nobody (65534). Kills the master and its workers by pid whatever happens.
 */
@Tag("slow")
class UserFilesIT {

    private static final int NOBODY = 65534;

    @BeforeEach
    void assumeRootAndNobody() {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        assumeTrue(Syscalls.geteuid() == 0, "the master runs as root to start workers as another user");
        assumeTrue(Syscalls.getpwnam("nobody") == NOBODY, "user nobody is 65534");
    }

    private static String group() {
        return Syscalls.getgrnam("nogroup") != -1 ? "nogroup" : "nobody";
    }

    @Test
    @Timeout(120)
    void rotationGivesTheNewLogsToTheWorkersUserAndTheyLeaveNoAttachSocket() throws Exception {
        try (Site site = Site.create()) {
            // the workers must reach logs/ (root's, 0755: they cannot create files in it, as with nginx)
            Files.setPosixFilePermissions(site.root(), PosixFilePermissions.fromString("rwxr-xr-x"));
            int port = Site.freePort();
            site.write("conf/jinx.conf", Masters.conf(port, 2, "", "v")
                .replace("user root;\n", "").replace("master_process on;\n",
                    "master_process on;\nuser nobody " + group() + ";\n"));
            List<Long> pids = new ArrayList<>();
            Masters.withWorkers(site, 2, (p, workers) -> {
                workers.forEach(w -> pids.add(w.pid()));
                for (long pid : pids) {
                    assertEquals("65534\t65534\t65534\t65534", WorkerProcs.status(pid, "Uid"));
                }
                assertEquals("v", ItSupport.get(port, "localhost", "/v").body());
                Path logs = site.root().resolve("logs").toRealPath();
                waitFor(logs.resolve("access.log"), "GET /v ");
                Files.move(logs.resolve("error.log"), logs.resolve("error.log.1"));
                Files.move(logs.resolve("access.log"), logs.resolve("access.log.1"));
                Syscalls.kill(p.pid(), Platform.SIGUSR1);
                for (long pid : pids) {
                    waitFor(logs.resolve("error.log.1"), " " + pid + ItSupport.MAIN_TID + ": reopening logs\n");
                }
                for (int i = 0; i < 4; i++) {
                    assertEquals("v", ItSupport.get(port, "localhost", "/v?after=" + i).body());
                }
                // every request after the rotation is in the new file, none in the rotated one
                for (int i = 0; i < 4; i++) {
                    waitFor(logs.resolve("access.log"), "GET /v?after=" + i + " ");
                }
                String rotated = Files.readString(logs.resolve("access.log.1"), StandardCharsets.ISO_8859_1);
                assertFalse(rotated.contains("after="), rotated);
                assertEquals(NOBODY, owner(logs.resolve("access.log")));
                assertEquals(NOBODY, owner(logs.resolve("error.log")));
                String errors = Files.readString(logs.resolve("error.log.1"), StandardCharsets.ISO_8859_1)
                    + Files.readString(logs.resolve("error.log"), StandardCharsets.ISO_8859_1);
                assertFalse(errors.contains("Permission denied"), errors);
                for (long pid : pids) {
                    Path socket = attachSocket(pid);
                    assertTrue(!Files.exists(socket, LinkOption.NOFOLLOW_LINKS) || owner(socket) == NOBODY,
                        socket + " is root's");
                }
                Masters.stopMaster(p, site);
                for (ProcessHandle w : workers) {
                    w.onExit().get(20, TimeUnit.SECONDS);
                }
            });
            for (long pid : pids) {
                assertFalse(Files.exists(attachSocket(pid), LinkOption.NOFOLLOW_LINKS),
                    "worker " + pid + " left " + attachSocket(pid));
            }
        }
    }

    private static Path attachSocket(long pid) {
        return Path.of("/tmp/.java_pid" + pid);
    }

    private static int owner(Path file) throws Exception {
        return (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    }

    static void waitFor(Path file, String text) throws Exception {
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
