package jinx.event.epoll;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.ErrorLog;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facade's words and results: nginx's call names with errno and its text, a timeout as 0 events.
 */
@EnabledOnOs(OS.LINUX)
class EpollSyscallsTest {

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void failuresNameTheCall() throws Exception {
        Map<String, String> baseline = Fds.baseline();
        NativeIoException create = assertThrows(NativeIoException.class, () -> EpollSyscalls.create1(-1));
        assertEquals("epoll_create1() failed (22: Invalid argument)", create.getMessage());
        assertEquals(22, create.errno());

        try (NativeMemory memory = new NativeMemory()) {
            EpollEventArray ev = new EpollEventArray(memory, 1);
            NativeIoException ctl = assertThrows(NativeIoException.class,
                () -> EpollSyscalls.ctl(999_998, Platform.EPOLL_CTL_ADD, 12, ev.address()));
            assertEquals("epoll_ctl(1, 12) failed (9: Bad file descriptor)", ctl.getMessage());
            assertEquals("epoll_ctl(1, 12)", ctl.call());

            ErrorLog log = ErrorLog.open(List.of(), System.err);
            NativeIoException wait = assertThrows(NativeIoException.class,
                () -> EpollSyscalls.wait(999_998, ev.address(), 1, 0, log));
            assertEquals("epoll_wait() failed (9: Bad file descriptor)", wait.getMessage());
        }
        Fds.assertBackTo(baseline);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aTimeoutIsNoEvents() throws Exception {
        Map<String, String> baseline = Fds.baseline();
        int ep = EpollSyscalls.create1(Platform.EPOLL_CLOEXEC);
        try (NativeMemory memory = new NativeMemory()) {
            assertTrue(Syscalls.isCloexec(ep));
            EpollEventArray list = new EpollEventArray(memory, 4);
            ErrorLog log = ErrorLog.open(List.of(), System.err);
            long start = System.nanoTime();
            assertEquals(0, EpollSyscalls.wait(ep, list.address(), 4, 30, log));
            assertTrue(System.nanoTime() - start >= 20_000_000L, "waited the timeout");
        } finally {
            Syscalls.close(ep);
        }
        Fds.assertBackTo(baseline);
    }
}
