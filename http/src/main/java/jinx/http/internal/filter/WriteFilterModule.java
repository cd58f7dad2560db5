package jinx.http.internal.filter;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_write_filter} module, nginx's {@code ngx_http_write_filter_module.c}: the last body filter. It
 * adds the buffers it is given to the request's pending output and sends when there is a reason to —
 * a {@code last} or {@code flush} buffer, a call without buffers (the writer pushing), or at least
 * {@code postpone_output} bytes — within {@code limit_rate} ({@code limit_rate_after} bytes first at full speed)
 * and {@code sendfile_max_chunk}, through the connection's {@link ConnectionIo#sendChain} (nginx's
 * {@code c->send_chain}: a socket's, or an in-memory connection's).
 *
 * <p>When the socket does not take everything: the connection's {@link #WRITE_BUFFERED} bit is set, the write
 * event gets {@code send_timeout}, and if the socket is still writable (a send limit, not a full socket, stopped
 * it) the write event is posted to the loop's next turn, so one response does not hold the loop (nginx's
 * {@code ngx_posted_next_events}). A rate limit sets {@code write.delayed} with a timer instead; the engine's
 * write handler clears {@code delayed} and {@code timedout} together when that timer fires, as nginx's
 * {@code ngx_http_request_handler()} does.
 *
 * <p>With {@code tcp_nopush on}, {@code TCP_CORK} is set before a header is sent with a file behind it (nginx does
 * this inside {@code ngx_linux_sendfile_chain()}); the connection's {@code tcpNopush} then reads
 * {@link #TCP_NOPUSH_SET}, and the engine clears it with {@link SocketIo#tcpPush} when the connection goes
 * keep-alive. A connection without a socket never corks (its {@code tcpNopush} is disabled from the start).
 */
public final class WriteFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_write_filter";

    /** The connection's {@code buffered} bit: the write filter holds output (nginx's NGX_HTTP_WRITE_BUFFERED). */
    public static final int WRITE_BUFFERED = 0x10;

    /** {@code HttpConnection.tcpNopush}: not set (nginx's {@code NGX_TCP_NOPUSH_UNSET}). */
    public static final int TCP_NOPUSH_UNSET = 0;
    /** {@code HttpConnection.tcpNopush}: TCP_CORK is set; the engine clears it at keep-alive. */
    public static final int TCP_NOPUSH_SET = 1;

    /* the module's index among HTTP modules: where a request's Output is kept */
    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it; {@link #postconfiguration} learns its index.
     */
    public WriteFilterModule() {
    }

    /**
     * The module with its request context index known (tests).
     *
     * @param ctxIndex the index
     */
    WriteFilterModule(int ctxIndex) {
        this.ctxIndex = ctxIndex;
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
        ctxIndex = cf.ctxIndex(this);
        cf.addBodyFilter((r, in, next) -> write(r, in));
    }

    /**
     * Returns a request's output state, made on first use.
     *
     * @param r the request
     * @return the state
     */
    public Output output(HttpRequest r) {
        int i = ctxIndex;
        Object o = r.ctx(i);
        if (o instanceof Output out) {
            return out;
        }
        Output out;
        if (r instanceof CoreRequest cr && cr.writeState instanceof Output kept) {
            out = kept;
            out.reset();
        } else {
            out = new Output();
            if (r instanceof CoreRequest cr) {
                cr.writeState = out;
            }
        }
        r.ctx(i, out);
        return out;
    }

    /**
     * The write filter: nginx's {@code ngx_http_write_filter()}.
     *
     * @param r the request
     * @param in buffers to add, or null to push what is pending
     * @return {@link Rc#OK} when nothing is left, {@link Rc#AGAIN} when output is pending, {@link Rc#ERROR}
     */
    public int write(HttpRequest r, BufChain in) {
        Connection c = r.connection();
        if (c.error) {
            return Rc.ERROR;
        }
        Output o = output(r);
        long size = 0;
        boolean flush = false;
        boolean sync = false;
        boolean last = false;

        // find the size, the flush point and the last link of the saved chain
        for (BufChain cl = o.out; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.size() == 0 && !b.isSpecial()) {
                return zeroSizeBuf(r, b);
            }
            size += b.size();
            flush |= b.flush;
            sync |= b.sync;
            last |= b.last;
        }

        // add the new chain to the existent one
        for (BufChain ln = in; ln != null; ln = ln.next) {
            Buf b = ln.buf;
            BufChain cl = BufferPool.current().link(b);
            if (o.outTail == null) {
                o.out = cl;
            } else {
                o.outTail.next = cl;
            }
            o.outTail = cl;
            if (b.size() == 0 && !b.isSpecial()) {
                return zeroSizeBuf(r, b);
            }
            size += b.size();
            flush |= b.flush;
            sync |= b.sync;
            last |= b.last;
        }

        HttpCoreLocConf clcf = CoreConfs.loc(r);

        // avoid the output if there are no last buf, no flush point, there are the incoming bufs and the size of
        // all bufs is smaller than "postpone_output" directive
        if (!last && !flush && in != null && size < clcf.postponeOutput) {
            return Rc.OK;
        }
        if (c.write.delayed) {
            buffered(c, true);
            return Rc.AGAIN;
        }
        if (size == 0) {
            if (last || flush || sync) {
                free(o, null);
                buffered(c, false);
                return Rc.OK;
            }
            Logs.log(r, LogLevel.ALERT, "the http output chain is empty");
            return Rc.ERROR;
        }
        return send(r, c, o, clcf);
    }

    private static int send(HttpRequest r, Connection c, Output o, HttpCoreLocConf clcf) {
        EventLoop loop = r.loop();
        long limit;
        long rate = limitRate(r, o, clcf);
        if (rate > 0) {
            if (o.limitRateAfter < 0) {
                o.limitRateAfter = Math.max(0, clcf.limitRateAfter);
            }
            long elapsed = loop.wallMillis() / 1000 - r.startMsec / 1000 + 1;
            limit = rate * elapsed - (c.sent - o.limitRateAfter);
            if (limit <= 0) {
                c.write.delayed = true;
                loop.addTimer(c.write, -limit * 1000 / rate + 1);
                buffered(c, true);
                return Rc.AGAIN;
            }
            if (clcf.sendfileMaxChunk > 0 && clcf.sendfileMaxChunk < limit) {
                limit = clcf.sendfileMaxChunk;
            }
        } else {
            limit = Math.max(0, clcf.sendfileMaxChunk);
        }

        if (nopush(c, o.out, clcf, loop) != Rc.OK) {
            c.error = true;
            return Rc.ERROR;
        }
        long sent = c.sent;
        BufChain chain = c.io().sendChain(c, o.out, limit);
        if (chain == ConnectionIo.CHAIN_ERROR) {
            c.error = true;
            return Rc.ERROR;
        }

        if (rate > 0) {
            long nsent = c.sent;
            if (o.limitRateAfter > 0) {
                sent = Math.max(0, sent - o.limitRateAfter);
                nsent = Math.max(0, nsent - o.limitRateAfter);
            }
            long delay = (nsent - sent) * 1000 / rate;
            if (delay > 0) {
                c.write.delayed = true;
                loop.addTimer(c.write, delay);
            }
        }
        if (chain != null && c.write.ready && !c.write.delayed) {
            loop.postNext(c.write);
        }
        free(o, chain);
        if (chain != null) {
            buffered(c, true);
            if (!c.write.delayed) {
                loop.addTimer(c.write, clcf.sendTimeout);
            }
            return Rc.AGAIN;
        }
        buffered(c, false);
        return Rc.OK;
    }

    /**
     * nginx's {@code r->limit_rate}: the location's {@code limit_rate} taken at the first write unless the request
     * has its own ({@code set $limit_rate}, kept in {@link CoreRequest#limitRate}).
     */
    private static long limitRate(HttpRequest r, Output o, HttpCoreLocConf clcf) {
        CoreRequest cr = r instanceof CoreRequest core ? core : null;
        if (o.limitRate < 0) {
            long own = cr != null ? cr.limitRate : 0;
            o.limitRate = own > 0 ? own : Math.max(0, clcf.limitRate);
            if (cr != null) {
                cr.limitRate = o.limitRate;
            }
        }
        return cr != null ? cr.limitRate : o.limitRate;
    }

    /**
     * Sets TCP_CORK when a header goes out with a file behind it and {@code tcp_nopush} is on: what nginx's
     * {@code ngx_linux_sendfile_chain()} does when {@code c->tcp_nopush} is unset.
     */
    private static int nopush(Connection c, BufChain out, HttpCoreLocConf clcf, EventLoop loop) {
        if (clcf.tcpNopush != 1 || !(c.data instanceof HttpConnection hc) || hc.tcpNopush != TCP_NOPUSH_UNSET) {
            return Rc.OK;
        }
        boolean header = false;
        for (BufChain cl = out; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.inFile) {
                if (!header) {
                    return Rc.OK;
                }
                if (SocketIo.of(loop).tcpNopush(c) != Rc.OK) {
                    return Rc.ERROR;
                }
                hc.tcpNopush = TCP_NOPUSH_SET;
                return Rc.OK;
            }
            header |= b.size() > 0;
        }
        return Rc.OK;
    }

    /** Drops the links sent, giving the filters' own buffers back; {@code rest} becomes the pending output. */
    private static void free(Output o, BufChain rest) {
        BufferPool pool = BufferPool.current();
        BufChain next;
        for (BufChain cl = o.out; cl != null && cl != rest; cl = next) {
            next = cl.next;
            OutBufs.free(pool, cl.buf);
            pool.free(cl);
        }
        o.out = rest;
        if (rest == null) {
            o.outTail = null;
        }
    }

    private static void buffered(Connection c, boolean on) {
        if (c.data instanceof HttpConnection hc) {
            hc.buffered = on ? hc.buffered | WRITE_BUFFERED : hc.buffered & ~WRITE_BUFFERED;
        }
    }

    private static int zeroSizeBuf(HttpRequest r, Buf b) {
        Logs.log(r, LogLevel.ALERT, "zero size buf in writer t:" + (b.temporary ? 1 : 0)
            + " f:" + (b.inFile ? 1 : 0) + " " + b.filePos + "-" + b.fileLast);
        return Rc.ERROR;
    }
}
