package jinx.tls;

import java.nio.charset.StandardCharsets;

import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSsl;

/**
 * The facts of a connection's TLS that take native scratch: nginx's {@code ngx_ssl_get_session_id()} and
 * {@code ngx_http_ssl_alpn_protocol} ({@code SSL_get0_alpn_selected()}). Not hot: a variable evaluated in a log line.
 */
final class SslFacts {

    private SslFacts() {
    }

    static String sessionId(LibSsl lib, long ssl) {
        long session = lib.SSL_get_session(ssl);
        if (session == 0) {
            return "";
        }
        try (NativeMemory m = new NativeMemory()) {
            long len = m.allocate(8);
            long id = lib.SSL_SESSION_get_id(session, len);
            int n = NativeMemory.getInt(len);
            StringBuilder sb = new StringBuilder(2 * n);
            for (int i = 0; i < n; i++) {
                int v = NativeMemory.getByte(id + i) & 0xff;
                sb.append(Character.toUpperCase(Character.forDigit(v >> 4, 16)))
                    .append(Character.toUpperCase(Character.forDigit(v & 15, 16)));
            }
            return sb.toString();
        }
    }

    static String alpnProtocol(LibSsl lib, long ssl) {
        try (NativeMemory m = new NativeMemory()) {
            long data = m.allocate(8);
            long len = m.allocate(8);
            lib.SSL_get0_alpn_selected(ssl, data, len);
            int n = NativeMemory.getInt(len);
            long p = NativeMemory.getLong(data);
            if (n == 0 || p == 0) {
                return "";
            }
            byte[] b = new byte[n];
            NativeMemory.get(p, b, 0, n);
            return new String(b, StandardCharsets.US_ASCII);
        }
    }
}
