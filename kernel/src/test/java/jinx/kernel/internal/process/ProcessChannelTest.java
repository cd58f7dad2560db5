package jinx.kernel.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.os.Files;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * {@link ProcessChannel}: fixed-size messages over the socketpair, both directions, nothing waiting on the
 * master's non-blocking end, end of file once the other end closes; {@code RELOAD} carries descriptors, which
 * arrive as new descriptors of the same files, close-on-exec.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class ProcessChannelTest {

    @Test
    void messagesBothWaysAndEndOfFile() throws Exception {
        int[] sv = ProcessChannel.open();
        try {
            assertTrue(Syscalls.isNonBlocking(sv[0]), "the master's end is non-blocking");
            assertTrue(Syscalls.isCloexec(sv[0]) && Syscalls.isCloexec(sv[1]), "both ends are close-on-exec");
            assertFalse(Syscalls.isNonBlocking(sv[1]), "the worker's end is left as nginx leaves it");
            assertSame(ProcessChannel.NONE, ProcessChannel.read(sv[0]));

            assertTrue(ProcessChannel.write(sv[0], ProcessChannel.QUIT, 0, 0));
            assertTrue(ProcessChannel.write(sv[0], ProcessChannel.OPEN_CHANNEL, 4242, 3));
            assertEquals(new ProcessChannel.Message(ProcessChannel.QUIT, 0, 0, -1), ProcessChannel.read(sv[1]));
            assertEquals(new ProcessChannel.Message(ProcessChannel.OPEN_CHANNEL, 4242, 3, -1),
                ProcessChannel.read(sv[1]));

            assertTrue(ProcessChannel.write(sv[1], ProcessChannel.READY, 77, 0));
            ProcessChannel.Message ready = ProcessChannel.read(sv[0]);
            assertEquals(ProcessChannel.READY, ready.command());
            assertEquals(77, ready.pid());
            assertSame(ProcessChannel.NONE, ProcessChannel.read(sv[0]));

            ProcessChannel.close(sv[1]);
            sv[1] = -1;
            assertTrue(ProcessChannel.read(sv[0]).eof());
        } finally {
            ProcessChannel.close(sv[0]);
            ProcessChannel.close(sv[1]);
        }
    }

    @Test
    void aReloadCarriesDescriptorsOfTheSameFiles() throws Exception {
        int[] sv = ProcessChannel.open();
        int[] files = {Files.memfdCreate("a", Platform.MFD_CLOEXEC), Files.memfdCreate("b", Platform.MFD_CLOEXEC)};
        int[] got = new int[0];
        try {
            java.nio.file.Files.write(java.nio.file.Path.of("/proc/self/fd/" + files[1]), new byte[] {42});
            assertTrue(ProcessChannel.write(sv[0], ProcessChannel.RELOAD, 1, files));
            ProcessChannel.Message m = ProcessChannel.read(sv[1]);
            got = m.fds();
            assertEquals(ProcessChannel.RELOAD, m.command());
            assertEquals(2, m.pid(), "the count of descriptors");
            assertEquals(1, m.slot());
            assertEquals(2, got.length);
            assertTrue(Syscalls.isCloexec(got[0]) && Syscalls.isCloexec(got[1]));
            // the second is the second file: the byte written to the sender's file is there
            assertEquals(1, java.nio.file.Files.size(java.nio.file.Path.of("/proc/self/fd/" + got[1])));
            assertEquals(0, java.nio.file.Files.size(java.nio.file.Path.of("/proc/self/fd/" + got[0])));
        } finally {
            ProcessChannel.closeAll(got);
            ProcessChannel.closeAll(files);
            ProcessChannel.close(sv[0]);
            ProcessChannel.close(sv[1]);
        }
    }
}
