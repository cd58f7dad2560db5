package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
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
 * The {@code http_sub_filter} module, nginx's {@code ngx_http_sub_filter_module.c}: {@code sub_filter string
 * replacement} (up to 255 of them, case-insensitive, either side with variables), {@code sub_filter_once},
 * {@code sub_filter_last_modified} and {@code sub_filter_types}. The search is {@link SubMatcher}'s.
 */
public final class SubFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_sub_filter";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final int MAX_PAIRS = 255;

    /**
     * One {@code sub_filter}: nginx's {@code ngx_http_sub_pair_t}.
     *
     * @param match the string, lower-cased when it has no variables
     * @param value the replacement
     */
    record Pair(ComplexValue match, ComplexValue value) {
    }

    /** The location conf: nginx's {@code ngx_http_sub_loc_conf_t}. */
    static final class SubConf {
        List<Pair> pairs;
        boolean dynamic;
        SubMatcher.Tables tables;
        int once = Conf.UNSET;
        int lastModified = Conf.UNSET;
        List<String> types;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("sub_filter", MSL, Arity.TAKE2, SubConf.class, SubFilterModule::subFilter).multi()
            .syntax("string replacement").describe("Sets a string to replace and a replacement string."),
        Directive.of("sub_filter_types", MSL, Arity.ONE_MORE, SubConf.class,
            (cf, c) -> c.types = GzipFilterModule.addTypes(cf, c.types)).multi()
            .syntax("mime-type ...").defaults("text/html").describe("Enables string replacement in responses with "
                + "the specified MIME types in addition to \"text/html\"."),
        Directive.of("sub_filter_once", MSL, Arity.FLAG, SubConf.class, Slots.flag((c, v) -> c.once = v ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Indicates whether to look for each string to replace once "
                + "or repeatedly."),
        Directive.of("sub_filter_last_modified", MSL, Arity.FLAG, SubConf.class,
            Slots.flag((c, v) -> c.lastModified = v ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Allows preserving the Last-Modified header field from the "
                + "original response during replacement."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public SubFilterModule() {
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
        return new SubConf();
    }

    /** nginx's {@code ngx_http_sub_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        SubConf prev = (SubConf) parent;
        SubConf conf = (SubConf) child;
        conf.once = Conf.merge(conf.once, prev.once, 1);
        conf.lastModified = Conf.merge(conf.lastModified, prev.lastModified, 0);
        conf.types = Conf.merge(conf.types, prev.types, GzipFilterModule.DEFAULT_TYPES);
        if (conf.pairs == null) {
            conf.dynamic = prev.dynamic;
            conf.pairs = prev.pairs;
            conf.tables = prev.tables;
        }
        if (conf.pairs != null && !conf.dynamic && conf.tables == null) {
            List<SubMatcher.Match> matches = new ArrayList<>();
            for (Pair p : conf.pairs) {
                matches.add(new SubMatcher.Match(bytes(p.match().evaluate(null)), p.value()));
            }
            conf.tables = new SubMatcher.Tables(matches);
        }
    }

    private static byte[] bytes(String s) {
        return CoreOutput.lowerAscii(s).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** nginx's {@code ngx_http_sub_filter()}. */
    private static void subFilter(ConfContext cf, SubConf conf) throws ConfException {
        if (cf.arg(1).isEmpty()) {
            throw new ConfException("empty search pattern");
        }
        if (conf.pairs == null) {
            conf.pairs = new ArrayList<>();
        }
        if (conf.pairs.size() == MAX_PAIRS) {
            throw new ConfException("number of search patterns exceeds 255");
        }
        ComplexValue match = HttpDirectives.compile(cf, CoreOutput.lowerAscii(cf.arg(1)));
        if (!match.isStatic()) {
            conf.dynamic = true;
        }
        conf.pairs.add(new Pair(match, HttpDirectives.compile(cf, cf.arg(2))));
    }

    /** nginx's {@code ngx_http_sub_header_filter()}. */
    private int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        SubConf conf = (SubConf) r.locConf(ctxIndex);
        HeadersOut h = r.headersOut;
        if (conf.pairs == null || h.contentLengthN == 0 || !GzipFilterModule.typeMatches(h, conf.types)) {
            return next.filter(r);
        }
        SubMatcher.Tables tables = conf.tables;
        if (conf.dynamic) {
            List<SubMatcher.Match> matches = new ArrayList<>();
            for (Pair p : conf.pairs) {
                byte[] m = bytes(p.match().evaluate(r));
                if (m.length > 0) {
                    matches.add(new SubMatcher.Match(m, p.value()));
                }
            }
            if (matches.isEmpty()) {
                return next.filter(r);
            }
            tables = new SubMatcher.Tables(matches);
        }
        SubMatcher ctx = new SubMatcher(tables, conf.once == 1);
        r.ctx(ctxIndex, ctx);
        r.addCleanup(ctx);
        if (r.main() == r) {
            h.contentLengthN = -1;
            if (h.headers.entry("Content-Length") != null) {
                h.headers.remove("Content-Length");
            }
            if (conf.lastModified == 0) {
                h.lastModifiedTime = -1;
                if (h.headers.entry("Last-Modified") != null) {
                    h.headers.remove("Last-Modified");
                }
                if (h.etag != null) {
                    h.etag.removed = true;
                    h.etag = null;
                }
            } else {
                GzipFilterModule.weakEtag(h);
            }
        }
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_sub_body_filter()}. */
    private int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (!(r.ctx(ctxIndex) instanceof SubMatcher ctx) || ctx.done()) {
            return next.filter(r, in);
        }
        return ctx.filter(r, in, next);
    }
}
