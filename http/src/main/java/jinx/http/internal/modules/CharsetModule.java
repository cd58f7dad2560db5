package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.internal.core.BlockLines;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
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
 * The {@code http_charset_filter} module, nginx's {@code ngx_http_charset_filter_module.c}: {@code charset} adds
 * {@code ; charset=...} to the {@code Content-Type} of the {@code charset_types} (or, with
 * {@code override_charset on}, of responses that name their own charset), and when {@code source_charset} (or the
 * response's own charset) differs, recodes the body through the {@code charset_map} between the two
 * ({@link CharsetRecoder}); a name may come from a variable. A redirect (301, 302) is sent without a charset, as
 * nginx does for Netscape 4.
 */
public final class CharsetModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_charset_filter";

    private static final Set<Ctx> MSLI = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF);
    private static final int OFF = -2;
    private static final int NO_CHARSET = -3;
    private static final int VAR = 0x10000;
    private static final List<String> DEFAULT_TYPES = List.of("text/html", "text/xml", "text/plain",
        "text/vnd.wap.wml", "application/javascript", "application/rss+xml");

    /** The main conf: the charsets named anywhere and the maps between them. */
    static final class CharsetMainConf {
        final List<String> names = new ArrayList<>();
        final List<CharsetRecoder.Table> tables = new ArrayList<>();
        final List<int[]> recodes = new ArrayList<>();

        int add(String name) {
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i).equalsIgnoreCase(name)) {
                    return i;
                }
            }
            names.add(name);
            return names.size() - 1;
        }

        int find(String name) {
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i).equalsIgnoreCase(name)) {
                    return i;
                }
            }
            return NO_CHARSET;
        }

        boolean utf8(int i) {
            return names.get(i).equalsIgnoreCase("utf-8");
        }

        /** The recoder from one charset to another, or null without a map. */
        CharsetRecoder recoder(int src, int dst) {
            for (CharsetRecoder.Table t : tables) {
                if (t.src == src && t.dst == dst) {
                    return new CharsetRecoder(t, true);
                }
                if (t.src == dst && t.dst == src) {
                    return new CharsetRecoder(t, false);
                }
            }
            return null;
        }
    }

    /** The location conf: nginx's {@code ngx_http_charset_loc_conf_t}. */
    static final class CharsetLocConf {
        int charset = Conf.UNSET;
        int sourceCharset = Conf.UNSET;
        int overrideCharset = Conf.UNSET;
        List<String> types;
    }

    private final List<Directive<?>> directives = List.of(
        Directive.of("charset", MSLI, Arity.TAKE1, CharsetLocConf.class, (cf, c) -> c.charset = charset(cf,
            c.charset, true)).syntax("charset | off").defaults("off").describe("Adds the specified charset to the "
            + "\"Content-Type\" response header field."),
        Directive.of("source_charset", MSLI, Arity.TAKE1, CharsetLocConf.class, (cf, c) -> c.sourceCharset =
            charset(cf, c.sourceCharset, false)).syntax("charset").describe("Defines the source charset of a "
            + "response."),
        Directive.of("override_charset", MSLI, Arity.FLAG, CharsetLocConf.class,
            Slots.flag((CharsetLocConf c, boolean on) -> c.overrideCharset = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Determines whether a conversion should be performed for "
                + "answers received from a proxied or a FastCGI/uwsgi/SCGI/gRPC server when the answers already "
                + "carry a charset in the \"Content-Type\" response header field."),
        Directive.of("charset_types", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC), Arity.ONE_MORE,
            CharsetLocConf.class, (cf, c) -> c.types = GzipFilterModule.addTypes(cf, c.types))
            .syntax("mime-type ...").defaults("text/html text/xml text/plain text/vnd.wap.wml "
                + "application/javascript application/rss+xml").describe("Enables module processing in responses "
                + "with the specified MIME types in addition to \"text/html\"."),
        Directive.of("charset_map", Set.of(HttpCtx.MAIN), Arity.BLOCK | Arity.TAKE2, CharsetMainConf.class,
            CharsetModule::charsetMap).multi()
            .syntax("charset1 charset2 { ... }").describe("Describes the conversion table from one charset to "
                + "another."));

    private int ctxIndex = -1;
    private CharsetMainConf main;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public CharsetModule() {
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
        return directives;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createMainConf() {
        return new CharsetMainConf();
    }

    @Override
    public Object createLocConf() {
        return new CharsetLocConf();
    }

    @Override
    public void preconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
        main = (CharsetMainConf) cf.mainConf(this);
    }

    /** nginx's {@code ngx_http_charset_merge_loc_conf()}: a pair to recode is remembered to check its map. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        CharsetLocConf prev = (CharsetLocConf) parent;
        CharsetLocConf conf = (CharsetLocConf) child;
        conf.types = Conf.merge(conf.types, prev.types, DEFAULT_TYPES);
        conf.overrideCharset = Conf.merge(conf.overrideCharset, prev.overrideCharset, 0);
        conf.charset = Conf.merge(conf.charset, prev.charset, OFF);
        conf.sourceCharset = Conf.merge(conf.sourceCharset, prev.sourceCharset, OFF);
        if (conf.charset == OFF || conf.sourceCharset == OFF || conf.charset == conf.sourceCharset
            || conf.charset >= VAR || conf.sourceCharset >= VAR) {
            return;
        }
        main.recodes.add(new int[] {conf.sourceCharset, conf.charset});
    }

    /** nginx's {@code ngx_http_charset_postconfiguration()}. */
    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        for (int[] recode : main.recodes) {
            if (main.recoder(recode[0], recode[1]) == null) {
                throw new ConfException("no \"charset_map\" between the charsets \"" + main.names.get(recode[0])
                    + "\" and \"" + main.names.get(recode[1]) + "\"");
            }
        }
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
    }

    /** nginx's {@code ngx_http_set_charset_slot()}. */
    private int charset(ConfContext cf, int current, boolean offAllowed) throws ConfException {
        if (current != Conf.UNSET) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        String v = cf.arg(1);
        if (offAllowed && v.equals("off")) {
            return OFF;
        }
        if (v.startsWith("$")) {
            return VAR + HttpDirectives.variableIndex(cf, v.substring(1));
        }
        return main.add(v);
    }

    /** nginx's {@code ngx_http_charset_map_block()} and {@code ngx_http_charset_map()}. */
    private static void charsetMap(ConfContext cf, CharsetMainConf mcf) throws ConfException {
        int src = mcf.add(cf.arg(1));
        int dst = mcf.add(cf.arg(2));
        if (src == dst) {
            throw new ConfException("\"charset_map\" between the same charsets \"" + cf.arg(1) + "\" and \""
                + cf.arg(2) + "\"");
        }
        for (CharsetRecoder.Table t : mcf.tables) {
            if (t.src == src && t.dst == dst || t.src == dst && t.dst == src) {
                throw new ConfException("duplicate \"charset_map\" between \"" + cf.arg(1) + "\" and \""
                    + cf.arg(2) + "\"");
            }
        }
        CharsetRecoder.Table table = new CharsetRecoder.Table(src, dst, mcf.utf8(dst));
        mcf.tables.add(table);
        BlockLines.parse(cf, "charset_map", (lcf, words) -> {
            if (words.size() != 2) {
                throw new ConfException("invalid parameters number");
            }
            int from = CharsetRecoder.hex(words.get(0));
            if (from < 0 || from > 255) {
                throw new ConfException("invalid value \"" + words.get(0) + "\"");
            }
            if (!table.map(from, words.get(1))) {
                throw new ConfException("invalid value \"" + words.get(1) + "\"");
            }
        });
    }

    /** The request's state: the charset chosen and, when recoding, the recoder. */
    private record State(int charset, String name, CharsetRecoder recoder) {
    }

    /** nginx's {@code ngx_http_charset_header_filter()}. */
    private int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        String[] dst = new String[1];
        int charset = mainRequestCharset(r, dst);
        if (charset == Rc.ERROR) {
            return Rc.ERROR;
        }
        if (charset == Rc.DECLINED) {
            return next.filter(r);
        }
        String[] src = new String[1];
        int source = sourceCharset(r, src);
        if (source == Rc.ERROR) {
            return Rc.ERROR;
        }
        if (source == OFF) {
            setCharset(r, dst[0]);
            return next.filter(r);
        }
        if (charset == NO_CHARSET || source == NO_CHARSET) {
            if (source != charset || !dst[0].equalsIgnoreCase(src[0])) {
                return noCharsetMap(r, src[0], dst[0], next);
            }
            setCharset(r, dst[0]);
            return next.filter(r);
        }
        if (source == charset) {
            stripParameters(r.headersOut);
            setCharset(r, dst[0]);
            return next.filter(r);
        }
        HeadersOut h = r.headersOut;
        if (h.contentEncoding != null && !h.contentEncoding.removed && !h.contentEncoding.value.isEmpty()) {
            return next.filter(r);
        }
        CharsetRecoder recoder = main.recoder(source, charset);
        if (recoder == null) {
            return noCharsetMap(r, src[0], dst[0], next);
        }
        stripParameters(h);
        setCharset(r, dst[0]);
        r.ctx(ctxIndex, new State(charset, dst[0], recoder));
        r.addCleanup(recoder);
        if (recoder.changesLength()) {
            h.contentLengthN = -1;
            if (h.headers.entry("Content-Length") != null) {
                h.headers.remove("Content-Length");
            }
        }
        return next.filter(r);
    }

    private static int noCharsetMap(HttpRequest r, String src, String dst, HeaderFilter.Next next) {
        CoreOutput.log(r, LogLevel.ERROR, 0, "no \"charset_map\" between the charsets \"" + src + "\" and \""
            + dst + "\"");
        return next.filter(r);
    }

    /** {@code content_type.len = content_type_len}: the type without the parameters it came with. */
    private static void stripParameters(HeadersOut h) {
        int semi = h.contentType.indexOf(';');
        if (semi >= 0) {
            int end = semi;
            while (end > 0 && h.contentType.charAt(end - 1) == ' ') {
                end--;
            }
            h.contentType = h.contentType.substring(0, end);
        }
    }

    /** nginx's {@code ngx_http_main_request_charset()}. */
    private int mainRequestCharset(HttpRequest r, String[] name) {
        if (r.ctx(ctxIndex) instanceof State ctx) {
            name[0] = ctx.name;
            return ctx.charset;
        }
        HeadersOut h = r.headersOut;
        if (h.contentType == null || h.contentType.isEmpty()) {
            return Rc.DECLINED;
        }
        CharsetLocConf lcf = (CharsetLocConf) r.locConf(ctxIndex);
        int charset = lcf.charset;
        if (charset == OFF) {
            return Rc.DECLINED;
        }
        if (h.charset != null && !h.charset.isEmpty()) {
            if (lcf.overrideCharset == 0) {
                return Rc.DECLINED;
            }
        } else if (!GzipFilterModule.typeMatches(h, lcf.types)) {
            return Rc.DECLINED;
        }
        if (charset < VAR) {
            name[0] = main.names.get(charset);
            return charset;
        }
        String v = r.variable(charset - VAR);
        if (v == null) {
            return Rc.ERROR;
        }
        name[0] = v;
        return main.find(v);
    }

    /** nginx's {@code ngx_http_source_charset()}. */
    private int sourceCharset(HttpRequest r, String[] name) {
        HeadersOut h = r.headersOut;
        if (h.charset != null && !h.charset.isEmpty()) {
            name[0] = h.charset;
            return main.find(h.charset);
        }
        int charset = ((CharsetLocConf) r.locConf(ctxIndex)).sourceCharset;
        if (charset == OFF) {
            name[0] = "";
            return OFF;
        }
        if (charset < VAR) {
            name[0] = main.names.get(charset);
            return charset;
        }
        String v = r.variable(charset - VAR);
        if (v == null) {
            return Rc.ERROR;
        }
        name[0] = v;
        return main.find(v);
    }

    /** nginx's {@code ngx_http_set_charset()}: no charset on a redirect. */
    private static void setCharset(HttpRequest r, String charset) {
        int status = r.headersOut.status;
        r.headersOut.charset = status == 301 || status == 302 ? null : charset;
    }

    /** nginx's {@code ngx_http_charset_body_filter()}. */
    private int bodyFilter(HttpRequest r, jinx.kernel.BufChain in, BodyFilter.Next next) {
        if (!(r.ctx(ctxIndex) instanceof State ctx) || ctx.recoder == null || r.headerOnly) {
            return next.filter(r, in);
        }
        return ctx.recoder.filter(r, in, next);
    }
}
