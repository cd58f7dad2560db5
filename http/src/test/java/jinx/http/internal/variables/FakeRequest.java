package jinx.http.internal.variables;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.filter.WriteFilterModule;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.SocketIo;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.StubEventActions;

/**
 * The HTTP tests' request outside the engine. {@link #FakeRequest(Variables)}: without a connection, for the
 * variable and log tests: every {@link RequestFacts} value is a field to set, variables are evaluated through a
 * {@link Variables} registry with a per-request cache. {@link #onSocketPair()}: for the filters' tests, a GET on a
 * connection over one end of a non-blocking unix socket pair (the test reads the other, {@link #peerRead()}), in a
 * loop over a method that registers nothing, with the core confs at nginx's defaults (the filters' tests add the
 * write filter, {@link #writer}, whose state goes in ctx {@link #WRITE_CTX}). Either way the error log writes
 * into {@link #errors()}; {@link #close()} releases what was opened.
 */
public final class FakeRequest extends HttpRequest implements RequestFacts, AutoCloseable {

    /** The epoll method's flags, which the loop of a request on a socket pair reports. */
    public static final int EPOLL = EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
                                    | EventActions.USE_EPOLL_EVENT;
    /** The write filter's ctx index in a request on a socket pair. */
    public static final int WRITE_CTX = 3;

    private final Variables vars;
    private final String[] cache;
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ErrorLog log;
    private final Map<Integer, Object> locConfs = new HashMap<>();
    private final Object[] ctx = new Object[8];

    /** {@link #connection()}: null, or one end of the socket pair. */
    public Connection c;
    /** The socket pair's other end, which the test reads; -1 without one. */
    public int peer = -1;
    /** The core module's location conf (nginx's defaults) on a socket pair, else null. */
    public HttpCoreLocConf clcf;
    /** The core module's server conf on a socket pair, else null. */
    public HttpCoreSrvConf cscf;
    /** The write filter, with its state in ctx {@link #WRITE_CTX}, which the filters' tests set; else null. */
    public WriteFilterModule writer;

    /** {@link RequestFacts#remoteAddr()}. */
    public String remoteAddr = "192.0.2.7";
    /** {@link RequestFacts#remotePort()}. */
    public int remotePort = 50123;
    /** {@link RequestFacts#serverAddr()}. */
    public String serverAddr = "127.0.0.1";
    /** {@link RequestFacts#serverPort()}. */
    public int serverPort = 8080;
    /** {@link RequestFacts#serverName()}. */
    public String serverName = "example.org";
    /** {@link RequestFacts#wallMillis()}. */
    public long wallMillis = 1_700_000_000_123L;
    /** {@link RequestFacts#bytesSent()}. */
    public long bytesSent = 850;
    /** {@link RequestFacts#bodyBytesSent()}. */
    public long bodyBytesSent = 612;
    /** {@link RequestFacts#connectionNumber()}. */
    public long connectionNumber = 3;
    /** {@link RequestFacts#connectionRequests()}. */
    public int connectionRequests = 2;
    /** {@link RequestFacts#requestBody()}. */
    public String requestBody;
    /** {@link RequestFacts#errStatus()}. */
    public int errStatus;
    /** {@link RequestFacts#limitRate()}. */
    public long limitRate;
    /** {@link RequestFacts#ssl()}. */
    public boolean ssl;
    /** {@link RequestFacts#pipelined()}. */
    public boolean pipelined;
    /** {@link RequestFacts#keepaliveHeader()}. */
    public long keepaliveHeader;
    /** {@link RequestFacts#capture(int)}: index 0 is the whole match. */
    public List<String> captures = List.of();
    /** {@link #documentRoot()}. */
    public String documentRoot = "/srv/www";
    /** {@link #mapUriToPath()}; null maps to {@link #documentRoot} + {@link #uri}. */
    public String mappedPath;
    /** {@link #loop()}. */
    public EventLoop loop;

    /**
     * A GET of {@code /index.html?a=1&b=two} over HTTP/1.1, started 1.5 s before {@link #wallMillis}.
     *
     * @param vars the registry variables are evaluated with
     */
    public FakeRequest(Variables vars) {
        this(vars, LogLevel.DEBUG);
    }

    private FakeRequest(Variables vars, LogLevel level) {
        this.vars = vars;
        this.cache = vars == null ? null : vars.newCache();
        try {
            this.log = ErrorLog.open(List.of(new ErrorLog.Target(null, level)),
                new PrintStream(errors, true, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        method = GET;
        methodName = "GET";
        httpVersion = VERSION_11;
        httpProtocol = "HTTP/1.1";
        requestLine = "GET /index.html?a=1&b=two HTTP/1.1";
        unparsedUri = "/index.html?a=1&b=two";
        uri = "/index.html";
        args = "a=1&b=two";
        exten = "html";
        startMsec = wallMillis - 1500;
        requestLength = 120;
    }

    /**
     * A GET over HTTP/1.1 with keep-alive and status 200, on a connection over a socket pair (connection number
     * 5, ready both ways), the error log at {@code info}, variables all unset.
     *
     * @return the request; {@link #close()} it
     * @throws IOException when the socket pair cannot be made
     */
    public static FakeRequest onSocketPair() throws IOException {
        FakeRequest r = new FakeRequest(null, LogLevel.INFO);
        r.requestLine = null;
        r.unparsedUri = null;
        r.uri = null;
        r.args = null;
        r.exten = null;
        r.requestLength = 0;
        r.loop = new EventLoop(null, new StubEventActions(EPOLL, true), 4, 0, EventLoop.AcceptSettings.SINGLE,
            r.log);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
            Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        r.c = r.loop.getConnection(sv[0], r.log);
        r.c.number = 5;
        r.c.write.ready = true;
        r.c.read.ready = true;
        r.c.write.handler = ev -> { };
        r.c.read.handler = ev -> { };
        r.peer = sv[1];
        r.keepalive = true;
        r.startMsec = r.loop.wallMillis();
        r.headersOut.status = 200;
        r.cscf = new HttpCoreSrvConf();
        r.cscf.serverName = "localhost";
        r.clcf = defaults(new HttpCoreLocConf());
        r.locConfs.put(CoreConfs.CORE, r.clcf);
        return r;
    }

    /** nginx's defaults for the fields of the core location conf that the filters and the body engine read. */
    public static HttpCoreLocConf defaults(HttpCoreLocConf l) {
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
        l.clientBodyInSingleBuffer = 0;
        l.lingeringTimeout = 5_000;
        l.lingeringTime = 30_000;
        l.lingeringClose = HttpCoreLocConf.LINGERING_ON;
        return l;
    }

    /**
     * Everything the socket pair's other end can read now.
     *
     * @return the bytes, as ISO-8859-1 text
     * @throws NativeIoException when the read fails
     */
    public String peerRead() throws NativeIoException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(65536);
        long a = NativeMemory.address(b);
        byte[] chunk = new byte[65536];
        for (;;) {
            int n = Sockets.recv(peer, a, 65536);
            if (n <= 0) {
                return out.toString(StandardCharsets.ISO_8859_1);
            }
            NativeMemory.get(a, chunk, 0, n);
            out.write(chunk, 0, n);
        }
    }

    /** Closes the socket pair and its loop, if there are. */
    @Override
    public void close() {
        if (c == null) {
            return;
        }
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

    /**
     * Returns what the request's error log received.
     *
     * @return the lines
     */
    public String errors() {
        return errors.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Sets the conf a module's {@link #locConf(int)} returns.
     *
     * @param ctxIndex the module's index
     * @param conf the conf
     */
    public void locConf(int ctxIndex, Object conf) {
        locConfs.put(ctxIndex, conf);
    }

    @Override
    public String variable(int index) {
        return vars == null ? null : vars.evaluate(this, index, cache);
    }

    @Override
    public String remoteAddr() {
        return remoteAddr;
    }

    @Override
    public int remotePort() {
        return remotePort;
    }

    /** The field, or on a socket pair the connection's listening address, as a request of the engine reports it. */
    @Override
    public String serverAddr() {
        if (c == null) {
            return serverAddr;
        }
        if (c.listening == null) {
            return "";
        }
        SockAddr sa = c.listening.sockaddr();
        return sa.isUnix() ? "unix:" + sa.path() : sa.inetAddress().getHostAddress();
    }

    /** The field, or on a socket pair the connection's listening port (0 for none or a unix socket). */
    @Override
    public int serverPort() {
        if (c == null) {
            return serverPort;
        }
        return c.listening == null || c.listening.sockaddr().isUnix() ? 0 : c.listening.sockaddr().port();
    }

    @Override
    public String serverName() {
        return serverName;
    }

    @Override
    public long wallMillis() {
        return wallMillis;
    }

    @Override
    public long bytesSent() {
        return bytesSent;
    }

    @Override
    public long bodyBytesSent() {
        return bodyBytesSent;
    }

    @Override
    public long connectionNumber() {
        return connectionNumber;
    }

    @Override
    public int connectionRequests() {
        return connectionRequests;
    }

    @Override
    public String requestBody() {
        return requestBody;
    }

    @Override
    public int errStatus() {
        return errStatus;
    }

    @Override
    public long limitRate() {
        return limitRate;
    }

    @Override
    public boolean ssl() {
        return ssl;
    }

    @Override
    public boolean pipelined() {
        return pipelined;
    }

    @Override
    public long keepaliveHeader() {
        return keepaliveHeader;
    }

    @Override
    public String capture(int n) {
        return n < captures.size() ? captures.get(n) : null;
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
        return log;
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
        return locConfs.get(ctxIndex);
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
    public String documentRoot() {
        return documentRoot;
    }

    @Override
    public String mapUriToPath() {
        return mappedPath != null ? mappedPath : documentRoot == null ? null : documentRoot + uri;
    }
}
