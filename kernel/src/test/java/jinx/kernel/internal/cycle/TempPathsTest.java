package jinx.kernel.internal.cycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.TempPath;
import jinx.kernel.os.Syscalls;

/** nginx's {@code ngx_create_paths()}: the directories made 0700, kept when there, given to {@code user}. */
class TempPathsTest {

    @TempDir
    Path dir;

    @Test
    void makesTheDirectoriesAndKeepsOnesThatExist() throws Exception {
        Path a = dir.resolve("proxy_temp");
        Path b = dir.resolve("client_body_temp");
        Files.createDirectory(b);
        Files.writeString(b.resolve("kept"), "x");
        TempPaths.create(List.of(new TempPath(a, new int[] {1, 2}), new TempPath(b, new int[0])), -1);
        assertTrue(Files.isDirectory(a));
        assertEquals(0700, (Integer) Files.getAttribute(a, "unix:mode") & 0777);
        assertTrue(Files.exists(b.resolve("kept")));
    }

    @Test
    void aMissingParentFailsInNginxsWords() {
        Path deep = dir.resolve("no/such");
        ConfException e = assertThrows(ConfException.class,
            () -> TempPaths.create(List.of(new TempPath(deep, new int[0])), -1));
        assertEquals("mkdir() \"" + deep + "\" failed (2: No such file or directory)", e.getMessage());
    }

    @Test
    void givesThePathToTheWorkersUser() throws Exception {
        assumeTrue(Syscalls.geteuid() == 0, "chown needs root");
        int nobody = Syscalls.getpwnam("nobody");
        assumeTrue(nobody > 0, "no user nobody");
        Path a = dir.resolve("proxy_temp");
        Files.createDirectory(a);
        Files.setAttribute(a, "unix:mode", 0500);
        TempPaths.create(List.of(new TempPath(a, new int[0])), nobody);
        assertEquals(nobody, (Integer) Files.getAttribute(a, "unix:uid"));
        assertEquals(0700, (Integer) Files.getAttribute(a, "unix:mode") & 0700);
    }
}
