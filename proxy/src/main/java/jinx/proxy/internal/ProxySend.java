package jinx.proxy.internal;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.Rc;

/**
 * The request on its way to the upstream: nginx's {@code ngx_http_upstream_send_request()} and
 * {@code ngx_http_upstream_send_request_body()}, with the proxy's {@code ngx_http_proxy_body_output_filter()}.
 * Buffered (the default), the header and the body read whole are sent from copies, so a retry sends them again.
 * With {@code proxy_request_buffering off} the body is taken from the client as it comes
 * ({@link HttpRequest#readUnbufferedRequestBody()}) and sent on; a chunked body goes on chunked to an HTTP/1.1
 * upstream, one chunk per piece taken. Once a streamed body began to go, the request cannot be retried.
 */
final class ProxySend {

    /** {@link #send} waits for the upstream to take more. */
    static final int UPSTREAM = 1;
    /** {@link #send} waits for the client to send more of the body. */
    static final int CLIENT = 2;

    private static final ByteBuffer CRLF = constant("\r\n");
    private static final ByteBuffer LAST_CHUNK = constant("0\r\n\r\n");

    private final HttpRequest r;
    private final ProxyLocConf plcf;
    /** The body is streamed ({@code proxy_request_buffering off}). */
    final boolean unbuffered;
    /** A streamed chunked body is sent chunked. */
    private final boolean chunked;
    /** Chunk sizes are written here: one chunk's line at a time, sent before the next is made. */
    private final ByteBuffer sizeLine;
    private BufChain toSend;
    private boolean lastQueued;
    /** Bytes of a streamed body were taken from the client: they cannot be sent again. */
    boolean bodyTaken;

    ProxySend(HttpRequest r, ProxyLocConf plcf, boolean unbuffered) {
        this.r = r;
        this.plcf = plcf;
        this.unbuffered = unbuffered;
        this.chunked = unbuffered && r.headersIn.chunked;
        this.sizeLine = chunked ? ByteBuffer.allocateDirect(20) : null;
    }

    /**
     * Whether the location streams the body: nginx's condition in {@code ngx_http_proxy_handler()} for
     * {@code r->request_body_no_buffering}.
     */
    static boolean streams(HttpRequest r, ProxyLocConf plcf) {
        return plcf.requestBuffering == 0 && plcf.body == null && plcf.passRequestBody == 1
            && (!r.headersIn.chunked || plcf.httpVersion == HttpRequest.VERSION_11);
    }

    /** A try begins: the header, and a buffered body, from their start. */
    void start(ByteBuffer header) {
        toSend = BufChain.of(Buf.of(header.duplicate()));
        if (!unbuffered) {
            toSend.next = bufferedBody();
        }
    }

    /**
     * Sends what it can.
     *
     * @return {@link Rc#OK} when the whole request went, {@link #UPSTREAM} or {@link #CLIENT} for what it waits for,
     *     {@link Rc#ERROR} when the upstream failed, or an HTTP status the client's body ended the request with
     */
    int send(Connection c) {
        for (;;) {
            if (toSend != null) {
                BufChain rest = c.io().sendChain(c, toSend, 0);
                if (rest == ConnectionIo.CHAIN_ERROR) {
                    return Rc.ERROR;
                }
                toSend = rest;
                if (rest != null) {
                    return UPSTREAM;
                }
            }
            if (!unbuffered || lastQueued) {
                return Rc.OK;
            }
            if (r.readingBody()) {
                int rc = r.readUnbufferedRequestBody();
                if (rc >= 300) {
                    return rc;
                }
            }
            BufChain in = r.takeRequestBodyBufs();
            if (in == null) {
                if (r.readingBody()) {
                    return CLIENT;
                }
                // a body that ended without a last buffer: end it here
                lastQueued = true;
                toSend = chunked ? BufChain.of(Buf.of(LAST_CHUNK.duplicate())) : null;
                continue;
            }
            bodyTaken = true;
            toSend = chunked ? chunk(in) : in;
            for (BufChain cl = in; cl != null; cl = cl.next) {
                if (cl.buf.last) {
                    lastQueued = true;
                }
            }
        }
    }

    /** One chunk of every piece's data (nginx's body output filter), and the last chunk after the last piece. */
    private BufChain chunk(BufChain in) {
        long size = 0;
        boolean last = false;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            size += cl.buf.size();
            last |= cl.buf.last;
        }
        BufChain head = null;
        BufChain tail = null;
        if (size > 0) {
            sizeLine.clear();
            String hex = Long.toHexString(size);
            for (int i = 0; i < hex.length(); i++) {
                sizeLine.put((byte) hex.charAt(i));
            }
            sizeLine.put((byte) '\r').put((byte) '\n').flip();
            head = BufChain.of(Buf.of(sizeLine));
            tail = head;
            for (BufChain cl = in; cl != null; cl = cl.next) {
                if (cl.buf.size() > 0) {
                    tail.next = BufChain.of(cl.buf);
                    tail = tail.next;
                }
            }
            tail.next = BufChain.of(Buf.of(CRLF.duplicate()));
            tail = tail.next;
        }
        if (last) {
            BufChain end = BufChain.of(Buf.of(LAST_CHUNK.duplicate()));
            if (tail == null) {
                return end;
            }
            tail.next = end;
        }
        return head;
    }

    /** The body read whole, as copies of the core's buffers: a retry sends them again from the start. */
    private BufChain bufferedBody() {
        BufChain body = plcf.passRequestBody == 1 && plcf.body == null ? r.requestBodyBufs() : null;
        BufChain first = null;
        BufChain last = null;
        for (BufChain cl = body; cl != null; cl = cl.next) {
            Buf src = cl.buf;
            Buf b = new Buf();
            if (src.inFile) {
                b.inFile = true;
                b.fileFd = src.fileFd;
                b.fileName = src.fileName;
                b.filePos = src.filePos;
                b.fileLast = src.fileLast;
            } else if (src.mem != null) {
                b.mem = src.mem.duplicate();
            } else {
                continue;
            }
            BufChain n = BufChain.of(b);
            if (last == null) {
                first = n;
            } else {
                last.next = n;
            }
            last = n;
        }
        return first;
    }

    private static ByteBuffer constant(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.put((byte) s.charAt(i));
        }
        return b.flip().asReadOnlyBuffer();
    }
}
