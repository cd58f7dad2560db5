package jinx.http.internal.request;

import java.nio.ByteBuffer;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;

/**
 * What happens to a connection after a request: nginx's {@code ngx_http_set_keepalive()} (with the pipelined
 * request already in the buffer), {@code ngx_http_keepalive_handler()}, {@code ngx_http_set_lingering_close()} and
 * {@code ngx_http_lingering_close_handler()}, and {@code reset_timedout_connection}.
 */
final class KeepAlive {

    /** The most a keep-alive connection's next request is read ahead in the loop's wait (EventActions.preread). */
    private static final int PREREAD_MAX = 4096;

    private KeepAlive() {
    }

    /** nginx's {@code ngx_time()}: the loop's cached wall clock in seconds. */
    static long nowSec(HttpConnection hc) {
        return hc.loop.wallMillis() / 1000;
    }

    /**
     * nginx's {@code ngx_http_set_keepalive()}: a pipelined request in the buffer is read next, posted so the loop
     * does not wait for the socket; otherwise the connection gives its buffers back and waits idle, at most
     * {@code keepalive_timeout}, as a reusable connection.
     *
     * @param r the request just finished
     */
    static void setKeepalive(CoreRequest r) {
        keepalive(r);
        // only now: a pipelined request made above must not be this object, which the callers may still read
        r.hc.pool.recycle(r);
    }

    private static void keepalive(CoreRequest r) {
        HttpConnection hc = r.hc;
        Connection c = hc.c;
        Event rev = c.read;
        HttpCoreLocConf clcf = r.clcf();
        hc.action = "closing request";
        ByteBuffer b = r.headerIn;
        boolean pipelined = b.position() < b.limit();
        if (pipelined && b != hc.buffer) {
            // the large header buffers of this request go to the free list, but the one the next request is in
            for (ByteBuffer f : hc.busy) {
                if (f != b) {
                    f.position(0).limit(0);
                    hc.free.addFirst(f);
                }
            }
            hc.busy.clear();
            hc.busy.addFirst(b);
        }
        // guard against recursive call from finalizeConnection()
        r.keepalive = false;
        RequestFinalizer.freeRequest(r, 0);
        hc.request = null;
        hc.active = null;
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        Event wev = c.write;
        wev.handler = RequestEvents::emptyEventHandler;
        if (pipelined) {
            hc.action = "reading client pipelined request line";
            CoreRequest next = RequestReader.createRequest(hc);
            next.pipelined = true;
            c.sent = 0;
            c.destroyed = false;
            hc.pipeline = true;
            hc.loop.deleteTimer(rev);
            rev.handler = RequestReader::processRequestLine;
            hc.loop.post(rev);
            return;
        }
        // to keep a memory footprint as small as possible for an idle keepalive connection (nginx)
        hc.releaseAll();
        rev.handler = KeepAlive::keepaliveHandler;
        if (HttpEvents.delLevel(wev) != Rc.OK) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        hc.action = "keepalive";
        boolean nodelay = true;
        if (hc.tcpNopush == 1) {
            // only a socket gets TCP_CORK (HttpConnection): this is the loop's socket I/O
            if (SocketIo.of(hc.loop).tcpPush(c) != Rc.OK) {
                RequestFinalizer.closeConnection(hc);
                return;
            }
            hc.tcpNopush = 0;
            // Linux cannot have TCP_NODELAY with TCP_CORK (nginx's ngx_tcp_nodelay_and_tcp_nopush is 0 there)
            nodelay = false;
        }
        if (nodelay && clcf.tcpNodelay == 1 && tcpNodelay(hc) != Rc.OK) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        c.idle = true;
        hc.loop.reusableConnection(c, true);
        hc.loop.addTimer(rev, clcf.keepaliveTimeout);
        if (rev.ready) {
            hc.loop.post(rev);
            return;
        }
        if (hc.io instanceof SocketIo && hc.bufferSize > 0) {
            // keepaliveHandler reads as soon as the socket is readable, into a buffer of bufferSize
            hc.loop.actions().preread(c, Math.min(hc.bufferSize, PREREAD_MAX));
        }
    }

    /** nginx's {@code ngx_tcp_nodelay()}: once per connection, never on a UNIX-domain socket. */
    static int tcpNodelay(HttpConnection hc) {
        if (hc.tcpNodelay != HttpConnection.TCP_NODELAY_UNSET) {
            return Rc.OK;
        }
        try {
            Sockets.setsockopt(hc.c.fd(), Platform.IPPROTO_TCP, Platform.TCP_NODELAY, 1, hc.pool.scratchAddress());
        } catch (NativeIoException e) {
            return hc.connectionError(e);
        }
        hc.tcpNodelay = HttpConnection.TCP_NODELAY_SET;
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_keepalive_handler()}: the next request's first bytes, or the end of an idle
     * connection (timeout, the client's close, or the loop reclaiming it).
     *
     * @param rev the read event
     */
    static void keepaliveHandler(Event rev) {
        Connection c = rev.connection();
        HttpConnection hc = HttpConnection.of(c);
        if (rev.timedout || c.close) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        ByteBuffer b = hc.ensureBuffer(hc.bufferSize);
        // MSIE closes a keepalive connection with RST flag so we ignore ECONNRESET here (nginx)
        int n = recvIgnoringReset(hc, b);
        if (n == Rc.AGAIN) {
            if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
                RequestFinalizer.closeConnection(hc);
                return;
            }
            if (b.limit() == 0) {
                hc.releaseBuffer();
            }
            return;
        }
        if (n == Rc.ERROR) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        if (n == 0) {
            // nginx logs this line without the HTTP context
            c.log.log(LogLevel.INFO, c.number, "client " + hc.remoteAddr() + " closed keepalive connection");
            RequestFinalizer.closeConnection(hc);
            return;
        }
        hc.action = "reading client request line";
        c.idle = false;
        hc.loop.reusableConnection(c, false);
        RequestReader.createRequest(hc);
        c.sent = 0;
        c.destroyed = false;
        hc.loop.deleteTimer(rev);
        rev.handler = RequestReader::processRequestLine;
        RequestReader.processRequestLine(rev);
    }

    /**
     * {@link RequestReader#recv} with nginx's {@code c->log_error = NGX_ERROR_IGNORE_ECONNRESET}: a reset is not
     * logged.
     */
    private static int recvIgnoringReset(HttpConnection hc, ByteBuffer b) {
        Connection c = hc.c;
        c.ignoreReset = true;
        int n = RequestReader.recv(hc, b);
        c.ignoreReset = false;
        return n;
    }

    /**
     * nginx's {@code ngx_http_set_lingering_close()}: the write side is shut, and what the client still sends is
     * read and dropped, for at most {@code lingering_time}, each wait at most {@code lingering_timeout}, so that
     * the response is not lost to a reset.
     *
     * @param hc the connection, its request finished
     */
    static void setLingeringClose(HttpConnection hc) {
        CoreRequest r = hc.request;
        Connection c = hc.c;
        HttpCoreLocConf clcf = r.clcf();
        if (r.lingeringTime == 0) {
            r.lingeringTime = nowSec(hc) + clcf.lingeringTime / 1000;
        }
        Event rev = c.read;
        rev.handler = KeepAlive::lingeringCloseHandler;
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        Event wev = c.write;
        wev.handler = RequestEvents::emptyEventHandler;
        if (HttpEvents.delLevel(wev) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        if (hc.io.shutdownWrite(c) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        c.close = false;
        hc.loop.reusableConnection(c, true);
        hc.loop.addTimer(rev, clcf.lingeringTimeout);
        if (rev.ready) {
            lingeringCloseHandler(rev);
        }
    }

    /**
     * nginx's {@code ngx_http_lingering_close_handler()}.
     *
     * @param rev the read event
     */
    static void lingeringCloseHandler(Event rev) {
        Connection c = rev.connection();
        HttpConnection hc = HttpConnection.of(c);
        CoreRequest r = hc.request;
        if (rev.timedout || c.close) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        long timer = r.lingeringTime - nowSec(hc);
        if (timer <= 0) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        ByteBuffer scratch = hc.pool.scratch();
        do {
            int n = hc.io.recv(c, scratch.clear());
            if (n == Rc.AGAIN) {
                break;
            }
            if (n == Rc.ERROR || n == 0) {
                RequestFinalizer.closeRequest(r, 0);
                return;
            }
        } while (rev.ready);
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
            return;
        }
        HttpCoreLocConf clcf = r.clcf();
        hc.loop.addTimer(rev, Math.min(timer * 1000, clcf.lingeringTimeout));
    }

    /**
     * {@code reset_timedout_connection}: the connection closes with a reset (nginx sets {@code SO_LINGER} to
     * {@code {1, 0}}), so the kernel drops what the client did not take.
     *
     * @param hc the connection
     */
    static void resetConnection(HttpConnection hc) {
        if (!hc.c.hasDescriptor()) {
            // no socket, no kernel buffer to drop
            return;
        }
        // SO_LINGER {1, 0}: close() sends RST and drops what the client never read (reset_timedout_connection)
        try {
            Sockets.setLinger(hc.connection().fd(), true, 0);
        } catch (NativeIoException e) {
            hc.log(LogLevel.ALERT, e.errno(), "setsockopt(SO_LINGER) failed");
        }
    }
}
