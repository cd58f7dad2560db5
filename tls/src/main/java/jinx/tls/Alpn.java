package jinx.tls;

import jinx.kernel.os.NativeMemory;
import jinx.tls.internal.OpenSsl;

/**
 * ALPN's choice: the first of the server's protocols the client offers, as {@code SSL_select_next_proto()} chooses
 * for nginx's {@code ngx_http_ssl_alpn_select()}.
 */
final class Alpn {

    private Alpn() {
    }

    /**
     * The ALPN callback's body: finds the protocol and points {@code *out} at it inside the client's list.
     *
     * @return {@code SSL_TLSEXT_ERR_OK}, or {@code SSL_TLSEXT_ERR_ALERT_FATAL} when nothing matches
     */
    static int select(byte[][] server, long out, long outlen, long in, int inlen) {
        for (byte[] name : server) {
            int i = 0;
            while (i < inlen) {
                int len = NativeMemory.getByte(in + i) & 0xff;
                if (i + 1 + len > inlen) {
                    break;
                }
                if (len == name.length && same(in + i + 1, name)) {
                    NativeMemory.putLong(out, in + i + 1);
                    NativeMemory.putByte(outlen, (byte) len);
                    return OpenSsl.SSL_TLSEXT_ERR_OK;
                }
                i += 1 + len;
            }
        }
        return OpenSsl.SSL_TLSEXT_ERR_ALERT_FATAL;
    }

    private static boolean same(long p, byte[] name) {
        for (int j = 0; j < name.length; j++) {
            if (NativeMemory.getByte(p + j) != name[j]) {
                return false;
            }
        }
        return true;
    }
}
