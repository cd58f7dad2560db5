package jinx.tls.internal.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamModule;
import jinx.tls.SharedSessionCache;
import jinx.tls.SslContext;
import jinx.tls.SslIo;
import jinx.tls.internal.http.SslDirectives;

/**
 * The {@code stream_ssl} module: nginx's {@code ngx_stream_ssl_module} (1.22), TLS termination in
 * {@code stream {}}. It adds {@code listen}'s {@code ssl} parameter through the stream SPI, the {@code ssl_*}
 * directives (HTTP's table, {@link SslDirectives#directives}, on stream's contexts, less the HTTP-only ones, with
 * {@code ssl_handshake_timeout} and {@code ssl_alpn}), the handshake in the SSL phase ({@link StreamSslHandshake})
 * and the variables {@code $ssl_protocol}, {@code $ssl_cipher}, {@code $ssl_server_name},
 * {@code $ssl_session_reused}, {@code $ssl_session_id} and {@code $ssl_alpn_protocol}. {@code jinx.stream} knows
 * nothing of it: without this module {@code listen ... ssl} is refused as nginx without the module refuses it.
 */
public final class StreamSslModule implements JinxModule, StreamModule {

    /** The module's name. */
    public static final String NAME = "stream_ssl";

    private static final Set<Ctx> MAIN_SRV = Set.of(StreamModule.MAIN, StreamModule.SRV);

    /*
     * HTTP's alone: nginx's stream module has no ssl_buffer_size, early data, stapling or ssl_reject_handshake (1.22);
     * the client certificate directives it has are not offered until stream's SSL phase checks the result as
     * ngx_stream_ssl_handler does: a directive accepted and not enforced would let unverified clients in
     */
    private static final Set<String> HTTP_ONLY = Set.of("ssl_buffer_size", "ssl_early_data", "ssl_stapling",
        "ssl_stapling_file", "ssl_stapling_responder", "ssl_stapling_verify", "ssl_reject_handshake",
        "ssl_verify_client", "ssl_verify_depth", "ssl_client_certificate", "ssl_trusted_certificate", "ssl_crl");

    private static final List<Directive<?>> DIRECTIVES = table();

    /** The contexts this configuration made, freed with it. */
    private final List<SslContext> contexts = new ArrayList<>();
    /** The shared session caches of this configuration, by zone name. */
    private final Map<String, SharedSessionCache> caches = new HashMap<>();

    /** Instantiated by the kernel, once per configuration. */
    public StreamSslModule() {
    }

    private static List<Directive<?>> table() {
        List<Directive<?>> all = new ArrayList<>();
        all.add(Directive.of("ssl_handshake_timeout", MAIN_SRV, Arity.TAKE1, StreamSslSrvConf.class,
                Slots.msec((StreamSslSrvConf c, long v) -> c.handshakeTimeout = v))
            .syntax("time").defaults("60s").describe("Specifies a timeout for the SSL handshake to complete."));
        for (Directive<?> d : SslDirectives.directives(MAIN_SRV)) {
            if (!HTTP_ONLY.contains(d.name())) {
                all.add(d);
            }
        }
        all.add(Directive.of("ssl_alpn", MAIN_SRV, Arity.ONE_MORE, StreamSslSrvConf.class, StreamSslModule::alpn)
            .syntax("protocol ...")
            .describe("Specifies the list of supported ALPN protocols; a client offering none of them is refused."));
        return List.copyOf(all);
    }

    /** nginx's {@code ngx_stream_ssl_alpn()}. */
    private static void alpn(ConfContext cf, StreamSslSrvConf c) throws ConfException {
        if (c.alpnProtocols != null) {
            throw new ConfException("\"ssl_alpn\" directive is duplicate");
        }
        List<String> names = cf.args().subList(1, cf.args().size());
        for (String n : names) {
            if (n.length() > 255) {
                throw new ConfException("\"ssl_alpn\" directive protocol too long");
            }
        }
        c.alpnProtocols = List.copyOf(names);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return StreamModule.STREAM;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        cf.addListenParameter("ssl", this::listen);
        // nginx's static ones: found once the connection has TLS, handshake done or not, even when empty
        cf.addVariable("ssl_protocol", s -> s.connection().io() instanceof SslIo io ? io.protocol() : null);
        cf.addVariable("ssl_cipher", s -> s.connection().io() instanceof SslIo io
            ? cipherName(io.cipher()) : null);
        variable(cf, "ssl_session_id", SslIo::sessionId);
        variable(cf, "ssl_session_reused", io -> io.sessionReused() ? "r" : ".");
        variable(cf, "ssl_server_name", SslIo::serverName);
        variable(cf, "ssl_alpn_protocol", SslIo::alpnProtocol);
    }

    /** OpenSSL's {@code SSL_get_cipher_name()} of no cipher (a failed handshake's). */
    private static String cipherName(String name) {
        return name.isEmpty() ? "(NONE)" : name;
    }

    /** nginx's {@code ngx_stream_ssl_variable()}: not found on a plain connection, nor when empty. */
    private static void variable(StreamConfig cf, String name, Function<SslIo, String> get) throws ConfException {
        cf.addVariable(name, (StreamSession s) -> {
            if (s.connection().io() instanceof SslIo io) {
                String v = get.apply(io);
                return v == null || v.isEmpty() ? null : v;
            }
            return null;
        });
    }

    /** {@code listen ... ssl} in a server: nginx 1.22's {@code sslcf->listen}, with its file and line. */
    private void listen(ConfContext cf) {
        StreamSslSrvConf c = (StreamSslSrvConf) cf.scope().conf(this, StreamSslSrvConf.class);
        if (!c.listen) {
            c.listen = true;
            c.file = cf.file();
            c.line = cf.line();
        }
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        StreamSslHandshake handshake = new StreamSslHandshake(this);
        cf.addPhaseHandler(StreamPhase.SSL, handshake::handle);
    }

    @Override
    public Object createSrvConf() {
        return new StreamSslSrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) throws ConfException {
        StreamSslSrvConf conf = (StreamSslSrvConf) child;
        conf.merge((StreamSslSrvConf) parent,
                   zone -> caches.computeIfAbsent(zone.name(), n -> new SharedSessionCache(zone)));
        if (conf.ctx != null) {
            contexts.add(conf.ctx);
        }
    }

    /** The master, once the shared memory is there: each shared session cache's table. */
    @Override
    public void initModule(Cycle cycle) {
        for (SharedSessionCache c : caches.values()) {
            c.init();
        }
    }

    /** The cycle is over in this worker: its contexts are freed, OpenSSL keeping each until its last connection. */
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
