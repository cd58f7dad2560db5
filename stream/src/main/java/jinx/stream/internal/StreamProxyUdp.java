package jinx.stream.internal;

import java.nio.ByteBuffer;

import jinx.kernel.Connection;
import jinx.kernel.DatagramIo;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.EventActions;
import jinx.stream.StreamSession;

/**
 * A UDP session's relay: the {@code SOCK_DGRAM} parts of nginx's {@code ngx_stream_proxy_process()},
 * {@code ngx_stream_proxy_test_finalize()} and {@code ngx_stream_proxy_process_connection()}. Every datagram read
 * from one side goes to the other as one datagram, counted as a request (from the client; the first one is the
 * preread data) or a response (from the upstream). The session ends after {@code proxy_requests} datagrams from the
 * client once {@code proxy_responses} answers came for each ({@code udp done}), or at {@code proxy_timeout}: a
 * success when the answers came or none were expected ({@code udp timed out}), else a 502 ({@code upstream timed
 * out}). A datagram the socket cannot take at once is dropped, as the network may drop it (nginx keeps it queued
 * until the socket is writable).
 */
final class StreamProxyUdp {

    private final StreamProxy p;
    private final Session s;
    private final Connection c;
    private final EventLoop loop;
    private final StreamProxySrvConf pscf;
    /** Datagrams from the client (nginx's {@code u->requests}, 1 for the first one) and from the upstream. */
    private long requests = 1;
    private long responses;

    StreamProxyUdp(StreamProxy p) {
        this.p = p;
        this.s = p.s;
        this.c = s.c;
        this.loop = c.loop();
        this.pscf = p.pscf;
    }

    /** The relay of one side's datagrams to the other. */
    void process(boolean fromUpstream) {
        if (loop.exiting()) {
            // the listening socket, which the session sends from, is closed on a graceful exit
            s.logBare(LogLevel.INFO, "disconnected on shutdown");
            p.finalizeProxy(StreamSession.STATUS_OK);
            return;
        }
        Connection pcc = p.connectedPeer();
        Connection src = fromUpstream ? pcc : c;
        Connection dst = fromUpstream ? c : pcc;
        if (src == null) {
            return;
        }
        if (!fromUpstream && dst != null && !p.sendPrefix(dst)) {
            p.finalizeProxy(StreamSession.STATUS_OK);
            return;
        }
        ByteBuffer b = p.buffer(fromUpstream);
        long rate = fromUpstream ? pscf.downloadRate : pscf.uploadRate;
        while (src.read.ready && !src.read.delayed) {
            long got = fromUpstream ? p.upstreamReceived() : s.received();
            if (rate > 0) {
                long limit = rate * (loop.wallMillis() / 1000 - p.startSec() + 1) - got;
                if (limit <= 0) {
                    src.read.delayed = true;
                    loop.addTimer(src.read, -limit * 1000 / rate + 1);
                    break;
                }
            }
            s.logAction(fromUpstream ? "proxying and reading from upstream" : "proxying and reading from client");
            b.clear();
            int n = fromUpstream ? loop.socketIo().recvDatagram(src, b) : src.io().recv(src, b);
            if (n == Rc.AGAIN) {
                break;
            }
            if (n == Rc.ERROR) {
                src.read.eof = true;
                n = 0;
            } else if (dst != null && !send(dst, fromUpstream, b.flip())) {
                p.finalizeProxy(StreamSession.STATUS_OK);
                return;
            }
            if (rate > 0 && n * 1000L / rate > 0) {
                src.read.delayed = true;
                loop.addTimer(src.read, n * 1000L / rate);
            }
            if (fromUpstream) {
                p.firstByte();
                responses++;
                p.addUpstreamReceived(n);
            } else {
                requests++;
                s.addReceived(n);
            }
            if (src.read.eof) {
                break;
            }
        }
        s.logAction("proxying connection");
        if (testFinalize()) {
            return;
        }
        if (loop.handleReadEvent(src.read, src.read.eof ? EventActions.CLOSE_EVENT : 0) != Rc.OK) {
            p.finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        if (dst == null) {
            return;
        }
        if (!c.read.delayed && !pcc.read.delayed) {
            loop.addTimer(c.write, pscf.timeout);
        } else {
            loop.deleteTimer(c.write);
        }
    }

    private boolean send(Connection dst, boolean toClient, ByteBuffer b) {
        s.logAction(toClient ? "proxying and sending to client" : "proxying and sending to upstream");
        return dst.io().send(dst, b) != Rc.ERROR;
    }

    /** nginx's {@code ngx_stream_proxy_test_finalize()} for {@code SOCK_DGRAM}. */
    private boolean testFinalize() {
        if (pscf.requests > 0 && requests < pscf.requests) {
            return false;
        }
        if (pscf.requests > 0 && c.io() instanceof DatagramIo io) {
            // the client's next datagram starts a new session while this one waits for its responses
            io.detach(c);
        }
        if (pscf.responses == StreamProxySrvConf.UNLIMITED || responses < (long) pscf.responses * requests) {
            return false;
        }
        if (p.connectedPeer() == null) {
            return false;
        }
        s.logBare(LogLevel.INFO, "udp done" + counts());
        p.finalizeProxy(StreamSession.STATUS_OK);
        return true;
    }

    /** {@code proxy_timeout} for a UDP session: a success when every expected response came, else a 502. */
    void timedOut() {
        if (pscf.responses == StreamProxySrvConf.UNLIMITED || responses >= (long) pscf.responses * requests) {
            s.logBare(LogLevel.INFO, "udp timed out" + counts());
            p.finalizeProxy(StreamSession.STATUS_OK);
            return;
        }
        Connection pcc = p.connectedPeer();
        if (pcc != null) {
            pcc.read.error = true;
        }
        s.log(LogLevel.ERROR, EventConnect.ETIMEDOUT, "upstream timed out");
        p.finalizeProxy(StreamSession.STATUS_BAD_GATEWAY);
    }

    private String counts() {
        Connection pcc = p.connectedPeer();
        return ", packets from/to client:" + requests + "/" + responses + ", bytes from/to client:" + s.received()
            + "/" + c.sent + ", bytes from/to upstream:" + p.upstreamReceived() + "/" + (pcc == null ? 0 : pcc.sent);
    }
}
