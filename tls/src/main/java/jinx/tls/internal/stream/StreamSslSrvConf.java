package jinx.tls.internal.stream;

import java.util.List;
import java.util.function.Function;

import jinx.kernel.ConfException;
import jinx.kernel.SharedZone;
import jinx.tls.SharedSessionCache;
import jinx.tls.internal.http.SslSrvConf;

/**
 * A stream server's TLS settings: nginx's {@code ngx_stream_ssl_conf_t} (1.22), HTTP's settings with
 * {@code ssl_handshake_timeout}, {@code ssl_alpn} and the place of the server's {@code listen ... ssl}. As in nginx
 * 1.22, only a server with {@code listen ... ssl} makes a context, and it must have a certificate.
 */
final class StreamSslSrvConf extends SslSrvConf {

    private static final long UNSET_MSEC = -1;

    /** {@code ssl_handshake_timeout}, in ms. */
    long handshakeTimeout = UNSET_MSEC;
    /** {@code ssl_alpn}, or null when unset. */
    List<String> alpnProtocols;
    /** Whether a {@code listen} of this server has {@code ssl}, and where the first is. */
    boolean listen;
    String file;
    int line;

    StreamSslSrvConf() {
        alpn = null;
    }

    /**
     * nginx's {@code ngx_stream_ssl_merge_conf()}.
     *
     * @param p the block's
     * @param caches the configuration's shared session cache for a zone
     * @throws ConfException nginx's texts
     */
    void merge(StreamSslSrvConf p, Function<SharedZone, SharedSessionCache> caches) throws ConfException {
        handshakeTimeout = handshakeTimeout != UNSET_MSEC ? handshakeTimeout
            : p.handshakeTimeout != UNSET_MSEC ? p.handshakeTimeout : 60_000;
        alpnProtocols = alpnProtocols != null ? alpnProtocols : p.alpnProtocols;
        alpn = alpnProtocols;
        if (!listen) {
            // a server without listen ... ssl makes no context (nginx 1.22), and no server inherits from it
            return;
        }
        // nginx 1.22's checks, each with the place of the listen directive in its text
        List<String> certs = certificates != null ? certificates : p.certificates;
        List<String> keys = certificateKeys != null ? certificateKeys : p.certificateKeys;
        String listenAt = "the \"listen ... ssl\" directive";
        if (certs == null) {
            throw ConfException.at("no \"ssl_certificate\" is defined for " + listenAt, file, line);
        }
        if (keys == null) {
            throw ConfException.at("no \"ssl_certificate_key\" is defined for " + listenAt, file, line);
        }
        if (keys.size() < certs.size()) {
            throw ConfException.at("no \"ssl_certificate_key\" is defined for certificate \""
                + certs.get(certs.size() - 1) + "\" and " + listenAt, file, line);
        }
        super.merge(p, null, caches);
    }
}
