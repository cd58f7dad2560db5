package jinx.kernel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;

import jinx.kernel.os.SockAddr;

/**
 * An outbound connection being made to a peer: nginx's {@code ngx_peer_connection_t}
 * (src/event/ngx_event_connect.h). A balancer's {@link Source#get get} chooses the peer (its address and name),
 * {@link EventConnect#connectPeer} opens a non-blocking socket on a slot of the loop's connection table and
 * starts the connect, and {@link Source#free free} gives the peer back with what happened (a keep-alive cache
 * may take the connection instead of letting it close).
 *
 * <p>Addresses are JDK types ({@link InetSocketAddress} with a resolved address, or
 * {@link UnixDomainSocketAddress}) so that a module needs nothing of the kernel's OS bindings. One object serves
 * one request's tries, each {@link #connectPeer} one try; it belongs to the loop's thread. Added in SPI 1.3.
 */
public final class PeerConnection {

    /** {@link Source#free} state: the peer failed (nginx's {@code NGX_PEER_FAILED}). */
    public static final int FAILED = 0x04;
    /** {@link Source#free} state: the connection failed for the peer's sake, not counted (next_upstream off). */
    public static final int NEXT = 0x02;
    /** {@link Source#free} state: the peer kept its promise (nginx's {@code NGX_PEER_KEEPALIVE}). */
    public static final int KEEPALIVE = 0x01;

    /**
     * Where peers come from: nginx's {@code pc->get} and {@code pc->free} hooks, which balancers and the
     * keep-alive cache chain.
     */
    public interface Source {

        /**
         * Chooses a peer: sets {@link #address} and {@link #name}, or a cached {@link #connection}.
         *
         * @param pc the connection being made
         * @return {@link Rc#OK} to connect, {@link Rc#DONE} when a cached connection was set,
         *     {@link Rc#BUSY} when no peer is live
         */
        int get(PeerConnection pc);

        /**
         * Gives the peer back after a try.
         *
         * @param pc the connection; its {@link #connection} is still set when the source may keep it
         * @param state 0, {@link #FAILED}, {@link #NEXT}, with {@link #KEEPALIVE} when a response was read whole
         */
        void free(PeerConnection pc, int state);
    }

    /** The peer's address, set by {@link Source#get}. */
    public SocketAddress address;
    /** The peer's name as logs and {@code $upstream_addr} print it ({@code 127.0.0.1:8081}, {@code unix:/x}). */
    public String name;
    /** Tries left, set by the user of a balancer (the number of peers, bounded by {@code *_next_upstream_tries}). */
    public int tries;
    /** When the first try started (loop ms), for {@code *_next_upstream_timeout}. */
    public long start;
    /** The connection of the current try, or null. */
    public Connection connection;
    /** When the current try's connection was made (loop ms), for {@code keepalive_time}. */
    public long connectedAt;
    /** The connection came from a keep-alive cache: a failure before a byte was read is not the peer's fault. */
    public boolean cached;
    /** Set {@code SO_KEEPALIVE} on the socket ({@code proxy_socket_keepalive}). */
    public boolean soKeepalive;
    /**
     * The local address to bind before connecting ({@code proxy_bind}), or null; port 0 leaves the port to the
     * kernel at connect time ({@code IP_BIND_ADDRESS_NO_PORT}). Added in SPI 1.4.
     */
    public SocketAddress local;
    /**
     * A UDP socket instead of a TCP one (nginx's {@code pc->type = SOCK_DGRAM}, {@code ngx_udp_connect()}): connected
     * at once, its datagrams read with {@link SocketIo#recvDatagram} and sent with {@link SocketIo#send}. Added in
     * SPI 1.5.
     */
    public boolean datagram;
    /** Bind {@link #local} with {@code IP_TRANSPARENT}, a foreign address (needs root). Added in SPI 1.4. */
    public boolean transparent;
    /** The log the connection's events write to. */
    public ErrorLog log;
    /** Where peers come from. */
    public Source source;
    /** The balancer's per-request state (nginx's {@code pc->data}). */
    public Object data;
    /**
     * The number the outbound connection logs with ({@code *N}), or 0 for a number of its own: nginx's
     * {@code pc->log = c->log}, which makes an upstream's errors carry the client connection's number. Added in
     * SPI 1.4.
     */
    public long number;
    /**
     * What the outbound connection's error lines add ({@code while connecting to upstream, client: ...}) from the
     * first one on, a {@code connect()} that fails at once included; or null. Added in SPI 1.4.
     */
    public SocketIo.LogContext logContext;

    private SocketAddress encodedFor;
    private SockAddr encoded;

    /**
     * A peer connection with nothing chosen yet.
     */
    public PeerConnection() {
    }

    /** The address as the kernel encodes it, converted once per address. */
    SockAddr sockAddr() {
        SocketAddress a = address;
        if (a != encodedFor) {
            encoded = toSockAddr(a);
            encodedFor = a;
        }
        return encoded;
    }

    static SockAddr toSockAddr(SocketAddress a) {
        if (a instanceof InetSocketAddress in) {
            if (in.isUnresolved()) {
                throw new IllegalArgumentException("unresolved peer address " + in);
            }
            return SockAddr.inet(in.getAddress(), in.getPort());
        }
        if (a instanceof UnixDomainSocketAddress un) {
            return SockAddr.unix(un.getPath().toString());
        }
        throw new IllegalArgumentException("unsupported peer address " + a);
    }
}
