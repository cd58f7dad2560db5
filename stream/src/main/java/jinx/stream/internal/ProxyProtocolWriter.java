package jinx.stream.internal;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;

/**
 * {@code proxy_protocol on}: the version 1 header sent to the upstream before the client's bytes, nginx's
 * {@code ngx_proxy_protocol_write()}: {@code PROXY TCP4 client server client-port server-port}, or
 * {@code PROXY UNKNOWN} for a client that is not on IP.
 */
final class ProxyProtocolWriter {

    private ProxyProtocolWriter() {
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
