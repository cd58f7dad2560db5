package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.PhaseRunner;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.spi.Conf;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_mirror} module, nginx's {@code ngx_http_mirror_module.c}: {@code mirror uri} (repeatable, or
 * {@code off}) makes, in the PRECONTENT phase of a main request, a background subrequest to each URI with the
 * request's method, arguments, headers and (with {@code mirror_request_body on}, the default) body, read first; the
 * mirrors' responses are dropped, and the request's own response does not wait for them (its connection does).
 */
public final class MirrorModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_mirror";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("mirror", MSL, Arity.TAKE1, MirrorLocConf.class, MirrorModule::mirror).multi()
            .syntax("uri | off").defaults("off").describe("Sets the URI to which an original request will be "
                + "mirrored."),
        Directive.of("mirror_request_body", MSL, Arity.FLAG, MirrorLocConf.class,
            Slots.flag((MirrorLocConf c, boolean on) -> c.requestBody = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Indicates whether the client request body is mirrored."));

    /** The location conf: nginx's {@code ngx_http_mirror_loc_conf_t}. */
    static final class MirrorLocConf {
        /** The URIs; {@link #OFF} for {@code mirror off}; null unset. */
        List<String> mirror;
        int requestBody = Conf.UNSET;
    }

    /** {@code mirror off}: nginx's NULL array. */
    private static final List<String> OFF = List.of();

    /** nginx's {@code ngx_http_mirror_ctx_t}: the phase's answer once the body is read. */
    private static final class MirrorCtx {
        int status = Rc.DONE;
    }

    private int ctxIndex = -1;

    /** The module, as {@code ServiceLoader} makes it. */
    public MirrorModule() {
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
    public Object createLocConf() {
        return new MirrorLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        MirrorLocConf prev = (MirrorLocConf) parent;
        MirrorLocConf conf = (MirrorLocConf) child;
        if (conf.mirror == null) {
            conf.mirror = prev.mirror == null ? OFF : prev.mirror;
        }
        conf.requestBody = Conf.merge(conf.requestBody, prev.requestBody, 1);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.PRECONTENT, this::handler);
    }

    /** nginx's {@code ngx_http_mirror()}. */
    private static void mirror(ConfContext cf, MirrorLocConf mlcf) throws ConfException {
        String v = cf.arg(1);
        if (v.equals("off")) {
            if (mlcf.mirror != null) {
                throw new ConfException("\"mirror\" directive is duplicate");
            }
            mlcf.mirror = OFF;
            return;
        }
        if (mlcf.mirror == OFF) {
            throw new ConfException("\"mirror\" directive is duplicate");
        }
        if (mlcf.mirror == null) {
            mlcf.mirror = new ArrayList<>(2);
        }
        mlcf.mirror.add(v);
    }

    /** nginx's {@code ngx_http_mirror_handler()}. */
    private int handler(HttpRequest r) {
        if (r.main() != r) {
            return Rc.DECLINED;
        }
        MirrorLocConf mlcf = (MirrorLocConf) r.locConf(ctxIndex);
        if (mlcf.mirror.isEmpty()) {
            return Rc.DECLINED;
        }
        if (mlcf.requestBody != 1) {
            return mirrors(r, mlcf);
        }
        if (r.ctx(ctxIndex) instanceof MirrorCtx ctx) {
            return ctx.status;
        }
        MirrorCtx ctx = new MirrorCtx();
        r.ctx(ctxIndex, ctx);
        int rc = r.readClientRequestBody(() -> bodyRead(r, mlcf, ctx));
        if (rc >= 300) {
            return rc;
        }
        r.finalizeRequest(Rc.DONE);
        return Rc.DONE;
    }

    /** nginx's {@code ngx_http_mirror_body_handler()}: the mirrors start, and the phases go on. */
    private static void bodyRead(HttpRequest r, MirrorLocConf mlcf, MirrorCtx ctx) {
        ctx.status = mirrors(r, mlcf);
        if (r instanceof CoreRequest cr) {
            cr.writeEventHandler = PhaseRunner::runPhases;
            PhaseRunner.runPhases(cr);
        }
    }

    /** nginx's {@code ngx_http_mirror_handler_internal()}. */
    private static int mirrors(HttpRequest r, MirrorLocConf mlcf) {
        for (String uri : mlcf.mirror) {
            HttpRequest sr = r.subrequest(uri, r.args, HttpRequest.SUBREQUEST_BACKGROUND, null);
            if (sr == null) {
                return 500;
            }
            sr.headerOnly = true;
            sr.method = r.method;
            sr.methodName = r.methodName;
        }
        return Rc.DECLINED;
    }
}
