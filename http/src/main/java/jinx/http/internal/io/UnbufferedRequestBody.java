package jinx.http.internal.io;

import java.nio.ByteBuffer;

import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpEvents;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;

/**
 * A request body passed on as it comes: nginx's {@code request_body_no_buffering} paths of
 * {@code ngx_http_read_client_request_body()} and {@code ngx_http_do_read_client_request_body()}, and
 * {@code ngx_http_read_unbuffered_request_body()}. The body is received into one buffer of
 * {@code client_body_buffer_size}; the filters cut the body's bytes out of it (a chunked body's data without its
 * framing) as pieces the consumer takes ({@link #take}); the buffer is received into again from its start only once
 * every piece over it was consumed, so a consumer that does not keep up stops the reading (nginx's {@code rb->busy}).
 * Nothing goes to a temporary file.
 */
public final class UnbufferedRequestBody {

    private UnbufferedRequestBody() {
    }

    /** After the pre-read part: the receive buffer, a first read, then the post handler at once. */
    static int start(CoreRequest r, RequestBody rb) {
        int size = (int) r.clcf().clientBodyBufferSize;
        rb.buf = BufferPool.current().get(HttpRequestBody.poolSize(size));
        rb.buf.clear();
        rb.bufEnd = size;
        r.readingBody = true;
        int rc = doRead(r, rb);
        if (rc >= 300) {
            r.readingBody = false;
            return rc;
        }
        r.readEventHandler = HttpRequestBody.BLOCK_READING;
        rb.postHandler.run();
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_read_unbuffered_request_body()}.
     *
     * @param r the request
     * @return {@link Rc#OK} when the body is whole, {@link Rc#AGAIN}, or an HTTP status
     */
    public static int read(CoreRequest r) {
        RequestBody rb = HttpRequestBody.of(r);
        if (rb == null || !r.readingBody) {
            return Rc.OK;
        }
        Connection c = r.connection();
        if (c.read.timedout) {
            c.timedout = true;
            r.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            return 408;
        }
        return doRead(r, rb);
    }

    /**
     * Takes what was read since the last call.
     *
     * @param r the request
     * @return the pieces, or null
     */
    public static BufChain take(CoreRequest r) {
        RequestBody rb = HttpRequestBody.of(r);
        if (rb == null || rb.bufs == null) {
            return null;
        }
        BufChain out = rb.bufs;
        rb.clearBufs();
        BufChain mine = copy(out);
        if (rb.busy == null) {
            rb.busy = mine;
            return out;
        }
        BufChain t = rb.busy;
        while (t.next != null) {
            t = t.next;
        }
        t.next = mine;
        return out;
    }

    /** The busy list holds its own links: the consumer may relink the chain it took. */
    private static BufChain copy(BufChain in) {
        BufChain head = null;
        BufChain tail = null;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            BufChain n = BufChain.of(cl.buf);
            if (tail == null) {
                head = n;
            } else {
                tail.next = n;
            }
            tail = n;
        }
        return head;
    }

    /** Drops the consumed pieces from the busy list; tells whether any is left. */
    private static boolean busy(RequestBody rb) {
        while (rb.busy != null && rb.busy.buf.size() == 0) {
            rb.busy = rb.busy.next;
        }
        return rb.busy != null || rb.bufs != null;
    }

    private static int doRead(CoreRequest r, RequestBody rb) {
        Connection c = r.connection();
        ConnectionIo io = r.httpConnection().io();
        for (;;) {
            if (rb.rest == 0) {
                r.readingBody = false;
                r.loop().deleteTimer(c.read);
                return Rc.OK;
            }
            if (rb.bufLast == rb.bufEnd) {
                if (busy(rb)) {
                    // the consumer has not sent what it took: wait for it, not for the client
                    r.loop().deleteTimer(c.read);
                    return HttpEvents.handleRead(c.read, 0) != Rc.OK ? 500 : Rc.AGAIN;
                }
                rb.bufPos = 0;
                rb.bufLast = 0;
            }
            long size = Math.min(rb.bufEnd - rb.bufLast, rb.rest - (rb.bufLast - rb.bufPos));
            int n = Rc.AGAIN;
            if (size > 0) {
                ByteBuffer dst = rb.buf.duplicate().limit(rb.bufLast + (int) size).position(rb.bufLast);
                n = io.recv(c, dst);
            }
            if (n == 0) {
                r.log(LogLevel.INFO, "client prematurely closed connection");
            }
            if (n == 0 || n == Rc.ERROR) {
                c.error = true;
                return 400;
            }
            if (n == Rc.AGAIN) {
                r.loop().addTimer(c.read, r.clcf().clientBodyTimeout);
                return HttpEvents.handleRead(c.read, 0) != Rc.OK ? 500 : Rc.AGAIN;
            }
            rb.bufLast += n;
            r.requestLength += n;
            ByteBuffer in = rb.buf.duplicate().limit(rb.bufLast).position(rb.bufPos);
            int rc = RequestBodyFilters.filter(r, rb, in);
            rb.bufPos = in.position();
            if (rc != Rc.OK) {
                return rc;
            }
            if (rb.bufs != null && rb.rest > 0 && !c.read.ready) {
                // something to pass on: the consumer sends it before waiting for more
                r.loop().addTimer(c.read, r.clcf().clientBodyTimeout);
                return HttpEvents.handleRead(c.read, 0) != Rc.OK ? 500 : Rc.AGAIN;
            }
        }
    }
}
