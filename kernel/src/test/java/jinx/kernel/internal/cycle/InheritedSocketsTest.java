package jinx.kernel.internal.cycle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.event.EventCoreModule;
import jinx.kernel.internal.event.EventsCoreModule;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.FakeEventModule;
import jinx.kernel.testsuite.OpenFds;
import jinx.kernel.testsuite.TestListenModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link InheritedSockets}: the {@code JINX} variable read as nginx reads {@code NGINX}, and real listening
 * sockets handed to the first cycle, which takes the ones it configures by address and closes the others.
 */
class InheritedSocketsTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final List<Integer> fds = new ArrayList<>();
    private Map<String, String> fdBaseline;

    @BeforeEach
    void baseline() {
        fdBaseline = OpenFds.baseline();
    }

    @AfterEach
    void closeEverything() throws Exception {
        ListeningSockets.inherit(List.of());
        for (int fd : fds) {
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                // closed by the code under test
            }
        }
        OpenFds.assertBackTo(fdBaseline);
    }

    @Test
    void parsesNumbersEndedBySemicolonsOrColons() {
        assertEquals(new InheritedSockets.Parsed(List.of(5, 6), null), InheritedSockets.parse("5;6;"));
        assertEquals(new InheritedSockets.Parsed(List.of(5, 6, 7), null), InheritedSockets.parse("5:6;7:"));
        assertEquals(new InheritedSockets.Parsed(List.of(), null), InheritedSockets.parse(""));
    }

    @Test
    void anInvalidNumberStopsTheReadingWithNginxsWords() {
        InheritedSockets.Parsed p = InheritedSockets.parse("5;x;7;");
        assertEquals(List.of(5), p.fds());
        assertEquals("invalid socket number \"x;7;\" in JINX environment variable, ignoring the rest of the variable",
            p.error());
        assertEquals(List.of(), InheritedSockets.parse(";").fds());
        assertEquals("invalid socket number \"-1;\" in JINX environment variable, ignoring the rest of the variable",
            InheritedSockets.parse("-1;").error());
    }

    @Test
    void whatFollowsTheLastSeparatorIsIgnored() {
        InheritedSockets.Parsed p = InheritedSockets.parse("5;6");
        assertEquals(List.of(5), p.fds());
        assertEquals("invalid socket number \"6\" in JINX environment variable, ignoring", p.error());
    }

    @Test
    @Timeout(20)
    @EnabledOnOs(OS.LINUX)
    void theFirstCycleTakesWhatItConfiguresAndClosesTheRest() throws Exception {
        int kept = listen();
        int dropped = listen();
        int keptPort = Sockets.getsockname(kept).port();
        int droppedPort = Sockets.getsockname(dropped).port();
        int[] pipe = Syscalls.pipe(Platform.O_CLOEXEC);
        fds.add(pipe[0]);
        fds.add(pipe[1]);
        // as they arrive after an exec: not close-on-exec
        Syscalls.clearCloexec(kept);
        Syscalls.clearCloexec(dropped);
        Path logFile = tmp.resolve("early.log");
        ErrorLog early = ErrorLog.early(stderr, logFile);
        String value = kept + ";" + dropped + ";" + pipe[0] + ";";
        List<Listening> inherited = InheritedSockets.take(value, early);
        assertEquals(2, inherited.size(), "the pipe is no socket");
        assertEquals(SockAddr.parse("127.0.0.1:" + keptPort), inherited.get(0).sockaddr());
        assertTrue(inherited.get(0).inherited());
        ListeningSockets.inherit(inherited);

        KernelCycle cycle = build("test_listen 127.0.0.1:" + keptPort + ";\n"
            + "test_listen 127.0.0.1:" + freePort() + ";\n", early);
        try {
            Listening ls = cycle.listening().get(0);
            assertEquals(kept, ls.fd(), "the inherited descriptor, not a new socket");
            assertTrue(ls.inherited());
            assertTrue(Syscalls.isCloexec(kept), "close-on-exec again");
            assertFalse(cycle.listening().get(1).inherited());
            assertThrows(NativeIoException.class, () -> Syscalls.isCloexec(dropped), "not configured: closed");
            assertFalse(accepts(droppedPort), "nothing listens on " + droppedPort + " any more");
            assertTrue(accepts(keptPort));
            String log = Files.readString(logFile, StandardCharsets.ISO_8859_1);
            assertTrue(hasLine(log, "[notice] ", ": using inherited sockets from \"" + value + "\""), log);
            assertTrue(hasLine(log, "[crit] ", ": getsockname() of the inherited socket #" + pipe[0]
                + " failed (88: Socket operation on non-socket)"), log);
        } finally {
            ListeningSockets.closeAll(cycle);
            cycle.log().close();
            early.close();
        }
        // the next cycle without an old one inherits nothing: the sockets were for the first only
        ListeningSockets.inherit(List.of());
    }

    @Test
    @Timeout(20)
    @EnabledOnOs(OS.LINUX)
    void nothingInheritedIsASocketNotTaken() throws Exception {
        int fd = listen();
        Syscalls.clearCloexec(fd);
        ErrorLog early = ErrorLog.early(stderr, tmp.resolve("early.log"));
        ListeningSockets.inherit(InheritedSockets.take(fd + ";", early));
        KernelCycle cycle = build("\n", early);
        try {
            assertTrue(cycle.listening().isEmpty());
            assertThrows(NativeIoException.class, () -> Syscalls.isCloexec(fd), "closed");
        } finally {
            cycle.log().close();
            early.close();
        }
    }

    private static boolean hasLine(String log, String level, String end) {
        for (String line : log.split("\n")) {
            if (line.contains(level) && line.endsWith(end)) {
                return true;
            }
        }
        return false;
    }

    private int listen() throws Exception {
        int fd = Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0);
        fds.add(fd);
        Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEADDR, 1);
        Sockets.bind(fd, SockAddr.parse("127.0.0.1:0"));
        Sockets.listen(fd, 16);
        Syscalls.setNonBlocking(fd);
        return fd;
    }

    private KernelCycle build(String text, ErrorLog early) throws Exception {
        Path prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = prefix.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, "events { }\n" + text, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, null, CycleOptions.Purpose.RUN,
            InheritedSocketsTest::modules, BuiltinOrder.NAMES, stderr, early, null);
        return CycleBuilder.build(options, null);
    }

    private static List<JinxModule> modules() {
        return new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule(),
            new EventsCoreModule(), new EventCoreModule(), new FakeEventModule(), new TestListenModule()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            return true;
        } catch (java.net.ConnectException e) {
            return false;
        }
    }
}
