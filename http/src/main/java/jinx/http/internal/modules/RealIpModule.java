package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.http.internal.variables.CoreVariables;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_realip} module, nginx's {@code ngx_http_realip_module.c}: when the client is a trusted proxy
 * ({@code set_real_ip_from}), the client address becomes the one the proxy sends in {@code real_ip_header}
 * ({@code X-Real-IP} by default, {@code X-Forwarded-For} read from its end, with {@code real_ip_recursive} past
 * every trusted address, or any other header), for the rest of the request: {@code $remote_addr},
 * {@code $remote_port}, the access module and the error log's {@code client:} all see it, and
 * {@code $realip_remote_addr} and {@code $realip_remote_port} keep the socket's. It runs in POST_READ with the
 * server's confs and again in PREACCESS with the location's, once per request. {@code real_ip_header proxy_protocol}
 * is accepted; the listener does not read the PROXY protocol yet, so it changes nothing (as nginx on a connection
 * without one).
 */
public final class RealIpModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_realip";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final int XREALIP = 0;
    private static final int XFWD = 1;
    private static final int HEADER = 2;
    private static final int PROXY = 3;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("set_real_ip_from", MSL, Arity.TAKE1, RealIpLocConf.class, RealIpModule::from).multi()
            .syntax("address | CIDR | unix:").describe("Defines trusted addresses that are known to send correct "
                + "replacement addresses."),
        Directive.of("real_ip_header", MSL, Arity.TAKE1, RealIpLocConf.class, RealIpModule::header)
            .syntax("field | X-Real-IP | X-Forwarded-For | proxy_protocol").defaults("X-Real-IP")
            .describe("Defines the request header field whose value will be used to replace the client address."),
        Directive.of("real_ip_recursive", MSL, Arity.FLAG, RealIpLocConf.class,
            Slots.flag((RealIpLocConf c, boolean on) -> c.recursive = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("If recursive search is disabled, the original client "
                + "address that matches one of the trusted addresses is replaced by the last address sent in the "
                + "request header field; if enabled, by the last non-trusted address."));

    /** The location conf: nginx's {@code ngx_http_realip_loc_conf_t}; a null network stands for {@code unix:}. */
    static final class RealIpLocConf {
        List<Cidr> from;
        int type = Conf.UNSET;
        String header;
        int recursive = Conf.UNSET;
    }

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public RealIpModule() {
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
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
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
    public void preconfiguration(HttpConfig cf) throws ConfException {
        // the socket's address, whatever this module made of $remote_addr (nginx keeps it in its cleanup's ctx)
        cf.addVariable("realip_remote_addr", (r, n) -> r instanceof CoreRequest cr
            ? cr.httpConnection().socketAddr() : CoreVariables.remoteAddr(r), 0);
        cf.addVariable("realip_remote_port", (r, n) -> {
            int port = r instanceof CoreRequest cr ? cr.httpConnection().socketPort() : 0;
            return port > 0 && port < 65536 ? Integer.toString(port) : "";
        }, 0);
    }

    @Override
    public Object createLocConf() {
        return new RealIpLocConf();
    }

    /** nginx's {@code ngx_http_realip_merge_loc_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        RealIpLocConf prev = (RealIpLocConf) parent;
        RealIpLocConf conf = (RealIpLocConf) child;
        if (conf.from == null) {
            conf.from = prev.from;
        }
        conf.type = Conf.merge(conf.type, prev.type, XREALIP);
        conf.recursive = Conf.merge(conf.recursive, prev.recursive, 0);
        if (conf.header == null) {
            conf.header = prev.header;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.POST_READ, this::handler);
        cf.addPhaseHandler(Phase.PREACCESS, this::handler);
    }

    /** nginx's {@code ngx_http_realip_handler()}. */
    private int handler(HttpRequest r) {
        RealIpLocConf rlcf = (RealIpLocConf) r.locConf(ctxIndex);
        if (rlcf.from == null || !(r instanceof CoreRequest cr) || cr.httpConnection().realAddrSet()) {
            return Rc.DECLINED;
        }
        HttpConnection hc = cr.httpConnection();
        String text = hc.remoteAddr();
        ForwardedAddr fa = new ForwardedAddr(Cidr.address(text), 0);
        int rc;
        switch (rlcf.type) {
            case XFWD -> {
                if (r.headersIn.xForwardedFor == null) {
                    return Rc.DECLINED;
                }
                rc = fa.fromXForwardedFor(r, rlcf.from, rlcf.recursive == 1);
            }
            case PROXY -> {
                // the PROXY protocol is not read yet: no connection has its address (nginx declines so too)
                return Rc.DECLINED;
            }
            default -> {
                String value = r.headersIn.headers.get(rlcf.type == XREALIP ? "X-Real-IP" : rlcf.header);
                if (value == null) {
                    return Rc.DECLINED;
                }
                rc = fa.fromValue(value, rlcf.from, rlcf.recursive == 1);
            }
        }
        if (rc == ForwardedAddr.DECLINED) {
            return Rc.DECLINED;
        }
        // ngx_http_realip_set_addr(): for this request only; the socket's address stays for $realip_remote_*
        hc.realAddr(Cidr.text(fa.addr), fa.port);
        r.addCleanup(() -> hc.realAddr(null, 0));
        return Rc.DECLINED;
    }

    /** nginx's {@code ngx_http_realip_from()}. */
    private static void from(ConfContext cf, RealIpLocConf rlcf) throws ConfException {
        if (rlcf.from == null) {
            rlcf.from = new ArrayList<>();
        }
        String value = cf.arg(1);
        if (value.equals("unix:")) {
            rlcf.from.add(null);
            return;
        }
        Cidr cidr = Cidr.parse(value);
        if (cidr == null) {
            // nginx then resolves it as a host name; Jinx takes addresses only, and words the refusal as nginx
            throw new ConfException("host not found in set_real_ip_from \"" + value + "\"");
        }
        if (cidr.meaningless()) {
            cf.log(LogLevel.WARN, "low address bits of " + value + " are meaningless");
        }
        rlcf.from.add(cidr);
    }

    /** nginx's {@code ngx_http_realip()}. */
    private static void header(ConfContext cf, RealIpLocConf rlcf) throws ConfException {
        String value = cf.arg(1);
        switch (value) {
            case "X-Real-IP" -> rlcf.type = XREALIP;
            case "X-Forwarded-For" -> rlcf.type = XFWD;
            case "proxy_protocol" -> rlcf.type = PROXY;
            default -> {
                rlcf.type = HEADER;
                rlcf.header = value;
            }
        }
    }
}
