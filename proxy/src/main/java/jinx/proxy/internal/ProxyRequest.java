package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;
import jinx.kernel.spi.EventActions;
import jinx.proxy.upstream.Upstream;

/**
 * One proxied request: nginx's {@code ngx_http_upstream_t} and the upstream's state machine of
 * {@code ngx_http_upstream.c} with the proxy module's callbacks. Connect through the balancer
 * ({@link EventConnect}), send the request line, header and body, read and parse the response header into a
 * buffer of {@code proxy_buffer_size}, pass it to the client, then relay the body ({@link ProxyRelay}). A failure
 * before the response header reached the client tries the next peer as {@code proxy_next_upstream} allows
 * ({@link #next}); after it, the client's connection is closed.
 *
 * <p>Everything runs on the loop's thread. The upstream connection's {@code data} is this object, so the lines
 * its I/O logs carry the request's context ({@code while reading response header from upstream, client: ...,
 * upstream: "http://127.0.0.1:8081/"}). The request's cleanup closes the upstream connection and returns the
 * buffers, however the request ends, so no event of the upstream reaches a request that was freed.
 */
final class ProxyRequest implements SocketIo.LogContext {

    private static final int CONNECTING = 0;
    private static final int SENDING = 1;
    private static final int READING_HEADER = 2;
    private static final int RELAYING = 3;
    private static final int DONE = 4;

    private static final int ETIMEDOUT = EventConnect.ETIMEDOUT;

    final HttpRequest r;
    final ProxyLocConf plcf;
    final EventLoop loop;
    final PeerConnection pc = new PeerConnection();
    /** The group: the location's, or for a name resolved per request one made from its addresses. */
    Upstream upstream;
    /** The lookup of {@link #pass}'s host while it runs ({@link ProxyResolve}), or null. */
    jinx.proxy.upstream.Resolution resolving;
    /** The {@code proxy_pass} URL: the location's, or the one its variables made for this request. */
    final ProxyPass pass;
    /** The URI sent, for the request line and logs. */
    final String uri;
    final ProxyVars vars = new ProxyVars();

    private int state = CONNECTING;
    private ByteBuffer header;
    /** The request on its way: the header and the body, buffered or streamed. */
    private ProxySend send;
    private boolean requestSent;
    private boolean peerHeld;
    private boolean finalized;
    /** The connection's TLS handshake is done and accepted ({@link ProxySsl}). */
    private boolean secured;
    /** The name the upstream's certificate must match ({@code u->ssl_name}). */
    String sslName;
    ByteBuffer buffer;
    /** The response's header as read. */
    final UpstreamHeader in = new UpstreamHeader();
    /** {@code proxy_buffering}, as the response's {@code X-Accel-Buffering} may change it. */
    boolean buffering;
    private long tryStart;
    boolean headerSentToClient;
    ProxyRelay relay;
    private ProxyTunnel tunnel;

    /** The client connection and its number: the request object is reused once freed. */
    private final Connection client;
    private final long clientNumber;

    ProxyRequest(HttpRequest r, ProxyLocConf plcf, ProxyPass pass, Upstream upstream) {
        this.r = r;
        this.client = r.connection();
        this.clientNumber = client.number;
        this.plcf = plcf;
        this.loop = r.loop();
        this.pass = pass;
        this.upstream = upstream;
        this.uri = ProxyRequestHeader.uri(r, pass, plcf.passValue != null);
    }

    /** The content handler's part: read the body, then start. */
    int handle() {
        if (ProxySend.streams(r, plcf)) {
            r.requestBodyNoBuffering(true);
        }
        int rc = r.readClientRequestBody(this::init);
        if (rc >= 300) {
            return rc;
        }
        return Rc.DONE;
    }

    /** nginx's {@code ngx_http_upstream_init_request()}, once the body is read. */
    private void init() {
        r.addCleanup(this::cleanup);
        // nginx's $proxy_internal_body_length: the client's length (a chunked body's once read), sent even with
        // proxy_pass_request_body off, which is why nginx's docs pair that with proxy_set_header Content-Length ""
        // a body that came whole with the header is sent as a buffered one, as nginx clears no_buffering then
        send = new ProxySend(r, plcf, r.readingBody());
        long bodyLength = r.headersIn.contentLengthN;
        BufChain body = r.requestBodyBufs();
        if (r.headersIn.chunked) {
            // a streamed chunked body goes on chunked, with no length
            bodyLength = send.unbuffered ? -1 : body != null ? body.size() : 0;
        }
        // proxy_set_body: its value is the body sent, and its length the length
        String setBody = plcf.body != null ? plcf.body.evaluate(r) : null;
        if (setBody != null) {
            bodyLength = setBody.length();
        }
        header = ProxyRequestHeader.create(r, plcf, this, bodyLength, setBody);
        ProxyBind.apply(r, plcf, pc);
        pc.log = r.connection().log;
        // nginx's pc->log = c->log: the upstream connection's lines carry the client's *N and the request's context
        pc.number = clientNumber;
        pc.logContext = this;
        pc.soKeepalive = plcf.socketKeepalive == 1;
        r.readEventHandler(send.unbuffered && r.readingBody() ? this::clientBody : this::checkBroken);
        r.writeEventHandler(null);
        if (upstream == null) {
            ProxyResolve.start(this);
            return;
        }
        begin();
    }

    /** The balancer over the group, then the first try (nginx's {@code ngx_http_upstream_connect()}). */
    void begin() {
        upstream.start(loop, pc, hashKey());
        if (plcf.nextUpstreamTries > 0 && pc.tries > plcf.nextUpstreamTries) {
            pc.tries = plcf.nextUpstreamTries;
        }
        pc.start = loop.wallMillis();
        connect();
    }

    /** The bytes a hash balancer hashes: the key evaluated, or the client's address for ip_hash. */
    private byte[] hashKey() {
        switch (upstream.method) {
            case HASH, HASH_CONSISTENT -> {
                String k = ((ComplexValue) upstream.hashKey).evaluate(r);
                return k == null ? new byte[0] : k.getBytes(StandardCharsets.ISO_8859_1);
            }
            case IP_HASH -> {
                return ProxyVariables.clientAddress(r);
            }
            default -> {
                return null;
            }
        }
    }

    /** nginx's {@code ngx_http_upstream_connect()}. */
    private void connect() {
        r.logAction("connecting to upstream");
        tryStart = loop.wallMillis();
        state = CONNECTING;
        requestSent = false;
        secured = false;
        in.reset();
        int rc = EventConnect.connectPeer(loop, pc);
        vars.addPeer(pc.name);
        // with no live peer the balancer names the group, as nginx's log does: upstream: "http://backend/x"
        r.logUpstream(pass.schema() + pc.name + uri);
        if (rc == Rc.BUSY) {
            r.log(LogLevel.ERROR, 0, "no live upstreams");
            next(ProxyLocConf.FT_NOLIVE);
            return;
        }
        if (rc == Rc.ERROR) {
            vars.noStatus();
            finish(500);
            return;
        }
        peerHeld = true;
        if (rc == Rc.DECLINED) {
            next(ProxyLocConf.FT_ERROR);
            return;
        }
        Connection c = pc.connection;
        c.data = this;
        c.read.handler = this::onUpstreamRead;
        c.write.handler = this::onUpstreamWrite;
        send.start(header);
        if (rc == Rc.AGAIN) {
            loop.addTimer(c.write, plcf.connectTimeout);
            return;
        }
        sendRequest();
    }

    /** nginx's {@code ngx_http_upstream_handler()}: the handler, then what it posted on the client's connection. */
    private void onUpstreamRead(Event ev) {
        upstreamRead(ev);
        runPosted();
    }

    private void onUpstreamWrite(Event ev) {
        upstreamWrite(ev);
        runPosted();
    }

    void runPosted() {
        if (client.number == clientNumber && client.fd() != -1) {
            r.runPostedRequests();
        }
    }

    private void upstreamWrite(Event ev) {
        if (finalized) {
            return;
        }
        if (ev.timedout) {
            next(ProxyLocConf.FT_TIMEOUT);
            return;
        }
        if (state == CONNECTING || state == SENDING) {
            sendRequest();
        }
    }

    private void upstreamRead(Event ev) {
        if (finalized) {
            return;
        }
        if (ev.timedout && ev.delayed && state == RELAYING) {
            relay.rateDelayOver();
            return;
        }
        if (ev.timedout) {
            if (state == RELAYING) {
                r.log(LogLevel.ERROR, ETIMEDOUT, "upstream timed out");
                finish(504);
            } else {
                next(ProxyLocConf.FT_TIMEOUT);
            }
            return;
        }
        switch (state) {
            case CONNECTING -> {
                if (!pc.cached && EventConnect.testConnect(pc.connection) != Rc.OK) {
                    next(ProxyLocConf.FT_ERROR);
                }
            }
            case READING_HEADER -> processHeader();
            case RELAYING -> relay.run();
            default -> {
            }
        }
    }

    /** nginx's {@code ngx_http_upstream_send_request()}. */
    private void sendRequest() {
        Connection c = pc.connection;
        if (state == CONNECTING) {
            if (!pc.cached && EventConnect.testConnect(c) != Rc.OK) {
                next(ProxyLocConf.FT_ERROR);
                return;
            }
            if (pass.ssl() && !pc.cached && !secured) {
                ProxySsl.start(this);
                return;
            }
            vars.connected(loop.wallMillis() - tryStart);
            state = SENDING;
            r.logAction("sending request to upstream");
        }
        long before = c.sent;
        int rc = send.send(c);
        vars.sent(c.sent - before);
        if (rc == Rc.ERROR) {
            next(ProxyLocConf.FT_ERROR);
            return;
        }
        if (rc >= 300) {
            finish(rc);
            return;
        }
        if (rc == ProxySend.UPSTREAM) {
            loop.addTimer(c.write, plcf.sendTimeout);
            if (loop.handleWriteEvent(c.write) != Rc.OK) {
                next(ProxyLocConf.FT_ERROR);
            }
            return;
        }
        loop.deleteTimer(c.write);
        if (rc == ProxySend.CLIENT) {
            // the client's next piece of the body (or its client_body_timeout) comes through clientBody
            return;
        }
        if (send.unbuffered) {
            r.readEventHandler(this::checkBroken);
        }
        requestSent = true;
        state = READING_HEADER;
        r.logAction("reading response header from upstream");
        if ((loop.methodFlags() & EventActions.USE_CLEAR_EVENT) == 0 && c.write.active) {
            loop.handleWriteEvent(c.write);
        }
        loop.addTimer(c.read, plcf.readTimeout);
        if (c.read.ready) {
            processHeader();
        } else if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
            next(ProxyLocConf.FT_ERROR);
        }
    }

    /** nginx's {@code ngx_http_upstream_process_header()} with the proxy's status and header parsers. */
    private void processHeader() {
        Connection c = pc.connection;
        if (buffer == null) {
            buffer = ProxyBuffers.get((int) plcf.bufferSize);
            buffer.limit(0);
        }
        for (;;) {
            int rc = parse();
            if (rc == Rc.OK) {
                break;
            }
            if (rc != Rc.AGAIN) {
                next(ProxyLocConf.FT_INVALID_HEADER);
                return;
            }
            if (buffer.limit() == buffer.capacity()) {
                r.log(LogLevel.ERROR, 0, "upstream sent too big header");
                next(ProxyLocConf.FT_INVALID_HEADER);
                return;
            }
            ByteBuffer in = buffer.duplicate().position(buffer.limit()).limit(buffer.capacity());
            int n = c.io().recv(c, in);
            if (n == Rc.AGAIN) {
                if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
                    next(ProxyLocConf.FT_ERROR);
                }
                return;
            }
            if (n == 0) {
                r.log(LogLevel.ERROR, 0, "upstream prematurely closed connection");
            }
            if (n <= 0) {
                next(ProxyLocConf.FT_ERROR);
                return;
            }
            vars.received(n);
            buffer.limit(buffer.limit() + n);
        }
        headerDone();
    }

    private int parse() {
        return in.parse(r, buffer);
    }

    /** The header is read: try the next peer for a status proxy_next_upstream names, else pass it on. */
    private void headerDone() {
        vars.header(loop.wallMillis() - tryStart, in.status);
        Upstream.responded(pc, in.status, (loop.wallMillis() - tryStart) * 1000);
        int ft = statusFailure(in.status);
        if (ft != 0 && pc.tries > 1 && (plcf.nextUpstream & ft) != 0 && withinTimeout()) {
            next(ft);
            return;
        }
        if (in.length == UpstreamHeader.INVALID_LENGTH) {
            r.log(LogLevel.ERROR, 0, "upstream sent invalid \"Content-Length\" header: \""
                + in.value("Content-Length") + "\"");
            next(ProxyLocConf.FT_INVALID_HEADER);
            return;
        }
        if (in.chunked) {
            // nginx: Transfer-Encoding wins, the length is ignored
            in.length = -1;
        }
        if (in.status >= 300 && interceptErrors()) {
            return;
        }
        String accel = ProxyAccel.redirectTarget(in, plcf);
        if (accel != null) {
            release(0);
            ProxyAccel.redirect(r, in, plcf, accel);
            return;
        }
        buffering = ProxyAccel.buffering(in, plcf);
        ProxyAccel.limitRate(r, in, plcf, buffering);
        state = RELAYING;
        r.logAction("reading upstream");
        ProxyResponse.copy(r, plcf, this, in.lines);
        if (in.http09) {
            r.httpVersion = HttpRequest.VERSION_9;
        }
        if (in.chunked) {
            r.headersOut.contentLengthN = -1;
        }
        boolean upgrade = in.status == 101 && r.headersIn.headers.get("Upgrade") != null;
        int rc = r.sendHeader();
        headerSentToClient = true;
        if (upgrade) {
            in.connectionClose = true;
            if (rc == Rc.ERROR || rc > Rc.OK) {
                finish(rc);
                return;
            }
            tunnel = new ProxyTunnel(this, buffer);
            tunnel.start();
            return;
        }
        relay = new ProxyRelay(this);
        r.writeEventHandler(req -> relay.clientWritable());
        if (rc == Rc.ERROR || rc > Rc.OK) {
            finish(rc);
            return;
        }
        relay.start();
    }

    /**
     * nginx's {@code ngx_http_upstream_intercept_errors()}: with {@code proxy_intercept_errors on} a status the
     * location has an {@code error_page} for is answered with that page instead of the upstream's body.
     */
    private boolean interceptErrors() {
        if (plcf.interceptErrors != 1 || !r.hasErrorPage(in.status)) {
            return false;
        }
        if (in.status == 401) {
            String auth = in.value("WWW-Authenticate");
            if (auth != null) {
                r.headersOut.headers.add("WWW-Authenticate", auth);
            }
        }
        finish(in.status);
        return true;
    }

    private static int statusFailure(int status) {
        return switch (status) {
            case 500 -> ProxyLocConf.FT_HTTP_500;
            case 502 -> ProxyLocConf.FT_HTTP_502;
            case 503 -> ProxyLocConf.FT_HTTP_503;
            case 504 -> ProxyLocConf.FT_HTTP_504;
            case 403 -> ProxyLocConf.FT_HTTP_403;
            case 404 -> ProxyLocConf.FT_HTTP_404;
            case 429 -> ProxyLocConf.FT_HTTP_429;
            default -> 0;
        };
    }

    private boolean withinTimeout() {
        return plcf.nextUpstreamTimeout == 0 || loop.wallMillis() - pc.start < plcf.nextUpstreamTimeout;
    }

    /** The TLS handshake is over and accepted: the request goes out on the secured connection. */
    void secured() {
        Connection c = pc.connection;
        c.read.handler = this::onUpstreamRead;
        c.write.handler = this::onUpstreamWrite;
        secured = true;
        sendRequest();
    }

    boolean isFinalized() {
        return finalized;
    }

    /** nginx's {@code ngx_http_upstream_next()}. */
    void next(int ft) {
        if (finalized) {
            return;
        }
        if (ft == ProxyLocConf.FT_TIMEOUT) {
            r.log(LogLevel.ERROR, ETIMEDOUT, "upstream timed out");
        }
        if (ft == ProxyLocConf.FT_NOLIVE) {
            vars.failed(502);
            finish(502);
            return;
        }
        boolean cachedError = pc.cached && ft == ProxyLocConf.FT_ERROR;
        int status = switch (ft) {
            case ProxyLocConf.FT_TIMEOUT, ProxyLocConf.FT_HTTP_504 -> 504;
            case ProxyLocConf.FT_HTTP_500 -> 500;
            case ProxyLocConf.FT_HTTP_503 -> 503;
            case ProxyLocConf.FT_HTTP_403 -> 403;
            case ProxyLocConf.FT_HTTP_404 -> 404;
            case ProxyLocConf.FT_HTTP_429 -> 429;
            default -> 502;
        };
        vars.failed(cachedError ? 0 : status);
        releasePeer(cachedError ? 0 : PeerConnection.FAILED);
        if (cachedError) {
            pc.tries++;
        }
        if (pc.tries == 0 || (plcf.nextUpstream & ft) == 0 || !withinTimeout() || send.bodyTaken
            || (requestSent && nonIdempotent() && (plcf.nextUpstream & ProxyLocConf.FT_NON_IDEMPOTENT) == 0)) {
            finish(status);
            return;
        }
        connect();
    }

    private boolean nonIdempotent() {
        int m = r.method;
        return m == HttpRequest.POST || m == HttpRequest.LOCK || m == HttpRequest.PATCH;
    }

    /** Gives the peer back to the balancer (or the keep-alive cache) and closes what the cache did not take. */
    void releasePeer(int peerState) {
        if (!peerHeld) {
            return;
        }
        peerHeld = false;
        pc.source.free(pc, peerState);
        Connection c = pc.connection;
        if (c != null) {
            pc.connection = null;
            c.close();
        }
    }

    /**
     * nginx's {@code ngx_http_upstream_finalize_request()}: the peer released, the request finalized (an error
     * after the header was sent closes the client's connection).
     *
     * @param rc the result
     */
    void finish(int rc) {
        if (finalized) {
            return;
        }
        release(relay != null && relay.keepalive() ? PeerConnection.KEEPALIVE : 0);
        if (headerSentToClient && rc != 408 && rc != 499 && (rc == Rc.ERROR || rc >= 300)) {
            rc = Rc.ERROR;
        }
        r.finalizeRequest(rc);
    }

    /**
     * nginx's {@code ngx_http_upstream_finalize_request()} up to finalizing the request, which its
     * {@code NGX_DECLINED} leaves to the caller: the peer released, the request's handlers no longer this one's.
     */
    private void release(int peerState) {
        finalized = true;
        ProxyResolve.cancel(this);
        state = DONE;
        vars.done(loop.wallMillis() - tryStart);
        releasePeer(peerState);
        r.logAction(null);
    }

    /** nginx's {@code ngx_http_upstream_read_request_handler()}: more of a streamed body, or its timeout. */
    private void clientBody(HttpRequest req) {
        if (finalized) {
            return;
        }
        if (state == SENDING) {
            sendRequest();
        } else if (req.connection().read.timedout) {
            req.connection().timedout = true;
            finish(408);
        }
    }

    /** nginx's {@code ngx_http_upstream_check_broken_connection()} for the client's read event. */
    private void checkBroken(HttpRequest req) {
        Connection c = req.connection();
        if (finalized) {
            return;
        }
        if (plcf.ignoreClientAbort == 1) {
            // proxy_ignore_client_abort: the upstream's answer is read to the end whatever the client does
            req.readEventHandler(null);
            return;
        }
        if (c.read.eof || c.read.pendingEof || c.read.error) {
            c.error = true;
            r.log(LogLevel.INFO, 0, "client prematurely closed connection");
            finish(499);
            return;
        }
        if ((loop.methodFlags() & EventActions.USE_CLEAR_EVENT) == 0) {
            req.readEventHandler(null);
        }
    }

    /** The request is freed: the lookup ended, the upstream connection closed, the buffers back in the pool. */
    private void cleanup() {
        finalized = true;
        ProxyResolve.cancel(this);
        releasePeer(0);
        if (header != null) {
            ProxyBuffers.put(header);
            header = null;
        }
        ProxyBuffers.put(in.parser);
        if (tunnel != null) {
            tunnel.release();
        }
        if (relay != null) {
            relay.release();
        } else if (buffer != null) {
            ProxyBuffers.put(buffer);
        }
        buffer = null;
    }

    /** A streamed chunked body goes on chunked: nginx's {@code $proxy_internal_chunked}. */
    boolean streamsChunked() {
        return send.unbuffered && r.headersIn.chunked;
    }

    /** A response header line's value by name, for {@code $upstream_http_*}; null when absent. */
    String headerValue(String name) {
        return in.value(name);
    }

    Connection upstreamConnection() {
        return pc.connection;
    }

    @Override
    public void appendLogContext(StringBuilder sb) {
        r.appendLogContext(sb);
    }
}
