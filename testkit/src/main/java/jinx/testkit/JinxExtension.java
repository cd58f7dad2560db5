package jinx.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.Embedded;
import jinx.kernel.spi.JinxModule;

/**
 * A JUnit 5 extension that runs Jinx in the test's JVM ({@code master_process off}, {@link Embedded}) with the
 * module under test and a configuration snippet, and stops it afterwards:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final JinxExtension JINX = JinxExtension.create()
 *     .module(HelloModule::new)
 *     .server("location = /hello { hello \"Hello, world\"; }");
 *
 * @Test
 * void greets() throws IOException {
 *     Response r = JINX.client().get("/hello");
 *     assertEquals(200, r.status());
 * }
 * }</pre>
 *
 * <p>Registered on a static field the server lives for the test class; on an instance field, for each test.
 * {@link #start()} and {@link #close()} may also be called by hand (a test expecting a configuration error calls
 * {@code start()} and catches the {@link ConfException}).
 *
 * <p>The configuration is {@code master_process off}, the error log on a stream the kit reads
 * ({@link #errorLog()}), an {@code events {}} block, then {@code http {}} holding the {@link #http} snippet and
 * one {@code server {}} that listens on a free port of 127.0.0.1 with {@code server_name localhost} and holds the
 * {@link #server} snippet. {@link #main} adds directives to the main context (after the kit's own). The prefix is
 * a fresh temporary directory with {@code conf/}, {@code logs/} and {@code html/}; {@link #file} puts files in it.
 *
 * <p>{@link #inMemory()} serves without sockets: the same configuration, no descriptor opened, the requests
 * over in-memory connections whose loop the client turns on the test's thread (the HTTP core's socketless
 * path). Shared memory zones exist in both modes.
 */
public final class JinxExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    AfterEachCallback, AutoCloseable {

    private final List<Supplier<? extends JinxModule>> modules = new ArrayList<>();
    private final Map<String, String> files = new LinkedHashMap<>();
    private String main = "";
    private String http = "";
    private String server = "";
    private String logLevel = "info";
    private boolean inMemory;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private Path prefix;
    private int port;
    private Embedded embedded;
    private JinxClient client;
    private boolean perClass;

    private JinxExtension() {
    }

    /**
     * Makes an extension with no module of its own: add the module under test with {@link #module}.
     *
     * @return the extension
     */
    public static JinxExtension create() {
        return new JinxExtension();
    }

    /**
     * Adds a module as if it were built in; the supplier is called once per cycle for a fresh instance.
     *
     * @param module makes the module
     * @return this extension
     */
    public JinxExtension module(Supplier<? extends JinxModule> module) {
        modules.add(module);
        return this;
    }

    /**
     * Adds directives to the main context.
     *
     * @param directives the directives
     * @return this extension
     */
    public JinxExtension main(String directives) {
        main += directives + "\n";
        return this;
    }

    /**
     * Adds directives to {@code http {}}, before the kit's {@code server {}}.
     *
     * @param directives the directives (more {@code server {}} blocks too)
     * @return this extension
     */
    public JinxExtension http(String directives) {
        http += directives + "\n";
        return this;
    }

    /**
     * Adds directives to the kit's {@code server {}}.
     *
     * @param directives the directives ({@code location} blocks ...)
     * @return this extension
     */
    public JinxExtension server(String directives) {
        server += directives + "\n";
        return this;
    }

    /**
     * Writes a file under the prefix before the server starts ({@code html/index.html} ...).
     *
     * @param relative the path relative to the prefix
     * @param content the content, one byte per char
     * @return this extension
     */
    public JinxExtension file(String relative, String content) {
        files.put(relative, content);
        return this;
    }

    /**
     * Sets the error log's level, {@code info} by default.
     *
     * @param level {@code debug}, {@code info}, {@code notice}, {@code warn}, {@code error} ...
     * @return this extension
     */
    public JinxExtension logLevel(String level) {
        logLevel = level;
        return this;
    }

    /**
     * Serves in memory: no socket, the client turns the loop on the test's thread.
     *
     * @return this extension
     */
    public JinxExtension inMemory() {
        inMemory = true;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        perClass = true;
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            close();
        }
    }

    /**
     * Writes the configuration and the files, builds the cycle and starts serving.
     *
     * @throws ConfException when the configuration is refused, with nginx's text (the prefix is removed)
     * @throws Exception when a module's {@code initModule} or {@code initProcess} fails
     * @throws IllegalStateException when the server runs already
     */
    public void start() throws Exception {
        if (embedded != null) {
            throw new IllegalStateException("the server runs already");
        }
        synchronized (logBytes) {
            logBytes.reset();
        }
        prefix = Files.createTempDirectory("jinx-testkit");
        try {
            port = inMemory ? 8080 : freePort();
            writeFiles();
            PrintStream err = new PrintStream(new LockedStream(), true, StandardCharsets.ISO_8859_1);
            Embedded.Builder b = Embedded.builder(prefix).stderr(err);
            if (inMemory) {
                b.inMemory();
            }
            for (Supplier<? extends JinxModule> m : modules) {
                b.module(m);
            }
            Embedded e = b.build();
            try {
                e.start();
            } catch (Exception | Error failure) {
                e.close();
                throw failure;
            }
            embedded = e;
        } catch (Exception | Error e) {
            deletePrefix();
            throw e;
        }
        client = inMemory
            ? new JinxClient(() -> new MemorySession(embedded, embedded.cycle().listening().get(0)))
            : new JinxClient(() -> new SocketSession(port));
    }

    /**
     * Returns the configuration the kit writes.
     *
     * @return the text of {@code conf/jinx.conf}
     */
    public String configuration() {
        return "master_process off;\nerror_log stderr " + logLevel + ";\npid logs/jinx.pid;\n" + main
            + "events {\n    worker_connections 256;\n}\n"
            + "http {\n" + http
            + "server {\n    listen 127.0.0.1:" + port + ";\n    server_name localhost;\n" + server + "}\n}\n";
    }

    private void writeFiles() throws IOException {
        for (String dir : List.of("conf", "logs", "html")) {
            Files.createDirectories(prefix.resolve(dir));
        }
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = prefix.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue(), StandardCharsets.ISO_8859_1);
        }
        Files.writeString(prefix.resolve("conf/jinx.conf"), configuration(), StandardCharsets.ISO_8859_1);
    }

    /**
     * Returns the client for the server under test.
     *
     * @return the client
     * @throws IllegalStateException when the server does not run
     */
    public JinxClient client() {
        running();
        return client;
    }

    /**
     * Returns the port the server listens on (127.0.0.1); 8080, never opened, in memory.
     *
     * @return the port
     */
    public int port() {
        running();
        return port;
    }

    /**
     * Returns the prefix: the temporary directory holding {@code conf/}, {@code logs/} and {@code html/}.
     *
     * @return the prefix
     */
    public Path prefix() {
        running();
        return prefix;
    }

    /**
     * Returns the running cycle: the modules in their order, their confs, the shared zones.
     *
     * @return the cycle
     */
    public Cycle cycle() {
        running();
        return embedded.cycle();
    }

    /**
     * Returns what the error log received so far (also after a failed {@link #start()}).
     *
     * @return the text, one char per byte
     */
    public String errorLog() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Waits until the error log holds {@code text}, for at most {@link JinxClient#QUIET_MS}: a line the server
     * writes after the response was sent. In memory the loop is turned meanwhile.
     *
     * @param text the text
     * @return the error log
     * @throws IOException when turning the loop fails
     * @throws AssertionError when the text does not come
     */
    public String awaitLog(String text) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JinxClient.QUIET_MS);
        while (!errorLog().contains(text)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("\"" + text + "\" not in the error log:\n" + errorLog());
            }
            pause();
        }
        return errorLog();
    }

    /** Lets the server work for 10 ms: turns the loop in memory, else sleeps. */
    void pause() throws IOException {
        if (embedded != null && inMemory) {
            embedded.turn(10);
            return;
        }
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /**
     * Returns the access log, {@code logs/access.log} under the prefix.
     *
     * @return the reader
     */
    public AccessLog accessLog() {
        running();
        return new AccessLog(this, prefix.resolve("logs/access.log"));
    }

    /**
     * Starts a server with this extension's modules, files and snippets and {@code serverSnippet} added to its
     * {@code server {}}, and asserts that the configuration is refused with {@code text} in the place of the
     * snippet's last line: {@code text in /tmp/.../conf/jinx.conf:N}, N counted in the configuration the kit
     * writes. Put the directive at fault last in the snippet. This extension itself is not started or changed.
     *
     * @param serverSnippet directives for the kit's {@code server {}}
     * @param text nginx's text of the error, without its place
     * @return the exception, for more checks
     * @throws Exception when the start fails otherwise
     * @throws AssertionError when the configuration is accepted or refused with another text or place
     */
    public ConfException assertConfError(String serverSnippet, String text) throws Exception {
        JinxExtension bad = copy();
        int line = (int) bad.configuration().lines().count() - 2;
        bad.server(serverSnippet.stripTrailing());
        line += (int) serverSnippet.stripTrailing().lines().count();
        try (bad) {
            bad.start();
        } catch (ConfException e) {
            String expected = text + " in " + bad.prefix.resolve("conf/jinx.conf") + ":" + line;
            Assertions.assertEquals(expected, e.getMessage(), "the configuration error");
            return e;
        }
        return Assertions.fail("the configuration was accepted, \"" + text + "\" expected");
    }

    /** A new extension with this one's modules, files, snippets and settings, not started. */
    private JinxExtension copy() {
        JinxExtension c = new JinxExtension();
        c.modules.addAll(modules);
        c.files.putAll(files);
        c.main = main;
        c.http = http;
        c.server = server;
        c.logLevel = logLevel;
        c.inMemory = inMemory;
        return c;
    }

    /**
     * Stops the server, if it runs, and removes the prefix. Idempotent.
     *
     * @throws InterruptedException when interrupted while waiting for the loop's thread
     */
    @Override
    public void close() throws InterruptedException {
        if (embedded == null) {
            return;
        }
        try {
            embedded.close();
        } finally {
            embedded = null;
            client = null;
            deletePrefix();
        }
    }

    private void running() {
        if (embedded == null) {
            throw new IllegalStateException("the server does not run");
        }
    }

    private void deletePrefix() {
        if (prefix == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(prefix)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind harms nothing
        }
    }

    /** A free port of 127.0.0.1: bound and released, so the server can bind it right away. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** The error log's stream: the loop's thread writes while the test reads. */
    private final class LockedStream extends java.io.OutputStream {
        @Override
        public void write(int b) {
            synchronized (logBytes) {
                logBytes.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (logBytes) {
                logBytes.write(b, off, len);
            }
        }
    }
}
