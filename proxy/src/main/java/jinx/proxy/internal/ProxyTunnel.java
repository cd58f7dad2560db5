package jinx.proxy.internal;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * A {@code 101 Switching Protocols} answer to a request that asked to upgrade (WebSocket, or any other): the two
 * connections become a tunnel, nginx's {@code ngx_http_upstream_upgrade()} and
 * {@code ngx_http_upstream_process_upgraded()}. Bytes go both ways through one buffer per direction of
 * {@code proxy_buffer_size}; a side that ends its output has it passed on ({@code shutdown(SHUT_WR)} of the other
 * connection, so a half-closed exchange completes), and the tunnel ends once both directions ended. The upstream's
 * idle time is bounded by {@code proxy_read_timeout} (reading) and {@code proxy_send_timeout} (writing), as nginx
 * bounds it. An idle tunnel has no timer firing but those and costs no CPU.
 */
final class ProxyTunnel {

    private final ProxyRequest p;
    private final HttpRequest r;
    private final EventLoop loop;
    private final Connection client;
    private final Connection up;
    /** Upstream to client: the header's buffer, which may hold the first bytes after the 101. */
    private final ByteBuffer down;
    /** Client to upstream. */
    private final ByteBuffer upward;
    private boolean clientShut;
    private boolean upstreamShut;
    private boolean done;

    ProxyTunnel(ProxyRequest p, ByteBuffer fromUpstream) {
        this.p = p;
        this.r = p.r;
        this.loop = p.loop;
        this.client = r.connection();
        this.up = p.upstreamConnection();
        this.down = fromUpstream.compact().flip();
        this.upward = ProxyBuffers.get((int) p.plcf.bufferSize);
        upward.limit(0);
    }

    /** nginx's {@code ngx_http_upstream_upgrade()}. */
    void start() {
        r.keepalive = false;
        r.logAction("proxying upgraded connection");
        up.read.handler = ev -> event(true, false);
        up.write.handler = ev -> event(false, true);
        r.readEventHandler(req -> process(false, false));
        r.writeEventHandler(req -> process(true, true));
        Buf flush = new Buf();
        flush.flush = true;
        if (r.outputFilter(BufChain.of(flush)) == Rc.ERROR) {
            p.finish(Rc.ERROR);
            return;
        }
        process(true, true);
        if (!done) {
            process(false, true);
        }
    }

    private void event(boolean fromUpstream, boolean doWrite) {
        process(fromUpstream, doWrite);
        p.runPosted();
    }

    /** nginx's {@code ngx_http_upstream_process_upgraded()}, with the half-close passed on. */
    private void process(boolean fromUpstream, boolean doWrite) {
        if (done) {
            return;
        }
        if (client.write.timedout) {
            client.timedout = true;
            r.log(LogLevel.INFO, EventConnect.ETIMEDOUT, "client timed out");
            end(408);
            return;
        }
        if (up.read.timedout || up.write.timedout) {
            r.log(LogLevel.ERROR, EventConnect.ETIMEDOUT, "upstream timed out");
            end(504);
            return;
        }
        Connection src = fromUpstream ? up : client;
        Connection dst = fromUpstream ? client : up;
        ByteBuffer b = fromUpstream ? down : upward;
        for (;;) {
            if (doWrite && b.hasRemaining() && dst.write.ready) {
                int n = dst.io().send(dst, b);
                if (n == Rc.ERROR) {
                    end(Rc.ERROR);
                    return;
                }
                if (!b.hasRemaining()) {
                    b.clear().limit(0);
                }
            }
            int room = b.capacity() - b.limit();
            if (room > 0 && src.read.ready && !src.read.eof) {
                ByteBuffer in = b.duplicate().position(b.limit()).limit(b.capacity());
                int n = src.io().recv(src, in);
                if (n > 0) {
                    if (fromUpstream) {
                        p.vars.received(n);
                    }
                    b.limit(b.limit() + n);
                    doWrite = true;
                    continue;
                }
                if (n == Rc.ERROR) {
                    src.read.eof = true;
                }
            }
            break;
        }
        halfClose();
        boolean upDone = up.read.eof && !down.hasRemaining();
        boolean clientDone = client.read.eof && !upward.hasRemaining();
        if (upDone && clientDone) {
            end(0);
            return;
        }
        arm();
    }

    /** A side that ended its output, its bytes all passed: the other side's output ends too. */
    private void halfClose() {
        if (up.read.eof && !down.hasRemaining() && !clientShut) {
            clientShut = true;
            client.io().shutdownWrite(client);
        }
        if (client.read.eof && !upward.hasRemaining() && !upstreamShut) {
            upstreamShut = true;
            up.io().shutdownWrite(up);
        }
    }

    /** The events and nginx's timers: the upstream's read and send timeouts, the client's send timeout. */
    private void arm() {
        if (loop.handleWriteEvent(up.write) != Rc.OK || loop.handleReadEvent(up.read, 0) != Rc.OK
            || loop.handleWriteEvent(client.write) != Rc.OK || loop.handleReadEvent(client.read, 0) != Rc.OK) {
            end(Rc.ERROR);
            return;
        }
        timer(up.write, up.write.active && !up.write.ready, p.plcf.sendTimeout);
        timer(up.read, !up.read.eof && !up.read.ready, p.plcf.readTimeout);
        timer(client.write, client.write.active && !client.write.ready, p.plcf.sendTimeout);
    }

    private void timer(Event ev, boolean waiting, long ms) {
        if (waiting) {
            loop.addTimer(ev, ms);
        } else if (ev.timerSet()) {
            loop.deleteTimer(ev);
        }
    }

    private void end(int rc) {
        done = true;
        loop.deleteTimer(client.write);
        p.finish(rc);
    }

    /** The request is freed: the client-to-upstream buffer back to the pool. */
    void release() {
        ProxyBuffers.put(upward);
    }
}
