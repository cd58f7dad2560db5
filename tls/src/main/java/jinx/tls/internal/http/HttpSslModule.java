package jinx.tls.internal.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfKey;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.tls.PeerCertificate;
import jinx.tls.SharedSessionCache;
import jinx.tls.SslContext;
import jinx.tls.SslIo;

/**
 * The {@code http_ssl} module: nginx's {@code ngx_http_ssl_module}. It registers {@code listen}'s {@code ssl}
 * parameter (whose connections {@link HttpsHandshake} takes over), the {@code ssl_*} directives, a context per server
 * with certificates, and the variables {@code $ssl_protocol}, {@code $ssl_cipher}, {@code $ssl_server_name},
 * {@code $ssl_session_reused}, {@code $ssl_session_id}, {@code $ssl_alpn_protocol} and the client certificate's
 * {@code $ssl_client_*} ({@code $https} and
 * {@code $scheme} are HTTP's own, from the connection being secured).
 */
public final class HttpSslModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_ssl";

    private HttpConfKey<SslSrvConf> key;
    private HttpsHandshake handshake;
    /** The contexts this configuration made, freed with it (nginx's pool cleanup of {@code ngx_ssl_cleanup_ctx}). */
    private final List<SslContext> contexts = new ArrayList<>();
    /** The shared session caches of this configuration, by zone name (several servers may share one). */
    private final Map<String, SharedSessionCache> caches = new HashMap<>();

    /** Instantiated by the kernel, once per configuration. */
    public HttpSslModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public List<Directive<?>> directives() {
        return SslDirectives.DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        key = cf.confKey(this, SslSrvConf.class);
        handshake = new HttpsHandshake(key);
        cf.addListenParameter("ssl", handshake);
        variable(cf, "ssl_protocol", SslIo::protocol);
        variable(cf, "ssl_cipher", SslIo::cipher);
        // during the handshake too: a certificate is named by it (nginx checks c->ssl only)
        cf.addVariable("ssl_server_name", (HttpRequest r, String n) -> r.connection().io() instanceof SslIo io
            && !io.serverName().isEmpty() ? io.serverName() : null, HttpConfig.VAR_NOCACHEABLE);
        variable(cf, "ssl_session_reused", io -> io.sessionReused() ? "r" : ".");
        variable(cf, "ssl_session_id", SslIo::sessionId);
        variable(cf, "ssl_alpn_protocol", io -> io.alpnProtocol().isEmpty() ? null : io.alpnProtocol());
        // "1" while the request came as early data, which is never read (ssl_early_data is refused): empty
        variable(cf, "ssl_early_data", io -> "");
        variable(cf, "ssl_client_cert", PeerCertificate::pemTabbed);
        variable(cf, "ssl_client_raw_cert", PeerCertificate::rawPem);
        variable(cf, "ssl_client_escaped_cert", io -> escapeUriComponent(PeerCertificate.rawPem(io)));
        variable(cf, "ssl_client_s_dn", PeerCertificate::subjectDn);
        variable(cf, "ssl_client_i_dn", PeerCertificate::issuerDn);
        variable(cf, "ssl_client_serial", PeerCertificate::serial);
        variable(cf, "ssl_client_fingerprint", PeerCertificate::fingerprint);
        variable(cf, "ssl_client_verify", PeerCertificate::verify);
        variable(cf, "ssl_client_v_start", PeerCertificate::validFrom);
        variable(cf, "ssl_client_v_end", PeerCertificate::validUntil);
        variable(cf, "ssl_client_v_remain", PeerCertificate::daysRemaining);
    }

    /** A variable of the connection's TLS: not found on a plain connection, as nginx's {@code c->ssl == NULL}. */
    private static void variable(HttpConfig cf, String name, java.util.function.Function<SslIo, String> get)
        throws ConfException {
        cf.addVariable(name, (HttpRequest r, String n) -> r.connection().io() instanceof SslIo io && io.handshaked()
            ? get.apply(io) : null, HttpConfig.VAR_NOCACHEABLE);
    }

    /** nginx's {@code ngx_escape_uri(NGX_ESCAPE_URI_COMPONENT)}: all but letters, digits and {@code -._~}. */
    static String escapeUriComponent(String s) {
        StringBuilder b = new StringBuilder(s.length() * 3 / 2);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '.'
                || ch == '_' || ch == '~') {
                b.append(ch);
            } else {
                b.append('%').append(HEX[(ch >> 4) & 0xf]).append(HEX[ch & 0xf]);
            }
        }
        return b.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    @Override
    public Object createSrvConf() {
        return new SslSrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) throws ConfException {
        SslSrvConf conf = key.cast(child);
        conf.merge(key.cast(parent), handshake::serverName,
                   zone -> caches.computeIfAbsent(zone.name(), n -> new SharedSessionCache(zone)));
        if (conf.ctx != null) {
            contexts.add(conf.ctx);
        }
    }

    /** The master, once the shared memory is there: each shared session cache's table (nginx's zone init). */
    @Override
    public void initModule(Cycle cycle) {
        for (SharedSessionCache c : caches.values()) {
            c.init();
        }
    }

    /**
     * The cycle is over in this worker (it exits, or a reload drained it): its contexts are freed, OpenSSL keeping
     * each until its last connection is gone. Without this every in-place reload would leave the old contexts'
     * native memory behind.
     */
    @Override
    public void exitProcess(Cycle cycle) {
        closeContexts();
    }

    /** The same in the master, for a cycle a reload replaced or the master's last. */
    @Override
    public void exitMaster(Cycle cycle) {
        closeContexts();
    }

    private void closeContexts() {
        for (SslContext c : contexts) {
            c.close();
        }
        contexts.clear();
    }
}
