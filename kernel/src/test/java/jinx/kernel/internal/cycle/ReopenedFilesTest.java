package jinx.kernel.internal.cycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ErrorLog;
import jinx.kernel.os.Syscalls;

/** nginx's {@code ngx_reopen_files()} with a user: the reopened file goes to the workers' user (issue #36). */
class ReopenedFilesTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** A log to stderr, which the test reads; it holds no file to close. */
    private ErrorLog log() {
        return ErrorLog.early(new PrintStream(err, true, StandardCharsets.ISO_8859_1), null);
    }

    @Test
    void theFileGoesToTheUserAndItsOwnerCanReadAndWriteIt() throws Exception {
        assumeTrue(Syscalls.geteuid() == 0, "only root gives a file away");
        Path file = Files.writeString(tmp.resolve("access.log"), "");
        Files.setAttribute(file, "unix:mode", 0200);
        ReopenedFiles.own(file, 65534, log());
        assertEquals(65534, Files.getAttribute(file, "unix:uid"));
        assertEquals(0600, (Integer) Files.getAttribute(file, "unix:mode") & 0777);
        assertEquals("", err.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void noUserChangesNothing() throws Exception {
        Path file = Files.writeString(tmp.resolve("access.log"), "");
        Files.setAttribute(file, "unix:mode", 0200);
        int uid = (Integer) Files.getAttribute(file, "unix:uid");
        ReopenedFiles.own(file, -1, log());
        assertEquals(uid, Files.getAttribute(file, "unix:uid"));
        assertEquals(0200, (Integer) Files.getAttribute(file, "unix:mode") & 0777);
    }

    @Test
    void aFailureIsOneEmergLineInNginxWords() {
        Path file = tmp.resolve("gone.log");
        ReopenedFiles.own(file, 65534, log());
        String text = err.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.matches("[^\n]* \\[emerg\\] \\d+#\\d+: stat\\(\\) \"" + file
            + "\" failed \\(2: No such file or directory\\)\n"), text);
    }
}
