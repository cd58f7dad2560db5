package jinx.event.epoll;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.ErrorLog;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event array's layout is the platform's: the probe's numbers are what this architecture's ABI says, and the
 * kernel itself reads what we write ({@code epoll_ctl}, checked in {@code /proc/self/fdinfo}) and writes what we read
 * ({@code epoll_wait} into an array, every entry, and not a byte past {@code maxevents}).
 */
@EnabledOnOs(OS.LINUX)
class EpollEventArrayTest {

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void layoutIsTheProbes() {
        assertEquals(Platform.SIZEOF_EPOLL_EVENT, EpollEventArray.SIZE);
        assertEquals(Platform.OFFSETOF_EPOLL_EVENT_EVENTS, EpollEventArray.EVENTS);
        assertEquals(Platform.OFFSETOF_EPOLL_EVENT_DATA, EpollEventArray.DATA);
        assertEquals(0, EpollEventArray.EVENTS);
        // uint32_t events, then a 64-bit union: packed (x86_64) or aligned to 8
        assertEquals(EpollEventArray.DATA + 8, EpollEventArray.SIZE);
        String arch = System.getProperty("os.arch");
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            assertEquals(12, EpollEventArray.SIZE, "glibc packs struct epoll_event on x86_64");
            assertEquals(4, EpollEventArray.DATA);
        } else if (arch.equals("aarch64")) {
            assertEquals(16, EpollEventArray.SIZE);
            assertEquals(8, EpollEventArray.DATA);
        }
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void theKernelReadsAndWritesTheSameLayout() throws Exception {
        Map<String, String> baseline = Fds.baseline();
        int n = 3;
        int[] efds = new int[n];
        int ep = EpollSyscalls.create1(Platform.EPOLL_CLOEXEC);
        try (NativeMemory memory = new NativeMemory()) {
            EpollEventArray ctl = new EpollEventArray(memory, 1);
            Map<Long, Integer> expected = new HashMap<>();
            for (int i = 0; i < n; i++) {
                efds[i] = Syscalls.eventfd(0, Platform.EFD_NONBLOCK | Platform.EFD_CLOEXEC);
                // every byte of the union distinct and the top bit set, so a shifted or truncated read shows
                long data = 0x8877_6655_4433_2210L + i;
                ctl.set(0, Platform.EPOLLIN | Platform.EPOLLET, data);
                EpollSyscalls.ctl(ep, Platform.EPOLL_CTL_ADD, efds[i], ctl.address());
                expected.put(data, efds[i]);
                Syscalls.eventfdWrite(efds[i], 1);
            }
            String info = Files.readString(Path.of("/proc/self/fdinfo/" + ep));
            for (Map.Entry<Long, Integer> e : expected.entrySet()) {
                String line = String.format("tfd: %8d events: %8x data: %16x", e.getValue(),
                    Platform.EPOLLIN | Platform.EPOLLET | Platform.EPOLLERR | Platform.EPOLLHUP, e.getKey());
                assertTrue(info.contains(line), line + " in\n" + info);
            }

            // one entry more than we let the kernel fill, poisoned
            EpollEventArray list = new EpollEventArray(memory, n + 1);
            NativeMemory.fill(list.address(), (long) (n + 1) * EpollEventArray.SIZE, (byte) 0xA5);
            ErrorLog log = ErrorLog.open(List.of(), System.err);
            assertEquals(n, EpollSyscalls.wait(ep, list.address(), n, 1000, 0, log));
            Map<Long, Integer> got = new HashMap<>();
            for (int i = 0; i < n; i++) {
                assertEquals(Platform.EPOLLIN, list.events(i));
                got.put(list.data(i), expected.get(list.data(i)));
            }
            assertEquals(expected, got);
            for (int b = 0; b < EpollEventArray.SIZE; b++) {
                assertEquals((byte) 0xA5, NativeMemory.getByte(list.address() + (long) n * EpollEventArray.SIZE + b),
                             "byte " + b + " past maxevents");
            }
        } finally {
            for (int fd : efds) {
                if (fd > 0) {
                    Syscalls.close(fd);
                }
            }
            Syscalls.close(ep);
        }
        Fds.assertBackTo(baseline);
    }
}
