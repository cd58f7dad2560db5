package jinx.event.epoll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
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
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.event.poll.PollEventModule;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.internal.event.EventCoreConf;
import jinx.kernel.internal.event.EventCoreModule;
import jinx.kernel.internal.event.EventsCoreModule;
import jinx.kernel.internal.process.SingleProcess;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.LineEcho;
import jinx.kernel.testsuite.OpenFds;
import jinx.kernel.testsuite.TestListenModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code master_process off}: a cycle built to serve, from a configuration file, with the kernel's modules, both
 * event methods and the kernel test-jar's {@code test_listen} (a line echo), run by {@link SingleProcess} on a
 * thread of its own. A client is served through the real loop; stopping closes every connection and listening
 * socket and frees every slot, and the process's descriptors are back to what they were.
 */
@EnabledOnOs(OS.LINUX)
class SingleProcessEpollTest {

    @TempDir
    Path tmp;

    private Path conf;
    private Map<String, String> fdBaseline;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<KernelCycle> cycles = new ArrayList<>();

    @BeforeEach
    void prefix() throws IOException {
        new EpollEventModule().isUsable();
        new PollEventModule().isUsable();
        fdBaseline = OpenFds.baseline();
        Files.createDirectories(tmp.resolve("logs"));
        conf = tmp.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
    }

    @AfterEach
    void closeEverything() throws Exception {
        for (KernelCycle c : cycles) {
            ListeningSockets.closeAll(c);
            c.log().close();
        }
        early.close();
        OpenFds.assertBackTo(fdBaseline);
    }

    private static List<JinxModule> modules() {
        return List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule(),
            new EventsCoreModule(), new EventCoreModule(), new EpollEventModule(), new PollEventModule(),
            new TestListenModule());
    }

    private KernelCycle build(String text) throws ConfException, IOException {
        Files.writeString(conf, text, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(tmp, conf, null, null, CycleOptions.Purpose.RUN,
            SingleProcessEpollTest::modules, BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        cycles.add(cycle);
        return cycle;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new IOException("EOF after \"" + sb + "\"");
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    /** One client: two lines echoed on one connection, then it closes. */
    private static void echo(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (String line : List.of("hello", "again")) {
                out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertEquals(line, readLine(in));
            }
        }
    }

    private static boolean within(long ms, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    private static boolean accepts(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            return true;
        } catch (ConnectException e) {
            return false;
        }
    }

    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void servesUntilStoppedThenReleasesEverything() throws Exception {
        int port = freePort();
        KernelCycle cycle = build("master_process off;\nevents { worker_connections 32; }\n"
                                  + "test_listen 127.0.0.1:" + port + ";\n");
        Listening ls = cycle.listening().get(0);
        SingleProcess process = SingleProcess.start(cycle, "jinx-single");
        EventLoop loop = process.loop();
        // without use, epoll: the usable method with the lowest priority
        assertInstanceOf(EpollEventActions.class, loop.actions());
        assertEquals(32, loop.connectionCount());
        assertEquals(ls.fd(), ls.connection().fd(), "the listening socket holds a slot");

        echo(port);
        echo(port);
        TestListenModule.Conf tl = cycle.conf(TestListenModule.NAME, TestListenModule.Conf.class);
        LineEcho served = tl.echo();
        assertTrue(within(5000, () -> served.open() == 0), "the server did not close the connections");
        assertEquals(2, served.accepted());
        assertEquals(4, served.lines());
        assertEquals(2, served.closedEof());

        process.stop(10_000);
        assertEquals(loop.connectionCount(), loop.freeConnectionCount(), "slots not freed");
        assertEquals(-1, ls.fd(), "the listening socket is still open");
        assertFalse(accepts(port), "still listening on " + port);
    }

    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void usePollSelectsPoll() throws Exception {
        int port = freePort();
        KernelCycle cycle = build("master_process off;\nevents { use poll; }\ntest_listen 127.0.0.1:" + port + ";\n");
        SingleProcess process = SingleProcess.start(cycle, "jinx-single-poll");
        EventLoop loop = process.loop();
        assertEquals("jinx.event.poll.PollEventActions", loop.actions().getClass().getName());
        assertEquals(512, loop.connectionCount(), "worker_connections' default");

        echo(port);
        process.stop(10_000);
        assertEquals(loop.connectionCount(), loop.freeConnectionCount(), "slots not freed");
        assertFalse(accepts(port), "still listening on " + port);
    }

    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void aProcessThatCannotStartReleasesWhatItMade() throws Exception {
        // one slot: the second listening socket finds none, and the event core's initProcess fails. The
        // configuration refuses so few connections (nginx's ngx_event_init_conf(), EventCoreModuleTest), so the
        // shortage is made after it was checked, as a reuseport clone or a module's own socket would make it
        int p = freePort();
        int q = freePort();
        KernelCycle cycle = build("master_process off;\nevents { worker_connections 3; }\n"
                                  + "test_listen 127.0.0.1:" + p + ";\ntest_listen 127.0.0.1:" + q + ";\n");
        cycle.conf(EventCoreModule.NAME, EventCoreConf.class).connections = 1;
        Exception e = assertThrows(Exception.class, () -> SingleProcess.start(cycle, "jinx-single-fail"));
        assertEquals("no free connection slot for the listening socket 127.0.0.1:" + q, e.getMessage());
        String log = Files.readString(tmp.resolve("logs/error.log"), StandardCharsets.ISO_8859_1);
        assertTrue(log.contains("[emerg] ") && log.contains(": module \"event_core\" failed to start: "
            + "no free connection slot for the listening socket 127.0.0.1:" + q + "\n"), log);
        assertFalse(accepts(p), "still listening on " + p);
        assertFalse(accepts(q), "still listening on " + q);
    }

    /**
     * A warm-up ({@code worker_warmup}): the module's exchanges run over socket pairs marked as the warm-up's,
     * while the listening socket accepts nothing; a client that connected meanwhile is served once it is over,
     * and the warm-up's connections are all closed by then.
     */
    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void aWarmUpRunsBeforeTheFirstAccept() throws Exception {
        int port = freePort();
        KernelCycle cycle = build("master_process off;\nerror_log logs/error.log notice;\n"
                                  + "events { worker_connections 64; }\ntest_listen 127.0.0.1:" + port + ";\n");
        Path errorLog = tmp.resolve("logs/error.log");
        SingleProcess process = SingleProcess.start(cycle, "jinx-warm", 1500);
        EventLoop loop = process.loop();
        String line;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("early\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("early", readLine(s.getInputStream()));
            // accepted only once the warm-up was over: its line was logged before the loop took a client
            line = Files.readAllLines(errorLog, StandardCharsets.ISO_8859_1).stream()
                .filter(l -> l.contains("warm-up: ")).findFirst().orElse(null);
        }
        assertTrue(line != null && line.matches(".*\\[notice\\] .*warm-up: \\d+ requests in \\d+ ms.*"), line);
        long requests = Long.parseLong(line.replaceAll(".*warm-up: (\\d+) requests.*", "$1"));
        assertTrue(requests > 0, line);
        System.out.println("WARM-UP " + line.substring(line.indexOf("warm-up: ")));
        assertFalse(line.contains("failed"), line);
        TestListenModule.Conf tl = cycle.conf(TestListenModule.NAME, TestListenModule.Conf.class);
        assertTrue(tl.warmUpConnections() > 0, "no connection was marked as the warm-up's");
        LineEcho served = tl.echo();
        // the warm-up's lines and the client's, one accepted connection that is no warm-up's
        assertEquals(requests + 1, served.lines());
        assertTrue(within(5000, () -> served.open() == 0), "connections left open");
        process.stop(10_000);
        assertEquals(loop.connectionCount(), loop.freeConnectionCount(), "slots not freed");
    }
}
