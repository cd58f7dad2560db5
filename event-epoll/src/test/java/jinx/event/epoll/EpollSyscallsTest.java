package jinx.event.epoll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jinx.event.epoll.bind.EpollLibrary;
import jinx.event.epoll.bind.LibEpollIo;
import jinx.kernel.ErrorLog;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The facade's words and results: nginx's call names with errno and its text, a timeout as 0 events.
 */
@EnabledOnOs(OS.LINUX)
class EpollSyscallsTest {

    /** The two bindings of the wait: libjinxio's (where the build put it) and libc's. */
    static List<LibEpollIo> waits() {
        return Arrays.asList(EpollLibrary.IO, null);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void libjinxioServesTheWait() {
        String dir = System.getProperty("jffi.boot.library.path", "");
        assumeTrue(Files.isReadable(Path.of(dir, "libjinxio.so")), "no libjinxio in jffi.boot.library.path");
        assertNotNull(EpollLibrary.IO, "libjinxio's epoll_wait bound from " + dir);
    }

    @ParameterizedTest
    @MethodSource("waits")
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aWaitFailureNamesTheCall(LibEpollIo io) throws Exception {
        Map<String, String> baseline = Fds.baseline();
        try (NativeMemory memory = new NativeMemory()) {
            EpollEventArray ev = new EpollEventArray(memory, 1);
            ErrorLog log = ErrorLog.open(List.of(), System.err);
            NativeIoException wait = assertThrows(NativeIoException.class,
                () -> EpollSyscalls.wait(io, 999_998, ev.address(), 1, 0, 0, log));
            assertEquals("epoll_wait() failed (9: Bad file descriptor)", wait.getMessage());
            assertEquals(9, wait.errno());
        }
        Fds.assertBackTo(baseline);
    }

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
                () -> EpollSyscalls.wait(999_998, ev.address(), 1, 0, 0, log));
            assertEquals("epoll_wait() failed (9: Bad file descriptor)", wait.getMessage());
        }
        Fds.assertBackTo(baseline);
    }

    @ParameterizedTest
    @MethodSource("waits")
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void aTimeoutIsNoEvents(LibEpollIo io) throws Exception {
        Map<String, String> baseline = Fds.baseline();
        int ep = EpollSyscalls.create1(Platform.EPOLL_CLOEXEC);
        try (NativeMemory memory = new NativeMemory()) {
            assertTrue(Syscalls.isCloexec(ep));
            EpollEventArray list = new EpollEventArray(memory, 4);
            ErrorLog log = ErrorLog.open(List.of(), System.err);
            long start = System.nanoTime();
            assertEquals(0, EpollSyscalls.wait(io, ep, list.address(), 4, 30, 0, log));
            assertTrue(System.nanoTime() - start >= 20_000_000L, "waited the timeout");
        } finally {
            Syscalls.close(ep);
        }
        Fds.assertBackTo(baseline);
    }
}
