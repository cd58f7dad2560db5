package jinx.proxy.upstream;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jinx.kernel.ConfException;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.DirectiveHandler;
import jinx.kernel.spi.Slots;

/**
 * TLS to upstreams as a configuration: the {@code proxy_ssl_*} directives HTTP's proxy and stream's share
 * (nginx's {@code ngx_http_proxy_merge_ssl()}/{@code ngx_http_proxy_set_ssl()} and their stream twins), the client
 * context they make through the kernel's {@link TlsClient}, and nginx's {@code ngx_*_upstream_ssl_name()} rules for
 * the name sent and checked. A conf that sets none of the directives a context is made of shares its parent's, as
 * nginx does, so that many locations or servers under one set of {@code proxy_ssl_*} lines make one context.
 *
 * @param <V> the module's compiled value for {@code proxy_ssl_name}
 */
public final class UpstreamSsl<V> {

    /* nginx's ngx_http_proxy_ssl_protocols */
    private static final Map<String, Integer> PROTOCOLS = Map.of(
        "SSLv2", 0x2, "SSLv3", 0x4, "TLSv1", 0x8, "TLSv1.1", 0x10, "TLSv1.2", 0x20, "TLSv1.3", 0x40);
    /* nginx 1.23.4's default (1.22's had no TLSv1.3) */
    private static final int DEFAULT_PROTOCOLS = 0x20 | 0x40;

    /** {@code proxy_ssl_session_reuse}, 1 or 0 once merged. */
    public int sessionReuse = Conf.UNSET;
    int protocols;
    String ciphers;
    /** {@code proxy_ssl_name}, or null for the upstream's host. */
    public V name;
    /** {@code proxy_ssl_server_name}, 1 or 0 once merged. */
    public int serverName = Conf.UNSET;
    int verify = Conf.UNSET;
    int verifyDepth = Conf.UNSET;
    String trusted;
    String crl;
    String certificate;
    String certificateKey;
    List<String> passwords;
    List<String> confCommands;

    /** Whether this conf proxies over TLS and so needs a client context ({@code https://}, {@code proxy_ssl on}). */
    public boolean needed;
    /** The cycle's client TLS, set where {@link #needed} is; null in a build without it. */
    public TlsClient.Provider provider;
    /** The client context, once merged where {@link #needed}. */
    public TlsClient client;

    /**
     * The directives, for a module's table: {@code proxy_ssl_session_reuse}, {@code _protocols}, {@code _ciphers},
     * {@code _name}, {@code _server_name}, {@code _verify}, {@code _verify_depth}, {@code _trusted_certificate},
     * {@code _crl}, {@code _certificate}, {@code _certificate_key}, {@code _password_file} and
     * {@code _conf_command}.
     *
     * @param ctxs where they stand
     * @param type the module's conf class
     * @param ssl the conf's TLS part
     * @param name how the module compiles {@code proxy_ssl_name}'s value (variables)
     * @param <C> the conf class
     * @param <V> the compiled value
     * @return the table's rows
     */
    public static <C, V> List<Directive<?>> directives(Set<Ctx> ctxs, Class<C> type,
                                                       Function<C, UpstreamSsl<V>> ssl,
                                                       DirectiveHandler<C> name) {
        return List.of(
            Directive.of("proxy_ssl_session_reuse", ctxs, Arity.FLAG, type,
                    Slots.flag((C c, boolean v) -> ssl.apply(c).sessionReuse = v ? 1 : 0))
                .syntax("on | off").defaults("on")
                .describe("Determines whether SSL sessions can be reused when working with the proxied server."),
            Directive.of("proxy_ssl_protocols", ctxs, Arity.ONE_MORE, type,
                    Slots.bitmask(PROTOCOLS, (C c, int v) -> ssl.apply(c).protocols = v))
                .syntax("[SSLv2] [SSLv3] [TLSv1] [TLSv1.1] [TLSv1.2] [TLSv1.3]").defaults("TLSv1.2 TLSv1.3")
                .describe("Enables the specified protocols for connections to a proxied server."),
            Directive.of("proxy_ssl_ciphers", ctxs, Arity.TAKE1, type,
                    Slots.str((C c, String v) -> ssl.apply(c).ciphers = v))
                .syntax("ciphers").defaults("DEFAULT")
                .describe("Specifies the enabled ciphers for connections to a proxied server."),
            Directive.of("proxy_ssl_name", ctxs, Arity.TAKE1, type, name)
                .syntax("name").defaults("the host of proxy_pass")
                .describe("Overrides the server name used to verify the certificate of the proxied server and to "
                    + "be passed through SNI."),
            Directive.of("proxy_ssl_server_name", ctxs, Arity.FLAG, type,
                    Slots.flag((C c, boolean v) -> ssl.apply(c).serverName = v ? 1 : 0))
                .syntax("on | off").defaults("off")
                .describe("Enables or disables passing of the server name through TLS SNI to the proxied server."),
            Directive.of("proxy_ssl_verify", ctxs, Arity.FLAG, type,
                    Slots.flag((C c, boolean v) -> ssl.apply(c).verify = v ? 1 : 0))
                .syntax("on | off").defaults("off")
                .describe("Enables or disables verification of the proxied server certificate."),
            Directive.of("proxy_ssl_verify_depth", ctxs, Arity.TAKE1, type,
                    Slots.number((C c, int v) -> ssl.apply(c).verifyDepth = v))
                .syntax("number").defaults("1")
                .describe("Sets the verification depth in the proxied server certificates chain."),
            Directive.of("proxy_ssl_trusted_certificate", ctxs, Arity.TAKE1, type,
                    (cf, c) -> ssl.apply(c).trusted = path(cf))
                .syntax("file")
                .describe("Specifies a file with trusted CA certificates used to verify the proxied server."),
            Directive.of("proxy_ssl_crl", ctxs, Arity.TAKE1, type, (cf, c) -> ssl.apply(c).crl = path(cf))
                .syntax("file")
                .describe("Specifies a file with revoked certificates used to verify the proxied server."),
            Directive.of("proxy_ssl_certificate", ctxs, Arity.TAKE1, type,
                    (cf, c) -> ssl.apply(c).certificate = file(cf))
                .syntax("file")
                .describe("Specifies a file with the certificate used to authenticate to a proxied server."),
            Directive.of("proxy_ssl_certificate_key", ctxs, Arity.TAKE1, type,
                    (cf, c) -> ssl.apply(c).certificateKey = file(cf))
                .syntax("file")
                .describe("Specifies a file with the secret key used to authenticate to a proxied server."),
            Directive.of("proxy_ssl_password_file", ctxs, Arity.TAKE1, type,
                    (cf, c) -> ssl.apply(c).passwordFile(cf))
                .syntax("file").describe("Specifies a file with passphrases for secret keys, one a line."),
            Directive.of("proxy_ssl_conf_command", ctxs, Arity.TAKE2, type,
                    (cf, c) -> ssl.apply(c).confCommand(cf))
                .multi().syntax("name value")
                .describe("Sets arbitrary OpenSSL configuration commands when establishing a connection with the "
                    + "proxied server."));
    }

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

    private void passwordFile(ConfContext cf) throws ConfException {
        if (passwords != null) {
            throw new ConfException("is duplicate");
        }
        passwords = TlsClient.readPasswordFile(cf.resolveConf(cf.arg(1)));
    }

    private void confCommand(ConfContext cf) {
        if (confCommands == null) {
            confCommands = new ArrayList<>();
        }
        confCommands.add(cf.arg(1));
        confCommands.add(cf.arg(2));
    }

    /** Whether none of the directives a context is made of is set here (nginx's {@code preserve}). */
    private boolean contextUnset() {
        return protocols == 0 && ciphers == null && certificate == null && certificateKey == null
            && passwords == null && confCommands == null && sessionReuse == Conf.UNSET && verify == Conf.UNSET
            && verifyDepth == Conf.UNSET && trusted == null && crl == null;
    }

    /**
     * Merges with the parent's and makes the client context where {@link #needed}: nginx's
     * {@code ngx_http_proxy_merge_ssl()} and {@code ngx_http_proxy_set_ssl()}.
     *
     * @param prev the parent's
     * @throws ConfException nginx's texts ({@code no proxy_ssl_trusted_certificate for proxy_ssl_verify}, a file
     *     OpenSSL cannot load, ...)
     */
    public void merge(UpstreamSsl<V> prev) throws ConfException {
        if (provider == null) {
            provider = prev.provider;
        }
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
        if (!needed || client != null || provider == null) {
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

    /**
     * The name the certificate must match: nginx's {@code ngx_*_upstream_ssl_name()} without the port a name from
     * {@code $http_host} or {@code $proxy_host} may carry.
     *
     * @param value {@code proxy_ssl_name} evaluated, or the upstream's host
     * @return the name, "" for none
     */
    public static String name(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        int from = 0;
        if (value.charAt(0) == '[') {
            int close = value.indexOf(']');
            from = close < 0 ? 0 : close;
        }
        int colon = value.indexOf(':', from);
        return colon < 0 ? value : value.substring(0, colon);
    }

    /**
     * The TLS server name to send for {@code name} when {@code proxy_ssl_server_name} is on: none for an IP address
     * literal, as RFC 6066 wants (nginx's {@code ngx_inet_addr()} test and the {@code [} of an IPv6 one).
     *
     * @param name a name from {@link #name(String)}
     * @return the name, or null
     */
    public String serverNameFor(String name) {
        if (serverName != 1 || name.isEmpty() || name.charAt(0) == '[' || ipv4(name)) {
            return null;
        }
        return name;
    }

    /** nginx's {@code ngx_inet_addr() != INADDR_NONE}: four decimal octets. */
    static boolean ipv4(String s) {
        int octets = 0;
        int value = -1;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= '0' && ch <= '9') {
                value = (value < 0 ? 0 : value * 10) + (ch - '0');
                if (value > 255) {
                    return false;
                }
            } else if (ch == '.' && value >= 0) {
                octets++;
                value = -1;
            } else {
                return false;
            }
        }
        return value >= 0 && octets == 3;
    }
}
