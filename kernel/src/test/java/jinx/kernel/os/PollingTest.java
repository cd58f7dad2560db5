package jinx.kernel.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Rc;

/**
 * {@link Polling}: a timerfd armed once wakes {@code poll()} after its delay (not before), is read once, and a
 * disarmed one never fires.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class PollingTest {

    @Test
    void aTimerfdWakesPoll() throws Exception {
        int fd = Polling.timerfd();
        try (NativeMemory mem = new NativeMemory()) {
            long fds = mem.allocate(Platform.SIZEOF_POLLFD);
            NativeMemory.putInt(fds + Platform.OFFSETOF_POLLFD_FD, fd);
            NativeMemory.putShort(fds + Platform.OFFSETOF_POLLFD_EVENTS, (short) Platform.POLLIN);
            assertEquals(Rc.AGAIN, Polling.expirations(fd));
            assertEquals(0, Polling.poll(fds, 1, 10));

            long start = System.nanoTime();
            Polling.arm(fd, 100);
            int n = 0;
            while (n == 0) {
                n = Polling.poll(fds, 1, 5000);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1, n);
            assertTrue(ms >= 99, "woke after " + ms + "ms");
            assertEquals(1, Polling.expirations(fd));
            assertEquals(Rc.AGAIN, Polling.expirations(fd));

            Polling.arm(fd, 50);
            Polling.arm(fd, -1);
            assertEquals(0, Polling.poll(fds, 1, 200));
        } finally {
            Syscalls.close(fd);
        }
    }
}
