package jinx.http.internal.request;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.process.SingleProcess;
import jinx.kernel.spi.JinxModule;

/**
 * The HTTP tests' engine: a cycle built in-process from an inline {@code http {}} block. For the engine's tests
 * ({@link #socketless}, {@link #sockets}) the built-in modules and a test content module ({@code http_test_content});
 * for the standard modules' tests ({@link #modules}, {@link #modulesSockets}) the built-in modules alone. Socketless:
 * the loop is driven by the test's thread and requests come through {@link LocalConnection}s, in memory
 * ({@link #connect()}) or over a socket pair ({@link #connectSocketPair()}). With sockets: {@link #serve()} runs the
 * real server in a {@link SingleProcess}. The request body tests ({@code io.BodyFixture}) make their request on a
 * socketless fixture's connection.
 *
 * <p>The test content module answers {@code /echo...} with {@code uri=U args=A} and 200, {@code /big/N} with N
 * bytes, {@code /status/N} with status N, {@code /redirect/U} with an internal redirect to U, {@code /named/N} by
 * going on in {@code @N}, anything in a named location with {@code named @N uri=U}, and declines everything else.
 * Its REWRITE handler turns {@code /rw/X} into {@code /echo/X} and keeps changing {@code /rwloop/...}; its two ACCESS
 * handlers deny URIs holding {@code deny1} / {@code deny2} and allow those holding {@code allow1} / {@code allow2}.
 */
public final class EngineFixture implements AutoCloseable {

    private final Path prefix;
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final KernelCycle cycle;
    private final List<JinxModule> initialised = new ArrayList<>();
    private final Event tick = new Event();
    private SingleProcess process;

    private EngineFixture(String main, String http, CycleOptions.Purpose purpose) throws Exception {
        this(main, http, purpose, true, 1024);
    }

    private EngineFixture(String main, String http, CycleOptions.Purpose purpose, boolean testContent,
                          int connections) throws Exception {
        prefix = Files.createTempDirectory(testContent ? "jinx-engine" : "jinx-modules");
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("html"));
        Path conf = prefix.resolve("conf/jinx.conf");
        Files.writeString(conf, "master_process off;\nerror_log stderr info;\npid logs/jinx.pid;\n" + main
            + "\nevents {\n    worker_connections " + connections + ";\n}\nhttp {\n" + http + "\n}\n",
            StandardCharsets.ISO_8859_1);
        PrintStream err = new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, "stderr", purpose,
            testContent ? EngineFixture::modules : Main::discover, BuiltinOrder.NAMES, err, ErrorLog.early(err, null),
            null);
        cycle = CycleBuilder.build(options, null);
        tick.handler = ev -> { };
    }

    /**
     * A socketless fixture: the cycle's listening sockets stay closed; {@link #connect()} makes connections.
     *
     * @param http the inside of {@code http {}}
     * @return the fixture, its loop made
     * @throws Exception when the configuration is refused
     */
    public static EngineFixture socketless(String http) throws Exception {
        EngineFixture f = new EngineFixture("", http, CycleOptions.Purpose.TEST);
        f.initProcess();
        return f;
    }

    /**
     * A fixture for the real server: call {@link #serve()}.
     *
     * @param http the inside of {@code http {}}, with {@code listen 127.0.0.1:PORT}
     * @return the fixture
     * @throws Exception when the configuration is refused
     */
    static EngineFixture sockets(String http) throws Exception {
        return new EngineFixture("", http, CycleOptions.Purpose.RUN);
    }

    /**
     * A socketless fixture with the built-in modules alone ({@code worker_connections 64}), for the standard
     * modules' tests; {@link #get} sends a request.
     *
     * @param http the inside of {@code http {}}
     * @return the fixture, its loop made
     * @throws Exception when the configuration is refused
     */
    public static EngineFixture modules(String http) throws Exception {
        EngineFixture f = new EngineFixture("", http, CycleOptions.Purpose.TEST, false, 64);
        f.initProcess();
        return f;
    }

    /**
     * As {@link #modules}, for the real server on a thread of its own: call {@link #serve()}, then speak TCP to
     * {@link #port()}.
     *
     * @param http the inside of {@code http {}}, listening on {@code 127.0.0.1:0}
     * @return the fixture
     * @throws Exception when the configuration is refused
     */
    public static EngineFixture modulesSockets(String http) throws Exception {
        return new EngineFixture("", http, CycleOptions.Purpose.RUN, false, 64);
    }

    private static List<JinxModule> modules() {
        List<JinxModule> list = new ArrayList<>(Main.discover());
        list.add(new TestContentModule());
        return list;
    }

    private void initProcess() throws Exception {
        for (LoadedModule m : cycle.modules()) {
            m.module().initProcess(cycle);
            initialised.add(m.module());
        }
    }

    /**
     * Starts the server on a thread of its own.
     *
     * @throws Exception when a module cannot start
     */
    public void serve() throws Exception {
        process = SingleProcess.start(cycle, "jinx-test-worker");
    }

    public KernelCycle cycle() {
        return cycle;
    }

    public EventLoop loop() {
        return cycle.eventLoop();
    }

    Path prefix() {
        return prefix;
    }

    /**
     * Returns the port the first listening socket was bound to.
     *
     * @return the port
     * @throws IOException when it cannot be found
     */
    public int port() throws IOException {
        return jinx.kernel.os.Sockets.getsockname(cycle.listening().get(0).fd()).port();
    }

    /**
     * Opens a socketless connection to the first listening socket's servers: in memory, no descriptor.
     *
     * @return the client end
     * @throws IOException when no connection can be made
     */
    public LocalConnection connect() throws IOException {
        return LocalConnection.open(loop(), cycle.listening().get(0));
    }

    /**
     * Opens a connection to the first listening socket's servers over a UNIX-domain socket pair, for what needs a
     * real socket (a full socket buffer, the kernel's half-close).
     *
     * @return the client end
     * @throws IOException when no connection can be made
     */
    LocalConnection connectSocketPair() throws IOException {
        return LocalConnection.openSocketPair(loop(), cycle.listening().get(0));
    }

    /**
     * Turns the loop once, waiting at most {@code waitMs}.
     *
     * @param waitMs the longest wait
     * @throws IOException when waiting fails
     */
    void turn(long waitMs) throws IOException {
        EventLoop loop = loop();
        loop.addTimer(tick, waitMs);
        loop.processEventsAndTimers();
        loop.deleteTimer(tick);
    }

    /**
     * Turns the loop until {@code done} holds.
     *
     * @param timeoutMs the longest in all
     * @param done the condition
     * @return whether it holds
     * @throws IOException when waiting fails
     */
    public boolean turnUntil(long timeoutMs, BooleanSupplier done) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            turn(10);
        }
        return true;
    }

    /**
     * Sends a request and turns the loop until the server answered {@code n} responses or closed.
     *
     * @param lc the connection
     * @param request the raw request(s)
     * @param n the responses expected
     * @return everything received on the connection so far
     * @throws IOException when the exchange fails
     */
    String exchange(LocalConnection lc, String request, int n) throws IOException {
        lc.send(request);
        turnUntil(5000, () -> {
            try {
                return Responses.split(lc.received()).size() >= n || lc.closedByServer();
            } catch (IOException e) {
                return true;
            }
        });
        return lc.received();
    }

    /**
     * Sends a request on a connection of its own and returns the first response.
     *
     * @param request the raw request
     * @return the response
     * @throws IOException when the exchange fails
     */
    Responses.Response request(String request) throws IOException {
        try (LocalConnection lc = connect()) {
            return Responses.split(exchange(lc, request, 1)).get(0);
        }
    }

    /**
     * Sends one request on a new in-memory connection and returns the first complete response (none has a body
     * for HEAD, 204 or 304).
     *
     * @param request the raw request
     * @return the response
     * @throws IOException when the exchange fails or no complete response came
     */
    public Responses.Response get(String request) throws IOException {
        boolean head = request.startsWith("HEAD ");
        try (LocalConnection lc = connect()) {
            String raw = exchange(lc, request, head);
            Responses.Response r = Responses.first(raw, head);
            if (r == null) {
                throw new IOException("no complete response to " + request + ": " + raw + "\nlog:\n" + log());
            }
            return r;
        }
    }

    /**
     * Sends a request on {@code lc} and turns the loop until its first response is complete or the server closed.
     *
     * @param lc the connection
     * @param request the raw request
     * @param head the request is HEAD: the response has no body
     * @return everything received so far
     * @throws IOException when the exchange fails
     */
    public String exchange(LocalConnection lc, String request, boolean head) throws IOException {
        lc.send(request);
        turnUntil(5000, () -> {
            try {
                return Responses.first(lc.received(), head) != null || lc.closedByServer();
            } catch (IOException e) {
                return true;
            }
        });
        return lc.received();
    }

    /**
     * Returns what the error log received.
     *
     * @return the text
     */
    public String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Override
    public void close() throws Exception {
        if (process != null) {
            process.stop(10_000);
        } else {
            for (int i = initialised.size() - 1; i >= 0; i--) {
                initialised.get(i).exitProcess(cycle);
            }
        }
        cycle.log().close();
        try (Stream<Path> files = Files.walk(prefix)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
