package jinx.kernel.os;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Channels}: descriptors passed over a socketpair arrive as new, close-on-exec descriptors of the same open
 * files; every descriptor is closed afterwards.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class ChannelsTest {

    private NativeMemory mem;
    private long buf;
    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
        mem = new NativeMemory();
        buf = mem.allocate(4096);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        mem.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    void passesDescriptorsOverASocketpair(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("passed.txt");
        java.nio.file.Files.writeString(file, "through a passed descriptor");
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        int file1 = -1;
        int file2 = -1;
        ReceivedFds got = null;
        try {
            assertTrue(Channels.recvFds(sv[1], 16, 2).isAgain());
            file1 = Files.open(file.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
            file2 = Files.open(file.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
            byte[] data = {1, 2, 3, 4};
            assertEquals(4, Channels.sendFds(sv[0], data, file1, file2));
            got = Channels.recvFds(sv[1], 16, 2);
            assertEquals(4, got.n());
            assertArrayEquals(data, got.data());
            assertEquals(2, got.fds().length);
            assertFalse(got.truncated());
            for (int fd : got.fds()) {
                assertTrue(fd != file1 && fd != file2);
                assertTrue(Syscalls.isCloexec(fd));
            }
            Syscalls.close(file1);
            file1 = -1;
            int n = Syscalls.pread(got.fds()[0], buf, 100, 8);
            assertEquals("a passed descriptor", SocketsTest.string(buf, n));

            assertEquals(1, Channels.sendFds(sv[0], new byte[] {9}));
            ReceivedFds plain = Channels.recvFds(sv[1], 16, 2);
            assertEquals(1, plain.n());
            assertEquals(0, plain.fds().length);

            Syscalls.close(sv[0]);
            sv[0] = -1;
            assertTrue(Channels.recvFds(sv[1], 16, 2).isEof());
            assertThrows(IllegalArgumentException.class, () -> Channels.sendFds(sv[1], new byte[0], 0));
        } finally {
            Fds.closeQuietly(file1, file2);
            Fds.closeQuietly(sv);
            if (got != null) {
                Fds.closeQuietly(got.fds());
            }
        }
    }

    @Test
    void tooManyDescriptorsAreTruncated() throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC);
        ReceivedFds got = null;
        try {
            // Room for one descriptor is CMSG_SPACE(sizeof(int)): on 64-bit that holds two, not four.
            Channels.sendFds(sv[0], new byte[] {1}, sv[0], sv[1], sv[0], sv[1]);
            got = Channels.recvFds(sv[1], 16, 1);
            assertTrue(got.truncated());
            assertTrue(got.fds().length < 4);
        } finally {
            Fds.closeQuietly(sv);
            if (got != null) {
                Fds.closeQuietly(got.fds());
            }
        }
    }
}
