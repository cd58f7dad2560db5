package jinx.http.internal.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.LocalConnection;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.Rc;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request bodies and the response filters through the whole engine: a cycle built from an inline configuration
 * with the built-in modules (epoll) and a test content module, requests sent over socketless connections, the
 * exact bytes of the responses compared.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class BodyEngineTest {

    private Path prefix;
    private KernelCycle cycle;
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final List<JinxModule> initialised = new ArrayList<>();
    private final Event tick = new Event();

    private void start(String http) throws Exception {
        prefix = Files.createTempDirectory("jinx-body");
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = prefix.resolve("conf/jinx.conf");
        Files.writeString(conf, "master_process off;\nerror_log stderr info;\n"
            + "events {\n    worker_connections 64;\n}\nhttp {\n    server {\n        listen 127.0.0.1:18080;\n"
            + "        server_name localhost;\n" + http + "\n    }\n}\n", StandardCharsets.ISO_8859_1);
        PrintStream err = new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(prefix, conf, null, "stderr", CycleOptions.Purpose.TEST,
            BodyEngineTest::modules, BuiltinOrder.NAMES, err, ErrorLog.early(err, null), null);
        cycle = CycleBuilder.build(options, null);
        for (LoadedModule m : cycle.modules()) {
            m.module().initProcess(cycle);
            initialised.add(m.module());
        }
        tick.handler = ev -> { };
    }

    private static List<JinxModule> modules() {
        List<JinxModule> list = new ArrayList<>(Main.discover());
        list.add(new BodyContentModule());
        return list;
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = initialised.size() - 1; i >= 0; i--) {
            initialised.get(i).exitProcess(cycle);
        }
        if (cycle != null) {
            cycle.log().close();
        }
        if (prefix != null) {
            try (Stream<Path> files = Files.walk(prefix)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private LocalConnection connect() throws IOException {
        return LocalConnection.open(cycle.eventLoop(), cycle.listening().get(0));
    }

    private boolean turnUntil(BooleanSupplier done) throws IOException {
        EventLoop loop = cycle.eventLoop();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            loop.addTimer(tick, 10);
            loop.processEventsAndTimers();
            loop.deleteTimer(tick);
        }
        return true;
    }

    /** Turns the loop {@code n} times, each waiting at most 10 ms. */
    private void turns(int n) throws IOException {
        EventLoop loop = cycle.eventLoop();
        for (int i = 0; i < n; i++) {
            loop.addTimer(tick, 10);
            loop.processEventsAndTimers();
            loop.deleteTimer(tick);
        }
    }

    /** Sends and turns the loop until {@code n} complete responses (or a close) came. */
    private String exchange(LocalConnection lc, String request, int n) throws IOException {
        lc.send(request);
        turnUntil(() -> {
            try {
                String got = lc.received();
                return count(got) >= n || lc.closedByServer();
            } catch (IOException e) {
                return true;
            }
        });
        return mask(lc.received());
    }

    /** Complete responses with a Content-Length or a chunked end. */
    private static int count(String s) {
        int n = 0;
        int at = 0;
        for (;;) {
            int head = s.indexOf("\r\n\r\n", at);
            if (head < 0 || !s.startsWith("HTTP/1.1 ", at)) {
                return n;
            }
            String h = s.substring(at, head);
            int len = 0;
            int cl = h.indexOf("Content-Length: ");
            if (cl >= 0) {
                len = Integer.parseInt(h.substring(cl + 16, h.indexOf('\r', cl)));
            } else if (h.contains("Transfer-Encoding: chunked")) {
                int end = s.indexOf("\r\n0\r\n\r\n", head);
                if (end < 0 && !s.startsWith("0\r\n\r\n", head + 4)) {
                    return n;
                }
                len = end < 0 ? 5 : end + 7 - head - 4;
            }
            if (s.length() < head + 4 + len) {
                return n;
            }
            at = head + 4 + len;
            if (!s.startsWith("HTTP/1.1 1", head - h.length())) {
                n++;
            }
        }
    }

    private static String mask(String s) {
        return s.replaceAll("Date: [^\r]*\r\n", "Date: X\r\n").replaceAll("Server: jinx/[^\r]*\r\n",
                                                                         "Server: jinx/V\r\n");
    }

    private String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nServer: jinx/V\r\nDate: X\r\nContent-Type: text/plain\r\n"
               + "Content-Length: " + body.length() + "\r\nConnection: keep-alive\r\n\r\n" + body;
    }

    @Test
    void contentLengthBody() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello", 1);
            assertEquals(ok("len=5 body=hello"), got);
        }
    }

    @Test
    void chunkedBodyInPieces() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            lc.send("POST /body HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwi");
            turns(3);
            lc.send("ki\r\n5\r\npedia\r");
            String got = exchange(lc, "\n0\r\n\r\n", 1);
            assertEquals(ok("len=9 body=wikipedia"), got);
        }
    }

    @Test
    void expectContinue() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            lc.send("POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
            assertTrue(turnUntil(() -> {
                try {
                    return lc.received().contains("\r\n\r\n");
                } catch (IOException e) {
                    return true;
                }
            }));
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", lc.received());
            String got = exchange(lc, "abc", 1);
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n" + ok("len=3 body=abc"), got);
        }
    }

    @Test
    void tooLargeChunkedBodyIs413AndCloses() throws Exception {
        start("location / { client_max_body_size 8; }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "POST /body HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                                      + "9\r\n123456789\r\n0\r\n\r\n", 1);
            assertTrue(got.startsWith("HTTP/1.1 413 Request Entity Too Large\r\nServer: jinx/V\r\nDate: X\r\n"
                                      + "Content-Type: text/html\r\nContent-Length: "), got);
            assertTrue(got.contains("\r\nConnection: close\r\n"), got);
            assertTrue(log().contains("[error] "), log());
            assertTrue(log().contains("client intended to send too large chunked body: 0+9 bytes"), log());
        }
    }

    @Test
    void tooLargeContentLengthIs413() throws Exception {
        start("location / { client_max_body_size 8; }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9\r\n\r\n"
                                      + "123456789", 1);
            assertTrue(got.startsWith("HTTP/1.1 413 Request Entity Too Large\r\n"), got);
            assertTrue(log().contains("client intended to send too large body: 9 bytes"), log());
        }
    }

    @Test
    void discardedBodiesKeepTheConnectionForPipelinedRequests() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "POST /discard HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nxxxx"
                                      + "POST /discard HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                                      + "2\r\nyy\r\n0\r\n\r\n"
                                      + "GET /discard HTTP/1.1\r\nHost: localhost\r\n\r\n", 3);
            assertEquals(ok("discarded") + ok("discarded") + ok("discarded"), got);
        }
    }

    @Test
    void theRestOfADiscardedBodyArrivingLaterKeepsTheConnection() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "POST /discard HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n01234", 1);
            assertEquals(ok("discarded"), got);
            turns(1);
            got = exchange(lc, "567890123456789GET /discard HTTP/1.1\r\nHost: localhost\r\n\r\n", 2);
            assertEquals(ok("discarded") + ok("discarded"), got, log());
        }
    }

    @Test
    void aLargeBodyGoesToATemporaryFile() throws Exception {
        start("location / { client_body_buffer_size 1k; client_body_temp_path body 1 2; }");
        String body = "0123456789".repeat(10_000);
        try (LocalConnection lc = connect()) {
            lc.send("POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n");
            for (int off = 0; off < body.length(); off += 8192) {
                lc.send(body.substring(off, Math.min(body.length(), off + 8192)));
                turns(3);
            }
            String got = exchange(lc, "", 1);
            assertEquals(ok("len=100000 body=FILE " + body.hashCode()), got);
            assertTrue(log().contains("[warn] "), log());
            assertTrue(log().contains("a client request body is buffered to a temporary file " + prefix
                                      + "/body/"), log());
        }
    }

    @Test
    void aResponseOfUnknownLengthIsChunked() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "GET /chunked HTTP/1.1\r\nHost: localhost\r\n\r\n", 1);
            assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/V\r\nDate: X\r\nContent-Type: text/plain\r\n"
                         + "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"
                         + "6\r\nfirst \r\n6\r\nsecond\r\n0\r\n\r\n", got);
        }
    }

    @Test
    void aResponseOfUnknownLengthToHttp10Closes() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            String got = exchange(lc, "GET /chunked HTTP/1.0\r\n\r\n", 1);
            turnUntil(() -> {
                try {
                    return lc.closedByServer();
                } catch (IOException e) {
                    return true;
                }
            });
            assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/V\r\nDate: X\r\nContent-Type: text/plain\r\n"
                         + "Connection: close\r\n\r\nfirst second", mask(lc.received()));
            assertFalse(got.contains("Transfer-Encoding"));
        }
    }

    @Test
    void headOfAnUnknownLengthHasNoBody() throws Exception {
        start("location / { }");
        try (LocalConnection lc = connect()) {
            lc.send("HEAD /chunked HTTP/1.1\r\nHost: localhost\r\n\r\n");
            turnUntil(() -> {
                try {
                    return lc.received().contains("\r\n\r\n");
                } catch (IOException e) {
                    return true;
                }
            });
            assertEquals("HTTP/1.1 200 OK\r\nServer: jinx/V\r\nDate: X\r\nContent-Type: text/plain\r\n"
                         + "Connection: keep-alive\r\n\r\n", mask(lc.received()));
        }
    }

    /** {@code /body} reads the body and answers its length and text; {@code /discard} drops it. */
    static final class BodyContentModule implements JinxModule, HttpModule {

        @Override
        public String name() {
            return "http_test_body";
        }

        @Override
        public ModuleType type() {
            return HttpCtx.HTTP;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.CURRENT;
        }

        @Override
        public List<String> after() {
            return List.of("http_core");
        }

        /** Before the standard content modules: http_static answers 404 itself, as nginx's does, and never declines. */
        @Override
        public List<String> before() {
            return List.of("http_rewrite");
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public void postconfiguration(HttpConfig cf) throws ConfException {
            cf.addPhaseHandler(Phase.CONTENT, BodyContentModule::handle);
        }

        static int handle(HttpRequest r) {
            CoreRequest cr = (CoreRequest) r;
            if (r.uri.equals("/body")) {
                int rc = HttpRequestBody.readClientRequestBody(cr, () -> r.finalizeRequest(respond(r, bodyText(cr))));
                return rc >= 300 ? rc : Rc.DONE;
            }
            if (r.uri.equals("/discard")) {
                int rc = r.discardRequestBody();
                return rc != Rc.OK ? rc : respond(r, "discarded");
            }
            if (r.uri.equals("/chunked")) {
                r.discardRequestBody();
                r.headersOut.status = 200;
                r.headersOut.contentType = "text/plain";
                int rc = r.sendHeader();
                if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
                    return rc;
                }
                Buf first = mem("first ");
                first.flush = true;
                r.outputFilter(BufChain.of(first));
                Buf second = mem("second");
                second.last = true;
                return r.outputFilter(BufChain.of(second));
            }
            return Rc.DECLINED;
        }

        private static String bodyText(CoreRequest r) {
            RequestBody rb = HttpRequestBody.of(r);
            if (rb == null) {
                return "none";
            }
            if (rb.inFile()) {
                try {
                    String s = Files.readString(Path.of("/proc/self/fd/" + rb.bufs().buf.fileFd),
                                                StandardCharsets.ISO_8859_1);
                    return "len=" + rb.size() + " body=FILE " + s.hashCode();
                } catch (IOException e) {
                    return "unreadable " + e;
                }
            }
            return "len=" + rb.size() + " body=" + rb.text();
        }

        static int respond(HttpRequest r, String body) {
            r.headersOut.status = 200;
            r.headersOut.contentType = "text/plain";
            r.headersOut.contentLengthN = body.length();
            int rc = r.sendHeader();
            if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
                return rc;
            }
            Buf b = mem(body);
            b.last = true;
            b.lastInChain = true;
            return r.outputFilter(BufChain.of(b));
        }

        private static Buf mem(String s) {
            ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, s.length()));
            b.put(s.getBytes(StandardCharsets.ISO_8859_1)).flip();
            return Buf.of(b);
        }
    }
}
