package jinx.http.internal.modules;

import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.internal.filter.PostponeFilterModule;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_addition_filter} module, nginx's {@code ngx_http_addition_filter_module.c}: {@code add_before_body
 * uri} and {@code add_after_body uri} put the responses of subrequests before and after the body of a 200 response
 * of an {@code addition_types} type (text/html by default) to a main request. The response loses its
 * {@code Content-Length} and {@code Accept-Ranges}, and its {@code ETag} becomes weak; the subrequests' output is put
 * in place by the postpone filter.
 */
public final class AdditionFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_addition_filter";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("add_before_body", MSL, Arity.TAKE1, AdditionConf.class, (cf, c) -> c.beforeBody = uri(cf, c,
            c.beforeBody)).syntax("uri").describe("Adds the text returned as a result of processing a given "
                + "subrequest before the response body."),
        Directive.of("add_after_body", MSL, Arity.TAKE1, AdditionConf.class, (cf, c) -> c.afterBody = uri(cf, c,
            c.afterBody)).syntax("uri").describe("Adds the text returned as a result of processing a given "
                + "subrequest after the response body."),
        Directive.of("addition_types", MSL, Arity.ONE_MORE, AdditionConf.class,
            (cf, c) -> c.types = GzipFilterModule.addTypes(cf, c.types))
            .syntax("mime-type ...").defaults("text/html").describe("Allows adding text in responses with the "
                + "specified MIME types."));

    /** The location conf: nginx's {@code ngx_http_addition_conf_t}. */
    static final class AdditionConf {
        String beforeBody;
        String afterBody;
        List<String> types;
    }

    /** nginx's {@code ngx_http_addition_ctx_t}. */
    private static final class AdditionCtx {
        boolean beforeBodySent;
    }

    private int ctxIndex = -1;

    /** The module, as {@code ServiceLoader} makes it. */
    public AdditionFilterModule() {
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
        return new AdditionConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        AdditionConf prev = (AdditionConf) parent;
        AdditionConf conf = (AdditionConf) child;
        conf.beforeBody = Conf.merge(conf.beforeBody, prev.beforeBody, "");
        conf.afterBody = Conf.merge(conf.afterBody, prev.afterBody, "");
        conf.types = Conf.merge(conf.types, prev.types, GzipFilterModule.DEFAULT_TYPES);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
    }

    /** nginx's {@code ngx_conf_set_str_slot()}: once per level. */
    private static String uri(ConfContext cf, AdditionConf c, String current) throws ConfException {
        if (current != null) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        return cf.arg(1);
    }

    /** nginx's {@code ngx_http_addition_header_filter()}. */
    int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        HeadersOut h = r.headersOut;
        if (h.status != 200 || r.main() != r) {
            return next.filter(r);
        }
        AdditionConf conf = (AdditionConf) r.locConf(ctxIndex);
        if (conf.beforeBody.isEmpty() && conf.afterBody.isEmpty() || !GzipFilterModule.typeMatches(h, conf.types)) {
            return next.filter(r);
        }
        r.ctx(ctxIndex, new AdditionCtx());
        h.contentLengthN = -1;
        CoreOutput.clearAcceptRanges(r);
        GzipFilterModule.weakEtag(h);
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_addition_body_filter()}. */
    int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (in == null || r.headerOnly || !(r.ctx(ctxIndex) instanceof AdditionCtx ctx)) {
            return next.filter(r, in);
        }
        AdditionConf conf = (AdditionConf) r.locConf(ctxIndex);
        if (!ctx.beforeBodySent) {
            ctx.beforeBodySent = true;
            if (!conf.beforeBody.isEmpty() && r.subrequest(conf.beforeBody, null, 0, null) == null) {
                return Rc.ERROR;
            }
        }
        if (conf.afterBody.isEmpty()) {
            r.ctx(ctxIndex, null);
            return next.filter(r, in);
        }
        boolean last = false;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            last |= cl.buf.last;
        }
        int rc = next.filter(r, last ? PostponeFilterModule.notLast(in) : in);
        if (rc == Rc.ERROR || !last) {
            return rc;
        }
        if (r.subrequest(conf.afterBody, null, 0, null) == null) {
            return Rc.ERROR;
        }
        r.ctx(ctxIndex, null);
        // nginx's ngx_http_send_special(r, NGX_HTTP_LAST)
        Buf b = new Buf();
        b.last = true;
        return r.outputFilter(BufChain.of(b));
    }
}
