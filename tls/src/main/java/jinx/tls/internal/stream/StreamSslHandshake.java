package jinx.tls.internal.stream;

import jinx.kernel.Connection;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.JinxModule;
import jinx.stream.StreamSession;
import jinx.tls.SslException;
import jinx.tls.SslIo;

/**
 * The SSL phase of a stream session: nginx's {@code ngx_stream_ssl_handler()},
 * {@code ngx_stream_ssl_init_connection()} and {@code ngx_stream_ssl_handshake_handler()}. A session of a
 * {@code listen ... ssl} address handshakes here (bounded by {@code ssl_handshake_timeout}); a failed or timed out
 * handshake ends it with status 500, as nginx's does; once done, the phases go on and every later read and write
 * of the client's connection goes through TLS ({@link SslIo} is its I/O).
 */
final class StreamSslHandshake {

    private final JinxModule module;

    StreamSslHandshake(JinxModule module) {
        this.module = module;
    }

    /** nginx's {@code ngx_stream_ssl_handler()}. */
    int handle(StreamSession s) {
        if (!s.listenParameter("ssl")) {
            return Rc.OK;
        }
        Connection c = s.connection();
        if (c.io() instanceof SslIo) {
            return Rc.OK;
        }
        s.logAction("SSL handshaking");
        StreamSslSrvConf sscf = s.srvConf(module, StreamSslSrvConf.class);
        SslIo io;
        try {
            // stream has no ssl_buffer_size: nginx's NGX_SSL_BUFSIZE
            io = SslIo.accept(c, sscf.ctx, SslIo.DEFAULT_BUFFER_SIZE);
        } catch (SslException e) {
            s.log(LogLevel.ALERT, 0, e.getMessage());
            return Rc.ERROR;
        }
        int rc = io.handshake();
        if (rc == Rc.ERROR) {
            return Rc.ERROR;
        }
        if (rc == Rc.AGAIN) {
            c.loop().addTimer(c.read, sscf.handshakeTimeout);
            io.onHandshake(ev -> done(s, io));
            return Rc.AGAIN;
        }
        return Rc.OK;
    }

    /** nginx's {@code ngx_stream_ssl_handshake_handler()}. */
    private static void done(StreamSession s, SslIo io) {
        Connection c = s.connection();
        if (!io.handshaked()) {
            s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        if (c.read.timerSet()) {
            c.loop().deleteTimer(c.read);
        }
        s.runPhases();
    }
}
