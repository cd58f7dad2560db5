package jinx.tls;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.SslErrors;

/**
 * {@link SslIo#handshake()}: nginx's {@code ngx_ssl_handshake()} and {@code ngx_ssl_handshake_handler()}, and the
 * server name callback's body ({@code ngx_http_ssl_servername()}'s part that switches the context).
 */
final class SslHandshake {

    private SslHandshake() {
    }

    /** nginx's {@code ngx_ssl_handshake()}. */
    static int run(SslIo io) {
        Connection c = io.c;
        LibSsl lib = io.lib;
        long ssl = io.ssl;
        OpenSsl.clearErrors();
        SslIo.HANDSHAKING.set(io);
        int n;
        try {
            n = lib.SSL_do_handshake(ssl);
        } finally {
            SslIo.HANDSHAKING.remove();
        }
        if (n == 1) {
            if (c.loop().handleReadEvent(c.read, 0) != Rc.OK || c.loop().handleWriteEvent(c.write) != Rc.OK) {
                return Rc.ERROR;
            }
            c.read.ready = true;
            c.write.ready = true;
            io.handshaked = true;
            return Rc.OK;
        }
        int sslerr = lib.SSL_get_error(ssl, n);
        if (sslerr == OpenSsl.SSL_ERROR_WANT_READ || sslerr == OpenSsl.SSL_ERROR_WANT_WRITE) {
            if (sslerr == OpenSsl.SSL_ERROR_WANT_READ) {
                c.read.ready = false;
            } else {
                c.write.ready = false;
            }
            c.read.handler = io.handshakeHandler;
            c.write.handler = io.handshakeHandler;
            if (c.loop().handleReadEvent(c.read, 0) != Rc.OK || c.loop().handleWriteEvent(c.write) != Rc.OK) {
                return Rc.ERROR;
            }
            return Rc.AGAIN;
        }
        int err = sslerr == OpenSsl.SSL_ERROR_SYSCALL ? OpenSsl.errno() : 0;
        io.noWaitShutdown = true;
        io.noSendShutdown = true;
        c.read.eof = true;
        if (sslerr == OpenSsl.SSL_ERROR_ZERO_RETURN || !OpenSsl.errorQueued()) {
            peerClosed(c, err, "peer closed connection in SSL handshake");
            return Rc.ERROR;
        }
        if (io.handshakeRejected) {
            peerClosed(c, err, "handshake rejected");
            OpenSsl.crypto().ERR_clear_error();
            return Rc.ERROR;
        }
        c.read.error = true;
        SslErrors.connectionError(c, sslerr, err, "SSL_do_handshake() failed");
        return Rc.ERROR;
    }

    /** nginx's {@code ngx_connection_error(c, err, text)}: "peer closed connection in SSL handshake" and kin. */
    private static void peerClosed(Connection c, int err, String text) {
        boolean peer = err == 0 || err == Errors.ECONNRESET || err == Errors.EPIPE || err == Errors.ENOTCONN
            || err == Errors.ETIMEDOUT || err == Errors.ECONNREFUSED || err == Errors.ENETUNREACH
            || err == Errors.EHOSTUNREACH;
        LogLevel level = !peer ? LogLevel.ALERT : c.listening != null ? LogLevel.INFO : LogLevel.ERROR;
        SslErrors.log(c, level, err, text);
    }

    /** nginx's {@code ngx_ssl_handshake_handler()}. */
    static void handler(SslIo io, Event ev) {
        if (!ev.timedout && run(io) == Rc.AGAIN) {
            return;
        }
        if (io.handler != null) {
            io.handler.handle(io.c.read);
        }
    }

    /** The server name callback's body: {@link SslContext.ServerNameHandler} chooses, the connection switches. */
    static int serverName(SslIo io, SslContext.ServerNameHandler select, long alert) {
        LibSsl lib = io.lib;
        long ssl = io.ssl;
        if (io.handshaked) {
            // SSL_AD_NO_RENEGOTIATION (ssl.h: TLS1_AD_NO_RENEGOTIATION, 100)
            NativeMemory.putInt(alert, 100);
            return OpenSsl.SSL_TLSEXT_ERR_ALERT_FATAL;
        }
        String name = lib.SSL_get_servername(ssl, OpenSsl.TLSEXT_NAMETYPE_HOST_NAME);
        if (name != null && !name.isEmpty()) {
            io.serverName = name;
            SslContext next = select.select(io, name);
            if (next != null && lib.SSL_set_SSL_CTX(ssl, next.handle()) != 0) {
                // the new context's verification and options: SSL_set_SSL_CTX() leaves the connection's (nginx)
                long h = next.handle();
                lib.SSL_set_verify(ssl, lib.SSL_CTX_get_verify_mode(h), lib.SSL_CTX_get_verify_callback(h));
                lib.SSL_set_verify_depth(ssl, lib.SSL_CTX_get_verify_depth(h));
                lib.SSL_set_options(ssl, next.options());
                io.context = next;
            }
        }
        if (io.context != null && io.context.rejectsHandshake()) {
            // ssl_reject_handshake: SSL_AD_UNRECOGNIZED_NAME (tls1.h: TLS1_AD_UNRECOGNIZED_NAME, 112)
            io.handshakeRejected = true;
            NativeMemory.putInt(alert, 112);
            return OpenSsl.SSL_TLSEXT_ERR_ALERT_FATAL;
        }
        return OpenSsl.SSL_TLSEXT_ERR_OK;
    }

}
