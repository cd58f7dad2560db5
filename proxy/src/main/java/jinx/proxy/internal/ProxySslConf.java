package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.kernel.ConfException;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;

/**
 * The {@code proxy_ssl_*} directives and what they make: nginx's {@code ngx_http_proxy_merge_ssl()} and
 * {@code ngx_http_proxy_set_ssl()}. A location that proxies to {@code https://} (or to a URL of variables) gets a
 * client context from the cycle's {@link TlsClient.Provider}; one that sets none of the directives the context is
 * made of shares its parent's, as nginx does, so that many locations under one set of {@code proxy_ssl_*} lines
 * make one context.
 */
final class ProxySslConf {

    private static final Set<Ctx> ANY = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    /* nginx's ngx_http_proxy_ssl_protocols */
    private static final Map<String, Integer> PROTOCOLS = Map.of(
        "SSLv2", 0x2, "SSLv3", 0x4, "TLSv1", 0x8, "TLSv1.1", 0x10, "TLSv1.2", 0x20, "TLSv1.3", 0x40);
    /* nginx 1.23.4's default (1.22's had no TLSv1.3) */
    private static final int DEFAULT_PROTOCOLS = 0x20 | 0x40;

    static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("proxy_ssl_session_reuse", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean v) -> c.ssl.sessionReuse = v ? 1 : 0))
            .syntax("on | off").defaults("on")
            .describe("Determines whether SSL sessions can be reused when working with the proxied server."),
        Directive.of("proxy_ssl_protocols", ANY, Arity.ONE_MORE, ProxyLocConf.class,
                Slots.bitmask(PROTOCOLS, (ProxyLocConf c, int v) -> c.ssl.protocols = v))
            .syntax("[SSLv2] [SSLv3] [TLSv1] [TLSv1.1] [TLSv1.2] [TLSv1.3]").defaults("TLSv1.2 TLSv1.3")
            .describe("Enables the specified protocols for requests to a proxied HTTPS server."),
        Directive.of("proxy_ssl_ciphers", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.str((ProxyLocConf c, String v) -> c.ssl.ciphers = v))
            .syntax("ciphers").defaults("DEFAULT")
            .describe("Specifies the enabled ciphers for requests to a proxied HTTPS server."),
        Directive.of("proxy_ssl_name", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.ssl.name = HttpDirectives.compile(cf, cf.arg(1)))
            .syntax("name").defaults("$proxy_host")
            .describe("Overrides the server name used to verify the certificate of the proxied HTTPS server and "
                + "to be passed through SNI."),
        Directive.of("proxy_ssl_server_name", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean v) -> c.ssl.serverName = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Enables or disables passing of the server name through TLS SNI to the proxied server."),
        Directive.of("proxy_ssl_verify", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean v) -> c.ssl.verify = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Enables or disables verification of the proxied HTTPS server certificate."),
        Directive.of("proxy_ssl_verify_depth", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.number((ProxyLocConf c, int v) -> c.ssl.verifyDepth = v))
            .syntax("number").defaults("1")
            .describe("Sets the verification depth in the proxied HTTPS server certificates chain."),
        Directive.of("proxy_ssl_trusted_certificate", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.ssl.trusted = path(cf))
            .syntax("file")
            .describe("Specifies a file with trusted CA certificates used to verify the proxied HTTPS server."),
        Directive.of("proxy_ssl_crl", ANY, Arity.TAKE1, ProxyLocConf.class, (cf, c) -> c.ssl.crl = path(cf))
            .syntax("file")
            .describe("Specifies a file with revoked certificates used to verify the proxied HTTPS server."),
        Directive.of("proxy_ssl_certificate", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.ssl.certificate = file(cf))
            .syntax("file")
            .describe("Specifies a file with the certificate used to authenticate to a proxied HTTPS server."),
        Directive.of("proxy_ssl_certificate_key", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.ssl.certificateKey = file(cf))
            .syntax("file")
            .describe("Specifies a file with the secret key used to authenticate to a proxied HTTPS server."),
        Directive.of("proxy_ssl_password_file", ANY, Arity.TAKE1, ProxyLocConf.class, ProxySslConf::passwordFile)
            .syntax("file").describe("Specifies a file with passphrases for secret keys, one a line."),
        Directive.of("proxy_ssl_conf_command", ANY, Arity.TAKE2, ProxyLocConf.class, ProxySslConf::confCommand)
            .multi().syntax("name value")
            .describe("Sets arbitrary OpenSSL configuration commands when establishing a connection with the "
                + "proxied HTTPS server."));

    int sessionReuse = Conf.UNSET;
    int protocols;
    String ciphers;
    ComplexValue name;
    int serverName = Conf.UNSET;
    int verify = Conf.UNSET;
    int verifyDepth = Conf.UNSET;
    String trusted;
    String crl;
    String certificate;
    String certificateKey;
    List<String> passwords;
    List<String> confCommands;

    /** Whether this location's {@code proxy_pass} needs a client context: {@code https://} or variables. */
    boolean needed;
    /** The cycle's client TLS, found by {@code proxy_pass}; null in a build without it. */
    TlsClient.Provider provider;
    /** The client context, once merged. */
    TlsClient client;

    private static String path(ConfContext cf) {
        return cf.resolveConf(cf.arg(1)).toString();
    }

    /** nginx 1.21 allows variables here, to load a certificate per request; Jinx not yet: refused, not ignored. */
    private static String file(ConfContext cf) throws ConfException {
        if (cf.arg(1).indexOf('$') >= 0) {
            throw new ConfException("variables in \"" + cf.name() + "\" are not supported");
        }
        return path(cf);
    }

    private static void passwordFile(ConfContext cf, ProxyLocConf c) throws ConfException {
        if (c.ssl.passwords != null) {
            throw new ConfException("is duplicate");
        }
        c.ssl.passwords = TlsClient.readPasswordFile(cf.resolveConf(cf.arg(1)));
    }

    private static void confCommand(ConfContext cf, ProxyLocConf c) {
        if (c.ssl.confCommands == null) {
            c.ssl.confCommands = new ArrayList<>();
        }
        c.ssl.confCommands.add(cf.arg(1));
        c.ssl.confCommands.add(cf.arg(2));
    }

    /** Whether none of the directives a context is made of is set here (nginx's {@code preserve}). */
    private boolean contextUnset() {
        return protocols == 0 && ciphers == null && certificate == null && certificateKey == null
            && passwords == null && confCommands == null && sessionReuse == Conf.UNSET && verify == Conf.UNSET
            && verifyDepth == Conf.UNSET && trusted == null && crl == null;
    }

    /**
     * nginx's {@code ngx_http_proxy_merge_ssl()} and {@code ngx_http_proxy_set_ssl()}.
     *
     * @param prev the parent's
     */
    void merge(ProxySslConf prev) throws ConfException {
        boolean preserve = contextUnset();
        if (preserve && prev.client != null) {
            client = prev.client;
        }
        if (name == null) {
            name = prev.name;
        }
        serverName = Conf.merge(serverName, prev.serverName, 0);
        sessionReuse = Conf.merge(sessionReuse, prev.sessionReuse, 1);
        protocols = protocols != 0 ? protocols : prev.protocols != 0 ? prev.protocols : DEFAULT_PROTOCOLS;
        ciphers = Conf.merge(ciphers, prev.ciphers, "DEFAULT");
        verify = Conf.merge(verify, prev.verify, 0);
        verifyDepth = Conf.merge(verifyDepth, prev.verifyDepth, 1);
        trusted = Conf.merge(trusted, prev.trusted, null);
        crl = Conf.merge(crl, prev.crl, null);
        certificate = Conf.merge(certificate, prev.certificate, null);
        certificateKey = Conf.merge(certificateKey, prev.certificateKey, null);
        passwords = Conf.merge(passwords, prev.passwords, null);
        confCommands = Conf.merge(confCommands, prev.confCommands, null);
        if (!needed || client != null) {
            return;
        }
        if (provider == null) {
            // a URL of variables in a build without client TLS: https:// is refused per request
            return;
        }
        if (certificate != null && certificateKey == null) {
            throw new ConfException("no \"proxy_ssl_certificate_key\" is defined for certificate \""
                + certificate + "\"");
        }
        if (verify == 1 && trusted == null) {
            throw new ConfException("no proxy_ssl_trusted_certificate for proxy_ssl_verify");
        }
        Set<String> names = new LinkedHashSet<>();
        for (Map.Entry<String, Integer> e : PROTOCOLS.entrySet()) {
            if ((protocols & e.getValue()) != 0) {
                names.add(e.getKey());
            }
        }
        client = provider.client(new TlsClient.Settings(names, ciphers, certificate, certificateKey,
            passwords != null ? passwords : List.of(), verify == 1, verifyDepth, trusted, crl, sessionReuse == 1,
            confCommands != null ? confCommands : List.of()));
        if (preserve) {
            // siblings that set nothing either share it
            prev.client = client;
        }
    }
}
