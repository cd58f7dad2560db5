package jinx.http.internal.filter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.SocketIo;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * A request outside the engine for the filters' tests: a loop over a method that registers nothing, a connection
 * on one end of a non-blocking unix socket pair (the test reads the other end), the core confs with nginx's
 * defaults, and the log captured in memory. {@link #close()} releases all of it.
 */
final class TestRequest extends HttpRequest implements AutoCloseable {

    /** The epoll method's flags. */
    static final int EPOLL = EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
                             | EventActions.USE_EPOLL_EVENT;

    static final int WRITE_CTX = 3;

    final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    final ErrorLog errorLog;
    final EventLoop loop;
    final Connection c;
    final int peer;
    final HttpCoreLocConf clcf = defaults(new HttpCoreLocConf());
    final HttpCoreSrvConf cscf = new HttpCoreSrvConf();
    final WriteFilterModule writer = new WriteFilterModule(WRITE_CTX);
    private final Object[] ctx = new Object[8];

    TestRequest() throws IOException {
        errorLog = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                                 new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
        loop = new EventLoop(null, new StubActions(EPOLL), 4, 0, EventLoop.AcceptSettings.SINGLE, errorLog);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        c = loop.getConnection(sv[0], errorLog);
        c.number = 5;
        c.write.ready = true;
        c.read.ready = true;
        c.write.handler = ev -> { };
        c.read.handler = ev -> { };
        peer = sv[1];
        httpVersion = VERSION_11;
        httpProtocol = "HTTP/1.1";
        method = GET;
        methodName = "GET";
        keepalive = true;
        startMsec = loop.wallMillis();
        headersOut.status = 200;
        cscf.serverName = "localhost";
    }

    /** nginx's defaults for the fields the filters read. */
    static HttpCoreLocConf defaults(HttpCoreLocConf l) {
        l.serverTokens = HttpCoreLocConf.SERVER_TOKENS_ON;
        l.chunkedTransferEncoding = 1;
        l.keepaliveHeader = 0;
        l.keepaliveTimeout = 75_000;
        l.absoluteRedirect = 1;
        l.serverNameInRedirect = 0;
        l.portInRedirect = 1;
        l.postponeOutput = 1460;
        l.limitRate = 0;
        l.limitRateAfter = 0;
        l.sendfileMaxChunk = 2 * 1024 * 1024;
        l.sendTimeout = 60_000;
        l.tcpNopush = 0;
        l.sendfile = 0;
        l.clientMaxBodySize = 1024 * 1024;
        l.clientBodyBufferSize = 16 * 1024;
        l.clientBodyTimeout = 60_000;
        l.clientBodyInFileOnly = HttpCoreLocConf.BODY_FILE_OFF;
        l.lingeringTimeout = 5_000;
        l.lingeringTime = 30_000;
        return l;
    }

    String logText() {
        return logBytes.toString(StandardCharsets.ISO_8859_1);
    }

    /** Everything the peer can read now, as ISO-8859-1 text. */
    String peerRead() throws NativeIoException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(65536);
        long a = jinx.kernel.os.NativeMemory.address(b);
        byte[] chunk = new byte[65536];
        for (;;) {
            int n = Sockets.recv(peer, a, 65536);
            if (n <= 0) {
                return out.toString(StandardCharsets.ISO_8859_1);
            }
            jinx.kernel.os.NativeMemory.get(a, chunk, 0, n);
            out.write(chunk, 0, n);
        }
    }

    @Override
    public void close() {
        if (c.fd() != -1) {
            c.close();
        }
        try {
            Syscalls.close(peer);
        } catch (NativeIoException e) {
            // closed by the test
        }
        loop.done();
        SocketIo.release(loop);
    }

    @Override
    public Connection connection() {
        return c;
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    @Override
    public ErrorLog log() {
        return errorLog;
    }

    @Override
    public Object mainConf(int ctxIndex) {
        return null;
    }

    @Override
    public Object srvConf(int ctxIndex) {
        return ctxIndex == CoreConfs.CORE ? cscf : null;
    }

    @Override
    public Object locConf(int ctxIndex) {
        return ctxIndex == CoreConfs.CORE ? clcf : null;
    }

    @Override
    public Object ctx(int ctxIndex) {
        return ctx[ctxIndex];
    }

    @Override
    public void ctx(int ctxIndex, Object state) {
        ctx[ctxIndex] = state;
    }

    @Override
    public int sendHeader() {
        throw new UnsupportedOperationException();
    }

    @Override
    public int outputFilter(BufChain in) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void finalizeRequest(int rc) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int internalRedirect(String newUri, String newArgs) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int namedLocation(String name) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int discardRequestBody() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String variable(int index) {
        return null;
    }

    @Override
    public String documentRoot() {
        return null;
    }

    @Override
    public String mapUriToPath() {
        return null;
    }

    /** A method table that registers nothing. */
    static final class StubActions implements EventActions {
        private final int flags;

        StubActions(int flags) {
            this.flags = flags;
        }

        @Override
        public void init(EventLoop l) {
        }

        @Override
        public void done() {
        }

        @Override
        public void add(Event ev, int kind, int f) {
            ev.active = true;
        }

        @Override
        public void del(Event ev, int kind, int f) {
            ev.active = false;
        }

        @Override
        public void addConnection(Connection conn) {
        }

        @Override
        public void delConnection(Connection conn, int f) {
        }

        @Override
        public void notify(Runnable handler) {
        }

        @Override
        public void processEvents(long timer, int f) {
        }

        @Override
        public int flags() {
            return flags;
        }
    }
}
