package jinx.kernel.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void sendvSendsOneBufferASmallGatherAndALargeOneWholeAndInOrder() throws Exception {
        assumeTrue(Syscalls.hotCallsThroughJinxIo());
        Map<String, String> baseline = Fds.baseline();
        try (NativeMemory mem = new NativeMemory()) {
            long iov = mem.allocate(4 * 16);
            long data = mem.allocate(8192);
            long in = mem.allocate(8192);
            byte[] bytes = new byte[3000];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 31 + 7);
            }
            NativeMemory.put(data, bytes, 0, bytes.length);
            int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                          Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
            try {
                // one buffer (sendto), two pieces within 1 KB (gathered on the stack), three past it (sendmsg)
                int[][] cases = {{0, 200}, {0, 150, 1000, 6}, {0, 1000, 1500, 900, 2000, 1000}};
                for (int[] pieces : cases) {
                    int total = 0;
                    for (int i = 0; i < pieces.length; i += 2) {
                        NativeMemory.putLong(iov + i * 8L, data + pieces[i]);
                        NativeMemory.putLong(iov + i * 8L + 8, pieces[i + 1]);
                        total += pieces[i + 1];
                    }
                    assertEquals(total, Syscalls.sendv(sv[0], iov, pieces.length / 2, false));
                    int got = 0;
                    while (got < total) {
                        long n = Sockets.recv(sv[1], in + got, total - got);
                        assertTrue(n > 0, "recv " + n);
                        got += (int) n;
                    }
                    int off = 0;
                    for (int i = 0; i < pieces.length; i += 2) {
                        for (int k = 0; k < pieces[i + 1]; k++) {
                            assertEquals(bytes[pieces[i] + k], NativeMemory.getByte(in + off + k),
                                "case " + java.util.Arrays.toString(pieces) + " byte " + (off + k));
                        }
                        off += pieces[i + 1];
                    }
                }
                Syscalls.close(sv[1]);
                NativeIoException pipe = assertThrows(NativeIoException.class,
                    () -> Syscalls.sendv(sv[0], iov, 2, false));
                assertEquals("writev()", pipe.call(), "the call nginx names in its log line");
                assertEquals(Errors.EPIPE, pipe.errno());
            } finally {
                Syscalls.close(sv[0]);
            }
        }
        Fds.assertBackTo(baseline);
    }

    @Test
    void aFileOpensStatsAndClosesThroughTheLibraryAsTheJdkSeesIt(@TempDir Path dir) throws Exception {
        assumeTrue(Syscalls.hotCallsThroughJinxIo());
        Map<String, String> baseline = Fds.baseline();
        Path file = dir.resolve("f.bin");
        java.nio.file.Files.write(file, new byte[1234]);
        long mtime = java.nio.file.Files.getLastModifiedTime(file).toMillis() / 1000;
        try (NativeMemory mem = new NativeMemory()) {
            long pathBuf = mem.allocate(4096);
            long statBuf = mem.allocate(Platform.SIZEOF_STAT);
            int fd = Files.open(file.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0, pathBuf, 4096);
            try {
                Files.fstatRaw(fd, statBuf);
                assertEquals(1234, Files.statSize(statBuf));
                assertEquals(mtime, Files.statMtimeSec(statBuf));
                assertEquals(Platform.S_IFREG, Files.statMode(statBuf) & Platform.S_IFMT);
                FileStat st = Files.fstat(fd, statBuf);
                assertEquals(1234, st.size());
            } finally {
                Syscalls.close(fd);
            }
            NativeIoException missing = assertThrows(NativeIoException.class, () -> Files.open(
                dir.resolve("none").toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0, pathBuf, 4096));
            assertEquals(Errors.ENOENT, missing.errno());
            assertEquals("open() \"" + dir.resolve("none") + "\" failed (2: No such file or directory)",
                missing.getMessage());
            NativeIoException badStat = assertThrows(NativeIoException.class, () -> Files.fstatRaw(fd, statBuf));
            assertEquals(Errors.EBADF, badStat.errno());
            NativeIoException badClose = assertThrows(NativeIoException.class, () -> Syscalls.close(fd));
            assertEquals(Errors.EBADF, badClose.errno());
            assertEquals("close(" + fd + ")", badClose.call());
        }
        Fds.assertBackTo(baseline);
    }

    @Test
    void everyCallTakesFiveArgumentsAtMost() {
        // jnr-ffi 2.2.17's fast invokers (all-primitive signatures) pass a sixth argument wrongly: measured with
        // long f(int, long, int, int, long, long), whose f arrived as an address; a seventh allocates per call
        for (java.lang.reflect.Method m : LibJinxIo.class.getMethods()) {
            assertTrue(m.getParameterCount() <= 5, m.getName() + " takes " + m.getParameterCount());
        }
    }

    @Test
    void openStatOpensAndStatsInOneCallOrSaysWhichFailed(@TempDir Path dir) throws Exception {
        assumeTrue(Syscalls.hotCallsThroughJinxIo());
        Map<String, String> baseline = Fds.baseline();
        Path file = dir.resolve("f.bin");
        java.nio.file.Files.write(file, new byte[777]);
        long mtime = java.nio.file.Files.getLastModifiedTime(file).toMillis() / 1000;
        int flags = Platform.O_RDONLY | Platform.O_CLOEXEC;
        try (NativeMemory mem = new NativeMemory()) {
            long pathBuf = mem.allocate(4096);
            long statBuf = mem.allocate(Platform.SIZEOF_STAT);
            int fd = Files.openStat(file.toString(), flags, pathBuf, 4096, statBuf);
            try {
                assertEquals(777, Files.statSize(statBuf));
                assertEquals(mtime, Files.statMtimeSec(statBuf));
                assertEquals(Platform.S_IFREG, Files.statMode(statBuf) & Platform.S_IFMT);
                assertEquals(777, Files.fstat(fd).size(), "the descriptor is the file's");
            } finally {
                Syscalls.close(fd);
            }
            // a path longer than the caller's memory: the separate calls, the same answer
            int small = Files.openStat(file.toString(), flags, pathBuf, 4, statBuf);
            try {
                assertEquals(777, Files.statSize(statBuf));
            } finally {
                Syscalls.close(small);
            }
            int d = Files.openStat(dir.toString(), flags, pathBuf, 4096, statBuf);
            try {
                assertEquals(Platform.S_IFDIR, Files.statMode(statBuf) & Platform.S_IFMT);
            } finally {
                Syscalls.close(d);
            }
            NativeIoException missing = assertThrows(NativeIoException.class,
                () -> Files.openStat(dir.resolve("none").toString(), flags, pathBuf, 4096, statBuf));
            assertEquals("open() \"" + dir.resolve("none") + "\" failed (2: No such file or directory)",
                missing.getMessage());
            NativeIoException notDir = assertThrows(NativeIoException.class,
                () -> Files.openStat(file + "/x", flags, pathBuf, 4096, statBuf));
            assertEquals(Errors.ENOTDIR, notDir.errno());
            // the same answers as codes, without an exception, in one call and in the separate ones
            for (int room : new int[] {4096, 4}) {
                int none = Files.tryOpenStat(dir.resolve("none").toString(), flags, pathBuf, room, statBuf);
                assertTrue(none < 0);
                assertFalse(Files.statFailed(none));
                assertEquals(Errors.ENOENT, Files.errno(none));
                int notADir = Files.tryOpenStat(file + "/x", flags, pathBuf, room, statBuf);
                assertEquals(Errors.ENOTDIR, Files.errno(notADir));
                int ok = Files.tryOpenStat(file.toString(), flags, pathBuf, room, statBuf);
                try {
                    assertTrue(ok >= 0);
                    assertEquals(777, Files.statSize(statBuf));
                } finally {
                    Syscalls.close(ok);
                }
            }
        }
        Fds.assertBackTo(baseline);
    }

    @Test
    void sendvFileSendsAHeaderAndItsFileOrTheHeaderAloneWhenTheFileCannotGo(@TempDir Path dir) throws Exception {
        assumeTrue(Syscalls.hotCallsThroughJinxIo());
        Map<String, String> baseline = Fds.baseline();
        Path file = dir.resolve("f.txt");
        java.nio.file.Files.writeString(file, "0123456789");
        byte[] head = "HEAD:".getBytes(StandardCharsets.ISO_8859_1);
        try (NativeMemory mem = new NativeMemory()) {
            long iov = mem.allocate(16);
            long data = mem.allocate(64);
            long offset = mem.allocate(16);
            long in = mem.allocate(64);
            NativeMemory.put(data, head, 0, head.length);
            NativeMemory.putLong(iov, data);
            NativeMemory.putLong(iov + 8, head.length);
            int fd = Files.open(file.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
            int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                          Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
            try {
                NativeMemory.putLong(offset, 2);
                NativeMemory.putLong(offset + 8, 6);
                assertEquals(5 + 6, Syscalls.sendvFile(sv[0], iov, 1, fd, offset));
                assertEquals(11, Sockets.recv(sv[1], in, 64));
                assertEquals("HEAD:234567", SocketsTest.string(in, 11));
                assertEquals(8, NativeMemory.getLong(offset), "the kernel moves the offset");
                // the file ends at the offset (cut short): the header alone, and sendfile by itself says 0
                NativeMemory.putLong(offset, 10);
                assertEquals(5, Syscalls.sendvFile(sv[0], iov, 1, fd, offset));
                assertEquals(0, Syscalls.sendfile(sv[0], fd, offset, 6));
                // no such file descriptor: the header alone, and sendfile by itself fails
                assertEquals(5, Syscalls.sendvFile(sv[0], iov, 1, -1, offset));
                assertEquals(Errors.EBADF, assertThrows(NativeIoException.class,
                    () -> Syscalls.sendfile(sv[0], -1, offset, 6)).errno());
                assertEquals(10, Sockets.recv(sv[1], in, 64));
                assertEquals("HEAD:HEAD:", SocketsTest.string(in, 10));
                Syscalls.close(sv[1]);
                NativeIoException pipe = assertThrows(NativeIoException.class,
                    () -> Syscalls.sendvFile(sv[0], iov, 1, fd, offset));
                assertEquals("writev()", pipe.call(), "the header's call, named as nginx names it");
                assertEquals(Errors.EPIPE, pipe.errno());
            } finally {
                Syscalls.close(sv[0]);
                Syscalls.close(fd);
            }
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
