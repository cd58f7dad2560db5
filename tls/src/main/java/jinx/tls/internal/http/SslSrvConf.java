package jinx.tls.internal.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.function.Function;

import jinx.kernel.ConfException;
import jinx.kernel.SharedZone;
import jinx.tls.SharedSessionCache;
import jinx.tls.SslContext;
import jinx.tls.SslException;
import jinx.tls.SslIo;
import jinx.tls.TicketKeys;

/**
 * A server's TLS settings: nginx's {@code ngx_http_ssl_srv_conf_t}, with its defaults and
 * {@code ngx_http_ssl_merge_srv_conf()}, which makes the server's {@link SslContext} when it has certificates.
 */
final class SslSrvConf {

    static final int UNSET = -1;

    List<String> certificates;
    List<String> certificateKeys;
    List<String> passwords;
    String passwordFile;
    int protocols = UNSET;
    String ciphers;
    int preferServerCiphers = UNSET;
    String ecdhCurve;
    int sessionCache = UNSET - 100;
    /** {@code ssl_session_cache shared:}'s zone, or null. */
    SharedZone sharedCache;
    long sessionTimeout = UNSET;
    int sessionTickets = UNSET;
    List<byte[]> ticketKeys;
    long bufferSize = UNSET;
    List<String> confCommands;

    /** The server's context, made by {@link #merge} when the server has certificates; null otherwise. */
    SslContext ctx;

    void merge(SslSrvConf p, ServerNamer namer, Function<SharedZone, SharedSessionCache> caches)
        throws ConfException {
        certificates = certificates != null ? certificates : p.certificates;
        certificateKeys = certificateKeys != null ? certificateKeys : p.certificateKeys;
        passwords = passwords != null ? passwords : p.passwords;
        protocols = protocols != UNSET ? protocols : p.protocols != UNSET ? p.protocols
            : SslContext.TLSV1 | SslContext.TLSV1_1 | SslContext.TLSV1_2 | SslContext.TLSV1_3;
        ciphers = ciphers != null ? ciphers : p.ciphers != null ? p.ciphers : "HIGH:!aNULL:!MD5";
        preferServerCiphers = preferServerCiphers != UNSET ? preferServerCiphers
            : p.preferServerCiphers != UNSET ? p.preferServerCiphers : 0;
        ecdhCurve = ecdhCurve != null ? ecdhCurve : p.ecdhCurve != null ? p.ecdhCurve : "auto";
        sessionCache = sessionCache != UNSET - 100 ? sessionCache
            : p.sessionCache != UNSET - 100 ? p.sessionCache : SslContext.CACHE_NONE;
        sharedCache = sharedCache != null ? sharedCache : p.sharedCache;
        sessionTimeout = sessionTimeout != UNSET ? sessionTimeout : p.sessionTimeout != UNSET ? p.sessionTimeout : 300;
        sessionTickets = sessionTickets != UNSET ? sessionTickets : p.sessionTickets != UNSET ? p.sessionTickets : 1;
        ticketKeys = ticketKeys != null ? ticketKeys : p.ticketKeys;
        bufferSize = bufferSize != UNSET ? bufferSize : p.bufferSize != UNSET ? p.bufferSize
            : SslIo.DEFAULT_BUFFER_SIZE;
        confCommands = confCommands != null ? confCommands : p.confCommands;
        if (certificates == null) {
            return;
        }
        if (certificateKeys == null || certificateKeys.size() < certificates.size()) {
            // nginx: no "ssl_certificate_key" is defined for certificate "%V"
            throw new ConfException("no \"ssl_certificate_key\" is defined for certificate \""
                                    + certificates.get(certificateKeys == null ? 0 : certificateKeys.size()) + "\"");
        }
        boolean shared = sharedCache != null && sessionCache != SslContext.CACHE_OFF
            && sessionCache != SslContext.CACHE_NONE;
        ctx = context(namer, shared ? caches.apply(sharedCache) : null);
    }

    private SslContext context(ServerNamer namer, SharedSessionCache cache) throws ConfException {
        SslContext c;
        try {
            c = SslContext.server(protocols);
        } catch (SslException e) {
            throw new ConfException(e.getMessage());
        }
        try {
            for (int i = 0; i < certificates.size(); i++) {
                c.certificate(certificates.get(i), certificateKeys.get(i),
                              passwords == null ? List.of() : passwords);
            }
            c.ciphers(ciphers, preferServerCiphers == 1);
            c.ecdhCurve(ecdhCurve);
            c.sessionCache(sessionCache, sessionTimeout, sessionContext());
            if (cache != null) {
                c.sharedSessionCache(cache, sessionTimeout);
            }
            if (sessionTickets == 0) {
                c.noTickets();
            } else if (ticketKeys != null) {
                c.ticketKeys(new TicketKeys(ticketKeys));
            } else if (cache != null) {
                // the key every worker finds in the zone, kept across reloads (nginx 1.23.2 keeps its keys there)
                c.ticketKeys(new TicketKeys(cache::ticketKey));
            }
            if (confCommands != null) {
                c.confCommands(confCommands);
            }
            c.alpn(List.of("http/1.1", "http/1.0", "http/0.9"));
            c.serverName(namer::select);
            return c;
        } catch (SslException e) {
            c.close();
            throw new ConfException(e.getMessage());
        }
    }

    /** nginx's {@code ngx_ssl_session_id_context()} in spirit: the certificates' names tell servers apart. */
    private byte[] sessionContext() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String cert : certificates) {
                md.update(cert.getBytes(StandardCharsets.UTF_8));
            }
            byte[] d = md.digest();
            return java.util.Arrays.copyOf(d, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the server name selects: the HTTP server by that name, and its context. */
    @FunctionalInterface
    interface ServerNamer {
        SslContext select(SslIo io, String name);
    }
}
