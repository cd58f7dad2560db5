package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_gzip_filter} module, nginx's {@code ngx_http_gzip_filter_module.c}: a 200, 403 or 404 response
 * of a {@code gzip_types} type, at least {@code gzip_min_length} long when its length is known, not yet encoded,
 * to a client that passes {@code ngx_http_gzip_ok()} ({@link GzipOk}) is compressed as it streams
 * ({@link GzipState}): {@code Content-Encoding: gzip} is added, {@code Content-Length} and {@code Accept-Ranges}
 * removed, a strong {@code ETag} made weak, and {@code gzip_vary} adds {@code Vary: Accept-Encoding}.
 * {@code $gzip_ratio} is the ratio of the sizes. {@code gzip_window} and {@code gzip_hash} are accepted and checked
 * as nginx checks them, but Deflater has no knob for them; {@code postpone_gzipping} and {@code gzip_no_buffer} are
 * accepted and change nothing.
 */
public final class GzipFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_gzip_filter";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> MSLI = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF);
    /** nginx's default {@code gzip_buffers 32 4k}: 128 KB in pages. */
    static final int PAGE = 4096;
    /** {@code gzip_types *}. */
    static final List<String> ANY = List.of("*");
    static final List<String> DEFAULT_TYPES = List.of("text/html");

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("gzip", MSLI, Arity.FLAG, GzipConf.class, Slots.flag((GzipConf c, boolean on) -> c.enable = on
            ? 1 : 0)).syntax("on | off").defaults("off").describe("Enables or disables gzipping of responses."),
        Directive.of("gzip_buffers", MSL, Arity.TAKE2, GzipConf.class, GzipFilterModule::buffers)
            .syntax("number size").defaults("32 4k|16 8k").describe("Sets the number and size of buffers used to "
                + "compress a response."),
        Directive.of("gzip_types", MSL, Arity.ONE_MORE, GzipConf.class, GzipFilterModule::types)
            .syntax("mime-type ...").defaults("text/html").describe("Enables gzipping of responses for the "
                + "specified MIME types in addition to \"text/html\"."),
        Directive.of("gzip_comp_level", MSL, Arity.TAKE1, GzipConf.class, GzipFilterModule::level)
            .syntax("level").defaults("1").describe("Sets a gzip compression level of a response."),
        Directive.of("gzip_window", MSL, Arity.TAKE1, GzipConf.class, (ConfContext cf, GzipConf c) ->
            c.wbits = power(cf, 512, 32 * 1024, "must be 512, 1k, 2k, 4k, 8k, 16k, or 32k"))
            .syntax("size").defaults("32k").describe("Sets the size of the window buffer (accepted; Deflater's "
                + "window is always 32k)."),
        Directive.of("gzip_hash", MSL, Arity.TAKE1, GzipConf.class, (ConfContext cf, GzipConf c) ->
            c.memlevel = power(cf, 512, 128 * 1024, "must be 512, 1k, 2k, 4k, 8k, 16k, 32k, 64k, or 128k"))
            .syntax("size").defaults("64k").describe("Sets the size of the hash table (accepted; Deflater's "
                + "memory level is fixed)."),
        Directive.of("postpone_gzipping", MSL, Arity.TAKE1, GzipConf.class,
            Slots.size((GzipConf c, long v) -> c.postpone = v))
            .syntax("size").defaults("0").describe("Sets the amount of data to buffer before compressing "
                + "(accepted, no effect)."),
        Directive.of("gzip_no_buffer", MSL, Arity.FLAG, GzipConf.class,
            Slots.flag((GzipConf c, boolean on) -> c.noBuffer = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Sends compressed data without buffering (accepted, no "
                + "effect)."),
        Directive.of("gzip_min_length", MSL, Arity.TAKE1, GzipConf.class,
            Slots.size((GzipConf c, long v) -> c.minLength = v))
            .syntax("length").defaults("20").describe("Sets the minimum length of a response that will be "
                + "gzipped, from its Content-Length."));

    /** The location conf: nginx's {@code ngx_http_gzip_conf_t}. */
    static final class GzipConf {
        int enable = Conf.UNSET;
        int noBuffer = Conf.UNSET;
        int bufsNum;
        long bufsSize;
        int level = Conf.UNSET;
        long wbits = Conf.UNSET_LONG;
        long memlevel = Conf.UNSET_LONG;
        long postpone = Conf.UNSET_LONG;
        long minLength = Conf.UNSET_LONG;
        /** The types, lower case; {@link #ANY} for {@code *}; null while unset. */
        List<String> types;
    }

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public GzipFilterModule() {
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
        return new GzipConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        GzipConf prev = (GzipConf) parent;
        GzipConf conf = (GzipConf) child;
        conf.enable = Conf.merge(conf.enable, prev.enable, 0);
        conf.noBuffer = Conf.merge(conf.noBuffer, prev.noBuffer, 0);
        if (conf.bufsNum == 0) {
            conf.bufsNum = prev.bufsNum != 0 ? prev.bufsNum : 128 * 1024 / PAGE;
            conf.bufsSize = prev.bufsNum != 0 ? prev.bufsSize : PAGE;
        }
        conf.postpone = Conf.merge(conf.postpone, prev.postpone, 0);
        conf.level = Conf.merge(conf.level, prev.level, 1);
        conf.wbits = Conf.merge(conf.wbits, prev.wbits, 32 * 1024);
        conf.memlevel = Conf.merge(conf.memlevel, prev.memlevel, 64 * 1024);
        conf.minLength = Conf.merge(conf.minLength, prev.minLength, 20);
        conf.types = Conf.merge(conf.types, prev.types, DEFAULT_TYPES);
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        cf.addVariable("gzip_ratio", this::ratio, 0);
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
    }

    /**
     * The header filter: nginx's {@code ngx_http_gzip_header_filter()}.
     *
     * @param r the request
     * @param next the rest of the header filters
     * @return what they answer
     */
    int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        GzipConf conf = (GzipConf) r.locConf(ctxIndex);
        HeadersOut h = r.headersOut;
        int status = h.status;
        if (conf.enable != 1 || r.headerOnly || r.main() != r || status != 200 && status != 403 && status != 404
            || h.contentEncoding != null && !h.contentEncoding.removed && !h.contentEncoding.value.isEmpty()
            || h.contentLengthN != -1 && h.contentLengthN < conf.minLength
            || !typeMatches(h, conf.types)) {
            return next.filter(r);
        }
        if (r instanceof CoreRequest cr) {
            cr.gzipVary = true;
        }
        if (!GzipOk.test(r)) {
            return next.filter(r);
        }
        GzipState ctx = GzipState.take(conf.level, (int) conf.bufsSize);
        r.addCleanup(ctx);
        r.ctx(ctxIndex, ctx);
        h.contentEncoding = h.headers.add("Content-Encoding", "gzip");
        h.contentLengthN = -1;
        CoreOutput.clearAcceptRanges(r);
        weakEtag(h);
        return next.filter(r);
    }

    private int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (!(r.ctx(ctxIndex) instanceof GzipState ctx) || ctx.done && !ctx.copy.busy()) {
            return next.filter(r, in);
        }
        return ctx.filter(r, in, next);
    }

    /** {@code $gzip_ratio}: nginx's {@code ngx_http_gzip_ratio_variable()}, two decimals rounded half up. */
    private String ratio(HttpRequest r, String name) {
        if (!(r.ctx(ctxIndex) instanceof GzipState ctx) || ctx.zout == 0) {
            return null;
        }
        return ratio(ctx.zin, ctx.zout);
    }

    static String ratio(long zin, long zout) {
        long zint = zin / zout;
        long zfrac = zin * 100 / zout % 100;
        if (zin * 1000 / zout % 10 > 4) {
            zfrac++;
            if (zfrac > 99) {
                zint++;
                zfrac = 0;
            }
        }
        return zint + "." + (zfrac < 10 ? "0" : "") + zfrac;
    }

    /** nginx's {@code ngx_http_weak_etag()}: {@code W/} before a strong tag; a tag that is not quoted is dropped. */
    static void weakEtag(HeadersOut h) {
        HttpHeaders.Entry etag = h.etag;
        if (etag == null || etag.removed) {
            return;
        }
        String v = etag.value;
        if (v.length() > 2 && v.startsWith("W/")) {
            return;
        }
        if (v.isEmpty() || v.charAt(0) != '"') {
            etag.removed = true;
            h.etag = null;
            return;
        }
        etag.value = "W/" + v;
    }

    /**
     * nginx's {@code ngx_http_test_content_type()}: the response's type, up to its parameters and in lower case,
     * is one of the types; {@code *} takes any response, even one without a type.
     */
    static boolean typeMatches(HeadersOut h, List<String> types) {
        if (types == ANY) {
            return true;
        }
        String ct = h.contentType;
        if (ct == null || ct.isEmpty()) {
            return false;
        }
        int semi = ct.indexOf(';');
        int len = semi < 0 ? ct.length() : semi;
        for (int i = 0, n = types.size(); i < n; i++) {
            String t = types.get(i);
            if (t.length() == len && ct.regionMatches(true, 0, t, 0, len)) {
                return true;
            }
        }
        return false;
    }

    private static void types(ConfContext cf, GzipConf conf) {
        conf.types = addTypes(cf, conf.types);
    }

    /**
     * nginx's {@code ngx_http_types_slot()}: text/html first, {@code *} for any, a warning for a duplicate.
     *
     * @param cf the directive
     * @param types the types so far, null while unset
     * @return the types with the directive's added, {@link #ANY} for {@code *}
     */
    static List<String> addTypes(ConfContext cf, List<String> types) {
        if (types == ANY) {
            return types;
        }
        List<String> list = types == null ? new ArrayList<>(DEFAULT_TYPES) : types;
        for (String v : cf.args().subList(1, cf.args().size())) {
            if (v.equals("*")) {
                return ANY;
            }
            String t = v.toLowerCase(Locale.ROOT);
            if (list.contains(t)) {
                cf.log(LogLevel.WARN, "duplicate MIME type \"" + v + "\"");
                continue;
            }
            list.add(t);
        }
        return list;
    }

    /** {@code gzip_comp_level}: nginx's number slot bounded to 1..9. */
    private static void level(ConfContext cf, GzipConf conf) throws ConfException {
        if (conf.level != Conf.UNSET) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        int n = ConfValues.parseNumber(cf.arg(1));
        if (n == -1) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid number");
        }
        if (n < 1 || n > 9) {
            throw new ConfException("value must be between 1 and 9");
        }
        conf.level = n;
    }

    /** nginx's {@code ngx_conf_set_bufs_slot()}. */
    static void buffers(ConfContext cf, GzipConf conf) throws ConfException {
        long[] bufs = bufs(cf, conf.bufsNum != 0);
        conf.bufsNum = (int) bufs[0];
        conf.bufsSize = bufs[1];
    }

    /**
     * nginx's {@code ngx_conf_set_bufs_slot()}: {@code number size}.
     *
     * @param cf the directive
     * @param set whether the level has the directive already
     * @return the number and the size
     * @throws ConfException for a duplicate or an invalid value
     */
    static long[] bufs(ConfContext cf, boolean set) throws ConfException {
        if (set) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        int num = ConfValues.parseNumber(cf.arg(1));
        long size = ConfValues.parseSize(cf.arg(2));
        if (num <= 0 || size <= 0 || size > Integer.MAX_VALUE / 2) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        return new long[] {num, size};
    }

    /** nginx's {@code ngx_http_gzip_window()} and {@code ngx_http_gzip_hash()}: a power of two in a range. */
    private static long power(ConfContext cf, long min, long max, String error) throws ConfException {
        long v = ConfValues.parseSize(cf.arg(1));
        if (v == -1) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        for (long s = max; s >= min; s >>= 1) {
            if (s == v) {
                return v;
            }
        }
        throw new ConfException("\"" + cf.name() + "\" directive " + error);
    }
}
