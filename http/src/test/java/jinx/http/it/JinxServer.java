package jinx.http.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.process.SingleProcess;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real server, in-process: a configuration file written into a {@link Site}, a cycle built from it with every
 * module found on the class path (plus {@link ItModule}, the test's body echo), served by a {@link SingleProcess}
 * on a thread of its own, exactly as {@code bin/jinx} with {@code master_process off} serves. The error log is
 * {@code logs/error.log} at {@code info}, read back from the file.
 */
final class JinxServer implements AutoCloseable {

    private static final long LOG_WAIT_MS = 5000;

    private final Site site;
    private final KernelCycle cycle;
    private final SingleProcess process;

    private JinxServer(Site site, KernelCycle cycle, SingleProcess process) {
        this.site = site;
        this.cycle = cycle;
        this.process = process;
    }

    /**
     * Starts a server whose {@code http {}} block holds {@code http}.
     *
     * @param site the prefix
     * @param http the inside of {@code http {}}
     * @return the running server
     * @throws Exception when the configuration is refused or a module cannot start
     */
    static JinxServer start(Site site, String http) throws Exception {
        return start(site, "", "", http);
    }

    /**
     * Starts a server.
     *
     * @param site the prefix
     * @param main directives of the main context, after {@code master_process off}, the error log and the pid
     * @param events the inside of {@code events {}}, after {@code worker_connections 1024}
     * @param http the inside of {@code http {}}
     * @return the running server
     * @throws Exception when the configuration is refused or a module cannot start
     */
    static JinxServer start(Site site, String main, String events, String http) throws Exception {
        site.write("conf/jinx.conf", "master_process off;\nerror_log logs/error.log info;\npid logs/jinx.pid;\n"
            + main + "\nevents {\n    worker_connections 1024;\n" + events + "\n}\n\nhttp {\n" + http + "\n}\n");
        return start(site);
    }

    /**
     * Starts a server with the configuration file the site has already.
     *
     * @param site the prefix, with {@code conf/jinx.conf}
     * @return the running server
     * @throws Exception when the configuration is refused or a module cannot start
     */
    static JinxServer start(Site site) throws Exception {
        ByteArrayOutputStream early = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(early, true, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(site.root(), site.root().resolve("conf/jinx.conf"), null, null,
            CycleOptions.Purpose.RUN, JinxServer::modules, BuiltinOrder.NAMES, err, ErrorLog.early(err, null), null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        return new JinxServer(site, cycle, SingleProcess.start(cycle, "jinx-it"));
    }

    /** The modules {@code bin/jinx} finds, and the test's echo module. */
    private static List<JinxModule> modules() {
        List<JinxModule> modules = new ArrayList<>(Main.discover());
        modules.add(new ItModule());
        return modules;
    }

    /**
     * Returns the port of the first listening socket, as bound (the kernel picks it for {@code :0}).
     *
     * @return the port
     * @throws IOException when the socket cannot tell
     */
    int port() throws IOException {
        return port(0);
    }

    /**
     * Returns the port of a listening socket, as bound.
     *
     * @param i the socket's index, in the order of the configuration's {@code listen} directives
     * @return the port
     * @throws IOException when the socket cannot tell
     */
    int port(int i) throws IOException {
        return Sockets.getsockname(cycle.listening().get(i).fd()).port();
    }

    /**
     * Returns the listening sockets.
     *
     * @return the sockets, in the order of the configuration
     */
    List<Listening> listening() {
        return cycle.listening();
    }

    /**
     * Connects a raw client to the first listening socket.
     *
     * @return the client
     * @throws IOException when it cannot connect
     */
    RawClient connect() throws IOException {
        return RawClient.connect(port());
    }

    /**
     * Returns the site.
     *
     * @return the prefix
     */
    Site site() {
        return site;
    }

    /**
     * Returns the error log as written so far.
     *
     * @return the text of {@code logs/error.log}
     */
    String errorLog() {
        return site.read("logs/error.log");
    }

    /**
     * Waits until the error log has a line at {@code level} holding {@code texts}, in nginx's format
     * ({@code 2026/11/30 17:00:00 [info] 1234#1: *5 text...}), and returns it.
     *
     * @param level the level, {@code info}
     * @param texts what the message holds, in this order
     * @return the line
     */
    String awaitLog(String level, String... texts) {
        StringBuilder re = new StringBuilder("(?m)^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d \\[" + level
            + "\\] \\d+#\\d+: ");
        for (String text : texts) {
            re.append(".*").append(Pattern.quote(text));
        }
        Pattern line = Pattern.compile(re.append(".*$").toString());
        String text = String.join(" ... ", texts);
        long deadline = System.nanoTime() + LOG_WAIT_MS * 1_000_000;
        for (;;) {
            Matcher m = line.matcher(errorLog());
            if (m.find()) {
                return m.group();
            }
            if (System.nanoTime() > deadline) {
                return fail("no [" + level + "] line with \"" + text + "\" in the error log:\n" + errorLog());
            }
            sleep(20);
        }
    }

    /**
     * Checks that the server has logged nothing at {@code alert} or worse (a handler's exception is an alert).
     */
    void assertNoAlerts() {
        String log = errorLog();
        if (log.contains("[alert]") || log.contains("[crit]") || log.contains("[emerg]")) {
            fail("the error log has alerts:\n" + log);
        }
    }

    /**
     * Waits until a file under the prefix (an access log) has a line holding {@code text}, and returns it.
     *
     * @param path the file, relative to the prefix
     * @param text what the line holds
     * @return the line
     */
    String awaitLine(String path, String text) {
        long deadline = System.nanoTime() + LOG_WAIT_MS * 1_000_000;
        for (;;) {
            for (String line : site.read(path).split("\n")) {
                if (line.contains(text)) {
                    return line;
                }
            }
            if (System.nanoTime() > deadline) {
                return fail("no line with \"" + text + "\" in " + path + ":\n" + site.read(path));
            }
            sleep(20);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stops the server (its loop thread ends, the modules exit, the listening sockets close) and closes the log.
     *
     * @throws Exception when interrupted
     */
    /**
     * Returns the id of the thread that runs the loop, asked on that thread.
     *
     * @return the thread's id
     * @throws Exception when the loop does not answer within 5 s
     */
    long loopThreadId() throws Exception {
        java.util.concurrent.CompletableFuture<Long> id = new java.util.concurrent.CompletableFuture<>();
        process.loop().notify(() -> id.complete(Thread.currentThread().getId()));
        return id.get(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        try {
            process.stop(10_000);
        } finally {
            cycle.log().close();
        }
    }
}
