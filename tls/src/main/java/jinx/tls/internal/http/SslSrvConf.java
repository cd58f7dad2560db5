package jinx.tls.internal.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import jinx.http.ClientConnection;
import jinx.http.spi.ComplexValue;
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
 * Stream's {@code ngx_stream_ssl_conf_t} is the same with a few fields more: {@code StreamSslSrvConf} extends it,
 * so that one table ({@link SslDirectives#directives}) and one merge serve both.
 */
public class SslSrvConf {

    static final int UNSET = -1;

    protected List<String> certificates;
    protected List<String> certificateKeys;
    /* the same, compiled: with variables the files are chosen per handshake (nginx's certificate_values) */
    List<ComplexValue> certificateValues;
    List<ComplexValue> certificateKeyValues;
    /** The configuration's directory, which relative names a handshake evaluates are taken from. */
    java.nio.file.Path confPrefix;
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
    /** {@code ssl_verify_client}: 0 off, 1 on, 2 optional, 3 optional_no_ca (nginx's values). */
    int verify = UNSET;
    int verifyDepth = UNSET;
    String clientCertificate;
    String trustedCertificate;
    String crl;
    String dhparam;
    int rejectHandshake = UNSET;
    int earlyData = UNSET;
    int stapling = UNSET;
    int staplingVerify = UNSET;
    String staplingFile;
    String staplingResponder;

    /** The protocols ALPN chooses from: HTTP's; stream's {@code ssl_alpn}, or null for no ALPN. */
    protected List<String> alpn = List.of("http/1.1", "http/1.0", "http/0.9");

    /** The server's context, made by {@link #merge} when the server has certificates; null otherwise. */
    public SslContext ctx;

    /** Makes an unset conf. */
    public SslSrvConf() {
    }

    /**
     * Merges with the parent's and makes the context where there are certificates.
     *
     * @param p the parent's
     * @param namer what the TLS server name selects, or null for nothing (stream)
     * @param caches the configuration's shared session cache for a zone ({@code ssl_session_cache shared:})
     * @throws ConfException nginx's texts
     */
    public void merge(SslSrvConf p, ServerNamer namer, Function<SharedZone, SharedSessionCache> caches)
        throws ConfException {
        if (certificates == null) {
            certificates = p.certificates;
            certificateValues = p.certificateValues;
            confPrefix = p.confPrefix;
        }
        if (certificateKeys == null) {
            certificateKeys = p.certificateKeys;
            certificateKeyValues = p.certificateKeyValues;
        }
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
        mergeVerify(p);
        if (certificates == null) {
            if (rejectHandshake == 1) {
                ctx = context(namer, null);
            }
            return;
        }
        if (certificateKeys == null || certificateKeys.size() < certificates.size()) {
            // nginx: no "ssl_certificate_key" is defined for certificate "%V"
            throw new ConfException("no \"ssl_certificate_key\" is defined for certificate \""
                                    + certificates.get(certificateKeys == null ? 0 : certificateKeys.size()) + "\"");
        }
        boolean shared = sharedCache != null && sessionCache != SslContext.CACHE_OFF
            && sessionCache != SslContext.CACHE_NONE;
        ctx = context(namer, shared && caches != null ? caches.apply(sharedCache) : null);
    }

    private void mergeVerify(SslSrvConf p) {
        verify = verify != UNSET ? verify : p.verify != UNSET ? p.verify : 0;
        verifyDepth = verifyDepth != UNSET ? verifyDepth : p.verifyDepth != UNSET ? p.verifyDepth : 1;
        clientCertificate = clientCertificate != null ? clientCertificate : p.clientCertificate;
        trustedCertificate = trustedCertificate != null ? trustedCertificate : p.trustedCertificate;
        crl = crl != null ? crl : p.crl;
        dhparam = dhparam != null ? dhparam : p.dhparam;
        rejectHandshake = rejectHandshake != UNSET ? rejectHandshake : p.rejectHandshake != UNSET
            ? p.rejectHandshake : 0;
        stapling = stapling != UNSET ? stapling : p.stapling != UNSET ? p.stapling : 0;
        staplingVerify = staplingVerify != UNSET ? staplingVerify : p.staplingVerify != UNSET ? p.staplingVerify : 0;
        staplingFile = staplingFile != null ? staplingFile : p.staplingFile;
        staplingResponder = staplingResponder != null ? staplingResponder : p.staplingResponder;
    }

    /**
     * nginx's {@code ngx_http_ssl_merge_srv_conf()} from {@code conf->verify} to the DH parameters (1.22's order):
     * client certificates, trusted ones, revocation lists.
     */
    private void verification(SslContext c) throws ConfException, SslException {
        if (verify != 0) {
            if (clientCertificate == null && verify != 3) {
                throw new ConfException("no ssl_client_certificate for ssl_verify_client");
            }
            c.clientCertificate(clientCertificate, verifyDepth);
        }
        if (trustedCertificate != null) {
            c.trustedCertificate(trustedCertificate, verifyDepth);
        }
        if (crl != null) {
            c.crl(crl);
        }
        if (dhparam != null) {
            c.dhparam(dhparam);
        }
    }

    private SslContext context(ServerNamer namer, SharedSessionCache cache) throws ConfException {
        SslContext c;
        try {
            c = SslContext.server(protocols);
        } catch (SslException e) {
            throw new ConfException(e.getMessage());
        }
        try {
            if (variables()) {
                c.certificates(this::files, passwords == null ? List.of() : passwords);
            } else {
                for (int i = 0; certificates != null && i < certificates.size(); i++) {
                    c.certificate(certificates.get(i), certificateKeys.get(i),
                                  passwords == null ? List.of() : passwords);
                }
            }
            c.ciphers(ciphers, preferServerCiphers == 1);
            verification(c);
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
            if (stapling == 1 && staplingFile != null) {
                // without a file nginx fetches the response from the responder, which needs the resolver: not yet
                c.staplingFile(staplingFile);
            }
            if (confCommands != null) {
                c.confCommands(confCommands);
            }
            if (rejectHandshake == 1) {
                c.rejectHandshake();
            }
            if (alpn != null) {
                c.alpn(alpn);
            }
            if (namer != null) {
                c.serverName(namer::select);
            }
            return c;
        } catch (SslException e) {
            c.close();
            throw new ConfException(e.getMessage());
        } catch (ConfException e) {
            c.close();
            throw e;
        }
    }

    /** nginx's {@code ngx_http_ssl_compile_certificates()}: does a certificate or key name variables? */
    private boolean variables() {
        for (int i = 0; certificateValues != null && i < certificateValues.size(); i++) {
            if (!certificateValues.get(i).isStatic() || !certificateKeyValues.get(i).isStatic()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The files of a handshake's certificates: nginx's {@code ngx_http_ssl_certificate()}, the values evaluated in
     * the connection's server, a relative name taken from the configuration's directory.
     */
    private List<String> files(SslIo io) {
        ClientConnection hc = ClientConnection.of(io.connection());
        if (hc == null) {
            return null;
        }
        List<String> files = new ArrayList<>(2 * certificateValues.size());
        for (int i = 0; i < certificateValues.size(); i++) {
            files.add(full(hc.evaluate(certificateValues.get(i))));
            files.add(full(hc.evaluate(certificateKeyValues.get(i))));
        }
        return files;
    }

    /** A relative name taken from the configuration's directory (nginx's {@code ngx_get_full_name()}). */
    private String full(String name) {
        if (name.startsWith("/") || name.startsWith("data:") || confPrefix == null) {
            return name;
        }
        return confPrefix.resolve(name).toString();
    }

    /** nginx's {@code ngx_ssl_session_id_context()} in spirit: the certificates' names tell servers apart. */
    private byte[] sessionContext() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String cert : certificates != null ? certificates : List.<String>of()) {
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
    public interface ServerNamer {
        /**
         * Selects by the name.
         *
         * @param io the connection's TLS
         * @param name the name the client sent
         * @return the context to switch to, or null to keep the connection's
         */
        SslContext select(SslIo io, String name);
    }
}
