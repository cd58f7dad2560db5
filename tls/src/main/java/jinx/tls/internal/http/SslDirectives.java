package jinx.tls.internal.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;
import jinx.tls.SslContext;
import jinx.tls.TicketKeys;

/**
 * The directives of {@code ngx_http_ssl_module}, nginx's names, contexts, defaults and error texts; stream's
 * {@code ngx_stream_ssl_module} has the same on its own contexts ({@link #directives}), as the proxy's and stream's
 * {@code proxy_ssl_*} share {@code UpstreamSsl}.
 */
public final class SslDirectives {

    private static final Set<Ctx> MAIN_SRV = Set.of(HttpCtx.MAIN, HttpCtx.SRV);

    /* nginx's ngx_http_ssl_protocols: SSLv2 and SSLv3 are accepted and never offered by OpenSSL 3 */
    private static final Map<String, Integer> PROTOCOLS = Map.of(
        "SSLv2", SslContext.SSLV2, "SSLv3", SslContext.SSLV3, "TLSv1", SslContext.TLSV1,
        "TLSv1.1", SslContext.TLSV1_1, "TLSv1.2", SslContext.TLSV1_2, "TLSv1.3", SslContext.TLSV1_3);

    /* nginx's ngx_http_ssl_verify */
    private static final Map<String, Integer> VERIFY = Map.of("off", 0, "on", 1, "optional", 2, "optional_no_ca", 3);

    /* nginx's NGX_SSL_SESSION_CACHE minimum of a shared cache: 8 pages */
    private static final long SHARED_MIN = 8 * 4096;

    static final List<Directive<?>> DIRECTIVES = directives(MAIN_SRV);

    /**
     * The table on other contexts: stream's {@code stream} and {@code server}.
     *
     * @param ctxs where the directives stand
     * @return the rows, each setting an {@link SslSrvConf}
     */
    public static List<Directive<?>> directives(Set<Ctx> ctxs) {
        return List.of(
        Directive.of("ssl_certificate", ctxs, Arity.TAKE1, SslSrvConf.class,
                (cf, c) -> {
                    c.certificates = add(c.certificates, path(cf));
                    c.certificateValues = addValue(c.certificateValues, cf);
                    c.confPrefix = cf.resolveConf("x").getParent();
                }).multi()
            .syntax("file").describe("Specifies a file with the certificate in PEM format; several for several key "
                + "types. Variables name the file per handshake ($ssl_server_name), loaded each time."),
        Directive.of("ssl_certificate_key", ctxs, Arity.TAKE1, SslSrvConf.class,
                (cf, c) -> {
                    c.certificateKeys = add(c.certificateKeys, path(cf));
                    c.certificateKeyValues = addValue(c.certificateKeyValues, cf);
                }).multi()
            .syntax("file").describe("Specifies a file with the secret key in PEM format."),
        Directive.of("ssl_password_file", ctxs, Arity.TAKE1, SslSrvConf.class, SslDirectives::passwordFile)
            .syntax("file").describe("Specifies a file with passphrases for secret keys, one a line."),
        Directive.of("ssl_protocols", ctxs, Arity.ONE_MORE, SslSrvConf.class,
                Slots.bitmask(PROTOCOLS, (SslSrvConf c, int v) -> c.protocols = v))
            .syntax("[SSLv2] [SSLv3] [TLSv1] [TLSv1.1] [TLSv1.2] [TLSv1.3]").defaults("TLSv1 TLSv1.1 TLSv1.2 TLSv1.3")
            .describe("Enables the specified protocols."),
        Directive.of("ssl_ciphers", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.str((SslSrvConf c, String v) -> c.ciphers = v))
            .syntax("ciphers").defaults("HIGH:!aNULL:!MD5")
            .describe("Specifies the enabled ciphers, in OpenSSL's format."),
        Directive.of("ssl_prefer_server_ciphers", ctxs, Arity.FLAG, SslSrvConf.class,
                Slots.flag((SslSrvConf c, boolean v) -> c.preferServerCiphers = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Prefers the server's ciphers to the client's for TLS 1.2 and older."),
        Directive.of("ssl_ecdh_curve", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.str((SslSrvConf c, String v) -> c.ecdhCurve = v))
            .syntax("curve").defaults("auto").describe("Specifies the curves for ECDHE ciphers."),
        Directive.of("ssl_session_cache", ctxs, Arity.TAKE12, SslSrvConf.class, SslDirectives::sessionCache)
            .syntax("off | none | [builtin[:size]] [shared:name:size]").defaults("none")
            .describe("Sets the types and sizes of caches that store session parameters."),
        Directive.of("ssl_session_timeout", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.sec((SslSrvConf c, long v) -> c.sessionTimeout = v))
            .syntax("time").defaults("5m").describe("Specifies how long a client may reuse session parameters."),
        Directive.of("ssl_session_tickets", ctxs, Arity.FLAG, SslSrvConf.class,
                Slots.flag((SslSrvConf c, boolean v) -> c.sessionTickets = v ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Enables or disables session resumption through tickets."),
        Directive.of("ssl_session_ticket_key", ctxs, Arity.TAKE1, SslSrvConf.class, SslDirectives::ticketKey)
            .multi().syntax("file")
            .describe("Sets a file with the secret key that encrypts and decrypts session tickets (48 or 80 "
                + "bytes); the first encrypts."),
        Directive.of("ssl_buffer_size", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.size((SslSrvConf c, long v) -> c.bufferSize = v))
            .syntax("size").defaults("16k").describe("Sets the size of the buffer used for sending data."),
        Directive.of("ssl_conf_command", ctxs, Arity.TAKE2, SslSrvConf.class,
                (cf, c) -> c.confCommands = add(add(c.confCommands, cf.arg(1)), cf.arg(2))).multi()
            .syntax("name value").describe("Sets arbitrary OpenSSL configuration commands."),
        Directive.of("ssl_verify_client", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.oneOf(VERIFY, (SslSrvConf c, Integer v) -> c.verify = v))
            .syntax("on | off | optional | optional_no_ca").defaults("off")
            .describe("Enables verification of client certificates; the result is in $ssl_client_verify."),
        Directive.of("ssl_verify_depth", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.number((SslSrvConf c, int v) -> c.verifyDepth = v))
            .syntax("number").defaults("1").describe("Sets the verification depth in the client certificates chain."),
        Directive.of("ssl_client_certificate", ctxs, Arity.TAKE1, SslSrvConf.class,
                (cf, c) -> c.clientCertificate = path(cf))
            .syntax("file").describe("Specifies a file with trusted CA certificates in PEM format used to verify "
                + "client certificates, and sent to clients."),
        Directive.of("ssl_trusted_certificate", ctxs, Arity.TAKE1, SslSrvConf.class,
                (cf, c) -> c.trustedCertificate = path(cf))
            .syntax("file").describe("Specifies a file with trusted CA certificates in PEM format used to verify "
                + "client certificates, not sent to clients."),
        Directive.of("ssl_crl", ctxs, Arity.TAKE1, SslSrvConf.class, (cf, c) -> c.crl = path(cf))
            .syntax("file").describe("Specifies a file with revoked certificates (CRL) in PEM format used to verify "
                + "client certificates."),
        Directive.of("ssl_dhparam", ctxs, Arity.TAKE1, SslSrvConf.class, (cf, c) -> c.dhparam = path(cf))
            .syntax("file").describe("Specifies a file with DH parameters for DHE ciphers."),
        Directive.of("ssl_reject_handshake", ctxs, Arity.FLAG, SslSrvConf.class,
                Slots.flag((SslSrvConf c, boolean v) -> c.rejectHandshake = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Rejects SSL handshakes in the server block (the unrecognized_name alert)."),
        Directive.of("ssl_stapling", ctxs, Arity.FLAG, SslSrvConf.class,
                Slots.flag((SslSrvConf c, boolean v) -> c.stapling = v ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Enables stapling of OCSP responses by the server; in Jinx "
                + "from ssl_stapling_file only (fetching from the responder needs the resolver, not done yet)."),
        Directive.of("ssl_stapling_file", ctxs, Arity.TAKE1, SslSrvConf.class,
                (cf, c) -> c.staplingFile = path(cf))
            .syntax("file").describe("Sets the file (DER) of the OCSP response stapled instead of querying the "
                + "responder."),
        Directive.of("ssl_stapling_responder", ctxs, Arity.TAKE1, SslSrvConf.class,
                Slots.str((SslSrvConf c, String v) -> c.staplingResponder = v))
            .syntax("url").describe("Overrides the URL of the OCSP responder (accepted; fetching is not done yet)."),
        Directive.of("ssl_stapling_verify", ctxs, Arity.FLAG, SslSrvConf.class,
                Slots.flag((SslSrvConf c, boolean v) -> c.staplingVerify = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Enables verification of fetched OCSP responses (accepted; fetching is not done yet)."),
        Directive.of("ssl_early_data", ctxs, Arity.FLAG, SslSrvConf.class, SslDirectives::earlyData)
            .syntax("on | off").defaults("off").describe("Enables TLS 1.3 early data; Jinx does not read early data "
                + "yet and says so, as nginx on a library without it ($ssl_early_data stays empty)."));
    }

    private SslDirectives() {
    }

    private static List<String> add(List<String> list, String v) {
        List<String> l = list != null ? list : new ArrayList<>();
        l.add(v);
        return l;
    }

    /** The argument compiled, for a file named by variables ({@code $ssl_server_name}): nginx 1.15.9. */
    private static List<ComplexValue> addValue(List<ComplexValue> list, ConfContext cf) throws ConfException {
        List<ComplexValue> l = list != null ? list : new ArrayList<>();
        l.add(HttpDirectives.compile(cf, cf.arg(1)));
        return l;
    }

    private static String path(ConfContext cf) {
        return cf.resolveConf(cf.arg(1)).toString();
    }

    private static void passwordFile(ConfContext cf, SslSrvConf c) throws ConfException {
        if (c.passwords != null) {
            throw new ConfException("is duplicate");
        }
        c.passwords = TlsClient.readPasswordFile(cf.resolveConf(cf.arg(1)));
    }

    /** nginx's {@code ngx_http_ssl_session_cache()}. */
    private static void sessionCache(ConfContext cf, SslSrvConf c) throws ConfException {
        for (String v : cf.args().subList(1, cf.args().size())) {
            if (v.equals("off")) {
                c.sessionCache = SslContext.CACHE_OFF;
            } else if (v.equals("none")) {
                c.sessionCache = SslContext.CACHE_NONE;
            } else if (v.equals("builtin")) {
                c.sessionCache = SslContext.CACHE_BUILTIN_DEFAULT;
            } else if (v.startsWith("builtin:")) {
                int n = ConfValues.parseNumber(v.substring(8));
                if (n <= 0) {
                    throw invalidCache(v);
                }
                c.sessionCache = n;
            } else if (v.startsWith("shared:")) {
                c.sharedCache = shared(cf, v);
            } else {
                throw invalidCache(v);
            }
        }
        if (c.sharedCache != null && c.sessionCache == SslSrvConf.UNSET - 100) {
            c.sessionCache = SslContext.CACHE_NO_BUILTIN;
        }
    }

    /** {@code shared:name:size}: the zone, declared in the cycle under this module's tag. */
    private static SharedZone shared(ConfContext cf, String v) throws ConfException {
        int colon = v.indexOf(':', 7);
        if (colon < 0 || colon == 7) {
            throw invalidCache(v);
        }
        long size = ConfValues.parseSize(v.substring(colon + 1));
        if (size < 0) {
            throw invalidCache(v);
        }
        if (size < SHARED_MIN) {
            throw new ConfException("session cache \"" + v + "\" is too small");
        }
        return cf.cycle().sharedZone(v.substring(7, colon), size, HttpSslModule.NAME);
    }

    private static ConfException invalidCache(String v) {
        return new ConfException("invalid session cache \"" + v + "\"");
    }

    /**
     * {@code ssl_early_data}: accepted, and refused with nginx's warning for a library without early data
     * ({@code ngx_ssl_early_data()}), since the handshake does not read early data yet.
     */
    private static void earlyData(ConfContext cf, SslSrvConf c) throws ConfException {
        Slots.flag((SslSrvConf conf, boolean v) -> conf.earlyData = v ? 1 : 0).set(cf, c);
        if (c.earlyData == 1) {
            cf.log(LogLevel.WARN, "\"ssl_early_data\" is not supported on this platform, ignored");
        }
    }

    /** nginx's {@code ngx_ssl_session_ticket_keys()}: files of 48 or 80 bytes. */
    private static void ticketKey(ConfContext cf, SslSrvConf c) throws ConfException {
        Path file = cf.resolveConf(cf.arg(1));
        byte[] key;
        try {
            key = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfException("open() \"" + file + "\" failed (2: No such file or directory)");
        }
        if (!TicketKeys.validSize(key.length)) {
            throw new ConfException("\"" + file + "\" must be 48 or 80 bytes");
        }
        if (c.ticketKeys == null) {
            c.ticketKeys = new ArrayList<>();
        }
        c.ticketKeys.add(key);
    }
}
