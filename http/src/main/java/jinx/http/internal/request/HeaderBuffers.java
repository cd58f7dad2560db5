package jinx.http.internal.request;

import java.nio.ByteBuffer;

import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.parse.HttpParseState;
import jinx.http.internal.parse.HttpParser;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * {@code large_client_header_buffers}: nginx's {@code ngx_http_alloc_large_header_buffer()} and the 494 of
 * {@code ngx_http_process_request_headers()}. A request line or header line that fills the connection's buffer
 * unfinished is copied into a large buffer (the parser's positions moved with it); a line longer than a large
 * buffer, or one more buffer than the number allowed, ends the request with 414 or 494.
 */
final class HeaderBuffers {

    /** nginx's {@code NGX_MAX_ERROR_STR}: a log line's room, of which a long header line may take all but 300. */
    private static final int MAX_ERROR_STR = 2048;

    private HeaderBuffers() {
    }

    /**
     * The buffer is full in the middle of the header: moves the unfinished line to a large buffer, or answers 494
     * when there is none or the line would not fit. Returns whether to go on reading.
     */
    static boolean largeHeader(CoreRequest r) {
        int rv = allocLargeHeaderBuffer(r, false);
        if (rv == Rc.ERROR) {
            RequestFinalizer.closeRequest(r, HttpStatus.INTERNAL_SERVER_ERROR);
            return false;
        }
        if (rv == Rc.OK) {
            return true;
        }
        int p = r.parse.headerNameStart;
        r.lingeringClose = true;
        if (p == HttpParseState.NONE) {
            r.log(LogLevel.INFO, "client sent too large request");
            r.finalizeRequest(HttpStatus.REQUEST_HEADER_TOO_LARGE);
            return false;
        }
        int len = Math.min(r.headerIn.capacity() - p, MAX_ERROR_STR - 300);
        r.log(LogLevel.INFO, "client sent too long header line: \"" + HttpParser.string(r.headerIn, p, p + len)
            + "...\"");
        r.finalizeRequest(HttpStatus.REQUEST_HEADER_TOO_LARGE);
        return false;
    }

    /**
     * nginx's {@code ngx_http_alloc_large_header_buffer()}: moves the unfinished request line or header line into
     * a large header buffer.
     *
     * @param requestLine the request line is being read (else a header line)
     * @return {@link Rc#OK}, {@link Rc#DECLINED} (too large, or no buffer left), {@link Rc#ERROR}
     */
    static int allocLargeHeaderBuffer(CoreRequest r, boolean requestLine) {
        HttpParseState p = r.parse;
        ByteBuffer in = r.headerIn;
        if (requestLine && p.state == 0) {
            // the client fills up the buffer with "\r\n"
            in.position(0).limit(0);
            return Rc.OK;
        }
        int old = requestLine ? p.requestStart : p.headerNameStart;
        HttpCoreSrvConf cscf = r.cscf();
        int size = (int) cscf.largeClientHeaderBuffersSize;
        if (p.state != 0 && in.position() - old >= size) {
            return Rc.DECLINED;
        }
        HttpConnection hc = r.hc;
        ByteBuffer b;
        if (!hc.free.isEmpty()) {
            b = hc.free.pollFirst();
        } else if (hc.busy.size() < cscf.largeClientHeaderBuffersNum) {
            b = hc.pool.get(size);
        } else {
            return Rc.DECLINED;
        }
        hc.busy.addFirst(b);
        b.position(0).limit(0);
        if (p.state == 0) {
            // a header line was parsed successfully: nothing to copy, no position to move
            r.headerIn = b;
            return Rc.OK;
        }
        int len = in.position() - old;
        if (len > b.capacity()) {
            r.log(LogLevel.ALERT, "too large header to copy");
            return Rc.ERROR;
        }
        b.limit(len).put(0, in, old, len).position(len);
        if (requestLine) {
            p.moveRequestLine(-old);
        } else {
            p.moveHeaderLine(-old);
        }
        r.headerIn = b;
        return Rc.OK;
    }
}
