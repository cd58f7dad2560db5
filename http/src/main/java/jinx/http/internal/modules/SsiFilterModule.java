package jinx.http.internal.modules;

import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_ssi_filter} module, nginx's {@code ngx_http_ssi_filter_module.c}: with {@code ssi on}, a response
 * of an {@code ssi_types} type (text/html by default) is scanned for {@code <!--#command ... -->} and each command
 * is replaced by what it produces: {@code include} (a subrequest, {@code virtual} or {@code file}, with
 * {@code wait}, {@code set} and {@code stub}), {@code echo}, {@code set}, {@code config}, {@code if}/{@code elif}/
 * {@code else}/{@code endif}, {@code block}/{@code endblock}. The main response loses its {@code Content-Length}
 * and {@code Accept-Ranges}, and its {@code Last-Modified} and {@code ETag} unless {@code ssi_last_modified on}
 * (then the tag becomes weak). {@code $date_local} and {@code $date_gmt} are the time in the document's
 * {@code timefmt}.
 *
 * <p>Output is copied rather than sliced out of the input buffers as nginx does; SSI pages are small and
 * the copy keeps the producer's buffers free. An {@code include set} takes the body of any in-memory
 * subrequest, where nginx takes only an upstream's buffer (a static file's body sets the variable to nothing
 * in nginx).
 */
public final class SsiFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_ssi_filter";

    /** nginx's {@code NGX_HTTP_SSI_BUFFERED}, the request's {@code buffered} bit while input waits here. */
    static final int SSI_BUFFERED = 0x01;

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> MSLI = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("ssi", MSLI, Arity.FLAG, SsiConf.class, Slots.flag((SsiConf c, boolean on) -> c.enable = on
            ? 1 : 0)).syntax("on | off").defaults("off").describe("Enables or disables processing of SSI commands "
                + "in responses."),
        Directive.of("ssi_silent_errors", MSL, Arity.FLAG, SsiConf.class,
            Slots.flag((SsiConf c, boolean on) -> c.silentErrors = on ? 1 : 0)).syntax("on | off").defaults("off")
            .describe("If enabled, suppresses the output of the error message when an error occurred during SSI "
                + "processing."),
        Directive.of("ssi_ignore_recycled_buffers", MSL, Arity.FLAG, SsiConf.class,
            Slots.flag((SsiConf c, boolean on) -> c.ignoreRecycled = on ? 1 : 0)).syntax("on | off")
            .defaults("off").describe("Accepted for nginx's configurations; Jinx copies SSI output, so buffers are "
                + "never recycled under it."),
        Directive.of("ssi_min_file_chunk", MSL, Arity.TAKE1, SsiConf.class,
            Slots.size((SsiConf c, long v) -> c.minFileChunk = v)).syntax("size").defaults("1k")
            .describe("Sets the minimum size for parts of a response stored on disk, starting from which it makes "
                + "sense to send them using sendfile (accepted; Jinx copies SSI output)."),
        Directive.of("ssi_value_length", MSL, Arity.TAKE1, SsiConf.class,
            Slots.size((SsiConf c, long v) -> c.valueLen = v)).syntax("length").defaults("256")
            .describe("Sets the maximum length of parameter values in SSI commands."),
        Directive.of("ssi_types", MSL, Arity.ONE_MORE, SsiConf.class,
            (cf, c) -> c.types = GzipFilterModule.addTypes(cf, c.types))
            .syntax("mime-type ...").defaults("text/html").describe("Enables processing of SSI commands in "
                + "responses with the specified MIME types in addition to \"text/html\"."),
        Directive.of("ssi_last_modified", MSL, Arity.FLAG, SsiConf.class,
            Slots.flag((SsiConf c, boolean on) -> c.lastModified = on ? 1 : 0)).syntax("on | off")
            .defaults("off").describe("Allows preserving the \"Last-Modified\" header field from the original "
                + "response during SSI processing."));

    /** The location conf: nginx's {@code ngx_http_ssi_loc_conf_t}. */
    static final class SsiConf {
        int enable = Conf.UNSET;
        int silentErrors = Conf.UNSET;
        int ignoreRecycled = Conf.UNSET;
        int lastModified = Conf.UNSET;
        long minFileChunk = Conf.UNSET_LONG;
        long valueLen = Conf.UNSET_LONG;
        List<String> types;
    }

    private int ctxIndex = -1;
    private Variables variables;

    /** The module, as {@code ServiceLoader} makes it. */
    public SsiFilterModule() {
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
        ctxIndex = cf.ctxIndex(this);
        cf.addVariable("date_local", (r, n) -> SsiTime.date(r.ctx(ctxIndex), false), HttpConfig.VAR_NOCACHEABLE);
        cf.addVariable("date_gmt", (r, n) -> SsiTime.date(r.ctx(ctxIndex), true), HttpConfig.VAR_NOCACHEABLE);
    }

    @Override
    public Object createLocConf() {
        return new SsiConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        SsiConf prev = (SsiConf) parent;
        SsiConf conf = (SsiConf) child;
        conf.enable = Conf.merge(conf.enable, prev.enable, 0);
        conf.silentErrors = Conf.merge(conf.silentErrors, prev.silentErrors, 0);
        conf.ignoreRecycled = Conf.merge(conf.ignoreRecycled, prev.ignoreRecycled, 0);
        conf.lastModified = Conf.merge(conf.lastModified, prev.lastModified, 0);
        conf.minFileChunk = Conf.merge(conf.minFileChunk, prev.minFileChunk, 1024L);
        conf.valueLen = Conf.merge(conf.valueLen, prev.valueLen, 255L);
        conf.types = Conf.merge(conf.types, prev.types, GzipFilterModule.DEFAULT_TYPES);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        variables = Variables.of(cf.cycle());
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
    }

    /** nginx's {@code ngx_http_ssi_header_filter()}. */
    int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        SsiConf conf = (SsiConf) r.locConf(ctxIndex);
        HeadersOut h = r.headersOut;
        if (conf.enable == 0 || h.contentLengthN == 0 || !GzipFilterModule.typeMatches(h, conf.types)) {
            return next.filter(r);
        }
        SsiFilter.Shared shared = r.main() != r && r.main().ctx(ctxIndex) instanceof SsiFilter f ? f.shared
            : new SsiFilter.Shared();
        r.ctx(ctxIndex, new SsiFilter(conf, shared, variables));
        if (r.main() == r) {
            h.contentLengthN = -1;
            CoreOutput.clearAcceptRanges(r);
            if (conf.lastModified == 0) {
                h.lastModifiedTime = -1;
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

    /** nginx's {@code ngx_http_ssi_body_filter()}. */
    int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (!(r.ctx(ctxIndex) instanceof SsiFilter ctx)) {
            return next.filter(r, in);
        }
        return ctx.filter(r, in, next);
    }
}
