package jinx.kernel.os;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import jnr.constants.platform.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Syscalls} and {@link Files}: descriptor I/O, eventfd, fcntl, files, limits; every descriptor closed.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class SyscallsTest {

    private NativeMemory mem;
    private long buf;
    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
        mem = new NativeMemory();
        buf = mem.allocate(65536);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        mem.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    void writevAndReadvWithTwoBuffers() throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        try {
            long iov = mem.allocate(2L * Platform.SIZEOF_IOVEC);
            iovec(iov, 0, put(buf, "HTTP/1.1 200 OK\r\n"), 17);
            iovec(iov, 1, put(buf + 100, "\r\nbody"), 6);
            assertEquals(23, Syscalls.writev(sv[0], iov, 2));

            iovec(iov, 0, buf + 1000, 10);
            iovec(iov, 1, buf + 2000, 100);
            assertEquals(23, Syscalls.readv(sv[1], iov, 2));
            assertEquals("HTTP/1.1 2", SocketsTest.string(buf + 1000, 10));
            assertEquals("00 OK\r\n\r\nbody", SocketsTest.string(buf + 2000, 13));
            assertEquals(Rc.AGAIN, Syscalls.readv(sv[1], iov, 2));
        } finally {
            Fds.closeQuietly(sv);
        }
    }

    @Test
    void sendfileFromAFileToASocket(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("index.html");
        String body = "<html>" + "x".repeat(5000) + "</html>";
        java.nio.file.Files.writeString(file, body);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC);
        int fd = -1;
        try {
            fd = Files.open(file.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
            long offset = mem.allocate(Platform.SIZEOF_OFF_T);
            NativeMemory.putLong(offset, 6);
            long sent = 0;
            while (sent < 5000) {
                long n = Syscalls.sendfile(sv[0], fd, offset, 5000 - sent);
                assertTrue(n > 0);
                sent += n;
            }
            assertEquals(5006, NativeMemory.getLong(offset));
            int got = 0;
            while (got < 5000) {
                got += Syscalls.read(sv[1], buf + got, 5000 - got);
            }
            assertEquals("x".repeat(5000), SocketsTest.string(buf, 5000));
        } finally {
            Fds.closeQuietly(fd);
            Fds.closeQuietly(sv);
        }
    }

    @Test
    void eventfdCountsAndIsAgainWhenEmpty() throws Exception {
        int efd = Syscalls.eventfd(0, Platform.EFD_NONBLOCK | Platform.EFD_CLOEXEC);
        try {
            assertTrue(Syscalls.isCloexec(efd));
            long scratch = mem.allocate(8);
            assertEquals(Rc.AGAIN, Syscalls.eventfdRead(efd, scratch));
            Syscalls.eventfdWrite(efd, 3);
            Syscalls.eventfdWrite(efd, 4);
            assertEquals(7, Syscalls.eventfdRead(efd, scratch));
            assertEquals(Rc.AGAIN, Syscalls.eventfdRead(efd, scratch));
            // A full counter is EAGAIN: tolerated, the loop has a wake-up pending anyway.
            Syscalls.eventfdWrite(efd, 0xfffffffffffffffeL);
            Syscalls.eventfdWrite(efd, 1);
            assertEquals(0xfffffffffffffffeL, Syscalls.eventfdRead(efd, scratch));
        } finally {
            Syscalls.close(efd);
        }
    }

    @Test
    void readWritePreadAndFstat(@TempDir Path dir) throws Exception {
        String path = dir.resolve("data").toString();
        int fd = Files.open(path, Platform.O_RDWR | Platform.O_CREAT | Platform.O_TRUNC | Platform.O_CLOEXEC, 0640);
        try {
            assertEquals(11, Syscalls.write(fd, put(buf, "hello world"), 11));
            assertEquals(5, Syscalls.pread(fd, buf + 100, 5, 6));
            assertEquals("world", SocketsTest.string(buf + 100, 5));
            assertEquals(0, Syscalls.read(fd, buf, 10));

            FileStat st = Files.fstat(fd);
            assertEquals(11, st.size());
            assertTrue(st.isRegular());
            assertFalse(st.isDirectory());
            assertEquals(0640, st.mode() & 0777);
            Object key = java.nio.file.Files.getAttribute(Path.of(path), "unix:ino");
            assertEquals(((Number) key).longValue(), st.ino());
            assertEquals(java.nio.file.Files.getLastModifiedTime(Path.of(path)).toMillis(), st.mtimeMillis());
            assertEquals(st, Files.fstat(fd, mem.allocate(Platform.SIZEOF_STAT)));
        } finally {
            Syscalls.close(fd);
        }
        int d = Files.open(dir.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
        try {
            assertTrue(Files.fstat(d).isDirectory());
        } finally {
            Syscalls.close(d);
        }
        NativeIoException e = assertThrows(NativeIoException.class,
            () -> Files.open(path + ".missing", Platform.O_RDONLY, 0));
        assertEquals("open() \"" + path + ".missing\" failed (" + Errno.ENOENT.intValue() + ": "
                     + Errno.ENOENT.description() + ")", e.getMessage());
    }

    @Test
    void fcntlFlags() throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM);
        try {
            assertFalse(Syscalls.isNonBlocking(sv[0]));
            assertFalse(Syscalls.isCloexec(sv[0]));
            Syscalls.setNonBlocking(sv[0]);
            Syscalls.setCloexec(sv[0]);
            Syscalls.setNonBlocking(sv[0]);
            assertTrue(Syscalls.isNonBlocking(sv[0]));
            assertTrue(Syscalls.isCloexec(sv[0]));
            assertEquals(Rc.AGAIN, Syscalls.read(sv[0], buf, 1));
        } finally {
            Fds.closeQuietly(sv);
        }
    }

    @Test
    void closeOfABadDescriptorNamesIt() {
        NativeIoException e = assertThrows(NativeIoException.class, () -> Syscalls.close(1_000_000));
        assertEquals(Errno.EBADF.intValue(), e.errno());
        assertEquals("close(1000000) failed (" + Errno.EBADF.intValue() + ": " + Errno.EBADF.description() + ")",
                     e.getMessage());
    }

    @Test
    void fileDescriptorClosesOnce() throws Exception {
        int efd = Syscalls.eventfd(0, Platform.EFD_CLOEXEC);
        FileDescriptor fd = new FileDescriptor(efd);
        assertTrue(fd.isOpen());
        assertEquals(efd, fd.fd());
        fd.close();
        assertFalse(fd.isOpen());
        assertEquals(-1, fd.fd());
        fd.close();
        assertThrows(IllegalArgumentException.class, () -> new FileDescriptor(-1));
        try (FileDescriptor other = new FileDescriptor(Syscalls.eventfd(0, Platform.EFD_CLOEXEC))) {
            assertTrue(other.isOpen());
        }
    }

    @Test
    void rlimitOfDescriptors() throws Exception {
        Syscalls.Rlimit nofile = Syscalls.getrlimit(Platform.RLIMIT_NOFILE);
        assertTrue(nofile.soft() > 0);
        assertTrue(Long.compareUnsigned(nofile.soft(), nofile.hard()) <= 0);
        Syscalls.setrlimit(Platform.RLIMIT_NOFILE, nofile);
        assertEquals(nofile, Syscalls.getrlimit(Platform.RLIMIT_NOFILE));
        NativeIoException e = assertThrows(NativeIoException.class,
            () -> Syscalls.setrlimit(Platform.RLIMIT_NOFILE, new Syscalls.Rlimit(2, 1)));
        assertEquals("setrlimit(RLIMIT_NOFILE, 2)", e.call());
        assertEquals(Errno.EINVAL.intValue(), e.errno());
    }

    private static long put(long address, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        NativeMemory.put(address, b, 0, b.length);
        return address;
    }

    private static void iovec(long iov, int i, long base, long len) {
        long v = iov + (long) i * Platform.SIZEOF_IOVEC;
        NativeMemory.putLong(v + Platform.OFFSETOF_IOV_BASE, base);
        NativeMemory.putLong(v + Platform.OFFSETOF_IOV_LEN, len);
    }

    @Test
    void usersAndGroupsAreLookedUpInLibc() throws Exception {
        // root is 0 on every Linux; the names come from /etc/passwd and /etc/group through NSS
        assertEquals(0, Syscalls.getpwnam("root"));
        assertEquals(0, Syscalls.getgrnam("root"));
        assertEquals(-1, Syscalls.getpwnam("no_such_user_jinx"));
        assertEquals(-1, Syscalls.getgrnam("no_such_group_jinx"));
        String passwd = java.nio.file.Files.readString(Path.of("/etc/passwd"));
        for (String line : passwd.split("\n")) {
            String[] f = line.split(":");
            if (f.length > 3 && !line.startsWith("#") && !line.startsWith("+")) {
                assertEquals(Integer.parseInt(f[2]), Syscalls.getpwnam(f[0]), line);
            }
        }
    }
}
