package jinx.kernel.internal.cycle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.Rc;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.event.EventCoreModule;
import jinx.kernel.internal.event.EventsCoreModule;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.FakeEventModule;
import jinx.kernel.testsuite.OpenFds;
import jinx.kernel.testsuite.TestListenModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link ListeningSockets} through real cycles built to serve ({@code Purpose.RUN}), with
 * {@link TestListenModule}'s {@code test_listen} standing for {@code listen}: sockets opened with their options,
 * taken over by the next cycle when the address is the same (the same descriptor, and the connections waiting in
 * its queue), closed when no longer configured; a failed cycle closes only what it opened; unix-domain and IPv6
 * addresses; nginx's five bind() tries. Every test ends with the process's descriptors as they were.
 */
@EnabledOnOs(OS.LINUX)
class ListeningSocketsTest {

    @TempDir
    Path tmp;

    private Path prefix;
    private Path conf;
    private Map<String, String> fdBaseline;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<KernelCycle> cycles = new ArrayList<>();
    private final List<AutoCloseable> others = new ArrayList<>();
    /** A module added to the next cycles, or null. */
    private CycleFixture.Maker extra;

    @BeforeEach
    void prefix() throws IOException {
        fdBaseline = OpenFds.baseline();
        prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        conf = prefix.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
    }

    @AfterEach
    void closeEverything() throws Exception {
        for (KernelCycle c : cycles) {
            ListeningSockets.closeAll(c);
            c.log().close();
        }
        for (AutoCloseable c : others) {
            c.close();
        }
        early.close();
        OpenFds.assertBackTo(fdBaseline);
    }

    private List<JinxModule> modules() {
        List<JinxModule> list = new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule(),
            new IncludeConfModule(), new EventsCoreModule(), new EventCoreModule(), new FakeEventModule(),
            new TestListenModule()));
        if (extra != null) {
            list.add(extra.make(new CycleFixture.Journal()));
        }
        return list;
    }

    /** Builds a serving cycle from {@code text} (after {@code events {}}), the error log logs/error.log. */
    private KernelCycle build(String text, KernelCycle old) throws ConfException, IOException {
        Files.writeString(conf, "events { }\n" + text, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, null, CycleOptions.Purpose.RUN, this::modules,
            BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, old);
        cycles.add(cycle);
        return cycle;
    }

    private ConfException fail(String text, KernelCycle old) {
        return assertThrows(ConfException.class, () -> build(text, old));
    }

    /** A port nobody listens on now: port 0 cannot be taken over by address, so the tests name their ports. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** A free port on {@code host}, or -1 when nothing can listen there. */
    private static int freePortOn(InetAddress host) {
        try (ServerSocket s = new ServerSocket(0, 1, host)) {
            return s.getLocalPort();
        } catch (IOException e) {
            return -1;
        }
    }

    private static Listening only(KernelCycle cycle, String addr) {
        for (Listening ls : cycle.listening()) {
            if (ls.addrText().equals(addr)) {
                return ls;
            }
        }
        throw new AssertionError("no listening socket " + addr + " in " + cycle.listening());
    }

    /** Whether a TCP client can connect: the kernel completes the handshake into a listening socket's queue. */
    private static boolean accepts(InetAddress host, int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5000);
            return true;
        } catch (ConnectException e) {
            return false;
        }
    }

    private static boolean accepts(int port) throws IOException {
        return accepts(InetAddress.getByName("127.0.0.1"), port);
    }

    // ---- reuseport clones

    @Test
    @Timeout(20)
    void reuseportGivesEveryWorkerItsOwnSocket() throws Exception {
        int q = freePort();
        int p = freePort();
        KernelCycle cycle = build("worker_processes 3;\ntest_listen 127.0.0.1:" + q + " reuseport;\n"
                                  + "test_listen 127.0.0.1:" + p + ";\n", null);
        List<Listening> all = cycle.listening();
        assertEquals(4, all.size(), "the socket, one shared socket, two clones at the end: " + all);
        assertEquals(List.of(0, -1, 1, 2), all.stream().map(ls -> ls.worker).toList());
        List<Integer> fds = new java.util.ArrayList<>();
        for (Listening ls : List.of(all.get(0), all.get(2), all.get(3))) {
            assertEquals("127.0.0.1:" + q, ls.addrText());
            assertTrue(ls.reuseport);
            assertEquals(1, Sockets.getsockopt(ls.fd(), Platform.SOL_SOCKET, Platform.SO_REUSEPORT));
            assertEquals(ls.sockaddr(), Sockets.getsockname(ls.fd()), ls + " bound");
            fds.add(ls.fd());
        }
        assertEquals(3, new java.util.HashSet<>(fds).size(), "three sockets: " + fds);
        assertEquals(-1, all.get(1).worker, "a socket without reuseport is every worker's");

        // a reload takes each worker's clone over
        KernelCycle next = build("worker_processes 3;\ntest_listen 127.0.0.1:" + q + " reuseport;\n"
                                 + "test_listen 127.0.0.1:" + p + ";\n", cycle);
        for (int i = 0; i < 4; i++) {
            assertTrue(next.listening().get(i).inherited(), "taken over: " + i);
            assertEquals(all.get(i).fd(), next.listening().get(i).fd());
        }
        cycles.remove(cycle);
        cycle.log().close();
    }

    @Test
    @Timeout(20)
    void aSingleProcessOrOneWorkerKeepsOneReuseportSocket() throws Exception {
        int q = freePort();
        KernelCycle single = build("master_process off;\nworker_processes 3;\ntest_listen 127.0.0.1:" + q
                                   + " reuseport;\n", null);
        assertEquals(1, single.listening().size());
        assertEquals(-1, single.listening().get(0).worker);
        ListeningSockets.closeAll(single);
        KernelCycle one = build("test_listen 127.0.0.1:" + q + " reuseport;\n", null);
        assertEquals(1, one.listening().size());
    }

    // ---- open

    @Test
    @Timeout(20)
    void opensListeningSocketsWithTheirOptions() throws Exception {
        int p = freePort();
        int q = freePort();
        KernelCycle cycle = build("test_listen 127.0.0.1:" + p + ";\n"
                                  + "test_listen 127.0.0.1:" + q + " reuseport backlog=16;\n", null);
        assertEquals(2, cycle.listening().size());
        Listening lp = only(cycle, "127.0.0.1:" + p);
        Listening lq = only(cycle, "127.0.0.1:" + q);
        for (Listening ls : List.of(lp, lq)) {
            assertNotEquals(-1, ls.fd(), ls + " open");
            assertFalse(ls.inherited(), ls + " inherited");
            assertEquals(ls.sockaddr(), Sockets.getsockname(ls.fd()), ls + " bound");
            assertTrue(Syscalls.isNonBlocking(ls.fd()), ls + " non-blocking");
            assertTrue(Syscalls.isCloexec(ls.fd()), ls + " close-on-exec");
            assertEquals(1, Sockets.getsockopt(ls.fd(), Platform.SOL_SOCKET, Platform.SO_REUSEADDR));
        }
        assertEquals(0, Sockets.getsockopt(lp.fd(), Platform.SOL_SOCKET, Platform.SO_REUSEPORT));
        assertEquals(1, Sockets.getsockopt(lq.fd(), Platform.SOL_SOCKET, Platform.SO_REUSEPORT));
        assertEquals(511, lp.backlog, "nginx's default backlog");
        assertEquals(16, lq.backlog);
        assertTrue(accepts(p), "listening on " + p);
        assertTrue(accepts(q), "listening on " + q);

        ListeningSockets.closeAll(cycle);
        assertEquals(-1, lp.fd());
        assertEquals(-1, lq.fd());
        assertFalse(accepts(p), "still listening on " + p);
    }

    @Test
    @Timeout(20)
    void aTestCycleOpensNothing() throws Exception {
        int p = freePort();
        Files.writeString(conf, "events { }\ntest_listen 127.0.0.1:" + p + ";\n", StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, null, CycleOptions.Purpose.TEST, this::modules,
            BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        cycles.add(cycle);
        assertEquals(-1, only(cycle, "127.0.0.1:" + p).fd());
        assertFalse(accepts(p));
    }

    // ---- a new cycle takes over the old one's sockets

    @Test
    @Timeout(20)
    void theNextCycleInheritsTheSameDescriptorAndClosesWhatIsGone() throws Exception {
        int p = freePort();
        int q = freePort();
        int r = freePort();
        KernelCycle first = build("test_listen 127.0.0.1:" + p + ";\ntest_listen 127.0.0.1:" + q + ";\n", null);
        int fdP = only(first, "127.0.0.1:" + p).fd();
        int fdQ = only(first, "127.0.0.1:" + q).fd();
        // a client waiting in the queue across the reload: nginx's reason to inherit rather than reopen
        Socket waiting = new Socket();
        others.add(waiting);
        waiting.connect(new InetSocketAddress("127.0.0.1", p), 5000);

        KernelCycle second = build("test_listen 127.0.0.1:" + r + ";\ntest_listen 127.0.0.1:" + p + ";\n", first);
        Listening lp = only(second, "127.0.0.1:" + p);
        Listening lr = only(second, "127.0.0.1:" + r);
        assertTrue(lp.inherited(), "same address: inherited");
        assertEquals(fdP, lp.fd(), "same descriptor");
        assertFalse(lr.inherited(), "new address: opened");
        assertNotEquals(fdP, lr.fd());

        ListeningSockets.closeUnused(first, second);
        assertFalse(Files.exists(Path.of("/proc/self/fd/" + fdQ), LinkOption.NOFOLLOW_LINKS),
            "descriptor " + fdQ + " still open");
        assertEquals(-1, only(first, "127.0.0.1:" + q).fd(), "the address no longer configured is closed");
        assertFalse(accepts(q), "still listening on the removed " + q);
        assertEquals(fdP, lp.fd(), "the inherited one is not closed");
        assertTrue(accepts(r), "listening on the new " + r);

        // the client that connected before the reload is in the inherited socket's queue
        int accepted = Sockets.accept4(lp.fd(), 0, 0, Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        assertNotEquals(Rc.AGAIN, accepted, "the waiting connection was lost");
        assertEquals(waiting.getLocalPort(), Sockets.getpeername(accepted).port());
        Syscalls.close(accepted);
    }

    @Test
    @Timeout(20)
    void aCycleFailingInInitModuleClosesOnlyWhatItOpened() throws Exception {
        int p = freePort();
        int q = freePort();
        KernelCycle first = build("test_listen 127.0.0.1:" + p + ";\n", null);
        int fdP = only(first, "127.0.0.1:" + p).fd();

        extra = CycleFixture.failing("tfail", new IllegalStateException("refused"));
        ConfException e = fail("test_listen 127.0.0.1:" + p + ";\ntest_listen 127.0.0.1:" + q + ";\n", first);
        assertEquals("module \"tfail\" failed to initialise (java.lang.IllegalStateException: refused)",
            e.getMessage());
        assertFalse(accepts(q), "the failed cycle's own socket " + q + " left open");
        assertTrue(accepts(p), "the old cycle's socket closed");
        assertEquals(fdP, only(first, "127.0.0.1:" + p).fd());
        assertEquals(first.listening().get(0).sockaddr(), Sockets.getsockname(fdP));
    }

    @Test
    @Timeout(20)
    void aCycleFailingInItsConfigurationOpensNothing() throws Exception {
        int p = freePort();
        int q = freePort();
        KernelCycle first = build("test_listen 127.0.0.1:" + p + ";\n", null);
        ConfException e = fail("test_listen 127.0.0.1:" + p + ";\ntest_listen 127.0.0.1:" + q + ";\nfoo;\n",
            first);
        assertEquals("unknown directive \"foo\" in " + conf + ":4", e.getMessage());
        assertFalse(accepts(q));
        assertTrue(accepts(p), "the old cycle's socket closed");

        e = fail("test_listen 127.0.0.1:" + q + " backlog=x;\n", first);
        assertEquals("invalid parameter \"backlog=x\" in " + conf + ":2", e.getMessage());
        assertTrue(accepts(p), "the old cycle's socket closed");
    }

    // ---- unix-domain and IPv6 addresses

    @Test
    @Timeout(20)
    void unixSocketReplacesAStaleFile() throws Exception {
        Path path = prefix.resolve("jinx.sock");
        Files.writeString(path, "left behind by a previous run");
        KernelCycle first = build("test_listen unix:" + path + ";\n", null);
        Listening ls = only(first, "unix:" + path);
        assertNotEquals(-1, ls.fd());
        assertFalse(Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS), "the stale file is still there");
        assertTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "no socket file");
        assertTrue(connectsUnix(path), "not listening on " + path);

        // a reload keeps it, file and all
        KernelCycle second = build("test_listen unix:" + path + ";\n", first);
        assertTrue(only(second, "unix:" + path).inherited());
        assertEquals(ls.fd(), only(second, "unix:" + path).fd());
        ListeningSockets.closeUnused(first, second);
        assertTrue(connectsUnix(path), "the inherited unix socket was closed");

        // and once it is gone from the configuration, its file goes with it
        int p = freePort();
        KernelCycle third = build("test_listen 127.0.0.1:" + p + ";\n", second);
        ListeningSockets.closeUnused(second, third);
        assertFalse(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "socket file left behind");
    }

    private static boolean connectsUnix(Path path) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(path));
        }
    }

    @Test
    @Timeout(20)
    void ipv6Loopback() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        int p = freePortOn(v6);
        assumeTrue(p != -1, "no IPv6 loopback here");
        KernelCycle cycle = build("test_listen [::1]:" + p + ";\n", null);
        Listening ls = only(cycle, "[::1]:" + p);
        assertEquals(Platform.AF_INET6, ls.sockaddr().family());
        assertEquals(ls.sockaddr(), Sockets.getsockname(ls.fd()));
        assertEquals(1, Sockets.getsockopt(ls.fd(), Platform.IPPROTO_IPV6, Platform.IPV6_V6ONLY), "ipv6only=on");
        assertTrue(accepts(v6, p), "listening on [::1]:" + p);
    }

    // ---- bind() conflicts

    @Test
    @Tag("slow")
    @Timeout(30)
    void bindConflictIsTriedFiveTimes() throws Exception {
        int p = freePort();
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        others.add(taken);
        int q = taken.getLocalPort();

        long start = System.nanoTime();
        ConfException e = fail("test_listen 127.0.0.1:" + p + ";\ntest_listen 127.0.0.1:" + q + ";\n", null);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals("still could not bind()", e.getMessage());
        // nginx pauses 500 ms between tries: four pauses
        assertTrue(ms >= 1900, "gave up after " + ms + " ms");
        assertFalse(accepts(p), "the socket opened before the conflict was left open");

        String log = Files.readString(prefix.resolve("logs/error.log"), StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile("\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d \\[emerg\\] \\d+#\\d+: "
            + Pattern.quote("bind() to 127.0.0.1:" + q + " failed (98: Address already in use)") + "\n")
            .matcher(log);
        int tries = 0;
        while (m.find()) {
            tries++;
        }
        assertEquals(5, tries, log);
    }
}
