package jinx.http.internal.modules;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.parse.HttpTime;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_not_modified_filter} module, nginx's {@code ngx_http_not_modified_filter_module.c}: a 200
 * response is answered 412 when {@code If-Unmodified-Since} or {@code If-Match} fails, and turned into a 304 when
 * {@code If-Modified-Since} (as {@code if_modified_since} says: {@code off}, {@code exact}, {@code before}) and
 * {@code If-None-Match} (weak comparison) both say the client's copy is current.
 */
public final class NotModifiedFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_not_modified_filter";

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public NotModifiedFilterModule() {
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
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        cf.addHeaderFilter(NotModifiedFilterModule::headerFilter);
    }

    /**
     * The header filter: nginx's {@code ngx_http_not_modified_header_filter()}.
     *
     * @param r the request
     * @param next the rest of the header filters
     * @return what they answer, or {@link jinx.kernel.Rc#ERROR} after a 412 was sent
     */
    static int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        HeadersOut h = r.headersOut;
        if (h.status != 200 || r.main() != r) {
            return next.filter(r);
        }
        HttpHeaders.Entry iums = r.headersIn.ifUnmodifiedSince;
        if (iums != null && !testIfUnmodified(r, iums)) {
            return CoreOutput.filterFinalize(r, CoreOutput.PRECONDITION_FAILED);
        }
        HttpHeaders.Entry im = r.headersIn.ifMatch;
        if (im != null && !testIfMatch(r, im, false)) {
            return CoreOutput.filterFinalize(r, CoreOutput.PRECONDITION_FAILED);
        }
        HttpHeaders.Entry ims = r.headersIn.ifModifiedSince;
        HttpHeaders.Entry inm = r.headersIn.ifNoneMatch;
        if (ims == null && inm == null) {
            return next.filter(r);
        }
        if (ims != null && testIfModified(r, ims)) {
            return next.filter(r);
        }
        if (inm != null && !testIfMatch(r, inm, true)) {
            return next.filter(r);
        }
        // not modified
        h.status = CoreOutput.NOT_MODIFIED;
        h.statusLine = null;
        h.contentType = null;
        h.contentLengthN = -1;
        CoreOutput.clearAcceptRanges(r);
        if (h.contentEncoding != null) {
            h.contentEncoding.removed = true;
            h.contentEncoding = null;
        }
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_test_if_unmodified()}: true when the precondition holds. */
    private static boolean testIfUnmodified(HttpRequest r, HttpHeaders.Entry header) {
        long lm = r.headersOut.lastModifiedTime;
        if (lm == -1) {
            return false;
        }
        return HttpTime.parse(header.value) >= lm;
    }

    /** nginx's {@code ngx_http_test_if_modified()}: true when the file was modified (send it). */
    private static boolean testIfModified(HttpRequest r, HttpHeaders.Entry header) {
        long lm = r.headersOut.lastModifiedTime;
        if (lm == -1) {
            return true;
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (clcf.ifModifiedSince == HttpCoreLocConf.IMS_OFF) {
            return true;
        }
        long ims = HttpTime.parse(header.value);
        if (ims == lm) {
            return false;
        }
        return clcf.ifModifiedSince == HttpCoreLocConf.IMS_EXACT || ims < lm;
    }

    /**
     * nginx's {@code ngx_http_test_if_match()}: {@code *}, or one of the comma-separated tags equal to the
     * response's {@code ETag}; with {@code weak}, {@code W/} is ignored on both sides.
     *
     * @param r the request
     * @param header the {@code If-Match} or {@code If-None-Match} line
     * @param weak true for the weak comparison of {@code If-None-Match}
     * @return true when a tag matches
     */
    static boolean testIfMatch(HttpRequest r, HttpHeaders.Entry header, boolean weak) {
        String list = header.value;
        if (list.equals("*")) {
            return true;
        }
        HttpHeaders.Entry etagLine = r.headersOut.etag;
        if (etagLine == null || etagLine.removed) {
            return false;
        }
        String etag = etagLine.value;
        if (weak && etag.length() > 2 && etag.startsWith("W/")) {
            etag = etag.substring(2);
        }
        int start = 0;
        int end = list.length();
        while (start < end) {
            if (weak && end - start > 2 && list.startsWith("W/", start)) {
                start += 2;
            }
            if (etag.length() > end - start) {
                return false;
            }
            if (list.startsWith(etag, start)) {
                int p = start + etag.length();
                while (p < end && (list.charAt(p) == ' ' || list.charAt(p) == '\t')) {
                    p++;
                }
                if (p == end || list.charAt(p) == ',') {
                    return true;
                }
                start = p;
            }
            while (start < end && list.charAt(start) != ',') {
                start++;
            }
            while (start < end && (list.charAt(start) == ' ' || list.charAt(start) == '\t'
                                   || list.charAt(start) == ',')) {
                start++;
            }
        }
        return false;
    }
}
