package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.io.RequestBody;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_auth_request} module, nginx's {@code ngx_http_auth_request_module.c}: {@code auth_request uri}
 * (or {@code off}) makes, in the ACCESS phase, a subrequest to {@code uri} with the request's headers, no body and
 * the header only, and waits for it: a 2xx status lets the request go on, 401 (with the subrequest's
 * {@code WWW-Authenticate} lines) and 403 are the answer, anything else is 500 with {@code auth request unexpected
 * status: N}. {@code auth_request_set $variable value} sets a variable from the subrequest's (its
 * {@code $upstream_http_*}, say) once it is done.
 */
public final class AuthRequestModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_auth_request";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("auth_request", MSL, Arity.TAKE1, AuthRequestConf.class, AuthRequestModule::authRequest)
            .syntax("uri | off").defaults("off").describe("Enables authorization based on the result of a "
                + "subrequest and sets the URI to which the subrequest will be sent."),
        Directive.of("auth_request_set", MSL, Arity.TAKE2, AuthRequestConf.class, AuthRequestModule::set).multi()
            .syntax("$variable value").describe("Sets the request variable to the given value after the "
                + "authorization request completes."));

    /** The location conf: nginx's {@code ngx_http_auth_request_conf_t}. */
    static final class AuthRequestConf {
        /** The URI, "" for off, null unset. */
        String uri;
        /** {@code auth_request_set}s, or null. */
        List<SetVar> vars;
    }

    /** One {@code auth_request_set}: nginx's {@code ngx_http_auth_request_variable_t}. */
    record SetVar(int index, String name, ComplexValue value) {
    }

    /** nginx's {@code ngx_http_auth_request_ctx_t}. */
    private static final class AuthCtx {
        boolean done;
        int status;
        HttpRequest subrequest;
    }

    private int ctxIndex = -1;

    /** The module, as {@code ServiceLoader} makes it. */
    public AuthRequestModule() {
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
        return new AuthRequestConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        AuthRequestConf prev = (AuthRequestConf) parent;
        AuthRequestConf conf = (AuthRequestConf) child;
        if (conf.uri == null) {
            conf.uri = prev.uri == null ? "" : prev.uri;
        }
        if (conf.vars == null) {
            conf.vars = prev.vars;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.ACCESS, this::handler);
    }

    /** nginx's {@code ngx_http_auth_request()}. */
    private static void authRequest(ConfContext cf, AuthRequestConf arcf) throws ConfException {
        if (arcf.uri != null) {
            throw new ConfException("\"auth_request\" directive is duplicate");
        }
        String v = cf.arg(1);
        arcf.uri = v.equals("off") ? "" : v;
    }

    /** nginx's {@code ngx_http_auth_request_set()}. */
    private static void set(ConfContext cf, AuthRequestConf arcf) throws ConfException {
        String arg = cf.arg(1);
        if (arg.isEmpty() || arg.charAt(0) != '$') {
            throw new ConfException("invalid variable name \"" + arg + "\"");
        }
        String name = arg.substring(1);
        Variables vars = Variables.of(cf);
        vars.add(name, null, HttpConfig.VAR_CHANGEABLE);
        if (!vars.isKnown(name)) {
            // nginx's ngx_http_auth_request_variable(): not found until the subrequest is done
            vars.add(name, (r, n) -> null, HttpConfig.VAR_CHANGEABLE);
        }
        int index = vars.index(cf, name);
        ComplexValue value = vars.compile(cf, cf.arg(2));
        if (arcf.vars == null) {
            arcf.vars = new ArrayList<>(2);
        }
        arcf.vars.add(new SetVar(index, name.toLowerCase(Locale.ROOT), value));
    }

    /** nginx's {@code ngx_http_auth_request_handler()}. */
    private int handler(HttpRequest r) {
        AuthRequestConf arcf = (AuthRequestConf) r.locConf(ctxIndex);
        if (arcf.uri.isEmpty()) {
            return Rc.DECLINED;
        }
        if (r.ctx(ctxIndex) instanceof AuthCtx ctx) {
            return decide(r, arcf, ctx);
        }
        AuthCtx ctx = new AuthCtx();
        HttpRequest sr = r.subrequest(arcf.uri, null, HttpRequest.SUBREQUEST_WAITED, (s, rc) -> {
            // nginx's ngx_http_auth_request_done()
            ctx.done = true;
            ctx.status = s.headersOut.status;
            return rc;
        });
        if (sr == null) {
            return Rc.ERROR;
        }
        // a fake request body: the subrequest reads none, and a body read already is not freed by it (nginx)
        if (sr instanceof CoreRequest csr) {
            csr.requestBody = new RequestBody();
        }
        sr.headerOnly = true;
        ctx.subrequest = sr;
        r.ctx(ctxIndex, ctx);
        return Rc.AGAIN;
    }

    private static int decide(HttpRequest r, AuthRequestConf arcf, AuthCtx ctx) {
        if (!ctx.done) {
            return Rc.AGAIN;
        }
        // as soon as we are done, explicitly set variables to make sure they will be available after internal
        // redirects (nginx)
        setVariables(r, arcf, ctx);
        if (ctx.status == 403) {
            return ctx.status;
        }
        if (ctx.status == 401) {
            for (HttpHeaders.Entry h : ctx.subrequest.headersOut.headers.entries()) {
                if (!h.removed && h.lowcaseName.equals("www-authenticate")) {
                    HttpHeaders.Entry e = r.headersOut.headers.add(h.name, h.value);
                    if (r.headersOut.wwwAuthenticate == null) {
                        r.headersOut.wwwAuthenticate = e;
                    }
                }
            }
            return ctx.status;
        }
        if (ctx.status >= 200 && ctx.status < 300) {
            return Rc.OK;
        }
        CoreOutput.log(r, LogLevel.ERROR, 0, "auth request unexpected status: " + ctx.status);
        return 500;
    }

    /** nginx's {@code ngx_http_auth_request_set_variables()}: values evaluated in the subrequest. */
    private static void setVariables(HttpRequest r, AuthRequestConf arcf, AuthCtx ctx) {
        if (arcf.vars == null || !(r instanceof CoreRequest cr)) {
            return;
        }
        for (SetVar v : arcf.vars) {
            String value = v.value().evaluate(ctx.subrequest);
            if (v.name().equals("args")) {
                r.args = value;
            } else {
                cr.variableCache()[v.index()] = value;
            }
        }
    }
}
