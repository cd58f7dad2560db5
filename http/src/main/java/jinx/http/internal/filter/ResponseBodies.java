package jinx.http.internal.filter;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.request.BufferPool;
import jinx.http.spi.HttpResponses;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;

/**
 * {@link HttpRequest#sendResponse}: a whole response from a handler in one call, as nginx's
 * {@code ngx_http_send_response()} sends {@code return}'s text. The body is copied into the loop's pooled output
 * memory when short (the write filter gives it back once sent), else into direct memory of its own.
 */
public final class ResponseBodies {

    /** Bodies up to this size are copied into pooled memory, as {@code return}'s texts are. */
    private static final int MAX_POOLED = 4096;

    private ResponseBodies() {
    }

    /**
     * Discards the request body, sets the status, type and length, sends the header and then the body as the
     * last buffer; a HEAD request (or a status without a body) gets the header only.
     *
     * @param r the request
     * @param status the status
     * @param contentType the type, or null for the location's {@code types} / {@code default_type}
     * @param body the body, not changed by the call
     * @return what the handler returns: {@link Rc#OK}, {@link Rc#AGAIN}, {@link Rc#ERROR} or an HTTP status
     */
    public static int send(HttpRequest r, int status, String contentType, byte[] body) {
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.status = status;
        r.headersOut.contentLengthN = body.length;
        if (contentType != null) {
            r.headersOut.contentType = contentType;
        } else {
            HttpResponses.setContentType(r);
        }
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        // made once the header is out: a header-only response never takes pooled memory it would not give back
        Buf b;
        if (body.length <= MAX_POOLED) {
            b = OutBufs.temp(body.length);
            b.mem.put(body).flip();
        } else {
            b = Buf.of(ByteBuffer.allocateDirect(body.length).put(body).flip());
        }
        b.last = true;
        b.lastInChain = true;
        BufferPool pool = BufferPool.current();
        BufChain cl = pool.link(b);
        rc = r.outputFilter(cl);
        pool.free(cl);
        return rc;
    }
}
