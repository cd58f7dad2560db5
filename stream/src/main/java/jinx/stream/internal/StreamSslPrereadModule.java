package jinx.stream.internal;

import java.util.List;
import java.util.Set;
import java.util.function.Function;

import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_ssl_preread_module}: with {@code ssl_preread on} the preread phase reads the client's
 * TLS ClientHello without terminating TLS ({@link SslPreread}), and {@code $ssl_preread_server_name},
 * {@code $ssl_preread_alpn_protocols} and {@code $ssl_preread_protocol} say what it offered, for routing by server
 * name ({@code map $ssl_preread_server_name $backend {...}; proxy_pass $backend;}). The bytes read stay in the
 * preread buffer, which the proxy sends first. A client that does not speak TLS is declined, its variables not
 * found; one that stays silent waits for {@code preread_timeout}.
 */
public final class StreamSslPrereadModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_ssl_preread";

    /** A server's setting. */
    static final class SrvConf {
        int enabled = -1;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("ssl_preread", Set.of(MAIN, SRV), Arity.FLAG, SrvConf.class,
                Slots.flag((SrvConf c, boolean v) -> c.enabled = v ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Enables extracting information from the ClientHello message at the preread phase."));

    private int index;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamSslPrereadModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) {
        SrvConf c = (SrvConf) child;
        if (c.enabled == -1) {
            int p = ((SrvConf) parent).enabled;
            c.enabled = p == -1 ? 0 : p;
        }
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        variable(cf, "ssl_preread_protocol", SslPreread::protocol);
        variable(cf, "ssl_preread_server_name", SslPreread::serverName);
        variable(cf, "ssl_preread_alpn_protocols", SslPreread::alpnProtocols);
    }

    /** A variable of the preread context: not found without one (nginx's {@code ctx == NULL}). */
    private static void variable(StreamConfig cf, String name, Function<SslPreread, String> get)
        throws ConfException {
        cf.addVariable(name, s -> {
            SslPreread ctx = ((Session) s).sslPreread;
            return ctx == null ? null : get.apply(ctx);
        });
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.PREREAD, this::handler);
    }

    /** nginx's {@code ngx_stream_ssl_preread_handler()}. */
    private int handler(StreamSession ss) {
        Session s = (Session) ss;
        if (((SrvConf) s.srvConf(index)).enabled != 1 || s.addr.udp) {
            return Rc.DECLINED;
        }
        if (s.preread == null) {
            return Rc.AGAIN;
        }
        if (s.sslPreread == null) {
            s.sslPreread = new SslPreread(0);
        }
        int rc = s.sslPreread.feed(s.preread, s.preread.position());
        if (rc == Rc.DECLINED) {
            s.sslPreread = null;
        }
        return rc;
    }
}
