package jinx.http.internal.core;

import jinx.kernel.os.SockAddr;

/**
 * The address and parameters of one {@code listen} directive: nginx's {@code ngx_http_listen_opt_t}. Options that
 * set a socket property ({@code backlog=}, {@code rcvbuf=}, {@code sndbuf=}, {@code deferred}, {@code reuseport},
 * {@code so_keepalive=}, {@code ipv6only=}, {@code bind}) make the address {@link #set} and bound on its own.
 */
public final class ListenOpt {

    /** The address. */
    public final SockAddr sockaddr;
    /** The address as nginx prints it ({@code 127.0.0.1:8080}, {@code [::1]:80}, {@code unix:/tmp/x.sock}). */
    public final String addrText;
    /** The host was {@code *} or absent, or the wildcard address: all interfaces. */
    public boolean wildcard;
    /** Some socket option was given. */
    public boolean set;
    /** The address gets a socket of its own even when a wildcard address listens on the same port. */
    public boolean bind;
    /** {@code default_server} (or {@code default}). */
    public boolean defaultServer;
    /** {@code backlog=}; default 511. */
    public int backlog = 511;
    /** {@code rcvbuf=}, or -1. */
    public int rcvbuf = -1;
    /** {@code sndbuf=}, or -1. */
    public int sndbuf = -1;
    /** {@code ipv6only=}; default on. */
    public boolean ipv6only = true;
    /** {@code reuseport}. */
    public boolean reuseport;
    /** {@code deferred}. */
    public boolean deferredAccept;
    /** {@code so_keepalive=}: 0 unset, 1 on, 2 off. */
    public int soKeepalive;
    /** {@code so_keepalive=idle:intvl:cnt}: TCP_KEEPIDLE in seconds, 0 for the system's. */
    public long tcpKeepidle;
    /** TCP_KEEPINTVL in seconds, 0 for the system's. */
    public long tcpKeepintvl;
    /** TCP_KEEPCNT, 0 for the system's. */
    public int tcpKeepcnt;
    /** {@code proxy_protocol}: accepted and recorded; the PROXY protocol itself may come later. */
    public boolean proxyProtocol;
    /** What takes the connections over ({@code ssl}'s module), or null. */
    public jinx.http.spi.ConnectionTakeover takeover;
    /** The file of the directive. */
    public String file;
    /** The line of the directive. */
    public int line;

    /**
     * Options for an address.
     *
     * @param sockaddr the address
     */
    public ListenOpt(SockAddr sockaddr) {
        this.sockaddr = sockaddr;
        this.addrText = sockaddr.toString();
    }

    @Override
    public String toString() {
        return addrText;
    }
}
