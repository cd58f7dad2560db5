package jinx.stream.internal;

import jinx.kernel.os.SockAddr;

/**
 * One address of a {@code listen} directive with its parameters: nginx's {@code ngx_stream_listen_t}.
 */
final class ListenOpt {

    final SockAddr sockaddr;
    final String addrText;
    StreamCoreSrvConf server;
    boolean wildcard;
    boolean bind;
    boolean udp;
    int backlog = 511;
    int rcvbuf = -1;
    int sndbuf = -1;
    boolean ipv6only = true;
    boolean reuseport;
    /** 0 unset, 1 on, 2 off. */
    int soKeepalive;
    boolean proxyProtocol;
    /** The parameters modules added that this {@code listen} names ({@code ssl}). */
    java.util.Set<String> parameters = java.util.Set.of();

    ListenOpt(SockAddr sockaddr) {
        this.sockaddr = sockaddr;
        this.addrText = sockaddr.toString();
    }

    ListenOpt copy(SockAddr sa) {
        ListenOpt o = new ListenOpt(sa);
        o.server = server;
        o.wildcard = !sa.isUnix() && sa.isWildcard();
        o.bind = bind;
        o.udp = udp;
        o.backlog = backlog;
        o.rcvbuf = rcvbuf;
        o.sndbuf = sndbuf;
        o.ipv6only = ipv6only;
        o.reuseport = reuseport;
        o.soKeepalive = soKeepalive;
        o.proxyProtocol = proxyProtocol;
        o.parameters = parameters;
        return o;
    }
}
