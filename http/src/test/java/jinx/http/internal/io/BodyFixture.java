package jinx.http.internal.io;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpConfCtx;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreMainConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.MemoryConnection;
import jinx.kernel.SocketIo;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.StubEventActions;

/**
 * An engine request over an in-memory connection ({@link MemoryConnection}) for the body tests: the loop runs a
 * method that registers nothing, the request is made as the engine makes it (its constructors are the engine's,
 * reached by reflection), with nginx's defaults in the core confs; the test plays the client on the connection's
 * other end and calls the request's read handler itself, as the loop would when the posted read event runs.
 */
final class BodyFixture implements AutoCloseable {

    static final int EPOLL = EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
                             | EventActions.USE_EPOLL_EVENT;

    final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    final ErrorLog log;
    final EventLoop loop;
    final Connection c;
    final HttpConnection hc;
    final CoreRequest r;
    final HttpCoreLocConf clcf = new HttpCoreLocConf();
    final HttpCoreSrvConf cscf = new HttpCoreSrvConf();
    final MemoryConnection peer;
    int posted;

    BodyFixture() throws Exception {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.DEBUG)),
                            new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
        loop = new EventLoop(null, new StubEventActions(EPOLL, true), 4, 0, EventLoop.AcceptSettings.SINGLE, log);
        peer = MemoryConnection.open(loop, log);
        c = peer.connection();
        c.number = 9;
        c.addrText("unix:");
        FakeRequest.defaults(clcf);
        cscf.serverName = "localhost";

        Constructor<HttpConnection> hcNew = HttpConnection.class.getDeclaredConstructor(Connection.class,
                                                                                       BufferPool.class);
        hcNew.setAccessible(true);
        hc = hcNew.newInstance(c, BufferPool.current());
        c.data = hc;
        Method confs = HttpConnection.class.getDeclaredMethod("confs", HttpConfCtx.class);
        confs.setAccessible(true);
        confs.invoke(hc, new HttpConfCtx(new Object[] {new HttpCoreMainConf()}, new Object[] {cscf},
                                         new Object[] {clcf}));
        Constructor<CoreRequest> rNew = CoreRequest.class.getDeclaredConstructor(HttpConnection.class);
        rNew.setAccessible(true);
        r = rNew.newInstance(hc);
        Field request = HttpConnection.class.getDeclaredField("request");
        request.setAccessible(true);
        request.set(hc, r);
        r.httpVersion = HttpRequest.VERSION_11;
        r.httpProtocol = "HTTP/1.1";
        r.method = HttpRequest.POST;
        r.methodName = "POST";
        r.requestLine = "POST /upload HTTP/1.1";
        r.headerIn = ByteBuffer.allocateDirect(1024).limit(0);
        c.read.ready = true;
        c.read.available = -1;
        c.write.ready = true;
    }

    /** A {@code Content-Length} body. */
    void contentLength(long n) {
        r.headersIn.contentLength = r.headersIn.headers.add("Content-Length", Long.toString(n));
        r.headersIn.contentLengthN = n;
    }

    /** A chunked body. */
    void chunked() {
        r.headersIn.transferEncoding = r.headersIn.headers.add("Transfer-Encoding", "chunked");
        r.headersIn.chunked = true;
    }

    void expect(String value) {
        HttpHeaders.Entry e = r.headersIn.headers.add("Expect", value);
        r.headersIn.expect = e;
    }

    /** Bytes read with the header: what follows it in the header buffer. */
    void preread(String s) {
        ByteBuffer b = r.headerIn;
        b.clear();
        b.put("POST /upload HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        int pos = b.position();
        b.put(s.getBytes(StandardCharsets.ISO_8859_1));
        b.limit(b.position()).position(pos);
    }

    /** The client sends, and the loop would report the connection readable. */
    void send(String s) throws NativeIoException {
        peer.write(s.getBytes(StandardCharsets.ISO_8859_1));
        readable();
    }

    void readable() {
        c.read.ready = true;
        c.read.available = -1;
    }

    /** The read event as the loop delivers it. */
    void readEvent() {
        r.readEventHandler.handle(r);
    }

    /** Everything the client can read now. */
    String clientRead() {
        return new String(peer.read(), StandardCharsets.ISO_8859_1);
    }

    /** How many of the client's bytes the server left unread. */
    int unreadByServer() {
        return peer.unread();
    }

    /** The client goes away. */
    void closeClient() {
        peer.close();
    }

    Runnable postHandler() {
        return () -> posted++;
    }

    String logText() {
        return logBytes.toString(StandardCharsets.ISO_8859_1);
    }

    void runCleanups() throws Exception {
        Method m = CoreRequest.class.getDeclaredMethod("runCleanups");
        m.setAccessible(true);
        m.invoke(r);
    }

    @Override
    public void close() throws Exception {
        runCleanups();
        if (c.fd() != -1) {
            c.close();
        }
        loop.done();
        SocketIo.release(loop);
    }
}
