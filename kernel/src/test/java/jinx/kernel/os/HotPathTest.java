package jinx.kernel.os;

import java.lang.reflect.Method;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot calls allocate nothing on the Java heap: no jnr {@code Pointer} or {@code Struct}, no boxing, no
 * message built before it is needed, in the success and the {@code AGAIN} paths alike.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
class HotPathTest {

    private static final int ROUNDS = 20_000;

    @Test
    void hotCallsAllocateNothing() throws Exception {
        Map<String, String> baseline = Fds.baseline();
        // reflection, because the tests compile inside module jinx.kernel, which does not read java.management
        Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
            .invoke(null);
        Class<?> sunMx = Class.forName("com.sun.management.ThreadMXBean");
        Assumptions.assumeTrue(sunMx.isInstance(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemorySupported").invoke(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx),
            "no per-thread allocation counter");
        Method allocated = sunMx.getMethod("getThreadAllocatedBytes", long.class);
        long id = Thread.currentThread().getId();

        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        int efd = Syscalls.eventfd(0, Platform.EFD_NONBLOCK | Platform.EFD_CLOEXEC);
        int ls = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK
                                                  | Platform.SOCK_CLOEXEC, 0);
        try (NativeMemory mem = new NativeMemory()) {
            Sockets.bind(ls, SockAddr.parse("127.0.0.1:0"));
            Sockets.listen(ls, 16);
            long buf = mem.allocate(4096);
            long iov = mem.allocate(2L * Platform.SIZEOF_IOVEC);
            long sa = mem.allocate(Platform.SIZEOF_SOCKADDR_STORAGE);
            long len = mem.allocate(8);
            long scratch = mem.allocate(8);
            NativeMemory.putLong(iov + Platform.OFFSETOF_IOV_BASE, buf);
            NativeMemory.putLong(iov + Platform.OFFSETOF_IOV_LEN, 3);
            NativeMemory.putLong(iov + Platform.SIZEOF_IOVEC + Platform.OFFSETOF_IOV_BASE, buf + 100);
            NativeMemory.putLong(iov + Platform.SIZEOF_IOVEC + Platform.OFFSETOF_IOV_LEN, 5);

            long total = 0;
            for (int pass = 0; pass < 2; pass++) {
                // the first pass warms up (class loading, jnr's generated invokers, JIT); the second is measured
                long before = (Long) allocated.invoke(mx, id);
                total = 0;
                for (int i = 0; i < ROUNDS; i++) {
                    total += round(sv, efd, ls, buf, iov, sa, len, scratch);
                }
                long bytes = (Long) allocated.invoke(mx, id) - before;
                if (pass == 1) {
                    // two reflective calls box a few longs; anything per call would be ROUNDS times more
                    assertTrue(bytes < 4096, bytes + " bytes allocated in " + ROUNDS + " rounds");
                }
            }
            assertEquals(ROUNDS * 25L, total);
        } finally {
            Fds.closeQuietly(ls, efd);
            Fds.closeQuietly(sv);
        }
        Fds.assertBackTo(baseline);
    }

    /** One of each hot call; returns 25 when every call did what it should. */
    private static long round(int[] sv, int efd, int ls, long buf, long iov, long sa, long len, long scratch)
        throws NativeIoException {
        long n = 0;
        n += Sockets.recv(sv[1], buf, 100) == Rc.AGAIN ? 1 : 0;
        n += Sockets.send(sv[0], buf, 2);
        n += Sockets.recv(sv[1], buf, 100);
        n += Syscalls.writev(sv[0], iov, 2);
        n += Syscalls.readv(sv[1], iov, 2);
        n += Syscalls.read(sv[1], buf, 10) == Rc.AGAIN ? 1 : 0;
        Syscalls.eventfdWrite(efd, 1);
        n += Syscalls.eventfdRead(efd, scratch);
        n += Syscalls.eventfdRead(efd, scratch) == Rc.AGAIN ? 1 : 0;
        n += Sockets.accept4(ls, sa, len, Platform.SOCK_NONBLOCK) == Rc.AGAIN ? 1 : 0;
        Sockets.setsockopt(sv[0], Platform.SOL_SOCKET, Platform.SO_SNDBUF, 65536, scratch);
        return n;
    }
}
