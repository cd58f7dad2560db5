package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.parse.HttpTime;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_headers_filter} module, nginx's {@code ngx_http_headers_filter_module.c}: {@code add_header name
 * value [always]}, {@code add_trailer name value [always]} (the trailers of a chunked response, which it makes
 * chunked) and {@code expires [modified] time|epoch|max|off|@time}. Both apply to 200, 201, 204, 206, 301,
 * 302, 303, 304, 307 and 308 responses; {@code always} adds a header to any. A level with {@code add_header} of its
 * own does not inherit the outer ones. {@code Cache-Control}, {@code Last-Modified} and {@code ETag} given to
 * {@code add_header} replace (or, empty, remove) the response's own as nginx does.
 */
public final class HeadersFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_headers_filter";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("expires", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF), Arity.TAKE12,
            HeadersConf.class, HeadersFilterModule::expires)
            .syntax("[modified] time", "epoch | max | off").defaults("off").describe("Enables or disables adding or "
                + "modifying the Expires and Cache-Control response header fields."),
        Directive.of("add_header", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF), Arity.TAKE23,
            HeadersConf.class, HeadersFilterModule::addHeader).multi()
            .syntax("name value [always]").describe("Adds the specified field to a response header provided that the "
                + "response code equals 200, 201, 204, 206, 301, 302, 303, 304, 307, or 308; with always, whatever "
                + "the response code."),
        Directive.of("add_trailer", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF), Arity.TAKE23,
            HeadersConf.class, HeadersFilterModule::addTrailer).multi()
            .syntax("name value [always]").describe("Adds the specified field to the end of a response provided that "
                + "the response code equals 200, 201, 206, 301, 302, 303, 307, or 308; with always, whatever the "
                + "response code."));

    private int ctxIndex = -1;

    /** How a header of {@code add_header} is set: nginx's {@code ngx_http_set_headers[]} handlers. */
    enum Kind {
        /** Any other name: a line is added unless the value is empty. */
        ADD,
        /** {@code Cache-Control}: added, and kept with the response's other Cache-Control lines. */
        CACHE_CONTROL,
        /** {@code Last-Modified}: replaces the response's time. */
        LAST_MODIFIED,
        /** {@code ETag}: replaces the response's tag. */
        ETAG
    }

    /**
     * One {@code add_header}: nginx's {@code ngx_http_header_val_t}.
     *
     * @param key the name as written
     * @param value the value, null for an empty one
     * @param kind how it is set
     * @param always added whatever the status
     */
    record HeaderVal(String key, ComplexValue value, Kind kind, boolean always) {
    }

    /**
     * The location conf: nginx's {@code ngx_http_headers_conf_t}.
     */
    static final class HeadersConf {
        /** {@code expires}; {@link Expires.Type#UNSET} until set or merged. */
        Expires expires = Expires.UNSET;
        /** {@code expires} with variables, parsed per request; null otherwise. */
        ComplexValue expiresValue;
        /** {@code add_header}s of this level, or null to inherit. */
        List<HeaderVal> headers;
        /** {@code add_trailer}s of this level, or null to inherit. */
        List<HeaderVal> trailers;
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public HeadersFilterModule() {
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
        return new HeadersConf();
    }

    /** nginx's {@code ngx_http_headers_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        HeadersConf prev = (HeadersConf) parent;
        HeadersConf conf = (HeadersConf) child;
        if (conf.expires.type() == Expires.Type.UNSET) {
            conf.expires = prev.expires;
            conf.expiresValue = prev.expiresValue;
            if (conf.expires.type() == Expires.Type.UNSET) {
                conf.expires = Expires.OFF;
            }
        }
        if (conf.headers == null) {
            conf.headers = prev.headers;
        }
        if (conf.trailers == null) {
            conf.trailers = prev.trailers;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::trailersFilter);
    }

    /**
     * The header filter: nginx's {@code ngx_http_headers_filter()}.
     *
     * @param r the request
     * @param next the rest of the header filters
     * @return what they answer
     */
    int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        HeadersConf conf = (HeadersConf) r.locConf(ctxIndex);
        if (conf == null || conf.expires.type() == Expires.Type.OFF && conf.headers == null && conf.trailers == null
            || r.main() != r) {
            return next.filter(r);
        }
        boolean safeStatus = safeStatus(r);
        if (conf.expires.type() != Expires.Type.OFF && safeStatus) {
            setExpires(r, conf);
        }
        if (conf.headers != null) {
            for (HeaderVal hv : conf.headers) {
                if (!safeStatus && !hv.always()) {
                    continue;
                }
                String value = hv.value() == null ? "" : hv.value().evaluate(r);
                set(r, hv, value);
            }
        }
        if (conf.trailers != null && r instanceof CoreRequest cr) {
            for (HeaderVal hv : conf.trailers) {
                if (safeStatus || hv.always()) {
                    cr.expectTrailers = true;
                    break;
                }
            }
        }
        return next.filter(r);
    }

    private static boolean safeStatus(HttpRequest r) {
        return switch (r.headersOut.status) {
            case 200, 201, 204, 206, 301, 302, 303, 304, 307, 308 -> true;
            default -> false;
        };
    }

    /** nginx's {@code ngx_http_trailers_filter()}: the trailers, evaluated when the last buffer passes. */
    private int trailersFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        HeadersConf conf = (HeadersConf) r.locConf(ctxIndex);
        if (in == null || conf == null || conf.trailers == null || r.main() != r || !(r instanceof CoreRequest cr)) {
            return next.filter(r, in);
        }
        BufChain cl = in;
        while (cl != null && !cl.buf.last) {
            cl = cl.next;
        }
        if (cl == null) {
            return next.filter(r, in);
        }
        boolean safeStatus = safeStatus(r);
        for (HeaderVal hv : conf.trailers) {
            if (!safeStatus && !hv.always()) {
                continue;
            }
            String value = hv.value() == null ? "" : hv.value().evaluate(r);
            if (!value.isEmpty()) {
                if (cr.trailers == null) {
                    cr.trailers = new ArrayList<>();
                }
                cr.trailers.add(hv.key());
                cr.trailers.add(value);
            }
        }
        return next.filter(r, in);
    }

    private static void setExpires(HttpRequest r, HeadersConf conf) {
        Expires e = conf.expires;
        if (conf.expiresValue != null) {
            try {
                e = Expires.parse(conf.expiresValue.evaluate(r), e.type() == Expires.Type.MODIFIED);
            } catch (ConfException invalid) {
                return;
            }
            if (e.type() == Expires.Type.OFF) {
                return;
            }
        }
        e.apply(r, conf.expires.time() < 0);
    }

    /** The handlers of nginx's {@code ngx_http_set_headers[]} and {@code ngx_http_add_header()}. */
    private static void set(HttpRequest r, HeaderVal hv, String value) {
        HeadersOut h = r.headersOut;
        switch (hv.kind()) {
            case CACHE_CONTROL -> {
                if (!value.isEmpty()) {
                    HttpHeaders.Entry cc = h.headers.add(hv.key(), value);
                    if (h.cacheControl == null || h.cacheControl.removed) {
                        h.cacheControl = cc;
                    }
                }
            }
            case LAST_MODIFIED -> {
                // Jinx keeps no Last-Modified line of its own: the header filter writes the time
                h.lastModifiedTime = value.isEmpty() ? -1 : HttpTime.parse(value);
                if (!value.isEmpty() && h.lastModifiedTime == -1) {
                    h.headers.add(hv.key(), value);
                }
            }
            case ETAG -> {
                if (value.isEmpty()) {
                    if (h.etag != null) {
                        h.etag.removed = true;
                        h.etag = null;
                    }
                    return;
                }
                if (h.etag == null || h.etag.removed) {
                    h.etag = h.headers.add(hv.key(), value);
                } else {
                    h.etag.value = value;
                }
            }
            default -> {
                if (!value.isEmpty()) {
                    h.headers.add(hv.key(), value);
                }
            }
        }
    }

    /** nginx's {@code ngx_http_headers_expires()}. */
    private static void expires(ConfContext cf, HeadersConf hcf) throws ConfException {
        if (hcf.expires.type() != Expires.Type.UNSET) {
            throw new ConfException("\"expires\" directive is duplicate");
        }
        boolean modified = false;
        int n = 1;
        if (cf.args().size() == 3) {
            if (!cf.arg(1).equals("modified")) {
                throw new ConfException("\"expires\" directive invalid value");
            }
            modified = true;
            n = 2;
        }
        String value = cf.arg(n);
        ComplexValue cv = Variables.of(cf).compile(cf, value);
        if (!cv.isStatic()) {
            hcf.expires = modified ? Expires.MODIFIED_UNPARSED : Expires.ACCESS_UNPARSED;
            hcf.expiresValue = cv;
            return;
        }
        try {
            hcf.expires = Expires.parse(value, modified);
        } catch (ConfException e) {
            throw new ConfException("\"expires\" directive " + e.getMessage());
        }
    }

    /** nginx's {@code ngx_http_headers_add()} for {@code add_trailer}: every name is added as it is. */
    private static void addTrailer(ConfContext cf, HeadersConf hcf) throws ConfException {
        List<HeaderVal> list = hcf.trailers == null ? new ArrayList<>() : new ArrayList<>(hcf.trailers);
        list.add(headerVal(cf, Kind.ADD));
        hcf.trailers = List.copyOf(list);
    }

    /** nginx's {@code ngx_http_headers_add()}. */
    private static void addHeader(ConfContext cf, HeadersConf hcf) throws ConfException {
        List<HeaderVal> list = hcf.headers == null ? new ArrayList<>() : new ArrayList<>(hcf.headers);
        String key = cf.arg(1);
        Kind kind = Kind.ADD;
        if (key.equalsIgnoreCase("Cache-Control")) {
            kind = Kind.CACHE_CONTROL;
        } else if (key.equalsIgnoreCase("Last-Modified")) {
            kind = Kind.LAST_MODIFIED;
        } else if (key.equalsIgnoreCase("ETag")) {
            kind = Kind.ETAG;
        }
        list.add(headerVal(cf, kind));
        hcf.headers = List.copyOf(list);
    }

    private static HeaderVal headerVal(ConfContext cf, Kind kind) throws ConfException {
        String v = cf.arg(2);
        ComplexValue value = v.isEmpty() ? null : Variables.of(cf).compile(cf, v);
        boolean always = false;
        if (cf.args().size() == 4) {
            if (!cf.arg(3).equals("always")) {
                throw new ConfException("invalid parameter \"" + cf.arg(3) + "\"");
            }
            always = true;
        }
        return new HeaderVal(cf.arg(1), value, kind, always);
    }
}
