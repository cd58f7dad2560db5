package jinx.http.internal.filter;

import java.nio.ByteBuffer;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_chunked_filter} module, nginx's {@code ngx_http_chunked_filter_module.c}: an HTTP/1.1 response
 * of unknown length is sent with {@code Transfer-Encoding: chunked} when {@code chunked_transfer_encoding} is on
 * (and the request allows it); otherwise a response of unknown length closes the connection. Each call of the
 * body filter with data becomes one chunk, {@code <hex size>CRLF data CRLF}; the last buffer adds
 * {@code 0 CRLF CRLF}.
 */
public final class ChunkedFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_chunked_filter";

    private static final ByteBuffer CRLF = constant("\r\n");
    private static final ByteBuffer LAST = constant("\r\n0\r\n\r\n");

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public ChunkedFilterModule() {
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
        return ApiVersion.CURRENT;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        cf.addHeaderFilter(ChunkedFilterModule::headerFilter);
        cf.addBodyFilter(ChunkedFilterModule::bodyFilter);
    }

    /**
     * The header filter: nginx's {@code ngx_http_chunked_header_filter()}.
     *
     * @param r the request
     * @param next the rest of the header filters
     * @return what they answer
     */
    public static int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        int status = r.headersOut.status;
        if (status == 304 || status == 204 || status < 200 || r.method == HttpRequest.HEAD || r.main() != r) {
            return next.filter(r);
        }
        boolean trailers = r instanceof CoreRequest cr && cr.expectTrailers;
        if (r.headersOut.contentLengthN == -1 || trailers) {
            HttpCoreLocConf clcf = CoreConfs.loc(r);
            if (r.httpVersion >= HttpRequest.VERSION_11 && clcf.chunkedTransferEncoding == 1 && r.chunkedAllowed) {
                if (trailers) {
                    // nginx's ngx_http_clear_content_length(): the trailers need chunks
                    r.headersOut.contentLengthN = -1;
                    if (r.headersOut.headers.entry("Content-Length") != null) {
                        r.headersOut.headers.remove("Content-Length");
                    }
                }
                r.chunked = true;
            } else if (r.headersOut.contentLengthN == -1) {
                r.keepalive = false;
            }
        }
        return next.filter(r);
    }

    /**
     * The body filter: nginx's {@code ngx_http_chunked_body_filter()}.
     *
     * @param r the request
     * @param in the buffers
     * @param next the rest of the body filters
     * @return what they answer
     */
    public static int bodyFilter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        if (in == null || !r.chunked || r.headerOnly) {
            return next.filter(r, in);
        }
        BufChain out = null;
        BufChain tail = null;
        long size = 0;
        BufChain cl = in;
        for (;;) {
            Buf b = cl.buf;
            size += b.size();
            if (b.flush || b.sync || b.inFile || (b.inMemory() && b.size() > 0)) {
                BufChain tl = new BufChain(b, null);
                if (tail == null) {
                    out = tl;
                } else {
                    tail.next = tl;
                }
                tail = tl;
            }
            if (cl.next == null) {
                break;
            }
            cl = cl.next;
        }
        if (size > 0) {
            out = new BufChain(chunkSize(size), out);
            if (tail == null) {
                tail = out;
            }
        }
        Buf end = null;
        if (cl.buf.last) {
            cl.buf.last = false;
            List<String> trailers = r instanceof CoreRequest cr ? cr.trailers : null;
            end = trailers == null || trailers.isEmpty()
                ? Buf.of(size == 0 ? LAST.duplicate().position(2) : LAST.duplicate()) : trailers(trailers, size == 0);
            end.last = true;
        } else if (size > 0) {
            end = Buf.of(CRLF.duplicate());
        }
        if (end != null) {
            BufChain tl = new BufChain(end, null);
            if (tail == null) {
                out = tl;
            } else {
                tail.next = tl;
            }
        }
        return next.filter(r, out);
    }

    /** nginx's {@code ngx_http_chunked_create_trailers()}: the last chunk and {@code name: value} lines. */
    private static Buf trailers(List<String> trailers, boolean first) {
        StringBuilder sb = new StringBuilder(first ? "0\r\n" : "\r\n0\r\n");
        for (int i = 0; i < trailers.size(); i += 2) {
            sb.append(trailers.get(i)).append(": ").append(trailers.get(i + 1)).append("\r\n");
        }
        sb.append("\r\n");
        Buf b = OutBufs.temp(sb.length());
        OutBufs.put(b.mem, sb);
        b.mem.flip();
        return b;
    }

    /** {@code <size in lower-case hex>CRLF}, nginx's {@code "%xO" CRLF}. */
    private static Buf chunkSize(long size) {
        Buf b = OutBufs.temp(18);
        OutBufs.put(b.mem, Long.toHexString(size));
        b.mem.put((byte) '\r').put((byte) '\n');
        b.mem.flip();
        return b;
    }

    private static ByteBuffer constant(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(s.length());
        OutBufs.put(b, s);
        return b.flip().asReadOnlyBuffer();
    }
}
