package jinx.http.internal.modules;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.parse.HttpTime;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_range_filter} module, nginx's {@code ngx_http_range_filter_module.c} (its header and body
 * filters): a 200 response that allows ranges, of known length, is answered 206 for a satisfiable
 * {@code Range: bytes=...} (one range with {@code Content-Range}, several as {@code multipart/byteranges} with
 * nginx's part headers), 416 with {@code Content-Range: bytes *}{@code /N} for an unsatisfiable one; a stale
 * {@code If-Range} (a date or an entity tag) sends the whole response; more ranges than {@code max_ranges}, or
 * ranges longer together than the response, send it whole as well; otherwise {@code Accept-Ranges: bytes} is
 * added. Its second body filter is the copy step of {@link FileCopy}, which comes after the range body filter as
 * nginx's copy filter does.
 *
 * <p>Multipart boundaries are nginx's twenty-digit numbers, from a counter of the process starting at 1.
 */
public final class RangeFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_range_filter";

    private static final AtomicLong BOUNDARY = new AtomicLong();

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public RangeFilterModule() {
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
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::headerFilter);
        cf.addBodyFilter(this::bodyFilter);
        cf.addBodyFilter(this::copyFilter);
    }

    private RangeState state(HttpRequest r, boolean create) {
        Object o = r.ctx(ctxIndex);
        if (o instanceof RangeState s) {
            return s;
        }
        if (!create) {
            return null;
        }
        RangeState s = RangeState.take();
        r.addCleanup(s);
        r.ctx(ctxIndex, s);
        return s;
    }

    /**
     * The header filter: nginx's {@code ngx_http_range_header_filter()}.
     *
     * @param r the request
     * @param next the rest of the header filters
     * @return what they answer, or 416 for an unsatisfiable range
     */
    int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        HeadersOut h = r.headersOut;
        if (r.httpVersion < HttpRequest.VERSION_10 || h.status != 200 || h.contentLengthN == -1 || !r.allowRanges
            || r.main() != r) {
            return next.filter(r);
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (clcf.maxRanges == 0) {
            return next.filter(r);
        }
        HttpHeaders.Entry range = r.headersIn.range;
        if (range == null || range.value.length() < 7 || !range.value.regionMatches(true, 0, "bytes=", 0, 6)
            || !ifRange(r)) {
            return acceptRanges(r, next);
        }
        RangeState ctx = state(r, true);
        ctx.offset = 0;
        int ranges = r.singleRange ? 1 : clcf.maxRanges;
        RangeParser.Result parsed = RangeParser.parse(range.value, h.contentLengthN, ranges);
        switch (parsed.rc()) {
            case Rc.OK:
                ctx.ranges = parsed.ranges();
                h.status = CoreOutput.PARTIAL_CONTENT;
                h.statusLine = null;
                if (ctx.ranges.size() == 1) {
                    return singlepartHeader(r, ctx, next);
                }
                return multipartHeader(r, ctx, next);
            case CoreOutput.RANGE_NOT_SATISFIABLE:
                return notSatisfiable(r);
            default:
                return acceptRanges(r, next);
        }
    }

    /** {@code If-Range}: an entity tag (ends with a quote) equal to ETag, or a date equal to Last-Modified. */
    private static boolean ifRange(HttpRequest r) {
        HttpHeaders.Entry ir = r.headersIn.ifRange;
        if (ir == null) {
            return true;
        }
        String v = ir.value;
        HeadersOut h = r.headersOut;
        if (v.length() >= 2 && v.charAt(v.length() - 1) == '"') {
            return h.etag != null && !h.etag.removed && v.equals(h.etag.value);
        }
        if (h.lastModifiedTime == -1) {
            return false;
        }
        return HttpTime.parse(v) == h.lastModifiedTime;
    }

    private static int acceptRanges(HttpRequest r, HeaderFilter.Next next) {
        r.headersOut.acceptRanges = r.headersOut.headers.add("Accept-Ranges", "bytes");
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_range_singlepart_header()}. */
    private static int singlepartHeader(HttpRequest r, RangeState ctx, HeaderFilter.Next next) {
        HeadersOut h = r.headersOut;
        long[] range = ctx.ranges.get(0);
        h.contentRange = h.headers.add("Content-Range", "bytes " + range[0] + "-" + (range[1] - 1) + "/"
            + h.contentLengthN);
        h.contentLengthN = range[1] - range[0];
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_range_multipart_header()}. */
    private static int multipartHeader(HttpRequest r, RangeState ctx, HeaderFilter.Next next) {
        HeadersOut h = r.headersOut;
        String boundary = String.format("%020d", BOUNDARY.incrementAndGet());
        StringBuilder bh = new StringBuilder(128).append("\r\n--").append(boundary).append("\r\n");
        if (h.contentType != null && !h.contentType.isEmpty()) {
            bh.append("Content-Type: ").append(h.contentType);
            if (h.charset != null && !h.charset.isEmpty() && h.contentType.indexOf(';') < 0) {
                bh.append("; charset=").append(h.charset);
            }
            bh.append("\r\n");
        }
        bh.append("Content-Range: bytes ");
        ctx.boundaryHeader = bh.toString();
        h.contentType = "multipart/byteranges; boundary=" + boundary;
        h.charset = null;
        // the last boundary: CRLF "--" boundary "--" CRLF
        long len = 4 + boundary.length() + 4;
        ctx.contentRanges = new String[ctx.ranges.size()];
        for (int i = 0; i < ctx.ranges.size(); i++) {
            long[] range = ctx.ranges.get(i);
            ctx.contentRanges[i] = range[0] + "-" + (range[1] - 1) + "/" + h.contentLengthN + "\r\n\r\n";
            len += ctx.boundaryHeader.length() + ctx.contentRanges[i].length() + (range[1] - range[0]);
        }
        h.contentLengthN = len;
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_range_not_satisfiable()}. */
    private static int notSatisfiable(HttpRequest r) {
        HeadersOut h = r.headersOut;
        h.status = CoreOutput.RANGE_NOT_SATISFIABLE;
        h.contentRange = h.headers.add("Content-Range", "bytes */" + h.contentLengthN);
        h.contentLengthN = -1;
        return CoreOutput.RANGE_NOT_SATISFIABLE;
    }

    /**
     * The body filter: nginx's {@code ngx_http_range_body_filter()}.
     *
     * @param r the request
     * @param in the buffers
     * @param next the rest of the body filters
     * @return what they answer
     */
    int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (in == null) {
            return next.filter(r, null);
        }
        RangeState ctx = state(r, false);
        if (ctx == null || ctx.ranges == null) {
            return next.filter(r, in);
        }
        if (ctx.ranges.size() == 1) {
            return singlepartBody(r, ctx, in, next);
        }
        // multipart ranges are supported only if whole body is in a single buffer (nginx)
        if (in.buf.isSpecial()) {
            return next.filter(r, in);
        }
        if (!testOverlapped(r, ctx, in)) {
            return Rc.ERROR;
        }
        return multipartBody(ctx, in, next, r);
    }

    /** nginx's {@code ngx_http_range_test_overlapped()}: the body must come as one buffer. */
    private static boolean testOverlapped(HttpRequest r, RangeState ctx, BufChain in) {
        Buf buf = in.buf;
        boolean overlapped = ctx.offset != 0;
        if (!overlapped && !buf.last) {
            long start = ctx.offset;
            long last = ctx.offset + buf.size();
            for (long[] range : ctx.ranges) {
                if (start > range[0] || last < range[1]) {
                    overlapped = true;
                    break;
                }
            }
        }
        if (overlapped) {
            CoreOutput.log(r, LogLevel.ALERT, 0, "range in overlapped buffers");
            return false;
        }
        ctx.offset = buf.size();
        return true;
    }

    /** nginx's {@code ngx_http_range_singlepart_body()}: buffers outside the range are dropped, the others cut. */
    private static int singlepartBody(HttpRequest r, RangeState ctx, BufChain in, BodyFilter.Next next) {
        long[] range = ctx.ranges.get(0);
        BufChain out = null;
        BufChain tail = null;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf buf = cl.buf;
            long start = ctx.offset;
            long last = ctx.offset + buf.size();
            ctx.offset = last;
            boolean done = false;
            if (!buf.isSpecial()) {
                if (range[1] <= start || range[0] >= last) {
                    skip(buf);
                    continue;
                }
                if (range[0] > start) {
                    advance(buf, range[0] - start);
                }
                if (range[1] <= last) {
                    cut(buf, last - range[1]);
                    buf.last = true;
                    done = true;
                }
            }
            BufChain link = new BufChain(buf, null);
            if (tail == null) {
                out = link;
            } else {
                tail.next = link;
            }
            tail = link;
            if (done) {
                break;
            }
        }
        if (out == null) {
            return Rc.OK;
        }
        return next.filter(r, out);
    }

    private static void skip(Buf buf) {
        if (buf.inFile) {
            buf.filePos = buf.fileLast;
        }
        if (buf.mem != null) {
            buf.mem.position(buf.mem.limit());
        }
        buf.sync = true;
    }

    private static void advance(Buf buf, long n) {
        if (buf.inFile) {
            buf.filePos += n;
        } else if (buf.inMemory()) {
            buf.mem.position(buf.mem.position() + (int) n);
        }
    }

    private static void cut(Buf buf, long n) {
        if (buf.inFile) {
            buf.fileLast -= n;
        } else if (buf.inMemory()) {
            buf.mem.limit(buf.mem.limit() - (int) n);
        }
    }

    /** nginx's {@code ngx_http_range_multipart_body()}: part headers and pieces of the one buffer. */
    private static int multipartBody(RangeState ctx, BufChain in, BodyFilter.Next next, HttpRequest r) {
        Buf buf = in.buf;
        BufChain out = null;
        BufChain tail = null;
        for (int i = 0; i < ctx.ranges.size(); i++) {
            long[] range = ctx.ranges.get(i);
            Buf header = CoreOutput.memory(ctx.boundaryHeader);
            Buf cr = CoreOutput.memory(ctx.contentRanges[i]);
            Buf data = piece(buf, range);
            BufChain first = new BufChain(header, new BufChain(cr, new BufChain(data, null)));
            if (tail == null) {
                out = first;
            } else {
                tail.next = first;
            }
            tail = first.next.next;
        }
        String boundary = ctx.boundaryHeader.substring(0, ctx.boundaryHeader.indexOf('\r', 2));
        Buf end = CoreOutput.memory(boundary + "--\r\n");
        end.last = true;
        end.lastInChain = true;
        tail.next = new BufChain(end, null);
        return next.filter(r, out);
    }

    /** A buffer over one range of {@code buf}'s data. */
    private static Buf piece(Buf buf, long[] range) {
        Buf b = new Buf();
        b.inFile = buf.inFile;
        b.temporary = buf.temporary;
        if (buf.inFile) {
            b.fileFd = buf.fileFd;
            b.fileName = buf.fileName;
            b.filePos = buf.filePos + range[0];
            b.fileLast = buf.filePos + range[1];
        } else if (buf.mem != null) {
            int pos = buf.mem.position();
            b.mem = buf.mem.duplicate().limit(pos + (int) range[1]).position(pos + (int) range[0]);
        }
        return b;
    }

    /**
     * The copy step: file data read into memory under {@code sendfile off} ({@link FileCopy}).
     *
     * @param r the request
     * @param in the buffers
     * @param next the rest of the body filters
     * @return what they answer
     */
    int copyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        RangeState ctx = state(r, false);
        if (ctx == null || !ctx.copy.busy()) {
            if (in == null || !FileCopy.needed(r, in)) {
                return next.filter(r, in);
            }
            if (ctx == null) {
                ctx = state(r, true);
            }
        }
        return ctx.copy.filter(r, in, next);
    }
}
