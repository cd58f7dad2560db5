package jinx.tls;

import java.nio.ByteBuffer;

import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.SslErrors;

/**
 * A connection's TLS, nginx's {@code ngx_ssl_connection_t} with its I/O: OpenSSL on the connection's non-blocking
 * socket ({@code SSL_set_fd}), driven by {@link #handshake()} ({@code ngx_ssl_handshake()}), then the connection's
 * {@link ConnectionIo}: {@link #recv} ({@code ngx_ssl_recv()}), {@link #send} ({@code ngx_ssl_write()}),
 * {@link #sendChain} ({@code ngx_ssl_send_chain()}, small buffers coalesced into records of
 * {@code ssl_buffer_size}), {@link #shutdownWrite} and {@link #release} ({@code ngx_ssl_shutdown()}).
 *
 * <p>The event flags follow {@link ConnectionIo}'s contract as nginx keeps them: a read that wants to write clears
 * {@code write.ready} and has the write event call the read handler until a write happened (nginx's
 * {@code ngx_ssl_write_handler}); a write that wants to read does the reverse ({@code ngx_ssl_read_handler}). The
 * thread's OpenSSL error queue is emptied before every call and read into the log line after a failure.
 *
 * <p>Unlike nginx, {@link #sendChain} consumes a buffer only once OpenSSL has taken its bytes: it holds nothing
 * back between calls (nginx's {@code NGX_SSL_BUFFERED}), so a chain the caller sees sent is sent.
 *
 * <p>Thread contract: the connection's loop thread only.
 */
public final class SslIo implements ConnectionIo {

    /** nginx's default {@code ssl_buffer_size}. */
    public static final int DEFAULT_BUFFER_SIZE = 16384;

    /* the connection whose SSL_do_handshake() runs on this thread: OpenSSL's callbacks come back on it */
    static final ThreadLocal<SslIo> HANDSHAKING = new ThreadLocal<>();

    private static final int OK = Rc.OK;
    private static final int DONE = Rc.DONE;

    final LibSsl lib = OpenSsl.ssl();
    final Connection c;
    long ssl;
    private int bufferSize;
    private ByteBuffer out;
    private final NativeMemory memory = new NativeMemory();

    /* nginx's c->ssl->last: OK, AGAIN, DONE (the peer's close_notify), ERROR */
    private int last = OK;
    boolean handshaked;
    boolean noWaitShutdown;
    boolean noSendShutdown;
    private EventHandler savedReadHandler;
    private EventHandler savedWriteHandler;
    EventHandler handler;
    final EventHandler handshakeHandler = ev -> SslHandshake.handler(this, ev);
    private final EventHandler writeWantsRead;
    private final EventHandler readWantsWrite;
    String serverName;
    /* the context in use (the server name may switch it) and the one the session cache is of (nginx's
     * c->ssl->session_ctx) */
    SslContext context;
    private long sessionCtx;
    /* the server name callback refused the handshake (ssl_reject_handshake): nginx's handshake_rejected */
    boolean handshakeRejected;
    private Object attachment;
    /** A client's sessions and its key in them, or null. */
    private ClientSessions sessions;
    private Object sessionKey;

    private SslIo(Connection c, long ssl, int bufferSize) {
        this.c = c;
        this.ssl = ssl;
        this.bufferSize = bufferSize;
        // nginx's ngx_ssl_read_handler(): the read event of a write that wanted to read runs the writer
        this.writeWantsRead = ev -> c.write.handler.handle(c.write);
        // nginx's ngx_ssl_write_handler(): the write event of a read that wanted to write runs the reader
        this.readWantsWrite = ev -> c.read.handler.handle(c.read);
    }

    /**
     * Starts TLS as a server on an accepted connection: nginx's {@code ngx_ssl_create_connection()} with
     * {@code NGX_SSL_BUFFER}. It becomes the connection's I/O at once (the loop {@link #release frees} it however the
     * connection ends); the protocol reads and writes through it once {@link #handshake()} is done.
     *
     * @param c the connection, with a socket
     * @param context the server's context (the default server's)
     * @param bufferSize {@code ssl_buffer_size}
     * @return the connection's TLS
     * @throws SslException {@code SSL_new() failed} or {@code SSL_set_fd() failed}
     */
    public static SslIo accept(Connection c, SslContext context, int bufferSize) throws SslException {
        long ssl = create(c, context);
        OpenSsl.ssl().SSL_set_accept_state(ssl);
        SslIo io = new SslIo(c, ssl, bufferSize);
        io.context = context;
        io.sessionCtx = context.handle();
        // the slot's own from now on, so that the loop frees it however the connection ends
        c.io(io);
        return io;
    }

    /**
     * Starts TLS as a client on a connected connection: nginx's {@code ngx_ssl_create_connection()} with
     * {@code NGX_SSL_CLIENT}, the server name ({@code SSL_set_tlsext_host_name()}) and the session kept for
     * {@code sessionKey} ({@code ngx_ssl_set_session()}). It becomes the connection's I/O at once; the protocol
     * reads and writes through it once {@link #handshake()} is done.
     *
     * @param c the connection, connected
     * @param context a client context ({@link SslContext#client})
     * @param bufferSize the size of the records {@link #sendChain} makes
     * @param serverName the TLS server name to send, or null
     * @param sessionKey the key of the session to offer and keep, or null (or a context keeping none)
     * @return the connection's TLS
     * @throws SslException {@code SSL_new() failed}, {@code SSL_set_fd() failed} or
     *     {@code SSL_set_tlsext_host_name("...") failed}
     */
    public static SslIo connect(Connection c, SslContext context, int bufferSize, String serverName,
                                Object sessionKey) throws SslException {
        LibSsl lib = OpenSsl.ssl();
        long ssl = create(c, context);
        lib.SSL_set_connect_state(ssl);
        SslIo io = new SslIo(c, ssl, bufferSize);
        c.io(io);
        if (serverName != null) {
            try (NativeMemory m = new NativeMemory()) {
                byte[] b = serverName.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                long name = m.allocate(b.length + 1L);
                NativeMemory.put(name, b, 0, b.length);
                if (lib.SSL_ctrl(ssl, OpenSsl.SSL_CTRL_SET_TLSEXT_HOSTNAME, OpenSsl.TLSEXT_NAMETYPE_HOST_NAME,
                                 name) != 1) {
                    throw new SslException(OpenSsl.error("SSL_set_tlsext_host_name(\"" + serverName
                                                         + "\") failed"));
                }
            }
            io.serverName = serverName;
        }
        ClientSessions sessions = context.sessions();
        if (sessions != null && sessionKey != null) {
            io.sessions = sessions;
            io.sessionKey = sessionKey;
            sessions.offer(ssl, sessionKey);
        }
        return io;
    }

    /** nginx's {@code ngx_ssl_create_connection()}'s {@code SSL_new()} and {@code SSL_set_fd()}. */
    private static long create(Connection c, SslContext context) throws SslException {
        OpenSsl.clearErrors();
        LibSsl lib = OpenSsl.ssl();
        long ssl = lib.SSL_new(context.handle());
        if (ssl == 0) {
            throw new SslException(OpenSsl.error("SSL_new() failed"));
        }
        if (lib.SSL_set_fd(ssl, c.fd()) != 1) {
            lib.SSL_free(ssl);
            throw new SslException(OpenSsl.error("SSL_set_fd() failed"));
        }
        return ssl;
    }

    /**
     * Returns the result of the server certificate's verification: {@code SSL_get_verify_result()}.
     *
     * @return {@code X509_V_OK} (0) or OpenSSL's error code
     */
    public long verifyResult() {
        return ssl == 0 ? -1 : lib.SSL_get_verify_result(ssl);
    }

    /**
     * Drops the connection's session from the server's cache, so that a client refused for its certificate cannot
     * resume it: nginx's {@code ngx_ssl_remove_cached_session()}. Added in SPI 1.6.
     */
    public void removeSession() {
        if (ssl != 0 && sessionCtx != 0) {
            long session = lib.SSL_get_session(ssl);
            if (session != 0) {
                lib.SSL_CTX_remove_session(sessionCtx, session);
            }
        }
    }

    /**
     * Returns whether the peer's certificate names {@code name}: nginx's {@code ngx_ssl_check_host()}
     * ({@code X509_check_host()}, which also takes an IP address written as text for a DNS name only).
     *
     * @param name the expected name
     * @return true when the peer sent a certificate for that name
     */
    public boolean checkHost(String name) {
        if (ssl == 0) {
            return false;
        }
        long cert = lib.SSL_get1_peer_certificate(ssl);
        if (cert == 0) {
            return false;
        }
        try {
            return OpenSsl.crypto().X509_check_host(cert, name, name.length(), 0, 0) == 1;
        } finally {
            OpenSsl.crypto().X509_free(cert);
        }
    }

    /**
     * The handshake was done and accepted: the session is kept under the connection's key, and the tickets the
     * server sends later replace it (nginx's {@code save_session}). Nothing when no key was given.
     */
    public void keepSession() {
        if (sessions != null && ssl != 0) {
            sessions.arm(ssl, sessionKey);
        }
    }

    /**
     * Returns the connection whose handshake runs on this thread with {@code ssl}, for OpenSSL's callbacks.
     *
     * @param ssl the {@code SSL *} a callback got
     * @return the connection's TLS, or null
     */
    static SslIo handshaking(long ssl) {
        SslIo io = HANDSHAKING.get();
        return io != null && io.ssl == ssl ? io : null;
    }

    /**
     * Returns the connection.
     *
     * @return the connection
     */
    public Connection connection() {
        return c;
    }

    /**
     * Sets what runs once the handshake is over, done or failed, or a handshake event timed out: nginx's
     * {@code c->ssl->handler}. It reads {@link #handshaked()}.
     *
     * @param then the handler, given the read event
     */
    public void onHandshake(EventHandler then) {
        handler = then;
    }

    /**
     * Lets a protocol keep its state with the connection's TLS (HTTP: the server the name chose).
     *
     * @param value the value
     */
    public void attach(Object value) {
        attachment = value;
    }

    /**
     * Returns what {@link #attach} kept.
     *
     * @return the value, or null
     */
    public Object attachment() {
        return attachment;
    }

    /**
     * Sets the size of the records {@link #sendChain} makes ({@code ssl_buffer_size}), as a server chosen by its
     * name may change it.
     *
     * @param size the size in bytes
     */
    public void bufferSize(int size) {
        if (size != bufferSize) {
            bufferSize = size;
            out = null;
        }
    }

    /**
     * Tells whether the handshake is done: nginx's {@code c->ssl->handshaked}.
     *
     * @return true once done
     */
    public boolean handshaked() {
        return handshaked;
    }

    /* ---- the handshake: ngx_ssl_handshake() ---- */

    /**
     * Drives the handshake: nginx's {@code ngx_ssl_handshake()}. While it waits for the peer the connection's
     * handlers are the handshake's, which call {@link #onHandshake}'s handler once it is over; done, the
     * connection reads and writes through this object, both events ready.
     *
     * @return {@link Rc#OK} when done, {@link Rc#AGAIN} while waiting, {@link Rc#ERROR} (logged as nginx's
     *     {@code SSL_do_handshake() failed (SSL: ...)} or {@code peer closed connection in SSL handshake})
     */
    public int handshake() {
        return SslHandshake.run(this);
    }

    /* ---- recv: ngx_ssl_recv() ---- */

    @Override
    public int recv(Connection c, ByteBuffer buf) {
        Event rev = c.read;
        if (last == Rc.ERROR) {
            rev.ready = false;
            rev.error = true;
            return Rc.ERROR;
        }
        if (last == DONE) {
            rev.ready = false;
            rev.eof = true;
            return 0;
        }
        int bytes = 0;
        int size = buf.remaining();
        long address = NativeMemory.address(buf) + buf.position();
        OpenSsl.clearErrors();
        // SSL_read() may return data in parts, so read until it returns none (nginx)
        for (;;) {
            int n = lib.SSL_read(ssl, address + bytes, size);
            if (n > 0) {
                bytes += n;
                buf.position(buf.position() + n);
            }
            last = handleRecv(n);
            if (last == OK) {
                size -= n;
                if (size == 0) {
                    rev.ready = true;
                    return bytes;
                }
                continue;
            }
            if (bytes > 0) {
                if (last != Rc.AGAIN) {
                    rev.ready = true;
                }
                return bytes;
            }
            if (last == DONE) {
                rev.ready = false;
                rev.eof = true;
                return 0;
            }
            if (last == Rc.ERROR) {
                rev.ready = false;
                rev.error = true;
            }
            return last;
        }
    }

    /** nginx's {@code ngx_ssl_handle_recv()}. */
    private int handleRecv(int n) {
        if (n > 0) {
            return restoreWriteHandler() ? OK : Rc.ERROR;
        }
        int sslerr = lib.SSL_get_error(ssl, n);
        int err = sslerr == OpenSsl.SSL_ERROR_SYSCALL ? OpenSsl.errno() : 0;
        if (sslerr == OpenSsl.SSL_ERROR_WANT_READ) {
            if (!restoreWriteHandler()) {
                return Rc.ERROR;
            }
            c.read.ready = false;
            return Rc.AGAIN;
        }
        if (sslerr == OpenSsl.SSL_ERROR_WANT_WRITE) {
            c.write.ready = false;
            if (c.loop().handleWriteEvent(c.write) != Rc.OK) {
                return Rc.ERROR;
            }
            // no timer: the read event's is running (nginx)
            if (savedWriteHandler == null) {
                savedWriteHandler = c.write.handler;
                c.write.handler = readWantsWrite;
            }
            return Rc.AGAIN;
        }
        noWaitShutdown = true;
        noSendShutdown = true;
        if (sslerr == OpenSsl.SSL_ERROR_ZERO_RETURN || !OpenSsl.errorQueued()) {
            return DONE;
        }
        SslErrors.connectionError(c, sslerr, err, "SSL_read() failed");
        return Rc.ERROR;
    }

    /** A read after a write that wanted it gives the write event its handler back, and posts it. */
    private boolean restoreWriteHandler() {
        if (savedWriteHandler == null) {
            return true;
        }
        c.write.handler = savedWriteHandler;
        savedWriteHandler = null;
        c.write.ready = true;
        if (c.loop().handleWriteEvent(c.write) != Rc.OK) {
            return false;
        }
        c.loop().post(c.write);
        return true;
    }

    /* ---- send: ngx_ssl_write() ---- */

    @Override
    public int send(Connection c, ByteBuffer buf) {
        int size = buf.remaining();
        int n = write(NativeMemory.address(buf) + buf.position(), size);
        if (n > 0) {
            buf.position(buf.position() + n);
        }
        return n;
    }

    /** nginx's {@code ngx_ssl_write()}: all of {@code size} or nothing, OpenSSL's partial writes being off. */
    int write(long data, int size) {
        if (size == 0) {
            return 0;
        }
        OpenSsl.clearErrors();
        int n = lib.SSL_write(ssl, data, size);
        if (n > 0) {
            if (!restoreReadHandler()) {
                return Rc.ERROR;
            }
            c.sent += n;
            return n;
        }
        int sslerr = lib.SSL_get_error(ssl, n);
        if (sslerr == OpenSsl.SSL_ERROR_ZERO_RETURN) {
            // OpenSSL 1.1.1 fails to return SSL_ERROR_SYSCALL if an error happens during SSL_write() after
            // close_notify alert from the peer, and returns SSL_ERROR_ZERO_RETURN instead (nginx)
            sslerr = OpenSsl.SSL_ERROR_SYSCALL;
        }
        int err = sslerr == OpenSsl.SSL_ERROR_SYSCALL ? OpenSsl.errno() : 0;
        if (sslerr == OpenSsl.SSL_ERROR_WANT_WRITE) {
            if (!restoreReadHandler()) {
                return Rc.ERROR;
            }
            c.write.ready = false;
            return Rc.AGAIN;
        }
        if (sslerr == OpenSsl.SSL_ERROR_WANT_READ) {
            c.read.ready = false;
            if (c.loop().handleReadEvent(c.read, 0) != Rc.OK) {
                return Rc.ERROR;
            }
            // no timer: the write event's is running (nginx)
            if (savedReadHandler == null) {
                savedReadHandler = c.read.handler;
                c.read.handler = writeWantsRead;
            }
            return Rc.AGAIN;
        }
        noWaitShutdown = true;
        noSendShutdown = true;
        c.write.error = true;
        SslErrors.connectionError(c, sslerr, err, "SSL_write() failed");
        return Rc.ERROR;
    }

    /** A write after a read that wanted it gives the read event its handler back, and posts it. */
    private boolean restoreReadHandler() {
        if (savedReadHandler == null) {
            return true;
        }
        c.read.handler = savedReadHandler;
        savedReadHandler = null;
        c.read.ready = true;
        if (c.loop().handleReadEvent(c.read, 0) != Rc.OK) {
            return false;
        }
        c.loop().post(c.read);
        return true;
    }

    /* ---- send_chain: ngx_ssl_send_chain() ---- */

    /**
     * Sends a chain as records of at most {@code ssl_buffer_size}: neighbouring small buffers, and file buffers
     * read with {@code pread}, are copied into one record's buffer and written with one {@code SSL_write}, as
     * nginx's {@code ngx_ssl_send_chain()} does; a buffer is consumed once its bytes were written.
     */
    @Override
    public BufChain sendChain(Connection c, BufChain in, long limit) {
        if (out == null) {
            out = NativeMemory.view(memory.allocate(bufferSize), bufferSize);
        }
        return SslRecords.sendChain(this, c, in, limit, out);
    }

    /* ---- shutdown: ngx_ssl_shutdown() ---- */

    /**
     * Sends the close_notify alert, then shuts the socket's writing side, keeping the TLS state for the reads of a
     * lingering close: nginx's {@code ngx_http_set_lingering_close()} with {@code shutdown_without_free}.
     */
    @Override
    public int shutdownWrite(Connection c) {
        shutdown(true);
        return c.loop().socketIo().shutdownWrite(c);
    }

    /**
     * Shuts TLS down and frees it before the connection closes: nginx's {@code ngx_ssl_shutdown()}, without
     * waiting for the peer's close_notify (HTTP's {@code no_wait_shutdown}); a timed out or failed connection sends
     * none either.
     */
    @Override
    public void release(Connection c) {
        if (ssl == 0) {
            return;
        }
        if (c.timedout || c.error) {
            noSendShutdown = true;
        }
        shutdown(false);
        if (sessions != null) {
            sessions.forget(ssl);
        }
        lib.SSL_free(ssl);
        ssl = 0;
        out = null;
        memory.close();
    }

    private void shutdown(boolean keep) {
        // avoid calling SSL_shutdown() if handshake wasn't completed (nginx)
        if (!handshaked || lib.SSL_in_init(ssl) == 1) {
            OpenSsl.clearErrors();
            return;
        }
        int mode = lib.SSL_get_shutdown(ssl) | OpenSsl.SSL_RECEIVED_SHUTDOWN;
        noWaitShutdown = true;
        if (noSendShutdown) {
            mode |= OpenSsl.SSL_SENT_SHUTDOWN;
            lib.SSL_set_quiet_shutdown(ssl, 1);
        }
        lib.SSL_set_shutdown(ssl, mode);
        OpenSsl.clearErrors();
        int n = lib.SSL_shutdown(ssl);
        if (n != 1 && OpenSsl.errorQueued()) {
            int sslerr = lib.SSL_get_error(ssl, n);
            if (sslerr != OpenSsl.SSL_ERROR_WANT_READ && sslerr != OpenSsl.SSL_ERROR_WANT_WRITE
                && sslerr != OpenSsl.SSL_ERROR_ZERO_RETURN) {
                int err = sslerr == OpenSsl.SSL_ERROR_SYSCALL ? OpenSsl.errno() : 0;
                SslErrors.connectionError(c, sslerr, err, "SSL_shutdown() failed");
            }
        }
        // what the peer may still do is its business: nothing is left for the next connection on the thread
        OpenSsl.clearErrors();
        if (keep) {
            noSendShutdown = true;
        }
    }

    /* ---- the connection's facts: nginx's ngx_ssl_get_*() ---- */


    /**
     * Returns the protocol: {@code $ssl_protocol} ({@code TLSv1.3}).
     *
     * @return the name
     */
    public String protocol() {
        return ssl == 0 ? "" : lib.SSL_get_version(ssl);
    }

    /**
     * Returns the cipher: {@code $ssl_cipher} ({@code TLS_AES_256_GCM_SHA384}).
     *
     * @return the name, "" when none
     */
    public String cipher() {
        long cipher = ssl == 0 ? 0 : lib.SSL_get_current_cipher(ssl);
        return cipher == 0 ? "" : lib.SSL_CIPHER_get_name(cipher);
    }

    /**
     * Returns the name the client sent: {@code $ssl_server_name}.
     *
     * @return the name, "" when none
     */
    public String serverName() {
        if (serverName == null && ssl != 0) {
            serverName = lib.SSL_get_servername(ssl, OpenSsl.TLSEXT_NAMETYPE_HOST_NAME);
        }
        return serverName == null ? "" : serverName;
    }

    /**
     * Tells whether the session was resumed: {@code $ssl_session_reused} ({@code r} or {@code .}).
     *
     * @return true when resumed
     */
    public boolean sessionReused() {
        return ssl != 0 && lib.SSL_session_reused(ssl) == 1;
    }

    /**
     * Returns the session's id in hexadecimal capitals: {@code $ssl_session_id}.
     *
     * @return the id, "" when none
     */
    public String sessionId() {
        return ssl == 0 ? "" : SslFacts.sessionId(lib, ssl);
    }

    /**
     * Returns the protocol ALPN chose: {@code $ssl_alpn_protocol}.
     *
     * @return the name, "" when none
     */
    public String alpnProtocol() {
        return ssl == 0 ? "" : SslFacts.alpnProtocol(lib, ssl);
    }
}
