package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

import jinx.http.internal.core.HttpConfCtx;
import jinx.http.internal.core.AddrConf;
import jinx.http.ClientConnection;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.Servers;
import jinx.http.spi.HttpConfKey;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.SocketIo;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;

/**
 * An HTTP client connection: nginx's {@code ngx_http_connection_t} together with the parts of
 * {@code ngx_connection_t} and of its log context ({@code ngx_http_log_ctx_t}, {@code log->action}) that HTTP
 * keeps. {@link Connection#data} holds this object for the connection's whole life; {@link #request()} is the
 * request being served, or null between requests.
 *
 * <p>Buffers: {@link #buffer} is nginx's {@code c->buffer} ({@code client_header_buffer_size}); the large header
 * buffers ({@code large_client_header_buffers}) are {@link #busy} (taken by the current request, the newest first)
 * and {@link #free}. They come from the loop's {@link BufferPool} and go back to it when the connection goes idle
 * or closes.
 *
 * <p>I/O goes through the connection's {@link Connection#io()} (nginx's {@code c->recv}, {@code c->send},
 * {@code c->send_chain}): a socket's, or an in-memory connection's for the socketless path. A connection without a
 * descriptor is treated as nginx treats a UNIX-domain one: no {@code TCP_NODELAY}, no {@code TCP_CORK}. As its log
 * context ({@link SocketIo.LogContext}) it adds nginx's HTTP context to the lines the I/O logs.
 */
public final class HttpConnection implements SocketIo.LogContext, ClientConnection {

    /** {@link #tcpNodelay}: not set yet. */
    static final int TCP_NODELAY_UNSET = 0;
    /** {@link #tcpNodelay}: set. */
    static final int TCP_NODELAY_SET = 1;
    /** {@link #tcpNodelay}: never (a UNIX-domain socket). */
    static final int TCP_NODELAY_DISABLED = 2;

    Connection c;
    EventLoop loop;
    ConnectionIo io;
    final BufferPool pool;

    /** The default server's confs for the address the connection came to (nginx's {@code hc->conf_ctx}). */
    HttpConfCtx confCtx;
    /** The servers of that address, for the virtual server lookup (nginx's {@code hc->addr_conf}). */
    AddrConf addrConf;
    /** {@code http_core}'s index in the block's module conf arrays. */
    int coreIndex;

    /** nginx's {@code c->buffer}, null while the connection holds no memory. */
    ByteBuffer buffer;
    /** The size {@link #buffer} has (or had), nginx's {@code b->end - b->start}. */
    int bufferSize;
    /** Large header buffers the current request took, newest first (nginx's {@code hc->busy}). */
    final ArrayDeque<ByteBuffer> busy = new ArrayDeque<>(4);
    /** Large header buffers free for the next request (nginx's {@code hc->free}). */
    final ArrayDeque<ByteBuffer> free = new ArrayDeque<>(4);

    CoreRequest request;
    /** The request whose output may go out now, when a subrequest (nginx's {@code c->data}); null: {@link #request}. */
    CoreRequest active;
    /** What the connection is doing, for the error log ({@code log->action}), or null. */
    String action;
    /** When the connection was accepted, in the loop's ms ({@code c->start_time}, for {@code keepalive_time}). */
    int startMsec;

    /**
     * Returns when the connection was accepted, in the loop's wrapping ms: for {@code $connection_time}.
     *
     * @return the time
     */
    public int startMsec() {
        return startMsec;
    }
    /** The connection served a pipelined request ({@code c->pipeline}). */
    boolean pipeline;
    /** Data the connection's output holds back (nginx's {@code c->buffered}), set by the write filter. */
    public int buffered;
    /** {@code TCP_NODELAY}'s state (nginx's {@code c->tcp_nodelay}). */
    int tcpNodelay;
    /** {@code TCP_CORK}'s state (nginx's {@code c->tcp_nopush}), kept by the write side; 0 unset. */
    public int tcpNopush;
    /** Files may be sent with sendfile (nginx's {@code c->sendfile}), set from the location. */
    public boolean sendfile;

    private SockAddr local;
    private String remoteAddr;
    /** The client's address set by {@code realip} for the request (nginx changes {@code c->addr_text}), or null. */
    private String realAddr;
    private int realPort;
    /** The address's connections must be secured by its takeover ({@code listen ... ssl}: nginx's {@code hc->ssl}). */
    boolean secureRequired;
    /** The takeover secured the connection ({@code c->ssl}): {@code $https}, {@code $scheme}. */
    boolean secure;
    /** Kept by the pool for the next accept ({@link BufferPool#recycle(HttpConnection)}): closed twice, kept once. */
    boolean pooled;

    HttpConnection(Connection c, BufferPool pool) {
        this.pool = pool;
        attach(c);
    }

    /**
     * Makes this object the HTTP state of a new connection: every field as a new one has it. The loop's
     * {@link BufferPool} keeps closed connections' objects for this, so that accepting allocates nothing.
     *
     * @param c the accepted connection
     * @return this
     */
    HttpConnection attach(Connection c) {
        this.c = c;
        pooled = false;
        this.loop = c.loop();
        this.io = c.io();
        this.startMsec = loop.currentMsec();
        confCtx = null;
        addrConf = null;
        coreIndex = 0;
        buffer = null;
        bufferSize = 0;
        request = null;
        active = null;
        action = null;
        pipeline = false;
        buffered = 0;
        sendfile = false;
        local = null;
        remoteAddr = null;
        realAddr = null;
        secureRequired = false;
        secure = false;
        // nginx's ngx_event_accept() disables both for a UNIX-domain socket; a connection without a socket has
        // neither option either
        boolean tcp = c.hasDescriptor() && !c.unixPeer();
        tcpNodelay = tcp ? TCP_NODELAY_UNSET : TCP_NODELAY_DISABLED;
        tcpNopush = c.hasDescriptor() ? 0 : PhaseRunner.TCP_NOPUSH_DISABLED;
        return this;
    }

    /**
     * Returns the HTTP state of a connection accepted by HTTP.
     *
     * @param c the connection
     * @return its HTTP state
     */
    public static HttpConnection of(Connection c) {
        return (HttpConnection) c.data;
    }

    /**
     * Returns the kernel connection.
     *
     * @return the connection
     */
    public Connection connection() {
        return c;
    }

    /**
     * Returns the request being served, or null between requests.
     *
     * @return the request
     */
    public CoreRequest request() {
        return request;
    }

    /**
     * Returns the request whose events these are and whose output may go out now (nginx's {@code c->data}): the
     * request being served, or one of its subrequests.
     *
     * @return the request, or null between requests
     */
    public CoreRequest active() {
        return active != null ? active : request;
    }

    /**
     * Makes {@code r} the active request (nginx's {@code c->data = r}), for the postpone filter.
     *
     * @param r the request or one of its subrequests
     */
    public void setActive(CoreRequest r) {
        active = r;
    }

    /**
     * Returns the connection's I/O: the loop's socket I/O, or the in-memory connection's.
     *
     * @return the I/O
     */
    public ConnectionIo io() {
        return io;
    }

    HttpCoreSrvConf defaultServer() {
        return (HttpCoreSrvConf) confCtx.srvConf[coreIndex];
    }

    /** Sets the default server's confs and finds {@code http_core}'s index among them. */
    void confs(HttpConfCtx ctx) {
        confCtx = ctx;
        Object[] main = ctx.mainConf;
        for (int i = 0; i < main.length; i++) {
            if (main[i] instanceof jinx.http.internal.core.HttpCoreMainConf) {
                coreIndex = i;
                return;
            }
        }
        throw new IllegalStateException("no http_core main conf");
    }

    /* ---- a takeover's view (ClientConnection): nginx's ngx_http_ssl_handshake() and its kin ---- */

    @Override
    public <T> T srvConf(HttpConfKey<T> key) {
        return key.cast(confCtx.srvConf[key.ctxIndex()]);
    }

    @Override
    public boolean selectServer(String name) {
        String host = RequestHeaders.validateHost(name);
        if (host == null || host.isEmpty() || addrConf.virtualNames() == null) {
            return false;
        }
        HttpCoreSrvConf s = Servers.find(addrConf, host, null);
        if (s == null) {
            return false;
        }
        confs(s.ctx);
        return true;
    }

    @Override
    public String evaluate(jinx.http.spi.ComplexValue value) {
        // a request of the connection's server that is never run (nginx allocates one and frees it at once)
        return value.evaluate(new CoreRequest(this));
    }

    @Override
    public long clientHeaderTimeout() {
        return defaultServer().clientHeaderTimeout;
    }

    @Override
    public void action(String what) {
        action = what;
    }

    @Override
    public void readRequest(boolean secured) {
        secure = secured;
        io = c.io();
        action = "waiting for request";
        c.read.handler = RequestReader::waitRequestHandler;
        c.write.handler = RequestEvents::emptyEventHandler;
        loop.reusableConnection(c, true);
        RequestReader.waitRequestHandler(c.read);
    }

    @Override
    public void close() {
        RequestFinalizer.closeConnection(this);
    }

    /* ---- buffers ---- */

    /** Takes memory for {@link #buffer} if it has none (it gave it back while idle). */
    ByteBuffer ensureBuffer(int size) {
        if (buffer == null) {
            buffer = pool.get(size);
            bufferSize = size;
        }
        return buffer;
    }

    /** Gives {@link #buffer}'s memory back while the connection is idle (nginx frees {@code b->start}). */
    void releaseBuffer() {
        pool.release(buffer);
        buffer = null;
    }

    /** Gives every large header buffer back (nginx's {@code ngx_http_set_keepalive()} frees hc->free, hc->busy). */
    void releaseLargeBuffers() {
        // polled, not iterated: an idle connection's release allocates nothing
        for (ByteBuffer b = free.pollFirst(); b != null; b = free.pollFirst()) {
            pool.release(b);
        }
        for (ByteBuffer b = busy.pollFirst(); b != null; b = busy.pollFirst()) {
            pool.release(b);
        }
    }

    /** Everything back to the pool: the connection closes. */
    void releaseAll() {
        releaseBuffer();
        releaseLargeBuffers();
    }

    /* ---- addresses ---- */

    /**
     * Returns the client's address without the port ({@code c->addr_text}): {@code 127.0.0.1}, {@code ::1},
     * {@code unix:}.
     *
     * @return the address
     */
    public String remoteAddr() {
        if (realAddr != null) {
            return realAddr;
        }
        if (remoteAddr == null) {
            remoteAddr = addrWithoutPort(c.addrText());
        }
        return remoteAddr;
    }

    /**
     * Replaces the client's address for the rest of the request, as nginx's {@code realip} replaces
     * {@code c->sockaddr} and {@code c->addr_text} until the request's cleanup restores them.
     *
     * @param addr the address as text ({@code 192.0.2.1}, {@code 2001:db8::1}), or null to restore the socket's
     * @param port its port, 0 for none
     */
    public void realAddr(String addr, int port) {
        realAddr = addr;
        realPort = port;
    }

    /**
     * Tells whether {@link #realAddr} replaced the client's address.
     *
     * @return true when replaced
     */
    public boolean realAddrSet() {
        return realAddr != null;
    }

    /**
     * Returns the socket's own client address, whatever {@link #realAddr} set.
     *
     * @return the address without the port
     */
    public String socketAddr() {
        if (remoteAddr == null) {
            remoteAddr = addrWithoutPort(c.addrText());
        }
        return remoteAddr;
    }

    /**
     * Returns the socket's own client port, whatever {@link #realAddr} set.
     *
     * @return the port, 0 for a UNIX-domain socket
     */
    public int socketPort() {
        String saved = realAddr;
        realAddr = null;
        try {
            return remotePort();
        } finally {
            realAddr = saved;
        }
    }

    private static String addrWithoutPort(String t) {
        if (t == null) {
            return "";
        }
        if (t.startsWith("unix:")) {
            return "unix:";
        }
        if (t.startsWith("[")) {
            int end = t.indexOf(']');
            return end < 0 ? t : t.substring(1, end);
        }
        int colon = t.lastIndexOf(':');
        return colon < 0 ? t : t.substring(0, colon);
    }

    /**
     * Returns the client's port, 0 for a UNIX-domain socket.
     *
     * @return the port
     */
    public int remotePort() {
        if (realAddr != null) {
            return realPort;
        }
        String t = c.addrText();
        if (t == null || t.startsWith("unix:")) {
            return 0;
        }
        int colon = t.lastIndexOf(':');
        if (colon < 0 || (t.startsWith("[") && colon < t.indexOf(']'))) {
            return 0;
        }
        try {
            return Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Returns the local address of the connection: the listening address, or, for a wildcard one, the socket's
     * own, asked once (nginx's {@code ngx_connection_local_sockaddr()}).
     *
     * @return the address, or null when it cannot be found
     */
    public SockAddr localSockaddr() {
        if (local != null) {
            return local;
        }
        if (c.listening != null && (!c.listening.sockaddr().isWildcard() || !c.hasDescriptor())) {
            // without a socket there is no address to ask for: the listening one stands for it
            local = c.listening.sockaddr();
            return local;
        }
        if (!c.hasDescriptor()) {
            return null;
        }
        try {
            local = Sockets.getsockname(c.fd());
        } catch (NativeIoException | IllegalArgumentException e) {
            log(LogLevel.CRIT, e.getMessage());
            return null;
        }
        return local;
    }

    /* ---- the error log: ngx_http_log_error() and ngx_http_log_error_handler() ---- */

    /**
     * Logs a line about this connection with nginx's HTTP context:
     * {@code message while ACTION, client: ADDR, server: NAME, request: "LINE", host: "HOST"}.
     *
     * @param level the level
     * @param message the message
     */
    public void log(LogLevel level, String message) {
        log(level, 0, message);
    }

    /**
     * Logs a line with an errno's text after the message, as nginx's {@code ngx_log_error(level, log, err, ...)}:
     * {@code client timed out (110: Connection timed out) while ...}.
     *
     * @param level the level
     * @param errno the error number, 0 for none
     * @param message the message
     */
    public void log(LogLevel level, int errno, String message) {
        ErrorLog l = c.log;
        if (l == null || !l.isEnabled(level)) {
            return;
        }
        StringBuilder sb = new StringBuilder(message.length() + 128).append(message);
        if (errno != 0) {
            sb.append(" (").append(errno).append(": ").append(Errors.text(errno)).append(')');
        }
        appendContext(sb);
        l.log(level, c.number, sb.toString());
    }

    /** The lines the connection's I/O logs get the same context ({@code ngx_connection_error()} on c->log). */
    @Override
    public void appendLogContext(StringBuilder message) {
        appendContext(message);
    }

    /** nginx's {@code ngx_http_log_error()}: the action, the client, then the request's or the address's server. */
    void appendContext(StringBuilder sb) {
        if (action != null) {
            sb.append(" while ").append(action);
        }
        sb.append(", client: ").append(remoteAddr());
        if (request != null) {
            request.appendRequestContext(sb);
        } else if (c.listening != null) {
            sb.append(", server: ").append(c.listening.addrText());
        }
    }

    /** Logs a socket failure at nginx's level for it, as {@code ngx_connection_error()} does. */
    int connectionError(NativeIoException e) {
        int err = e.errno();
        LogLevel level = err == Errors.ECONNRESET || err == Errors.EPIPE || err == Errors.ENOTCONN
            || err == Errors.ETIMEDOUT || err == Errors.ECONNREFUSED || err == Errors.ENETUNREACH
            || err == Errors.EHOSTUNREACH ? LogLevel.INFO : LogLevel.ALERT;
        log(level, e.getMessage());
        return jinx.kernel.Rc.ERROR;
    }
}
