package jinx.http.internal.io;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.parse.ChunkedState;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpEvents;
import jinx.http.internal.request.RequestEventHandler;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;

/**
 * Reading and discarding request bodies: nginx's {@code ngx_http_request_body.c}. The engine calls
 * {@link #readClientRequestBody} for a handler that wants the body and {@link #discardRequestBody} for one that
 * does not (and for errors), and installs {@link #discardedRequestBodyHandler} when it lingers over a body still
 * being discarded at the end of the request.
 *
 * <p>A body ({@code Content-Length} or chunked, through the parser's {@code parseChunked}) is kept in memory in
 * buffers of {@code client_body_buffer_size}; once that buffer fills up the body goes on in a temporary file in
 * {@code client_body_temp_path} (logged at warn, "a client request body is buffered to a temporary file"), as it
 * does from the start with {@code client_body_in_file_only}. A chunked body beyond {@code client_max_body_size} is
 * refused with 413 ({@code client intended to send too large chunked body: N+M bytes}); the engine checks a
 * {@code Content-Length} against it before. {@code Expect: 100-continue} on HTTP/1.1 is answered with
 * {@code HTTP/1.1 100 Continue} when the body is first read or discarded. A client silent for
 * {@code client_body_timeout} gets 408.
 */
public final class HttpRequestBody {

    /** nginx's {@code NGX_HTTP_DISCARD_BUFFER_SIZE}. */
    static final int DISCARD_BUFFER_SIZE = 4096;

    private static final String CONTINUE_TEXT = "HTTP/1.1 100 Continue\r\n\r\n";
    private static final ByteBuffer CONTINUE = constant(CONTINUE_TEXT);
    private static final LoopLocal<ByteBuffer> DISCARD =
        new LoopLocal<>(() -> ByteBuffer.allocateDirect(DISCARD_BUFFER_SIZE));

    static final RequestEventHandler BLOCK_READING = r -> HttpEvents.delLevel(r.connection().read);
    private static final RequestEventHandler EMPTY = r -> { };

    private HttpRequestBody() {
    }

    /**
     * Returns a request's body state.
     *
     * @param r the request
     * @return the state, or null when the body was neither read nor discarded chunked
     */
    public static RequestBody of(CoreRequest r) {
        return r.requestBody instanceof RequestBody rb ? rb : null;
    }

    /**
     * Returns the body read into memory as text, for {@code $request_body}.
     *
     * @param r the request
     * @return the body, or null when there is none in memory
     */
    public static String text(CoreRequest r) {
        RequestBody rb = of(r);
        return rb == null ? null : rb.text();
    }

    /* ---- reading: ngx_http_read_client_request_body() ---- */

    /**
     * Reads the request body and runs {@code postHandler} once it is all read: nginx's
     * {@code ngx_http_read_client_request_body()}. Takes a reference on the request ({@code count}), which the
     * post handler gives back by finalizing the request.
     *
     * @param r the request
     * @param postHandler what to run when the body is read (at once when there is none)
     * @return {@link Rc#OK} (read, or being read: the post handler runs later), {@link Rc#AGAIN}, or an HTTP
     *     status (400, 408, 413, 500) for the caller to finalize the request with
     */
    public static int readClientRequestBody(CoreRequest r, Runnable postHandler) {
        r.main.count++;
        if (r != r.main || r.requestBody != null || r.discardBody) {
            r.requestBodyNoBuffering = false;
            postHandler.run();
            return Rc.OK;
        }
        int rc = read(r, postHandler);
        if (rc >= 300) {
            r.main.count--;
        }
        return rc;
    }

    private static int read(CoreRequest r, Runnable postHandler) {
        if (testExpect(r) != Rc.OK) {
            return 500;
        }
        RequestBody rb = new RequestBody();
        rb.postHandler = postHandler;
        rb.noBuffering = r.requestBodyNoBuffering;
        r.requestBody = rb;
        r.addCleanup(() -> free(rb));
        if (r.headersIn.contentLengthN < 0 && !r.headersIn.chunked) {
            postHandler.run();
            return Rc.OK;
        }
        ByteBuffer headerIn = r.headerIn;
        int preread = headerIn == null ? 0 : headerIn.remaining();
        int rc;
        if (preread > 0) {
            rc = RequestBodyFilters.filter(r, rb, headerIn);
            r.requestLength += preread - headerIn.remaining();
        } else {
            rc = RequestBodyFilters.filter(r, rb, null);
        }
        if (rc != Rc.OK) {
            return rc;
        }
        if (rb.rest == 0 && rb.lastSaved) {
            // the whole request body was pre-read
            postHandler.run();
            return Rc.OK;
        }
        if (rb.rest < 0) {
            r.log(LogLevel.ALERT, "negative request body rest");
            return 500;
        }
        if (rb.noBuffering) {
            return UnbufferedRequestBody.start(r, rb);
        }
        HttpCoreLocConf clcf = r.clcf();
        long size = clcf.clientBodyBufferSize;
        size += size >> 2;
        if (!r.headersIn.chunked && rb.rest < size) {
            size = Math.max(1, rb.rest);
        } else {
            size = clcf.clientBodyBufferSize;
        }
        rb.buf = BufferPool.current().get(poolSize((int) size));
        rb.buf.clear();
        rb.bufEnd = (int) size;
        r.readEventHandler = HttpRequestBody::readClientRequestBodyHandler;
        r.writeEventHandler = EMPTY;
        return doRead(r, rb);
    }

    /** nginx's {@code ngx_http_read_client_request_body_handler()}: the read event while the body is read. */
    static void readClientRequestBodyHandler(CoreRequest r) {
        Connection c = r.connection();
        if (c.read.timedout) {
            c.timedout = true;
            r.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            r.finalizeRequest(408);
            return;
        }
        RequestBody rb = of(r);
        int rc = doRead(r, rb);
        if (rc >= 300) {
            r.finalizeRequest(rc);
        }
    }

    /** nginx's {@code ngx_http_do_read_client_request_body()}. */
    private static int doRead(CoreRequest r, RequestBody rb) {
        Connection c = r.connection();
        ConnectionIo io = r.httpConnection().io();
        for (;;) {
            boolean stuck = false;
            for (;;) {
                if (rb.rest == 0) {
                    break;
                }
                if (rb.bufLast == rb.bufEnd) {
                    // the save filter wrote the full buffer to the temporary file
                    rb.bufPos = 0;
                    rb.bufLast = 0;
                }
                long size = Math.min(rb.bufEnd - rb.bufLast, rb.rest - (rb.bufLast - rb.bufPos));
                if (size <= 0) {
                    stuck = true;
                    break;
                }
                ByteBuffer dst = rb.buf.duplicate().limit(rb.bufLast + (int) size).position(rb.bufLast);
                int n = io.recv(c, dst);
                if (n == Rc.AGAIN) {
                    break;
                }
                if (n == 0) {
                    r.log(LogLevel.INFO, "client prematurely closed connection");
                }
                if (n == 0 || n == Rc.ERROR) {
                    c.error = true;
                    return 400;
                }
                rb.bufLast += n;
                r.requestLength += n;
                ByteBuffer in = rb.buf.duplicate().limit(rb.bufLast).position(rb.bufPos);
                int rc = RequestBodyFilters.filter(r, rb, in);
                rb.bufPos = in.position();
                if (rc != Rc.OK) {
                    return rc;
                }
                if (rb.rest == 0 || rb.bufLast < rb.bufEnd) {
                    break;
                }
            }
            if (rb.rest == 0) {
                break;
            }
            if (stuck) {
                r.log(LogLevel.ALERT, "request body buffer is full");
                return 500;
            }
            if (!c.read.ready) {
                r.loop().addTimer(c.read, r.clcf().clientBodyTimeout);
                if (HttpEvents.handleRead(c.read, 0) != Rc.OK) {
                    return 500;
                }
                return Rc.AGAIN;
            }
        }
        r.loop().deleteTimer(c.read);
        r.readEventHandler = BLOCK_READING;
        rb.postHandler.run();
        return Rc.OK;
    }

    /* ---- discarding: ngx_http_discard_request_body() ---- */

    /**
     * Reads and drops the request body so the connection can serve the next request: nginx's
     * {@code ngx_http_discard_request_body()}. What has come is dropped at once; if more is to come, the request
     * keeps a reference ({@code count}) and {@code discardBody} until {@link #discardedRequestBodyHandler} has read
     * it all. A body read to the end keeps the connection fit for keep-alive.
     *
     * @param r the request
     * @return {@link Rc#OK}, or an HTTP status (400 for a bad chunked body, 500)
     */
    public static int discardRequestBody(CoreRequest r) {
        if (r != r.main || r.discardBody || r.requestBody != null) {
            return Rc.OK;
        }
        if (testExpect(r) != Rc.OK) {
            return 500;
        }
        Connection c = r.connection();
        Event rev = c.read;
        r.loop().deleteTimer(rev);
        if (r.headersIn.contentLengthN <= 0 && !r.headersIn.chunked) {
            return Rc.OK;
        }
        ByteBuffer headerIn = r.headerIn;
        int size = headerIn == null ? 0 : headerIn.remaining();
        if (size > 0 || r.headersIn.chunked) {
            int rc = discardFilter(r, headerIn == null ? ByteBuffer.allocate(0) : headerIn);
            if (rc != Rc.OK) {
                return rc;
            }
            if (r.headersIn.contentLengthN == 0) {
                return Rc.OK;
            }
        }
        int rc = readDiscarded(r);
        if (rc == Rc.OK) {
            r.lingeringClose = false;
            return Rc.OK;
        }
        if (rc >= 300) {
            return rc;
        }
        // rc == AGAIN
        r.readEventHandler = HttpRequestBody::discardedRequestBodyHandler;
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            return 500;
        }
        r.main.count++;
        r.discardBody = true;
        return Rc.OK;
    }

    /**
     * The read event while a body is discarded: nginx's {@code ngx_http_discarded_request_body_handler()}. Reads
     * on until the body is gone (then finalizes with {@link Rc#DONE}, the request's reference given back), the
     * read times out, or {@code lingeringTime} passes (then finalizes with {@link Rc#ERROR}); between reads it
     * waits at most {@code lingering_timeout}.
     *
     * @param r the request
     */
    public static void discardedRequestBodyHandler(CoreRequest r) {
        Connection c = r.connection();
        Event rev = c.read;
        if (rev.timedout) {
            c.timedout = true;
            c.error = true;
            r.finalizeRequest(Rc.ERROR);
            return;
        }
        long timer = 0;
        if (r.lingeringTime != 0) {
            timer = r.lingeringTime - r.loop().wallMillis() / 1000;
            if (timer <= 0) {
                r.discardBody = false;
                r.lingeringClose = false;
                r.finalizeRequest(Rc.ERROR);
                return;
            }
        }
        int rc = readDiscarded(r);
        if (rc == Rc.OK) {
            r.discardBody = false;
            r.lingeringClose = false;
            r.finalizeRequest(Rc.DONE);
            return;
        }
        if (rc >= 300) {
            c.error = true;
            r.finalizeRequest(Rc.ERROR);
            return;
        }
        // rc == AGAIN
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            c.error = true;
            r.finalizeRequest(Rc.ERROR);
            return;
        }
        if (timer > 0) {
            r.loop().addTimer(rev, Math.min(timer * 1000, r.clcf().lingeringTimeout));
        }
    }

    /** nginx's {@code ngx_http_read_discarded_request_body()}. */
    private static int readDiscarded(CoreRequest r) {
        Connection c = r.connection();
        ConnectionIo io = r.httpConnection().io();
        ByteBuffer buffer = DISCARD.get();
        for (;;) {
            if (r.headersIn.contentLengthN == 0) {
                break;
            }
            if (!c.read.ready) {
                return Rc.AGAIN;
            }
            long want = r.headersIn.contentLengthN;
            ByteBuffer headerIn = r.headerIn;
            if (r.headersIn.chunked && headerIn != null) {
                // what a chunked body still needs is a few bytes: asked for as such, a body of many small chunks
                // would take a recv() per chunk. nginx asks for a large header buffer's worth and drops what
                // follows the body; here it goes back to the header buffer, for a pipelined request
                want = Math.max(want, headerIn.capacity());
            }
            int size = (int) Math.min(want, DISCARD_BUFFER_SIZE);
            buffer.clear().limit(size);
            int n = io.recv(c, buffer);
            if (n == Rc.ERROR) {
                c.error = true;
                return Rc.OK;
            }
            if (n == Rc.AGAIN) {
                return Rc.AGAIN;
            }
            if (n == 0) {
                return Rc.OK;
            }
            buffer.flip();
            int rc = discardFilter(r, buffer);
            if (rc != Rc.OK) {
                return rc;
            }
            if (buffer.hasRemaining()) {
                keepPipelined(r, buffer);
            }
        }
        r.readEventHandler = BLOCK_READING;
        return Rc.OK;
    }

    /**
     * What was read after a discarded chunked body's end: the start of the next request, put where
     * {@code ngx_http_set_keepalive()} looks for a pipelined one. The header buffer was read to its end before the
     * body was, and no read asked for more than it holds.
     */
    private static void keepPipelined(CoreRequest r, ByteBuffer rest) {
        ByteBuffer headerIn = r.headerIn;
        headerIn.clear();
        headerIn.put(rest);
        headerIn.flip();
    }

    /**
     * nginx's {@code ngx_http_discard_request_body_filter()}: drops the body's bytes from {@code b} and counts down
     * {@code headersIn.contentLengthN}, the bytes still to come (for a chunked body, the fewest).
     */
    private static int discardFilter(CoreRequest r, ByteBuffer b) {
        if (!r.headersIn.chunked) {
            int size = b.remaining();
            if (size > r.headersIn.contentLengthN) {
                b.position(b.position() + (int) r.headersIn.contentLengthN);
                r.headersIn.contentLengthN = 0;
            } else {
                b.position(b.limit());
                r.headersIn.contentLengthN -= size;
            }
            return Rc.OK;
        }
        RequestBody rb = of(r);
        if (rb == null) {
            rb = new RequestBody();
            rb.chunked = new ChunkedState();
            r.requestBody = rb;
        }
        for (;;) {
            int rc = HttpParser.parseChunked(rb.chunked, b);
            if (rc == Rc.OK) {
                // a chunk has been parsed successfully
                int size = b.remaining();
                if (size > rb.chunked.size) {
                    b.position(b.position() + (int) rb.chunked.size);
                    rb.chunked.size = 0;
                } else {
                    rb.chunked.size -= size;
                    b.position(b.limit());
                }
                continue;
            }
            if (rc == Rc.DONE) {
                r.headersIn.contentLengthN = 0;
                return Rc.OK;
            }
            if (rc == Rc.AGAIN) {
                r.headersIn.contentLengthN = rb.chunked.length;
                return Rc.OK;
            }
            r.log(LogLevel.ERROR, "client sent invalid chunked body");
            return 400;
        }
    }

    /* ---- Expect: 100-continue ---- */

    /** nginx's {@code ngx_http_test_expect()}. */
    private static int testExpect(CoreRequest r) {
        if (r.expectTested || r.headersIn.expect == null || r.httpVersion < HttpRequest.VERSION_11) {
            return Rc.OK;
        }
        r.expectTested = true;
        if (!"100-continue".equalsIgnoreCase(r.headersIn.expect.value)) {
            return Rc.OK;
        }
        Connection c = r.connection();
        int n = r.httpConnection().io().send(c, CONTINUE.duplicate());
        if (n == CONTINUE_TEXT.length()) {
            return Rc.OK;
        }
        // we assume that such small packet should be send successfully (nginx)
        c.error = true;
        return Rc.ERROR;
    }

    /* ---- memory ---- */

    /** The request's end: the receive buffer back to the pool, the temporary file closed. */
    private static void free(RequestBody rb) {
        if (rb.tempFile != null) {
            rb.tempFile.close();
        }
        if (rb.buf != null) {
            ByteBuffer b = rb.buf;
            rb.buf = null;
            BufferPool.current().release(b);
        }
    }

    /** Pool sizes are powers of two from 1k, so that bodies of every length share a few free lists. */
    static int poolSize(int size) {
        int cap = 1024;
        while (cap < size) {
            cap <<= 1;
        }
        return cap;
    }

    private static ByteBuffer constant(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.put((byte) s.charAt(i));
        }
        return b.flip().asReadOnlyBuffer();
    }
}
