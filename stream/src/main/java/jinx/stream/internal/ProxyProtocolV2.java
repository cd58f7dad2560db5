package jinx.stream.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

import jinx.kernel.LogLevel;
import jinx.kernel.os.SockAddr;

/**
 * The PROXY protocol's version 2 (binary) header on {@code listen ... proxy_protocol}: nginx's
 * {@code ngx_proxy_protocol_v2_read()} (src/core/ngx_proxy_protocol.c, 1.22). The 16-byte header (the signature,
 * version and command, family and transport, the length of what follows), then the addresses: a {@code PROXY}
 * command over TCP on IPv4 or IPv6 gives the session its {@code $proxy_protocol_*} addresses; another command,
 * transport or family is skipped whole (the connection's own addresses stand), as are the TLVs after the
 * addresses. A version other than 2 and a length beyond what arrived are nginx's errors, and the session ends with
 * 400.
 */
final class ProxyProtocolV2 {

    /** The signature: {@code \r\n\r\n\0\r\nQUIT\n}. */
    private static final byte[] SIGNATURE = {13, 10, 13, 10, 0, 13, 10, 81, 85, 73, 84, 10};
    /** {@code sizeof(ngx_proxy_protocol_header_t)}. */
    static final int HEADER = 16;
    /** nginx's {@code NGX_PROXY_PROTOCOL_MAX_HEADER}. */
    static final int MAX_HEADER = 4096;
    private static final int INET_ADDRS = 12;
    private static final int INET6_ADDRS = 36;

    private ProxyProtocolV2() {
    }

    /**
     * Tells whether the bytes read so far ({@code [0, position)}) begin a version 2 header: the signature, or a part
     * of it when fewer bytes came.
     */
    static boolean starts(ByteBuffer b) {
        int n = Math.min(b.position(), SIGNATURE.length);
        for (int i = 0; i < n; i++) {
            if (b.get(i) != SIGNATURE[i]) {
                return false;
            }
        }
        return n > 0;
    }

    /**
     * Reads the header from {@code [0, position)}, which holds at least {@link #HEADER} bytes beginning with the
     * signature.
     *
     * @return where the client's data begins, or -1 (logged as nginx logs it)
     */
    static int read(Session s, ByteBuffer b) {
        int version = (b.get(12) & 0xff) >> 4;
        if (version != 2) {
            s.log(LogLevel.ERROR, 0, "unknown PROXY protocol version: " + version);
            return -1;
        }
        int len = (b.get(14) & 0xff) << 8 | b.get(15) & 0xff;
        // nginx peeks at most NGX_PROXY_PROTOCOL_MAX_HEADER bytes: a longer header is too large whatever came
        if (b.position() - HEADER < len || HEADER + len > MAX_HEADER) {
            s.log(LogLevel.ERROR, 0, "header is too large");
            return -1;
        }
        int end = HEADER + len;
        int command = b.get(12) & 0x0f;
        int transport = b.get(13) & 0x0f;
        int family = (b.get(13) & 0xff) >> 4;
        // only PROXY over STREAM is read: a LOCAL command (a health check) or another transport is skipped
        if (command != 1 || transport != 1 || family != 1 && family != 2) {
            return end;
        }
        int size = family == 1 ? 4 : 16;
        if (len < (family == 1 ? INET_ADDRS : INET6_ADDRS)) {
            return -1;
        }
        int at = HEADER;
        String src = address(b, at, size);
        String dst = address(b, at + size, size);
        int sport = (b.get(at + 2 * size) & 0xff) << 8 | b.get(at + 2 * size + 1) & 0xff;
        int dport = (b.get(at + 2 * size + 2) & 0xff) << 8 | b.get(at + 2 * size + 3) & 0xff;
        s.proxyProtocol = new String[] {src, Integer.toString(sport), dst, Integer.toString(dport)};
        return end;
    }

    /** An address as nginx prints it without a port ({@code ngx_sock_ntop()}: {@code ::1}, not the long form). */
    private static String address(ByteBuffer b, int at, int size) {
        byte[] a = new byte[size];
        for (int i = 0; i < size; i++) {
            a[i] = b.get(at + i);
        }
        try {
            return Session.addrWithoutPort(SockAddr.inet(InetAddress.getByAddress(a), 0).toString());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address of " + size + " bytes", e);
        }
    }
}
