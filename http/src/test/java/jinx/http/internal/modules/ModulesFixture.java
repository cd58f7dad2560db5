package jinx.http.internal.modules;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import jinx.http.internal.request.LocalConnection;
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
 * A cycle of the built-in modules built in-process from an inline {@code http {}} block, served through the
 * engine's socketless {@link LocalConnection}s on the test's thread: the request engine's own fixture
 * ({@code jinx.http.internal.request.EngineFixture}, package-private there) reduced to what the content modules
 * need, without its test content module.
 */
final class ModulesFixture implements AutoCloseable {

    private final Path prefix;
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final KernelCycle cycle;
    private final List<JinxModule> initialised = new ArrayList<>();
    private final Event tick = new Event();
    private SingleProcess process;

    /**
     * A complete response: status line, header lines (names in lower case, the last of a name wins), the header
     * as sent, and the body.
     *
     * @param statusLine the status line
     * @param headers the headers
     * @param headerText the header block, status line and final CRLF included
     * @param body the body
     */
    record Response(String statusLine, Map<String, String> headers, String headerText, String body) {

        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** The whole response with the {@code Date} value masked. */
        String masked() {
            return (headerText + body).replaceAll("\r\nDate: [^\r]*\r\n", "\r\nDate: X\r\n");
        }
    }

    ModulesFixture(String http) throws Exception {
        this(http, CycleOptions.Purpose.TEST);
    }

    /**
     * A fixture for the real server on a thread of its own: call {@link #serve()}, then speak TCP to
     * {@link #port()}.
     *
     * @param http the inside of {@code http {}}, listening on {@code 127.0.0.1:0}
     * @return the fixture
     * @throws Exception when the configuration is refused
     */
    static ModulesFixture sockets(String http) throws Exception {
        return new ModulesFixture(http, CycleOptions.Purpose.RUN);
    }

    private ModulesFixture(String http, CycleOptions.Purpose purpose) throws Exception {
        prefix = Files.createTempDirectory("jinx-modules");
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("html"));
        Path conf = prefix.resolve("conf/jinx.conf");
        Files.writeString(conf, "master_process off;\nerror_log stderr info;\npid logs/jinx.pid;\n"
            + "events {\n    worker_connections 64;\n}\nhttp {\n" + http + "\n}\n", StandardCharsets.ISO_8859_1);
        PrintStream err = new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, "stderr", purpose,
            Main::discover, BuiltinOrder.NAMES, err, ErrorLog.early(err, null), null);
        cycle = CycleBuilder.build(options, null);
        tick.handler = ev -> { };
        if (purpose == CycleOptions.Purpose.TEST) {
            for (LoadedModule m : cycle.modules()) {
                m.module().initProcess(cycle);
                initialised.add(m.module());
            }
        }
    }

    /**
     * Starts the real server on a thread of its own.
     *
     * @throws Exception when a module cannot start
     */
    void serve() throws Exception {
        process = SingleProcess.start(cycle, "jinx-modules-test-worker");
    }

    /**
     * Returns the port the first listening socket was bound to.
     *
     * @return the port
     * @throws IOException when it cannot be found
     */
    int port() throws IOException {
        return jinx.kernel.os.Sockets.getsockname(cycle.listening().get(0).fd()).port();
    }

    /**
     * Sends one request on a new connection and returns the first complete response.
     *
     * @param request the raw request
     * @return the response
     * @throws IOException when the exchange fails or no complete response came
     */
    Response get(String request) throws IOException {
        try (LocalConnection lc = LocalConnection.open(loop(), cycle.listening().get(0))) {
            String raw = exchange(lc, request, request.startsWith("HEAD "));
            Response r = parse(raw, request.startsWith("HEAD "));
            if (r == null) {
                throw new IOException("no complete response to " + request + ": " + raw + "\nlog:\n" + log());
            }
            return r;
        }
    }

    /**
     * Sends a request on {@code lc} and turns the loop until a complete response (or the close) came.
     *
     * @param lc the connection
     * @param request the raw request
     * @param head the request is HEAD: the response has no body
     * @return everything received so far
     * @throws IOException when the exchange fails
     */
    String exchange(LocalConnection lc, String request, boolean head) throws IOException {
        lc.send(request);
        turnUntil(5000, () -> {
            try {
                return parse(lc.received(), head) != null || lc.closedByServer();
            } catch (IOException e) {
                return true;
            }
        });
        return lc.received();
    }

    /**
     * Turns the loop until {@code done} holds, or {@code timeoutMs} passed.
     *
     * @param timeoutMs the longest wait
     * @param done the condition
     * @return whether it holds
     * @throws IOException when the loop fails
     */
    boolean turnUntil(long timeoutMs, BooleanSupplier done) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            EventLoop loop = loop();
            loop.addTimer(tick, 10);
            loop.processEventsAndTimers();
            loop.deleteTimer(tick);
        }
        return true;
    }

    /** The first complete response of {@code raw}, by Content-Length; null while incomplete. */
    static Response parse(String raw, boolean head) {
        int end = raw.indexOf("\r\n\r\n");
        if (end < 0) {
            return null;
        }
        String head0 = raw.substring(0, end + 4);
        String[] lines = head0.split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
            }
        }
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        String length = headers.get("content-length");
        int n = head || status == 304 || status == 204 || length == null ? 0 : Integer.parseInt(length);
        if (end + 4 + n > raw.length()) {
            return null;
        }
        return new Response(lines[0], headers, head0, raw.substring(end + 4, end + 4 + n));
    }

    EventLoop loop() {
        return cycle.eventLoop();
    }

    KernelCycle cycle() {
        return cycle;
    }

    /**
     * Returns what the error log received.
     *
     * @return the text
     */
    String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Override
    public void close() throws Exception {
        if (process != null) {
            process.stop(10_000);
        }
        for (int i = initialised.size() - 1; i >= 0; i--) {
            initialised.get(i).exitProcess(cycle);
        }
        cycle.log().close();
        try (Stream<Path> files = Files.walk(prefix)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
