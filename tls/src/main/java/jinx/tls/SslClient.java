package jinx.tls;

import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.EventHandler;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TlsClient;
import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.SslErrors;

/**
 * The kernel's {@link TlsClient} on OpenSSL: a client {@link SslContext} made as nginx's
 * {@code ngx_http_proxy_set_ssl()} makes one (protocols, ciphers, client certificate, trusted certificates and
 * revocation lists when verifying, the client session cache, configuration commands), and connections started on
 * it with {@link SslIo#connect}.
 */
public final class SslClient implements TlsClient {

    private static final Map<String, Integer> PROTOCOL_BITS = Map.of(
        "SSLv2", SslContext.SSLV2, "SSLv3", SslContext.SSLV3, "TLSv1", SslContext.TLSV1,
        "TLSv1.1", SslContext.TLSV1_1, "TLSv1.2", SslContext.TLSV1_2, "TLSv1.3", SslContext.TLSV1_3);

    private final SslContext context;
    private final boolean verify;

    private SslClient(SslContext context, boolean verify) {
        this.context = context;
        this.verify = verify;
    }

    /**
     * Makes a client context: nginx's {@code ngx_http_proxy_set_ssl()}.
     *
     * @param s the settings
     * @param sessions where sessions are kept when {@link Settings#sessionReuse()} is on
     * @return the client
     * @throws ConfException nginx's texts: {@code no "proxy_ssl_certificate_key" is defined ...} is the caller's;
     *     here the loading failures ({@code cannot load certificate "..."},
     *     {@code SSL_CTX_load_verify_locations("...") failed}, ...)
     */
    public static SslClient create(Settings s, ClientSessions sessions) throws ConfException {
        int bits = 0;
        for (String p : s.protocols()) {
            Integer b = PROTOCOL_BITS.get(p);
            if (b == null) {
                throw new ConfException("invalid value \"" + p + "\"");
            }
            bits |= b;
        }
        SslContext ctx;
        try {
            ctx = SslContext.client(bits);
        } catch (SslException e) {
            throw new ConfException(e.getMessage());
        }
        try {
            ctx.ciphers(s.ciphers(), false);
            if (s.certificate() != null) {
                ctx.certificate(s.certificate(), s.certificateKey(), s.passwords());
            }
            if (s.verify()) {
                ctx.trustedCertificate(s.trustedCertificate(), s.verifyDepth());
                if (s.crl() != null) {
                    ctx.crl(s.crl());
                }
            }
            if (s.sessionReuse()) {
                ctx.clientSessions(sessions);
            }
            if (!s.confCommands().isEmpty()) {
                ctx.confCommands(s.confCommands());
            }
        } catch (SslException e) {
            ctx.close();
            throw new ConfException(e.getMessage());
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        return new SslClient(ctx, s.verify());
    }

    /**
     * Returns the context.
     *
     * @return the {@code SSL_CTX}'s holder
     */
    public SslContext context() {
        return context;
    }

    @Override
    public int connect(Connection c, String serverName, Object sessionKey, EventHandler then) {
        SslIo io;
        try {
            io = SslIo.connect(c, context, SslIo.DEFAULT_BUFFER_SIZE, serverName, sessionKey);
        } catch (SslException e) {
            SslErrors.log(c, LogLevel.ALERT, 0, e.getMessage());
            return Rc.ERROR;
        }
        io.onHandshake(then);
        return io.handshake();
    }

    @Override
    public boolean handshaked(Connection c) {
        return c.io() instanceof SslIo io && io.handshaked();
    }

    @Override
    public String verify(Connection c, String name) {
        if (!(c.io() instanceof SslIo io)) {
            return "SSL certificate verify error: (-1:no TLS)";
        }
        if (verify) {
            long rc = io.verifyResult();
            if (rc != OpenSsl.X509_V_OK) {
                return "SSL certificate verify error: (" + rc + ":"
                    + OpenSsl.crypto().X509_verify_cert_error_string(rc) + ")";
            }
            if (!io.checkHost(name)) {
                return "SSL certificate does not match \"" + name + "\"";
            }
        }
        io.keepSession();
        return null;
    }

    @Override
    public void close() {
        context.close();
    }
}
