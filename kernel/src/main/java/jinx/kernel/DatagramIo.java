package jinx.kernel;

import java.nio.ByteBuffer;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Sockets;

/**
 * The I/O of a UDP session on a listening datagram socket ({@link Listening#datagram}): nginx's
 * {@code ngx_udp_shared_recv()}, {@code ngx_udp_send()} and {@code ngx_udp_send_chain()} for a connection that
 * shares the listening socket ({@code c->shared}). The loop reads the listening socket's datagrams and gives each
 * client address a session: a slot lent with {@link Connection#NO_DESCRIPTOR} (so {@code worker_connections} bounds
 * the sessions, the event method never sees it and closing it closes no descriptor) whose I/O is this object.
 *
 * <p>A datagram is readable only while the loop hands it over: for a new client during the listening socket's
 * {@link Listening#handler} (the first datagram, nginx's {@code c->buffer}), for a known one during the session's
 * read handler, called with {@code read.ready} set. {@link #recv} takes it whole (cut to the buffer), any other read
 * answers {@link Rc#AGAIN}; a datagram the handler does not read is dropped, as nginx drops it. {@link #send} sends
 * one datagram to the client from the listening socket; {@link #sendChain} sends the chain's memory buffers as one.
 * Closing the connection, or {@link #detach}, takes the session out of the table: the client's next datagram opens a
 * new session. Added in SPI 1.6.
 *
 * <p>Thread contract: the loop's thread only.
 */
public final class DatagramIo implements ConnectionIo {

    private final DatagramListener listener;
    final DatagramListener.Key key;
    /** The client's {@code struct sockaddr}, as {@code recvfrom()} gave it. */
    private final byte[] peer;
    /** The session's slot. */
    final Connection connection;
    /** The datagram handed over: its address and length in the listener's buffer, -1 when none. */
    long pendingAddress;
    int pendingLength = -1;
    private boolean attached = true;

    DatagramIo(DatagramListener listener, DatagramListener.Key key, byte[] peer, Connection connection) {
        this.listener = listener;
        this.connection = connection;
        this.key = key;
        this.peer = peer;
    }

    /**
     * Tells whether a connection is a UDP session of a listening datagram socket.
     *
     * @param c the connection
     * @return true when its I/O is a {@code DatagramIo}
     */
    public static boolean isDatagram(Connection c) {
        return c.io() instanceof DatagramIo;
    }

    /**
     * Takes the session out of its listening socket's table, so that the client's next datagram opens a new session
     * while this one finishes (nginx's {@code ngx_delete_udp_connection()}, which {@code proxy_requests} calls).
     * Idempotent; the connection keeps sending to its client.
     *
     * @param c the session's connection
     */
    public void detach(Connection c) {
        if (attached) {
            attached = false;
            listener.remove(this);
        }
    }

    /**
     * Copies the datagram handed over into {@code buf}'s remaining space (cut to it), once: nginx's
     * {@code ngx_udp_shared_recv()}.
     *
     * @param c the connection
     * @param buf a direct buffer with room
     * @return the datagram's length as copied, or {@link Rc#AGAIN} ({@code read.ready} cleared) when none waits
     */
    @Override
    public int recv(Connection c, ByteBuffer buf) {
        int len = pendingLength;
        if (len < 0) {
            c.read.ready = false;
            return Rc.AGAIN;
        }
        int n = Math.min(len, buf.remaining());
        NativeMemory.copy(pendingAddress, NativeMemory.address(buf) + buf.position(), n);
        buf.position(buf.position() + n);
        pendingLength = -1;
        c.read.ready = false;
        return n;
    }

    /**
     * Sends {@code buf}'s remaining bytes to the client as one datagram: nginx's {@code ngx_udp_send()}. Counts
     * {@link Connection#sent}.
     *
     * @param c the connection
     * @param buf a direct buffer
     * @return bytes sent, {@link Rc#AGAIN} (the socket's buffer is full: the datagram is not sent) or
     *     {@link Rc#ERROR} ({@code write.error} set, logged)
     */
    @Override
    public int send(Connection c, ByteBuffer buf) {
        int size = buf.remaining();
        int n = sendto(c, NativeMemory.address(buf) + buf.position(), size);
        if (n >= 0) {
            buf.position(buf.position() + n);
        }
        return n;
    }

    private int sendto(Connection c, long address, int size) {
        int fd = c.listening.fd();
        int n;
        try {
            long sa = listener.peerScratch(peer);
            n = Sockets.sendto(fd, address, size, sa, peer.length, listener.msgScratch());
        } catch (NativeIoException e) {
            c.write.error = true;
            return SocketIo.connectionError(c, e);
        }
        if (n == Rc.AGAIN) {
            return Rc.AGAIN;
        }
        if (n != size) {
            // nginx's ngx_udp_send(): a datagram is sent whole or it is an error
            SocketIo.log(c, LogLevel.CRIT, "send() incomplete");
            c.write.error = true;
            return Rc.ERROR;
        }
        c.sent += n;
        return n;
    }

    /**
     * Sends the chain's memory buffers as one datagram (nginx's {@code ngx_udp_unix_send_chain()} gathers up to a
     * flush): consumed whole when sent. A file buffer cannot be sent on a datagram socket.
     *
     * @param c the connection
     * @param in the chain
     * @param limit ignored: a datagram is not cut
     * @return null when sent, the chain when the socket would block, or {@link #CHAIN_ERROR} (logged)
     */
    @Override
    public BufChain sendChain(Connection c, BufChain in, long limit) {
        int total = 0;
        long scratch = listener.sendScratch();
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.isSpecial()) {
                continue;
            }
            if (b.inFile || b.mem == null || !b.mem.isDirect()) {
                SocketIo.log(c, LogLevel.ALERT, "bad buf in output chain of a datagram");
                return CHAIN_ERROR;
            }
            int n = b.mem.remaining();
            if (total + n > DatagramListener.MAX_DATAGRAM) {
                SocketIo.log(c, LogLevel.ALERT, "datagram too large");
                return CHAIN_ERROR;
            }
            NativeMemory.copy(NativeMemory.address(b.mem) + b.mem.position(), scratch + total, n);
            total += n;
        }
        int rc = sendto(c, scratch, total);
        if (rc == Rc.ERROR) {
            return CHAIN_ERROR;
        }
        if (rc == Rc.AGAIN) {
            return in;
        }
        for (BufChain cl = in; cl != null; cl = cl.next) {
            if (!cl.buf.isSpecial()) {
                cl.buf.mem.position(cl.buf.mem.limit());
            }
        }
        return null;
    }

    /**
     * A datagram has no end of output of its own: nothing to do.
     *
     * @param c the connection
     * @return {@link Rc#OK}
     */
    @Override
    public int shutdownWrite(Connection c) {
        return Rc.OK;
    }

    /** The connection closes: the session leaves the table. */
    @Override
    public void release(Connection c) {
        detach(c);
    }
}
