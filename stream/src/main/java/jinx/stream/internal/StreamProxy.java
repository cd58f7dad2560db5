package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;
import jinx.kernel.spi.EventActions;
import jinx.proxy.upstream.LocalAddress;
import jinx.proxy.upstream.Upstream;
import jinx.stream.StreamSession;

/**
 * One session's proxying: nginx's {@code ngx_stream_proxy_handler()}, {@code ngx_stream_proxy_connect()},
 * {@code ngx_stream_proxy_init_upstream()}, {@code ngx_stream_proxy_process_connection()},
 * {@code ngx_stream_proxy_process()}, {@code ngx_stream_proxy_test_finalize()},
 * {@code ngx_stream_proxy_next_upstream()} and {@code ngx_stream_proxy_finalize()}. One buffer of
 * {@code proxy_buffer_size} per direction: bytes are read into its free end and sent from its start, and a side is
 * read only while its buffer has room, so a slow reader holds back the other side.
 */
final class StreamProxy {

    final Session s;
    private final Connection c;
    private final EventLoop loop;
    final StreamProxySrvConf pscf;
    Upstream upstream;
    final PeerConnection pc = new PeerConnection();
    /** The upstream connection's TLS is done and accepted ({@link StreamProxySsl}). */
    private boolean secured;
    /** The PROXY header went out ahead of TLS. */
    private boolean headerSent;
    /** The name the upstream's certificate must match. */
    String sslName;
    /** Client to upstream: sent from position to limit, read into limit to capacity. */
    private ByteBuffer downstream;
    /** Upstream to client. */
    private ByteBuffer upstreamBuf;
    /** What goes to the upstream before the client's bytes: the PROXY header and the preread data. */
    private ByteBuffer prefix;
    private Session.UpstreamState state;
    private boolean connected;
    private boolean halfClosed;
    private boolean peerHeld;
    private long received;
    private long startTime;
    private final long startSec;
    /** The lookup of a host that {@code proxy_pass} with variables named, or null. */
    private StreamProxyResolve resolve;
    /** The relay of a UDP session, or null for TCP. */
    private final StreamProxyUdp udp;

    StreamProxy(Session s, StreamProxySrvConf pscf) {
        this.s = s;
        this.c = s.c;
        this.loop = c.loop();
        this.pscf = pscf;
        this.upstream = pscf.group();
        this.startSec = loop.wallMillis() / 1000;
        this.udp = s.udp ? new StreamProxyUdp(this) : null;
    }

    /**
     * {@code proxy_bind}: nginx's {@code ngx_stream_proxy_set_local()}; an empty value binds nothing, one that is no
     * address is logged and binds nothing.
     */
    private void local() {
        pc.transparent = pscf.bindTransparent;
        if (pscf.bind == null) {
            return;
        }
        String v = pscf.bind.evaluate(s);
        if (v == null || v.isEmpty()) {
            return;
        }
        pc.local = LocalAddress.parse(v);
        if (pc.local == null) {
            s.log(LogLevel.ERROR, 0, "invalid local address \"" + v + "\"");
        }
    }

    /** nginx's {@code ngx_stream_proxy_handler()}. */
    void start() {
        s.upstream = this;
        pc.log = c.log;
        pc.number = c.number;
        pc.logContext = s;
        pc.soKeepalive = pscf.socketKeepalive == 1;
        pc.datagram = s.udp;
        local();
        c.read.handler = ev -> processConnection(ev, false);
        c.write.handler = ev -> processConnection(ev, true);
        downstream = StreamBuffers.take((int) pscf.bufferSize).limit(0);
        if (c.read.ready) {
            loop.post(c.read);
        }
        if (pscf.upstreamValue != null) {
            ProxyEval.Target t = ProxyEval.eval(s, pscf);
            if (t == null) {
                finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return;
            }
            if (t.upstream() == null) {
                resolve = new StreamProxyResolve(this, s, pscf, t.host(), t.port());
                resolve.start(loop);
                return;
            }
            upstream = t.upstream();
        }
        begin();
    }

    /** The group chosen or resolved: the balancer, then the first try. */
    void begin(Upstream group) {
        upstream = group;
        begin();
    }

    private void begin() {
        upstream.start(loop, pc, hashKey());
        pc.start = loop.wallMillis();
        if (pscf.nextUpstreamTries > 0 && pc.tries > pscf.nextUpstreamTries) {
            pc.tries = pscf.nextUpstreamTries;
        }
        connect();
    }

    private byte[] hashKey() {
        if (upstream.method != Upstream.Method.HASH && upstream.method != Upstream.Method.HASH_CONSISTENT) {
            return null;
        }
        return ((StreamValue) upstream.hashKey).evaluate(s).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** nginx's {@code ngx_stream_proxy_connect()}. */
    private void connect() {
        s.logAction("connecting to upstream");
        connected = false;
        secured = false;
        headerSent = false;
        if (state != null) {
            state.responseTime = loop.wallMillis() - startTime;
        }
        state = new Session.UpstreamState();
        s.states.add(state);
        startTime = loop.wallMillis();
        int rc = EventConnect.connectPeer(loop, pc);
        if (rc == Rc.ERROR) {
            finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        state.peer = pc.name;
        if (rc == Rc.BUSY) {
            s.log(LogLevel.ERROR, 0, "no live upstreams");
            finalizeProxy(StreamSession.STATUS_BAD_GATEWAY);
            return;
        }
        peerHeld = true;
        if (rc == Rc.DECLINED) {
            nextUpstream();
            return;
        }
        Connection u = pc.connection;
        u.data = s;
        u.log = c.log;
        if (rc != Rc.AGAIN) {
            initUpstream();
            return;
        }
        u.read.handler = this::connectHandler;
        u.write.handler = this::connectHandler;
        loop.addTimer(u.write, pscf.connectTimeout);
    }

    /** nginx's {@code ngx_stream_proxy_connect_handler()}. */
    private void connectHandler(Event ev) {
        Connection u = pc.connection;
        if (ev.timedout) {
            s.log(LogLevel.ERROR, EventConnect.ETIMEDOUT, "upstream timed out");
            nextUpstream();
            return;
        }
        loop.deleteTimer(u.write);
        if (EventConnect.testConnect(u) != Rc.OK) {
            nextUpstream();
            return;
        }
        initUpstream();
    }

    /** nginx's {@code ngx_stream_proxy_init_upstream()}. */
    private void initUpstream() {
        Connection u = pc.connection;
        if (!s.udp && s.cscf.tcpNodelay == 1 && !u.unixPeer() && u.loop().socketIo().tcpNodelay(u) != Rc.OK) {
            nextUpstream();
            return;
        }
        if (pscf.sslEnable == 1 && !secured) {
            if (pscf.proxyProtocol == 1 && !headerSent) {
                if (!StreamProxySsl.sendProxyProtocol(this, u)) {
                    return;
                }
                headerSent = true;
            }
            StreamProxySsl.start(this);
            return;
        }
        if (c.log.isEnabled(LogLevel.INFO)) {
            String local = ProxyProtocolWriter.localText(u);
            if (local != null) {
                s.logBare(LogLevel.INFO, (s.udp ? "udp " : "") + "proxy " + local + " connected to " + pc.name);
            }
        }
        state.connectTime = loop.wallMillis() - startTime;
        // the peer's figures and a latency-aware balancer see the connect time, stream's answer
        Upstream.responded(pc, 0, state.connectTime * 1000);
        if (upstreamBuf == null) {
            upstreamBuf = StreamBuffers.take((int) pscf.bufferSize).limit(0);
        }
        prefix = ProxyProtocolWriter.prefix(s, pscf.proxyProtocol == 1 && !headerSent);
        connected = true;
        u.read.handler = ev -> processConnection(ev, !ev.write);
        u.write.handler = ev -> processConnection(ev, !ev.write);
        if (u.read.ready) {
            loop.post(u.read);
        }
        process(false, true);
    }

    /** The TLS handshake is over and accepted: the relay starts on the secured connection. */
    void secured() {
        secured = true;
        initUpstream();
    }

    /** nginx's {@code ngx_stream_proxy_process_connection()}: timeouts and rate delays, then the relay. */
    private void processConnection(Event ev, boolean fromUpstream) {
        Connection u = pc.connection;
        if (ev.timedout) {
            ev.timedout = false;
            if (ev.delayed) {
                ev.delayed = false;
                if (!ev.ready) {
                    if (loop.handleReadEvent(ev, 0) != Rc.OK) {
                        finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                        return;
                    }
                    if (connected && !c.read.delayed && !u.read.delayed) {
                        loop.addTimer(c.write, pscf.timeout);
                    }
                    return;
                }
            } else if (udp != null) {
                udp.timedOut();
                return;
            } else {
                s.log(LogLevel.INFO, EventConnect.ETIMEDOUT, "connection timed out");
                finalizeProxy(StreamSession.STATUS_OK);
                return;
            }
        } else if (ev.delayed) {
            if (loop.handleReadEvent(ev, 0) != Rc.OK) {
                finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            }
            return;
        }
        if (fromUpstream && !connected) {
            return;
        }
        process(fromUpstream, ev.write);
    }

    /** nginx's {@code ngx_stream_proxy_process()}. */
    private void process(boolean fromUpstream, boolean doWrite) {
        if (udp != null) {
            udp.process(fromUpstream);
            return;
        }
        Connection pcc = connected ? pc.connection : null;
        Connection src = fromUpstream ? pcc : c;
        Connection dst = fromUpstream ? c : pcc;
        ByteBuffer b = fromUpstream ? upstreamBuf : downstream;
        long rate = fromUpstream ? pscf.downloadRate : pscf.uploadRate;
        if (src == null) {
            return;
        }
        for (;;) {
            if (doWrite && dst != null) {
                s.logAction(fromUpstream ? "proxying and sending to client" : "proxying and sending to upstream");
                if (send(dst, fromUpstream, b) == Rc.ERROR) {
                    finalizeProxy(StreamSession.STATUS_OK);
                    return;
                }
            }
            int size = b.capacity() - b.limit();
            if (size > 0 && src.read.ready && !src.read.delayed) {
                long got = fromUpstream ? received : s.received();
                if (rate > 0) {
                    long limit = rate * (loop.wallMillis() / 1000 - startSec + 1) - got;
                    if (limit <= 0) {
                        src.read.delayed = true;
                        loop.addTimer(src.read, -limit * 1000 / rate + 1);
                        break;
                    }
                    size = (int) Math.min(size, limit);
                }
                s.logAction(fromUpstream ? "proxying and reading from upstream" : "proxying and reading from client");
                int pos = b.position();
                int lim = b.limit();
                b.position(lim).limit(lim + size);
                int n = src.io().recv(src, b);
                b.limit(lim).position(pos);
                if (n == Rc.AGAIN) {
                    break;
                }
                if (n == Rc.ERROR) {
                    src.read.eof = true;
                    n = 0;
                }
                if (rate > 0 && n * 1000L / rate > 0) {
                    src.read.delayed = true;
                    loop.addTimer(src.read, n * 1000L / rate);
                }
                if (fromUpstream) {
                    if (state.firstByteTime < 0) {
                        state.firstByteTime = loop.wallMillis() - startTime;
                    }
                    received += n;
                } else {
                    s.addReceived(n);
                }
                b.limit(lim + n);
                doWrite = true;
                if (n > 0) {
                    continue;
                }
            }
            if (doWrite && dst != null && b.hasRemaining() && dst.write.ready) {
                continue;
            }
            break;
        }
        s.logAction("proxying connection");
        if (testFinalize(fromUpstream)) {
            return;
        }
        if (loop.handleReadEvent(src.read, src.read.eof ? EventActions.CLOSE_EVENT : 0) != Rc.OK) {
            finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        if (dst == null) {
            return;
        }
        if (pscf.halfClose == 1 && src.read.eof && !halfClosed && !buffered(!fromUpstream)) {
            if (dst.io().shutdownWrite(dst) != Rc.OK) {
                finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return;
            }
            halfClosed = true;
        }
        if (loop.handleWriteEvent(dst.write) != Rc.OK) {
            finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        if (!c.read.delayed && !pc.connection.read.delayed) {
            loop.addTimer(c.write, pscf.timeout);
        } else {
            loop.deleteTimer(c.write);
        }
    }

    /** Sends what waits for {@code dst}: the prefix first toward the upstream, then the buffer. */
    private int send(Connection dst, boolean toClient, ByteBuffer b) {
        if (!toClient && prefix != null) {
            while (prefix.hasRemaining() && dst.write.ready) {
                int n = dst.io().send(dst, prefix);
                if (n == Rc.ERROR) {
                    return Rc.ERROR;
                }
                if (n == Rc.AGAIN) {
                    return Rc.AGAIN;
                }
            }
            if (prefix.hasRemaining()) {
                return Rc.AGAIN;
            }
            prefix = null;
        }
        while (b.hasRemaining() && dst.write.ready) {
            int n = dst.io().send(dst, b);
            if (n == Rc.ERROR) {
                return Rc.ERROR;
            }
            if (n == Rc.AGAIN) {
                break;
            }
        }
        if (!b.hasRemaining()) {
            b.clear().limit(0);
        }
        return Rc.OK;
    }

    /* ---- what the UDP relay (StreamProxyUdp) shares ---- */

    /** The upstream connection once connected, else null. */
    Connection connectedPeer() {
        return connected ? pc.connection : null;
    }

    /** Sends the PROXY header and the first datagram as one datagram, once; false on a failure (logged). */
    boolean sendPrefix(Connection dst) {
        if (prefix == null) {
            return true;
        }
        ByteBuffer b = prefix;
        prefix = null;
        return dst.io().send(dst, b) != Rc.ERROR;
    }

    ByteBuffer buffer(boolean fromUpstream) {
        return fromUpstream ? upstreamBuf : downstream;
    }

    long upstreamReceived() {
        return received;
    }

    void addUpstreamReceived(long n) {
        received += n;
    }

    void firstByte() {
        if (state.firstByteTime < 0) {
            state.firstByteTime = loop.wallMillis() - startTime;
        }
    }

    long startSec() {
        return startSec;
    }

    /** Whether bytes wait to be sent to the upstream ({@code toUpstream}) or to the client. */
    private boolean buffered(boolean toUpstream) {
        if (toUpstream) {
            return prefix != null && prefix.hasRemaining() || downstream.hasRemaining();
        }
        return upstreamBuf != null && upstreamBuf.hasRemaining();
    }

    /** nginx's {@code ngx_stream_proxy_test_finalize()} for TCP. */
    private boolean testFinalize(boolean fromUpstream) {
        Connection pcc = connected ? pc.connection : null;
        if (pcc == null) {
            return false;
        }
        boolean cBuffered = buffered(false);
        boolean pBuffered = buffered(true);
        if (!c.read.eof && !pcc.read.eof || !c.read.eof && cBuffered || !pcc.read.eof && pBuffered) {
            return false;
        }
        if (pscf.halfClose == 1 && !(c.read.eof && pcc.read.eof && !cBuffered && !pBuffered)) {
            return false;
        }
        s.logBare(LogLevel.INFO, (fromUpstream ? "upstream" : "client") + " disconnected, bytes from/to client:"
            + s.received() + "/" + c.sent + ", bytes from/to upstream:" + received + "/" + pcc.sent);
        finalizeProxy(StreamSession.STATUS_OK);
        return true;
    }

    /** nginx's {@code ngx_stream_proxy_next_upstream()}. */
    void nextUpstream() {
        Connection u = pc.connection;
        if (u != null && buffered(true) && connected) {
            s.log(LogLevel.ERROR, 0, "buffered data on next upstream");
            finalizeProxy(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        if (peerHeld) {
            peerHeld = false;
            pc.source.free(pc, PeerConnection.FAILED);
        }
        long timeout = pscf.nextUpstreamTimeout;
        if (pc.tries == 0 || pscf.nextUpstream == 0
            || timeout > 0 && loop.wallMillis() - pc.start >= timeout) {
            finalizeProxy(StreamSession.STATUS_BAD_GATEWAY);
            return;
        }
        if (u != null) {
            state.bytesReceived = received;
            state.bytesSent = u.sent;
            pc.connection = null;
            u.close();
        }
        connect();
    }

    /** nginx's {@code ngx_stream_proxy_finalize()}. */
    void finalizeProxy(int rc) {
        s.finalizeSession(rc);
    }

    /** The session ends: the try's figures, the peer back to its balancer, the upstream closed, buffers back. */
    void release() {
        if (resolve != null) {
            resolve.cancel();
        }
        Connection u = pc.connection;
        if (state != null) {
            if (state.responseTime < 0) {
                state.responseTime = loop.wallMillis() - startTime;
            }
            if (u != null) {
                state.bytesReceived = received;
                state.bytesSent = u.sent;
            }
        }
        if (peerHeld) {
            peerHeld = false;
            pc.source.free(pc, 0);
        }
        if (u != null) {
            pc.connection = null;
            u.close();
        }
        StreamBuffers.give(downstream);
        StreamBuffers.give(upstreamBuf);
        downstream = null;
        upstreamBuf = null;
    }

    /** What nginx's {@code ngx_stream_proxy_log_error()} adds to the session's error lines. */
    void appendLogContext(StringBuilder sb) {
        if (pc.name != null) {
            sb.append(", upstream: \"").append(pc.name).append('"');
        }
        Connection u = pc.connection;
        sb.append(", bytes from/to client:").append(s.received()).append('/').append(c.sent)
            .append(", bytes from/to upstream:").append(received).append('/').append(u == null ? 0 : u.sent);
    }
}
