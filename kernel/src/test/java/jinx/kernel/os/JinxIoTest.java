package jinx.kernel.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Rc;

/** libjinxio: found where the build puts it, and its {@code -errno} read as the facades read errno. */
@EnabledOnOs(OS.LINUX)
class JinxIoTest {

    @Test
    void theBuildPutsTheLibraryWhereEveryJvmIsPointedAndTheHotCallsUseIt() {
        String path = System.getProperty("jffi.boot.library.path");
        assumeTrue(path != null, "the build's test configuration sets jffi.boot.library.path");
        assertTrue(java.nio.file.Files.isReadable(Path.of(path, Native.IO_LIBRARY)), path);
        assertTrue(Syscalls.hotCallsThroughJinxIo());
    }

    @Test
    void noLibraryWhereThePathHasNone(@TempDir Path empty) {
        assertNull(Native.loadIo(null));
        assertNull(Native.loadIo(empty.toString()));
        String path = System.getProperty("jffi.boot.library.path");
        assumeTrue(path != null);
        assertNotNull(Native.loadIo(empty + java.io.File.pathSeparator + path), "the first directory that has it");
    }

    @Test
    void aLibraryThatCannotBeLoadedLeavesTheCallsToLibc(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve(Native.IO_LIBRARY), "not an ELF file");
        assertNull(Native.loadIo(dir.toString()));
    }

    @Test
    void errnoComesBackAsTheFacadesReportIt() throws Exception {
        assumeTrue(Syscalls.hotCallsThroughJinxIo());
        Map<String, String> baseline = Fds.baseline();
        try (NativeMemory mem = new NativeMemory()) {
            exchange(mem.allocate(4096));
        }
        Fds.assertBackTo(baseline);
    }

    private static void exchange(long buf) throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        try {
            assertEquals(Rc.AGAIN, Sockets.recv(sv[1], buf, 100));
            NativeMemory.put(buf, "ping".getBytes(StandardCharsets.ISO_8859_1), 0, 4);
            assertEquals(4, Sockets.send(sv[0], buf, 4));
            assertEquals(4, Sockets.recv(sv[1], buf + 100, 100));
            assertEquals("ping", SocketsTest.string(buf + 100, 4));
            Syscalls.close(sv[1]);
            NativeIoException pipe = assertThrows(NativeIoException.class, () -> Sockets.send(sv[0], buf, 4));
            assertEquals("send()", pipe.call());
            assertEquals(Errors.EPIPE, pipe.errno());
        } finally {
            Syscalls.close(sv[0]);
        }
        NativeIoException bad = assertThrows(NativeIoException.class, () -> Sockets.recv(sv[0], buf, 10));
        assertEquals("recv()", bad.call());
        assertEquals(Errors.EBADF, bad.errno());
        assertTrue(bad.getMessage().contains("Bad file descriptor"), bad.getMessage());
        NativeIoException badWritev = assertThrows(NativeIoException.class, () -> Syscalls.writev(sv[0], buf, 0));
        assertEquals(Errors.EBADF, badWritev.errno());
    }
}
