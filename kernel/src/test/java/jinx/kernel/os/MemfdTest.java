package jinx.kernel.os;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Files#memfdCreate} and {@link Files#ftruncate}: a shared zone's backing file.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class MemfdTest {

    private NativeMemory mem;
    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
        mem = new NativeMemory();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        mem.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    void createTruncateWriteAndReadBackThroughProc() throws Exception {
        int fd = Files.memfdCreate("jinx-zone", Platform.MFD_CLOEXEC);
        try {
            assertTrue(Syscalls.isCloexec(fd));
            Path proc = Path.of("/proc/self/fd/" + fd);
            assertEquals("/memfd:jinx-zone (deleted)", java.nio.file.Files.readSymbolicLink(proc).toString());
            assertEquals(0, Files.fstat(fd).size());

            Files.ftruncate(fd, 8192);
            assertEquals(8192, Files.fstat(fd).size());
            long buf = mem.allocate(16);
            byte[] hello = "hello zone".getBytes(StandardCharsets.US_ASCII);
            NativeMemory.put(buf, hello, 0, hello.length);
            assertEquals(hello.length, Syscalls.write(fd, buf, hello.length));

            // opening /proc/self/fd/N opens the same file anew: what another process mapping it would see
            byte[] read = java.nio.file.Files.readAllBytes(proc);
            assertEquals(8192, read.length);
            byte[] head = new byte[hello.length];
            System.arraycopy(read, 0, head, 0, head.length);
            assertArrayEquals(hello, head);
            assertEquals(0, read[8191]);

            Files.ftruncate(fd, 4);
            assertEquals("hell", new String(java.nio.file.Files.readAllBytes(proc), StandardCharsets.US_ASCII));
        } finally {
            Fds.closeQuietly(fd);
        }
    }

    @Test
    void withoutCloexecTheDescriptorIsInherited() throws Exception {
        int fd = Files.memfdCreate("inherited", Platform.MFD_ALLOW_SEALING);
        try {
            assertEquals(false, Syscalls.isCloexec(fd));
        } finally {
            Fds.closeQuietly(fd);
        }
    }

    @Test
    void failuresAreWordedAsNginx() {
        NativeIoException e = assertThrows(NativeIoException.class, () -> Files.ftruncate(-1, 1));
        assertEquals("ftruncate(-1, 1) failed (9: Bad file descriptor)", e.getMessage());
        assertEquals(Errors.EBADF, e.errno());

        // a name longer than 249 bytes is EINVAL (memfd_create(2))
        String name = "z".repeat(250);
        e = assertThrows(NativeIoException.class, () -> Files.memfdCreate(name, Platform.MFD_CLOEXEC));
        assertEquals("memfd_create() \"" + name + "\" failed (22: Invalid argument)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Files.memfdCreate("a\0b", 0));
    }

    @Test
    void ftruncateOfAReadOnlyDescriptorFails() throws Exception {
        int fd = Files.memfdCreate("ro", Platform.MFD_CLOEXEC);
        int ro = -1;
        try {
            ro = Files.open("/proc/self/fd/" + fd, Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
            int roFd = ro;
            NativeIoException e = assertThrows(NativeIoException.class, () -> Files.ftruncate(roFd, 10));
            assertEquals(Errors.EINVAL, e.errno());
        } finally {
            Fds.closeQuietly(ro, fd);
        }
    }
}
