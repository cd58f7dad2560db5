package jinx.kernel.os;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link SigSet}, {@link Signals} and {@link SignalInfo} in this JVM. Masks change only on threads the tests start,
 * and signals are sent with {@code tgkill} to the thread that blocks them: a process-directed signal would go to
 * any JVM thread that does not block it. Process-directed signals are tested in a child JVM
 * ({@link ChildJvmTest}).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class SignalsTest {

    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        Fds.assertBackTo(baseline);
    }

    @Test
    void setOperations() {
        try (SigSet set = SigSet.empty()) {
            assertEquals(List.of(), set.signals());
            assertFalse(set.contains(Platform.SIGUSR1));
            set.add(Platform.SIGUSR1).add(Platform.SIGHUP).add(Platform.SIGUSR1);
            assertTrue(set.contains(Platform.SIGUSR1));
            assertEquals(List.of(Platform.SIGHUP, Platform.SIGUSR1), set.signals());
            set.remove(Platform.SIGHUP);
            assertEquals(List.of(Platform.SIGUSR1), set.signals());
            assertEquals("SigSet[SIGUSR1]", set.toString());
        }
        try (SigSet all = SigSet.full()) {
            assertTrue(all.contains(Platform.SIGKILL));
            assertTrue(all.contains(Platform.NSIG - 1));
            // glibc keeps the two signals it uses itself (32 and 33: thread cancellation, setxid) out of any set
            assertEquals(Platform.NSIG - 1 - 2, all.signals().size());
        }
    }

    @Test
    void serverSetHasTheTenSignals() {
        try (SigSet set = Signals.serverSet()) {
            assertEquals(List.of(Platform.SIGHUP, Platform.SIGINT, Platform.SIGQUIT, Platform.SIGUSR1,
                                 Platform.SIGUSR2, Platform.SIGALRM, Platform.SIGTERM, Platform.SIGCHLD,
                                 Platform.SIGWINCH, Platform.SIGIO), set.signals());
            assertEquals("SigSet[SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGCHLD, SIGWINCH,"
                         + " SIGIO]", set.toString());
        }
        assertEquals(List.of(1, 2, 3, 10, 12, 14, 15, 17, 28, 29),
                     List.of(Platform.SIGHUP, Platform.SIGINT, Platform.SIGQUIT, Platform.SIGUSR1, Platform.SIGUSR2,
                             Platform.SIGALRM, Platform.SIGTERM, Platform.SIGCHLD, Platform.SIGWINCH,
                             Platform.SIGIO), "x86_64 and aarch64 Linux numbers");
    }

    @Test
    void namesAreNginxs() {
        assertEquals("SIGHUP", Signals.name(Platform.SIGHUP));
        assertEquals("SIGCHLD", Signals.name(Platform.SIGCHLD));
        assertEquals("SIGIO", Signals.name(Platform.SIGIO));
        assertEquals("SIGABRT", Signals.name(6));
        assertEquals("99", Signals.name(99));
    }

    @Test
    void invalidSignalsAndClosedSetsAreRefused() {
        try (SigSet set = SigSet.empty()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.add(Platform.NSIG));
            assertEquals("sigaddset(65) failed (22: Invalid argument)", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> set.add(0));
            // SIGCANCEL: glibc refuses to let a program block it
            assertThrows(IllegalArgumentException.class, () -> set.add(32));
            assertThrows(IllegalArgumentException.class, () -> set.contains(-1));
        }
        assertThrows(IllegalArgumentException.class, () -> SigSet.of(Platform.SIGHUP, 77));
        SigSet closed = SigSet.of(Platform.SIGHUP);
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, closed::address);
        assertEquals("SigSet[closed]", closed.toString());
    }

    @Test
    void blockUnblockAndReadTheMaskOfThisThread() throws Exception {
        Children.onNewThread(() -> {
            try (SigSet usr1 = SigSet.of(Platform.SIGUSR1, Platform.SIGWINCH); SigSet before = Signals.threadMask()) {
                assertFalse(before.contains(Platform.SIGUSR1), "the test JVM's threads do not block SIGUSR1");
                Signals.block(usr1);
                try (SigSet now = Signals.threadMask()) {
                    assertTrue(now.contains(Platform.SIGUSR1));
                    assertTrue(now.contains(Platform.SIGWINCH));
                }
                long blk = Children.mask(Children.threadStatus(), "SigBlk");
                assertEquals(Children.bits(Platform.SIGUSR1, Platform.SIGWINCH),
                             blk & Children.bits(Platform.SIGUSR1, Platform.SIGWINCH));

                // sigprocmask reads the same per-thread mask with glibc
                try (SigSet old = SigSet.empty(); SigSet winch = SigSet.of(Platform.SIGWINCH);
                     SigSet justUsr1 = SigSet.of(Platform.SIGUSR1)) {
                    Signals.sigprocmask(Platform.SIG_BLOCK, 0, old.address());
                    assertTrue(old.contains(Platform.SIGWINCH));
                    Signals.sigprocmask(Platform.SIG_UNBLOCK, winch.address(), 0);
                    Signals.unblock(justUsr1);
                }
                assertEquals(0, Children.mask(Children.threadStatus(), "SigBlk")
                                & Children.bits(Platform.SIGUSR1, Platform.SIGWINCH));

                Signals.block(usr1);
                Signals.setMask(before);
                try (SigSet after = Signals.threadMask()) {
                    assertEquals(before.signals(), after.signals());
                }
            }
            return null;
        });
    }

    @Test
    void signalfdReadsSignalsSentToItsThread() throws Exception {
        Children.onNewThread(() -> {
            try (SigSet set = SigSet.of(Platform.SIGUSR1, Platform.SIGWINCH); NativeMemory mem = new NativeMemory()) {
                Signals.block(set);
                int fd = Signals.signalfd(set);
                try {
                    assertTrue(Syscalls.isCloexec(fd));
                    assertTrue(Syscalls.isNonBlocking(fd));
                    SignalInfo info = new SignalInfo(mem, 4);
                    assertEquals(Rc.AGAIN, Signals.read(fd, info));
                    assertEquals(0, info.count());

                    int pid = Processes.getpid();
                    int tid = Signals.gettid();
                    assertTrue(tid != pid, "a thread other than main");
                    Signals.tgkill(pid, tid, Platform.SIGWINCH);
                    Signals.tgkill(pid, tid, Platform.SIGUSR1);
                    Signals.tgkill(pid, tid, Platform.SIGUSR1); // standard signals do not queue: one is read

                    assertEquals(2, Signals.read(fd, info));
                    assertEquals(Platform.SIGUSR1, info.signo(0), "the lowest number first");
                    assertEquals(Platform.SIGWINCH, info.signo(1));
                    for (int i = 0; i < 2; i++) {
                        assertEquals(pid, info.pid(i));
                        assertEquals(Syscalls.geteuid(), info.uid(i));
                        assertEquals(Platform.SI_TKILL, info.code(i));
                    }
                    assertThrows(IndexOutOfBoundsException.class, () -> info.signo(2));
                    assertEquals(Rc.AGAIN, Signals.read(fd, info));

                    // one record at a time when the buffer holds one
                    SignalInfo one = new SignalInfo(mem, 1);
                    Signals.tgkill(pid, tid, Platform.SIGWINCH);
                    Signals.tgkill(pid, tid, Platform.SIGUSR1);
                    assertEquals(1, Signals.read(fd, one));
                    assertEquals(Platform.SIGUSR1, one.signo(0));
                    assertEquals(1, Signals.read(fd, one));
                    assertEquals(Platform.SIGWINCH, one.signo(0));
                    assertEquals(Rc.AGAIN, Signals.read(fd, one));
                } finally {
                    Syscalls.close(fd);
                    Signals.unblock(set);
                }
            }
            return null;
        });
    }

    /** A worker's loop reads its signalfd with nothing allocated per signal, in the success and AGAIN paths. */
    @Test
    void readingSignalsAllocatesNothing() throws Exception {
        // reflection, as HotPathTest: the tests compile inside module jinx.kernel, which does not read
        // java.management
        Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
            .invoke(null);
        Class<?> sunMx = Class.forName("com.sun.management.ThreadMXBean");
        assumeTrue(sunMx.isInstance(mx) && (Boolean) sunMx.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx),
                   "no per-thread allocation counter");
        Method allocated = sunMx.getMethod("getThreadAllocatedBytes", long.class);
        int rounds = 20_000;
        long[] result = Children.onNewThread(() -> {
            long id = Thread.currentThread().getId();
            try (SigSet set = SigSet.of(Platform.SIGUSR1); NativeMemory mem = new NativeMemory()) {
                Signals.block(set);
                int fd = Signals.signalfd(set);
                try {
                    SignalInfo info = new SignalInfo(mem, 4);
                    int pid = Processes.getpid();
                    int tid = Signals.gettid();
                    long bytes = 0;
                    long sum = 0;
                    for (int pass = 0; pass < 2; pass++) {
                        long before = (Long) allocated.invoke(mx, id);
                        sum = 0;
                        for (int i = 0; i < rounds; i++) {
                            Signals.tgkill(pid, tid, Platform.SIGUSR1);
                            sum += Signals.read(fd, info);
                            sum += info.signo(0) == Platform.SIGUSR1 && info.pid(0) == pid ? 1 : 0;
                            sum += info.status(0) + info.code(0) - Platform.SI_TKILL;
                            sum += Signals.read(fd, info) == Rc.AGAIN ? 1 : 0;
                        }
                        bytes = (Long) allocated.invoke(mx, id) - before;
                    }
                    return new long[] {bytes, sum};
                } finally {
                    Syscalls.close(fd);
                    Signals.unblock(set);
                }
            }
        });
        assertEquals(3L * rounds, result[1]);
        assertTrue(result[0] < 4096, result[0] + " bytes allocated in " + rounds + " signals");
    }

    @Test
    void failuresAreWordedAsNginx() throws Exception {
        NativeIoException e;
        try (SigSet set = SigSet.of(Platform.SIGUSR1)) {
            // "how" is checked only when there is a set to apply
            e = assertThrows(NativeIoException.class, () -> Signals.pthreadSigmask(99, set.address(), 0));
            assertEquals("pthread_sigmask() failed (22: Invalid argument)", e.getMessage());
            e = assertThrows(NativeIoException.class, () -> Signals.sigprocmask(99, set.address(), 0));
            assertEquals("sigprocmask() failed (22: Invalid argument)", e.getMessage());
        }
        int efd = Syscalls.eventfd(0, Platform.EFD_CLOEXEC);
        try (SigSet set = SigSet.of(Platform.SIGUSR1)) {
            e = assertThrows(NativeIoException.class, () -> Signals.signalfd(efd, set, 0));
            assertEquals("signalfd() failed (22: Invalid argument)", e.getMessage());
            e = assertThrows(NativeIoException.class,
                             () -> Signals.signalfd(-1, set, Platform.SFD_CLOEXEC | 0x4000_0000));
            assertEquals(Errors.EINVAL, e.errno());
        } finally {
            Syscalls.close(efd);
        }
        e = assertThrows(NativeIoException.class, () -> Signals.tgkill(Processes.getpid(), 4194305, 0));
        assertEquals("tgkill(" + Processes.getpid() + ", 4194305, 0) failed (3: No such process)", e.getMessage());
        try (NativeMemory mem = new NativeMemory()) {
            assertThrows(IllegalArgumentException.class, () -> new SignalInfo(mem, 0));
        }
    }
}
