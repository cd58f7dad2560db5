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
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;

/**
 * A request without a connection for the variable and log tests: every {@link RequestFacts} value is a field to
 * set, variables are evaluated through a {@link Variables} registry with a per-request cache, and the error log
 * writes into {@link #errors()}.
 */
public final class FakeRequest extends HttpRequest implements RequestFacts {

    private final Variables vars;
    private final String[] cache;
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final ErrorLog log;
    private final Map<Integer, Object> locConfs = new HashMap<>();

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
        this.vars = vars;
        this.cache = vars.newCache();
        try {
            this.log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.DEBUG)),
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
        return vars.evaluate(this, index, cache);
    }

    @Override
    public String remoteAddr() {
        return remoteAddr;
    }

    @Override
    public int remotePort() {
        return remotePort;
    }

    @Override
    public String serverAddr() {
        return serverAddr;
    }

    @Override
    public int serverPort() {
        return serverPort;
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
        return null;
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
        return null;
    }

    @Override
    public Object locConf(int ctxIndex) {
        return locConfs.get(ctxIndex);
    }

    @Override
    public Object ctx(int ctxIndex) {
        return null;
    }

    @Override
    public void ctx(int ctxIndex, Object state) {
        throw new UnsupportedOperationException();
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
