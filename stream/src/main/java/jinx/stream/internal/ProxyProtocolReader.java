package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Connection;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Sockets;
import jinx.stream.StreamSession;

/**
 * {@code listen ... proxy_protocol}: the PROXY protocol header (version 1, text, or version 2, binary:
 * {@link ProxyProtocolV2}) read before the session starts,
 * nginx's {@code ngx_stream_proxy_protocol_handler()} with {@code ngx_proxy_protocol_read()}. nginx peeks and then
 * reads exactly the header; without a peek here, bytes that came after the header are kept as the session's
 * preread data, which the proxy sends first, so nothing is lost.
 */
final class ProxyProtocolReader {

    /** nginx's {@code NGX_PROXY_PROTOCOL_V1_MAX_HEADER}. */
    static final int V1_MAX_HEADER = 107;

    private ProxyProtocolReader() {
    }

    static void start(Session s) {
        Connection c = s.c;
        s.logAction("reading PROXY protocol");
        s.preread = ByteBuffer.allocateDirect((int) Math.max(s.cscf.prereadBufferSize, V1_MAX_HEADER));
        c.read.handler = ev -> read(s);
        if (!c.read.ready) {
            EventLoop loop = c.loop();
            loop.addTimer(c.read, s.cscf.proxyProtocolTimeout);
            if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            }
            return;
        }
        read(s);
    }

    private static void read(Session s) {
        Connection c = s.c;
        EventLoop loop = c.loop();
        if (c.read.timedout) {
            s.log(LogLevel.INFO, EventConnect.ETIMEDOUT, "client timed out");
            s.finalizeSession(StreamSession.STATUS_OK);
            return;
        }
        ByteBuffer b = s.preread;
        int n = c.io().recv(c, b);
        if (n == Rc.AGAIN) {
            if (!c.read.timerSet()) {
                loop.addTimer(c.read, s.cscf.proxyProtocolTimeout);
            }
            if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            }
            return;
        }
        if (n == Rc.ERROR || n == 0) {
            s.finalizeSession(StreamSession.STATUS_OK);
            return;
        }
        if (ProxyProtocolV2.starts(b)) {
            if (b.position() < ProxyProtocolV2.HEADER) {
                read(s);
                return;
            }
            int v2 = ProxyProtocolV2.read(s, b);
            if (v2 < 0) {
                reject(s);
                return;
            }
            begin(s, b, v2);
            return;
        }
        int end = headerEnd(b);
        if (end < 0) {
            if (b.position() < V1_MAX_HEADER && startsLikeHeader(b)) {
                read(s);
                return;
            }
            broken(s, b, b.position());
            return;
        }
        String line = text(b, 0, end - 2);
        if (!parse(s, line)) {
            broken(s, b, b.position());
            return;
        }
        begin(s, b, end);
    }

    /** The header ends at {@code end}: the session starts with what came after it as its first data. */
    private static void begin(Session s, ByteBuffer b, int end) {
        Connection c = s.c;
        c.loop().deleteTimer(c.read);
        b.limit(b.position()).position(end);
        ByteBuffer rest = b.slice();
        s.preread = ByteBuffer.allocateDirect((int) s.cscf.prereadBufferSize);
        s.preread.put(rest);
        s.addReceived(rest.position());
        c.read.handler = SessionHandler::resume;
        SessionHandler.initSession(s);
    }

    private static boolean startsLikeHeader(ByteBuffer b) {
        byte[] want = "PROXY ".getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < Math.min(b.position(), want.length); i++) {
            if (b.get(i) != want[i]) {
                return false;
            }
        }
        return true;
    }

    private static int headerEnd(ByteBuffer b) {
        for (int i = 1; i < Math.min(b.position(), V1_MAX_HEADER); i++) {
            if (b.get(i - 1) == '\r' && b.get(i) == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    private static String text(ByteBuffer b, int from, int to) {
        byte[] a = new byte[to - from];
        for (int i = 0; i < a.length; i++) {
            a[i] = b.get(from + i);
        }
        return new String(a, StandardCharsets.ISO_8859_1);
    }

    /** {@code PROXY TCP4|TCP6 src dst sport dport} or {@code PROXY UNKNOWN ...}. */
    private static boolean parse(Session s, String line) {
        String[] w = line.split(" ", -1);
        if (w.length < 2 || !w[0].equals("PROXY")) {
            return false;
        }
        if (w[1].equals("UNKNOWN")) {
            return true;
        }
        if (w.length != 6 || !w[1].equals("TCP4") && !w[1].equals("TCP6")) {
            return false;
        }
        try {
            int sport = Integer.parseInt(w[4]);
            int dport = Integer.parseInt(w[5]);
            if (sport < 1 || sport > 65535 || dport < 1 || dport > 65535) {
                return false;
            }
            s.proxyProtocol = new String[] {w[2], w[4], w[3], w[5]};
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** nginx 1.22 logs every byte it peeked, the line's end included. */
    private static void broken(Session s, ByteBuffer b, int len) {
        s.log(LogLevel.ERROR, 0, "broken header: \"" + text(b, 0, Math.min(len, b.position())) + "\"");
        reject(s);
    }

    /**
     * The session ends with 400 and the connection is reset: nginx only peeked at the header, so its close finds
     * the client's bytes unread and the kernel answers with a reset; Jinx read them, and asks for the reset with
     * {@code SO_LINGER} 0.
     */
    private static void reject(Session s) {
        Connection c = s.c;
        if (c.hasDescriptor()) {
            try {
                Sockets.setLinger(c.fd(), true, 0);
            } catch (NativeIoException e) {
                s.log(LogLevel.ALERT, e.errno(), "setsockopt(SO_LINGER) failed");
            }
        }
        s.finalizeSession(StreamSession.STATUS_BAD_REQUEST);
    }
}
