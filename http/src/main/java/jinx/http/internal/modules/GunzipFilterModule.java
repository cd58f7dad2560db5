package jinx.http.internal.modules;

import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.BufChain;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_gunzip_filter} module, nginx's {@code ngx_http_gunzip_filter_module.c}: with {@code gunzip on}, a
 * response with {@code Content-Encoding: gzip} (a proxied one, or {@code gzip_static always}'s file) is decompressed
 * for a client that does not take gzip ({@code gzip_vary} and {@code gzip_http_version}, {@code gzip_proxied},
 * {@code gzip_disable} decide as for the gzip filter), into {@code gunzip_buffers} at most at a time
 * ({@link GunzipState}).
 */
public final class GunzipFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_gunzip_filter";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    /** The location conf: nginx's {@code ngx_http_gunzip_conf_t}. */
    static final class GunzipConf {
        int enable = Conf.UNSET;
        int bufsNum;
        long bufsSize;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("gunzip", MSL, Arity.FLAG, GunzipConf.class, Slots.flag((c, v) -> c.enable = v ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Enables or disables decompression of gzipped responses for "
                + "clients that lack gzip support."),
        Directive.of("gunzip_buffers", MSL, Arity.TAKE2, GunzipConf.class, (cf, c) -> {
            long[] bufs = GzipFilterModule.bufs(cf, c.bufsNum != 0);
            c.bufsNum = (int) bufs[0];
            c.bufsSize = bufs[1];
        }).syntax("number size").defaults("32 4k|16 8k").describe("Sets the number and size of buffers used to "
            + "decompress a response."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public GunzipFilterModule() {
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
    public void postconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
    }

    @Override
    public Object createLocConf() {
        return new GunzipConf();
    }

    /** nginx's {@code ngx_http_gunzip_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        GunzipConf prev = (GunzipConf) parent;
        GunzipConf conf = (GunzipConf) child;
        conf.enable = Conf.merge(conf.enable, prev.enable, 0);
        if (conf.bufsNum == 0) {
            conf.bufsNum = prev.bufsNum != 0 ? prev.bufsNum : 128 * 1024 / GzipFilterModule.PAGE;
            conf.bufsSize = prev.bufsNum != 0 ? prev.bufsSize : GzipFilterModule.PAGE;
        }
    }

    /** nginx's {@code ngx_http_gunzip_header_filter()}. */
    private int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        GunzipConf conf = (GunzipConf) r.locConf(ctxIndex);
        HeadersOut h = r.headersOut;
        if (conf.enable != 1 || h.contentEncoding == null || h.contentEncoding.removed
            || !h.contentEncoding.value.equalsIgnoreCase("gzip")) {
            return next.filter(r);
        }
        if (r instanceof CoreRequest cr) {
            cr.gzipVary = true;
        }
        if (GzipOk.test(r)) {
            return next.filter(r);
        }
        GunzipState ctx = new GunzipState(conf.bufsNum, (int) conf.bufsSize);
        r.ctx(ctxIndex, ctx);
        r.addCleanup(ctx);
        h.contentEncoding.removed = true;
        h.contentEncoding = null;
        h.contentLengthN = -1;
        if (h.headers.entry("Content-Length") != null) {
            h.headers.remove("Content-Length");
        }
        CoreOutput.clearAcceptRanges(r);
        GzipFilterModule.weakEtag(h);
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_gunzip_body_filter()}. */
    private int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (!(r.ctx(ctxIndex) instanceof GunzipState ctx) || ctx.done()) {
            return next.filter(r, in);
        }
        return ctx.filter(r, in, next);
    }
}
