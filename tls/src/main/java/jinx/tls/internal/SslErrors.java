package jinx.tls.internal;

import java.util.BitSet;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SocketIo;
import jinx.kernel.os.Errors;

/**
 * The level and line of a failed TLS call on a connection: nginx's {@code ngx_ssl_connection_error()}. What the peer
 * caused — a reset or a broken pipe under {@code SSL_ERROR_SYSCALL}, a handshake failure under
 * {@code SSL_ERROR_SSL} by its reason code (nginx's table) — is {@code info} on a client connection (an accepted
 * one: nginx's {@code NGX_ERROR_INFO}) and {@code error} on others; anything else is {@code crit}.
 */
public final class SslErrors {

    /* nginx's table of handshake failures, the SSL_R_* codes of OpenSSL 3.0's sslerr.h that nginx lists */
    private static final int[] HANDSHAKE_FAILURES = {
        101, 103, 108, 110, 111, 112, 115, 118, 122, 129, 133, 145, 146, 149, 150, 151, 152, 154, 155, 156, 159, 160,
        183, 186, 187, 193, 198, 213, 226, 227, 234, 235, 244, 245, 246, 252, 258, 267, 271, 281, 291, 292, 293,
        298, 300, 306, 335, 336, 337, 338, 339, 345, 373, 376, 377, 396, 409, 443,
        // SSL_R_SSLV3_ALERT_CLOSE_NOTIFY and the alerts the peer sent: 1000 + the alert's code
        1000, 1010, 1020, 1021, 1022, 1030, 1040, 1041, 1042, 1043, 1044, 1045, 1046, 1047, 1048, 1049, 1050, 1051,
        1060, 1070, 1071, 1080, 1090, 1100};

    private static final BitSet PEER = new BitSet(1101);

    static {
        for (int n : HANDSHAKE_FAILURES) {
            PEER.set(n);
        }
    }

    private SslErrors() {
    }

    /**
     * Tells whether a reason code is one of nginx's handshake failures the peer causes.
     *
     * @param reason {@code ERR_GET_REASON()}
     * @return true for the peer's doing
     */
    public static boolean peerReason(int reason) {
        return reason >= 0 && reason < 1101 && PEER.get(reason);
    }

    /**
     * Logs a failed call and empties the error queue: nginx's {@code ngx_ssl_connection_error()}.
     *
     * @param c the connection
     * @param sslerr {@code SSL_get_error()}'s answer
     * @param errno the errno for {@code SSL_ERROR_SYSCALL}, else 0
     * @param text what failed, {@code SSL_do_handshake() failed}
     */
    public static void connectionError(Connection c, int sslerr, int errno, String text) {
        boolean peer = false;
        if (sslerr == OpenSsl.SSL_ERROR_SYSCALL) {
            peer = errno == Errors.ECONNRESET || errno == Errors.EPIPE || errno == Errors.ENOTCONN
                || errno == Errors.ETIMEDOUT || errno == Errors.ECONNREFUSED || errno == Errors.ENETUNREACH
                || errno == Errors.EHOSTUNREACH;
        } else if (sslerr == OpenSsl.SSL_ERROR_SSL) {
            peer = peerReason(OpenSsl.lastReason());
        }
        LogLevel level = !peer ? LogLevel.CRIT : c.listening != null ? LogLevel.INFO : LogLevel.ERROR;
        log(c, level, errno, OpenSsl.error(text));
    }

    /**
     * Logs a line about a connection as nginx's {@code ngx_log_error(level, c->log, err, ...)}: the message, the
     * errno's text when there is one, then the protocol's context ({@link SocketIo.LogContext}).
     *
     * @param c the connection
     * @param level the level
     * @param errno the error number, 0 for none
     * @param message the message
     */
    public static void log(Connection c, LogLevel level, int errno, String message) {
        ErrorLog l = c.log;
        if (l == null || !l.isEnabled(level)) {
            return;
        }
        StringBuilder sb = new StringBuilder(message.length() + 128).append(message);
        if (errno != 0) {
            sb.append(" (").append(errno).append(": ").append(Errors.text(errno)).append(')');
        }
        if (c.data instanceof SocketIo.LogContext ctx) {
            ctx.appendLogContext(sb);
        }
        l.log(level, c.number, sb.toString());
    }
}
