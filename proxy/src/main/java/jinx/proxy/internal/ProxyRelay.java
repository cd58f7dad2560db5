package jinx.proxy.internal;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * The response body from the upstream to the client, in bounded memory: nginx's {@code ngx_event_pipe.c}, and
 * {@code ngx_http_upstream_process_non_buffered_request()} for {@code proxy_buffering off}. The body is received
 * into at most {@code proxy_buffers} blocks ({@link ProxyBlocks}; one of {@code proxy_buffer_size} with buffering
 * off), framed by the response's length, chunks or the end of the connection, and passed to the output filters as
 * buffers over those blocks. A block is received into again only once every buffer over it was sent. With
 * buffering and temporary files ({@code proxy_max_temp_file_size} not 0) what the client cannot take within
 * {@code proxy_busy_buffers_size} is queued, and written to a temporary file when every block is full
 * ({@link ProxySpool}), so the upstream is read to its end at its own pace; without them, while the client does not
 * keep up, all blocks are busy, the upstream is not read (its socket's window fills and the upstream waits), and the
 * client's write event resumes the relay: a slow client then holds at most {@code number * size} bytes per request,
 * as nginx's busy buffers do.
 */
final class ProxyRelay {

    private static final int LENGTH = 0;
    private static final int CHUNKED = 1;
    private static final int CLOSE = 2;
    private static final int NONE = 3;

    /** What {@link #frame} answers when the body is invalid (the request was finished). */
    private static final BufChain ERROR_CHAIN = new BufChain(null, null);

    private final ProxyRequest p;
    private final HttpRequest r;
    private final EventLoop loop;
    private final int framing;
    private final ProxyBlocks blocks;
    private long rest;
    private boolean complete;
    private boolean exact = true;
    private boolean lastSent;
    /** {@code proxy_limit_rate} (buffered responses only, as in nginx), and what was read since it started. */
    private final long limitRate;
    private final long rateStartSec;
    private long readLength;
    private boolean running;
    /** The queue and the temporary file of a buffered response; null without buffering or temporary files. */
    private final ProxySpool spool;

    ProxyRelay(ProxyRequest p) {
        this.p = p;
        this.r = p.r;
        this.loop = p.loop;
        ProxyLocConf plcf = p.plcf;
        this.limitRate = p.buffering ? plcf.limitRate : 0;
        this.rateStartSec = loop.wallMillis() / 1000;
        int n = Math.max(1, plcf.buffersNum);
        int count = p.buffering ? n + 1 : 1;
        // block 0 is the header's buffer, holding the body's first bytes
        blocks = new ProxyBlocks(p.buffer, count, (int) plcf.buffersSize, this);
        p.buffer = null;
        spool = p.buffering && plcf.maxTempFileSize > 0 ? new ProxySpool(p, blocks, this) : null;
        if (r.headerOnly || p.in.status == 204 || p.in.status == 304 || p.in.status < 200) {
            framing = NONE;
        } else if (p.in.chunked) {
            framing = CHUNKED;
        } else if (p.in.length >= 0) {
            framing = LENGTH;
            rest = p.in.length;
        } else {
            framing = CLOSE;
        }
    }

    /** Whether the upstream connection may serve another request: the response was read whole and exactly. */
    boolean keepalive() {
        return complete && exact && framing != CLOSE && !p.in.connectionClose;
    }

    /** Passes what came with the header, then reads on. */
    void start() {
        if (framing == NONE) {
            complete = true;
            exact = !blocks.block(0).hasRemaining();
        } else {
            ByteBuffer first = blocks.block(0);
            if (first.hasRemaining()) {
                BufChain chain = frame(0, first.position(), first.limit());
                if (chain == ERROR_CHAIN) {
                    return;
                }
                if (chain != null) {
                    BufChain tail = chain;
                    while (tail.next != null) {
                        tail = tail.next;
                    }
                    tail.buf.flush = true;
                    if (pass(chain) != Rc.OK) {
                        return;
                    }
                }
            }
            if (framing == LENGTH && rest == 0) {
                complete = true;
            }
        }
        run();
    }

    /** The client can take more (or its send_timeout fired). */
    void clientWritable() {
        Connection c = r.connection();
        if (c.write.timedout) {
            c.timedout = true;
            r.log(LogLevel.INFO, EventConnect.ETIMEDOUT, "client timed out");
            p.finish(408);
            return;
        }
        if (lastSent) {
            return;
        }
        if (r.outputFilter(null) == Rc.ERROR) {
            p.finish(Rc.ERROR);
            return;
        }
        run();
    }

    /** Reads what the blocks can take, passes it, and stops when the upstream or the client must wait. */
    void run() {
        if (running || lastSent) {
            return;
        }
        running = true;
        try {
            loop();
        } finally {
            running = false;
        }
    }

    private void loop() {
        Connection u = p.upstreamConnection();
        for (;;) {
            BufChain chain = null;
            BufChain tail = null;
            while (!complete) {
                int b = blocks.free();
                if (b < 0) {
                    // nginx's event pipe: the client is not keeping up and every block is full, so the oldest
                    // data goes to the temporary file and the upstream is read on
                    if (spool != null && u.read.ready && spool.writable() && r.outputPending()) {
                        int rc = spool.write();
                        if (rc == Rc.ERROR) {
                            p.finish(Rc.ERROR);
                            return;
                        }
                        if (rc == Rc.OK) {
                            continue;
                        }
                    }
                    break;
                }
                if (!u.read.ready) {
                    break;
                }
                ByteBuffer block = blocks.receive(b);
                if (limitRate > 0) {
                    if (u.read.delayed) {
                        break;
                    }
                    long limit = rateLimit();
                    if (limit <= 0) {
                        // nginx's event pipe: wait until the rate allows the next byte
                        u.read.delayed = true;
                        loop.addTimer(u.read, -limit * 1000 / limitRate + 1);
                        break;
                    }
                    block.limit((int) Math.min(block.capacity(), limit));
                }
                int n = u.io().recv(u, block);
                if (n == Rc.AGAIN) {
                    break;
                }
                if (n == Rc.ERROR) {
                    p.finish(502);
                    return;
                }
                if (n == 0) {
                    if (framing == CLOSE) {
                        complete = true;
                        break;
                    }
                    r.log(LogLevel.ERROR, 0, "upstream prematurely closed connection");
                    p.finish(502);
                    return;
                }
                p.vars.received(n);
                readLength += n;
                BufChain c = frame(b, 0, n);
                if (c == ERROR_CHAIN) {
                    return;
                }
                if (c != null && spool != null) {
                    spool.add(b, c);
                } else if (c != null) {
                    if (chain == null) {
                        chain = c;
                    } else {
                        tail.next = c;
                    }
                    tail = c;
                    while (tail.next != null) {
                        tail = tail.next;
                    }
                }
            }
            if (spool != null) {
                chain = spool.take(complete);
                for (tail = chain; tail != null && tail.next != null; tail = tail.next) {
                    // the chain's end
                }
            }
            if (chain != null) {
                tail.buf.flush = true;
                if (pass(chain) != Rc.OK) {
                    return;
                }
                continue;
            }
            if (complete) {
                finishBody();
                return;
            }
            if (blocks.free() < 0) {
                // every block waits for the client: stop reading; the client's write event resumes
                if (!r.outputPending()) {
                    if (r.outputFilter(null) == Rc.ERROR) {
                        p.finish(Rc.ERROR);
                        return;
                    }
                    if (blocks.free() >= 0) {
                        continue;
                    }
                }
                loop.deleteTimer(u.read);
                // a rate delay ends too: the next run computes it again
                u.read.delayed = false;
                if (loop.handleReadEvent(u.read, 0) != Rc.OK) {
                    p.finish(502);
                    return;
                }
                armClient();
                return;
            }
            if (!u.read.delayed) {
                loop.addTimer(u.read, p.plcf.readTimeout);
            }
            if (loop.handleReadEvent(u.read, 0) != Rc.OK) {
                p.finish(502);
                return;
            }
            armClient();
            return;
        }
    }

    /**
     * nginx's {@code ngx_handle_write_event()} on the client at the end of {@code ngx_event_pipe()}: while output
     * waits, the client's write event is armed, so that its writability resumes the relay ({@link #clientWritable})
     * even when the upstream has nothing more to say (all of it read, or waiting for free blocks).
     */
    private void armClient() {
        if (r.outputPending() && loop.handleWriteEvent(r.connection().write) != Rc.OK) {
            p.finish(Rc.ERROR);
        }
    }

    /** nginx's {@code p->limit_rate * (ngx_time() - p->start_sec + 1) - p->read_length}: what may be read now. */
    private long rateLimit() {
        return limitRate * (loop.wallMillis() / 1000 - rateStartSec + 1) - readLength;
    }

    /** The rate's delay is over: read on. */
    void rateDelayOver() {
        Connection u = p.upstreamConnection();
        u.read.timedout = false;
        u.read.delayed = false;
        run();
    }

    /** Frames bytes [from, to) of a block; returns buffers over the body's bytes, null for none. */
    private BufChain frame(int b, int from, int to) {
        switch (framing) {
            case LENGTH -> {
                long take = Math.min(rest, to - from);
                if (take < to - from) {
                    r.log(LogLevel.WARN, 0, "upstream sent more data than specified in \"Content-Length\" header");
                    exact = false;
                }
                rest -= take;
                if (rest == 0) {
                    complete = true;
                }
                return take == 0 ? null : blocks.own(b, from, from + (int) take);
            }
            case CHUNKED -> {
                return chunks(b, from, to);
            }
            default -> {
                return blocks.own(b, from, to);
            }
        }
    }

    private BufChain chunks(int b, int from, int to) {
        ByteBuffer v = blocks.block(b).duplicate().position(from).limit(to);
        BufChain first = null;
        BufChain last = null;
        for (;;) {
            int rc = p.in.parser.parseChunked(v);
            if (rc == Rc.OK) {
                int size = (int) Math.min(p.in.parser.chunkSize(), v.remaining());
                if (size > 0) {
                    BufChain cl = blocks.own(b, v.position(), v.position() + size);
                    v.position(v.position() + size);
                    p.in.parser.consumed(size);
                    if (first == null) {
                        first = cl;
                    } else {
                        last.next = cl;
                    }
                    last = cl;
                }
                continue;
            }
            if (rc == Rc.DONE) {
                complete = true;
                if (v.hasRemaining()) {
                    exact = false;
                }
                return first;
            }
            if (rc == Rc.AGAIN) {
                return first;
            }
            r.log(LogLevel.ERROR, 0, "upstream sent invalid chunked response");
            p.finish(502);
            return ERROR_CHAIN;
        }
    }

    private int pass(BufChain chain) {
        p.vars.body(chain.size());
        int rc = r.outputFilter(chain);
        if (rc == Rc.ERROR) {
            p.finish(Rc.ERROR);
        }
        return rc == Rc.ERROR ? Rc.ERROR : Rc.OK;
    }

    /** The body was read whole: the last buffer goes out, the request ends (the core sends what is pending). */
    private void finishBody() {
        lastSent = true;
        p.releasePeer(keepalive() ? jinx.kernel.PeerConnection.KEEPALIVE : 0);
        Buf last = new Buf();
        last.last = true;
        last.flush = true;
        int rc = r.outputFilter(BufChain.of(last));
        p.finish(rc == Rc.ERROR ? Rc.ERROR : rc);
    }

    /** The request is freed: the blocks go back to the pool, the temporary file is closed. */
    void release() {
        if (spool != null) {
            spool.release();
        }
        blocks.release();
    }
}
