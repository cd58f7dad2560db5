package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Connection;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;

/**
 * {@code proxy_protocol on}: the version 1 header sent to the upstream before the client's bytes (and the preread
 * data after it), nginx's
 * {@code ngx_proxy_protocol_write()}: {@code PROXY TCP4 client server client-port server-port}, or
 * {@code PROXY UNKNOWN} for a client that is not on IP.
 */
final class ProxyProtocolWriter {

    private ProxyProtocolWriter() {
    }

    /**
     * What goes to the upstream before the client's bytes: the PROXY header (with {@code proxy_protocol on}) and
     * the preread data, or null for nothing.
     */
    static ByteBuffer prefix(Session s, boolean proxyProtocol) {
        ByteBuffer pre = s.preread;
        boolean hasPre = pre != null && pre.position() > 0;
        String header = proxyProtocol ? v1(s) : null;
        if (!hasPre && header == null) {
            return null;
        }
        if (header == null) {
            // the preread data as it is, a view: it stays unchanged until the session ends
            return pre.duplicate().flip();
        }
        byte[] h = header == null ? new byte[0] : header.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer prefix = ByteBuffer.allocateDirect(h.length + (hasPre ? pre.position() : 0)).put(h);
        if (hasPre) {
            prefix.put(pre.duplicate().flip());
        }
        return prefix.flip();
    }

    /**
     * The PROXY header alone, for a connection that sends it before TLS.
     *
     * @param s the session
     * @return the header, or null when the addresses cannot be printed
     */
    static ByteBuffer prefixHeaderOnly(Session s) {
        String header = v1(s);
        if (header == null) {
            return null;
        }
        byte[] h = header.getBytes(StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocateDirect(h.length).put(h).flip();
    }

    /** A connection's local address as nginx prints it, or null when it cannot be read. */
    static String localText(Connection u) {
        try {
            SockAddr sa = u.localSockaddr();
            return sa == null ? null : sa.toString();
        } catch (NativeIoException e) {
            return null;
        }
    }

    static String v1(Session s) {
        SockAddr local;
        try {
            local = s.c.localSockaddr();
        } catch (NativeIoException e) {
            local = null;
        }
        String client = s.c.addrText();
        if (local == null || local.isUnix() || client == null || client.startsWith("unix:")) {
            return "PROXY UNKNOWN\r\n";
        }
        boolean v6 = client.startsWith("[");
        return "PROXY " + (v6 ? "TCP6 " : "TCP4 ") + s.remoteAddr() + " " + Session.addrWithoutPort(local.toString())
            + " " + s.remotePort() + " " + local.port() + "\r\n";
    }
}
