package jinx.kernel;

import java.util.Objects;
import java.util.function.Consumer;

import jinx.kernel.os.SockAddr;

/**
 * A listening socket: nginx's {@code ngx_listening_t}. A protocol module (http, stream) adds one to the cycle
 * for every address it listens on, with its options and the handler that takes a new connection; the cycle
 * opens it in the master, or takes the old cycle's descriptor when the address is the same, so a reload loses
 * no connection waiting in the kernel's queue.
 */
public final class Listening {

    private final SockAddr sockaddr;
    private final String addrText;

    /** {@code backlog=}: the accept queue's length; nginx's default is 511. */
    public int backlog = 511;
    /** {@code rcvbuf=}, or -1 to leave it. */
    public int rcvbuf = -1;
    /** {@code sndbuf=}, or -1 to leave it. */
    public int sndbuf = -1;
    /** {@code reuseport}: one socket per worker, chosen by the kernel. */
    public boolean reuseport;
    /**
     * {@code udp}: a datagram socket ({@code SOCK_DGRAM}), bound and never {@code listen()}ed; the loop reads its
     * datagrams and gives each client address a session of its own ({@link DatagramIo}), nginx's
     * {@code ngx_event_recvmsg()}. Added in SPI 1.6.
     */
    public boolean datagram;
    /** {@code deferred}: TCP_DEFER_ACCEPT, wake only when data has arrived. */
    public boolean deferredAccept;
    /** {@code so_keepalive=on|off}: 1, 0, or -1 to leave it. */
    public int keepalive = -1;
    /** {@code ipv6only=on|off} for IPv6 addresses; nginx's default is on. */
    public boolean ipv6only = true;
    /** The worker a {@code reuseport} clone belongs to, or -1 for every worker. */
    public int worker = -1;
    /** What the protocol does with a newly accepted connection (nginx's {@code ls->handler}). */
    public Consumer<Connection> handler;
    /** The protocol's configuration for this address (http: the servers on it). */
    public Object servers;
    /** The log of this listening socket's connections. */
    public ErrorLog log;

    int fd = -1;
    boolean inherited;
    Connection connection;

    /**
     * A listening socket for an address.
     *
     * @param sockaddr the address
     */
    public Listening(SockAddr sockaddr) {
        this.sockaddr = Objects.requireNonNull(sockaddr, "sockaddr");
        this.addrText = sockaddr.toString();
    }

    /**
     * Returns the address.
     *
     * @return the address
     */
    public SockAddr sockaddr() {
        return sockaddr;
    }

    /**
     * Returns the address as nginx prints it ({@code 0.0.0.0:8080}).
     *
     * @return the text
     */
    public String addrText() {
        return addrText;
    }

    /**
     * Returns the descriptor, -1 while not open.
     *
     * @return the descriptor
     */
    public int fd() {
        return fd;
    }

    /**
     * Sets the descriptor: the kernel's cycle code opens or inherits it.
     *
     * @param descriptor the open socket
     * @param fromOldCycle whether it was taken over from the previous cycle
     */
    public void open(int descriptor, boolean fromOldCycle) {
        fd = descriptor;
        inherited = fromOldCycle;
    }

    /**
     * Tells whether the descriptor came from the previous cycle.
     *
     * @return true when inherited
     */
    public boolean inherited() {
        return inherited;
    }

    /**
     * Returns the connection slot the listening socket holds in this worker's loop, or null.
     *
     * @return the slot
     */
    public Connection connection() {
        return connection;
    }

    /**
     * Returns a copy for another worker's {@code reuseport} socket (nginx's {@code ngx_clone_listening()}): the
     * same address, options, handler and servers, not yet open.
     *
     * @param n the worker the clone belongs to
     * @return the clone
     */
    public Listening cloneFor(int n) {
        Listening c = new Listening(sockaddr);
        c.backlog = backlog;
        c.rcvbuf = rcvbuf;
        c.sndbuf = sndbuf;
        c.reuseport = reuseport;
        c.datagram = datagram;
        c.deferredAccept = deferredAccept;
        c.keepalive = keepalive;
        c.ipv6only = ipv6only;
        c.worker = n;
        c.handler = handler;
        c.servers = servers;
        c.log = log;
        return c;
    }

    @Override
    public String toString() {
        return addrText;
    }
}
