package jinx.http.internal.io;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.HttpConnection;
import jinx.http.internal.request.LocalConnection;
import jinx.kernel.Connection;
import jinx.kernel.EventLoop;
import jinx.kernel.MemoryConnection;
import jinx.kernel.os.NativeIoException;

/**
 * The body tests' request: the engine's ({@link EngineFixture#socketless}, the server's confs at nginx's defaults)
 * on an in-memory connection the engine accepted ({@link EngineFixture#connect}), with a request made as the engine
 * makes one (its constructor, reached by reflection) in place of the one the header would start: {@code POST
 * /upload HTTP/1.1}, whose body headers the test sets. The test plays the client on the connection's other end and
 * calls the request's read handler itself, as the loop would when the posted read event runs.
 */
final class BodyFixture implements AutoCloseable {

    final EngineFixture engine;
    final EventLoop loop;
    final LocalConnection client;
    final Connection c;
    final HttpConnection hc;
    final CoreRequest r;
    final HttpCoreLocConf clcf;
    final MemoryConnection peer;
    int posted;

    BodyFixture() throws Exception {
        engine = EngineFixture.socketless("server {\n    listen 127.0.0.1:80;\n    server_name localhost;\n}");
        loop = engine.loop();
        client = engine.connect();
        peer = client.memory();
        c = client.server();
        hc = (HttpConnection) c.data;
        // the engine waits for the request's header: the test's request takes its place, in its phases (which
        // the log's context shows as no action, as the engine's PhaseRunner leaves it)
        if (c.read.timerSet()) {
            loop.deleteTimer(c.read);
        }
        hc.action(null);
        Constructor<CoreRequest> rNew = CoreRequest.class.getDeclaredConstructor(HttpConnection.class);
        rNew.setAccessible(true);
        r = rNew.newInstance(hc);
        Field request = HttpConnection.class.getDeclaredField("request");
        request.setAccessible(true);
        request.set(hc, r);
        clcf = r.clcf();
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
        return engine.log();
    }

    void runCleanups() throws Exception {
        Method m = CoreRequest.class.getDeclaredMethod("runCleanups");
        m.setAccessible(true);
        m.invoke(r);
    }

    @Override
    public void close() throws Exception {
        try {
            runCleanups();
            client.close();
        } finally {
            engine.close();
        }
    }
}
