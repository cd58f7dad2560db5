package jinx.kernel;

import java.io.IOException;
import java.net.InetSocketAddress;

import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * Outbound connections: nginx's {@code ngx_event_connect_peer()} and the upstream's {@code test_connect}
 * (src/event/ngx_event_connect.c). A connection to a peer takes a slot from the loop's table, as an accepted one
 * does, so {@code worker_connections} bounds both; its socket is non-blocking and registered with the event
 * method before {@code connect()}, and the caller waits for the write event (with its own timeout, nginx's
 * {@code proxy_connect_timeout}) and then asks {@link #testConnect} how the connect ended. Added in SPI 1.3.
 *
 * <p>Thread contract: the loop's thread only.
 */
public final class EventConnect {

    /**
     * The errno a peer's timeout is logged with, read from the platform: nginx logs
     * {@code upstream timed out (110: Connection timed out)} with {@code NGX_ETIMEDOUT}.
     */
    public static final int ETIMEDOUT = Errors.ETIMEDOUT;

    private EventConnect() {
    }

    /**
     * Chooses a peer through {@code pc.source} and starts connecting to it.
     *
     * @param loop the loop whose slot the connection takes
     * @param pc the peer connection: its {@link PeerConnection#connection} is set unless the answer is
     *     {@link Rc#BUSY}, {@link Rc#DECLINED} or {@link Rc#ERROR}
     * @return {@link Rc#OK} (connected at once: the write event is ready), {@link Rc#AGAIN} (in progress: wait
     *     for the write event), {@link Rc#DONE} (a cached connection, ready to use), {@link Rc#BUSY} (no live
     *     peer), {@link Rc#DECLINED} (this peer failed at once; logged, the slot is closed: try the next one),
     *     {@link Rc#ERROR} (no slot or no socket; logged)
     */
    public static int connectPeer(EventLoop loop, PeerConnection pc) {
        int rc = pc.source.get(pc);
        if (rc != Rc.OK) {
            return rc;
        }
        pc.cached = false;
        ErrorLog log = pc.log != null ? pc.log : loop.log();
        SockAddr sa;
        try {
            sa = pc.sockAddr();
        } catch (IllegalArgumentException e) {
            log.log(LogLevel.ALERT, e.getMessage());
            return Rc.ERROR;
        }
        int fd;
        try {
            int type = pc.datagram ? Platform.SOCK_DGRAM : Platform.SOCK_STREAM;
            fd = Sockets.socket(sa.family(), type | Platform.SOCK_NONBLOCK, 0);
        } catch (NativeIoException e) {
            log.log(LogLevel.ALERT, e.getMessage() + " while connecting to " + pc.name);
            return Rc.ERROR;
        }
        Connection c = loop.getConnection(fd, log);
        if (c == null) {
            closeQuietly(fd, log);
            return Rc.ERROR;
        }
        c.number = pc.number != 0 ? pc.number : loop.nextConnectionNumber();
        c.data = pc.logContext;
        c.addrText(pc.name);
        pc.connectedAt = loop.wallMillis();
        pc.connection = c;
        if (pc.local != null && bindLocal(pc, c, fd, sa) != Rc.OK) {
            loop.closeConnection(c);
            pc.connection = null;
            return Rc.ERROR;
        }
        try {
            if (pc.soKeepalive && !pc.datagram) {
                Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_KEEPALIVE, 1);
            }
            register(loop, c, pc.datagram);
            rc = Sockets.connect(fd, sa);
        } catch (NativeIoException e) {
            failed(pc, c, e);
            return Rc.DECLINED;
        } catch (IOException e) {
            log.log(LogLevel.ALERT, e.getMessage());
            loop.closeConnection(c);
            pc.connection = null;
            return Rc.ERROR;
        }
        if (rc == Rc.AGAIN) {
            return Rc.AGAIN;
        }
        c.write.ready = true;
        return Rc.OK;
    }

    /**
     * Tells how a connect in progress ended, once the write (or read) event came: nginx's
     * {@code ngx_http_upstream_test_connect()}, which reads {@code SO_ERROR}. A failure is logged as
     * {@code connect() failed (111: Connection refused)} with the context the connection's {@code data} adds.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged, {@code c.error} set)
     */
    public static int testConnect(Connection c) {
        int err;
        try {
            err = Sockets.getsockopt(c.fd(), Platform.SOL_SOCKET, Platform.SO_ERROR);
        } catch (NativeIoException e) {
            err = e.errno();
        }
        if (err == 0) {
            return Rc.OK;
        }
        c.error = true;
        c.read.error = true;
        c.write.error = true;
        return SocketIo.connectionError(c, new NativeIoException("connect()", err, Errors.text(err)));
    }

    /**
     * nginx's {@code pc->local} part of {@code ngx_event_connect_peer()}: {@code IP_TRANSPARENT} when asked,
     * {@code IP_BIND_ADDRESS_NO_PORT} for a port-less address (the port is then chosen at connect, so many
     * connections from one address do not run out of ports at bind), then {@code bind()}; a failure is logged at
     * crit as nginx words it and fails the attempt.
     */
    private static int bindLocal(PeerConnection pc, Connection c, int fd, SockAddr peer) {
        InetSocketAddress local = pc.local instanceof InetSocketAddress in ? in : null;
        String name = local == null ? String.valueOf(pc.local) : local.getAddress().getHostAddress()
            + (local.getPort() != 0 ? ":" + local.getPort() : "");
        try {
            if (pc.transparent) {
                Sockets.setsockopt(fd, Platform.IPPROTO_IP, Platform.IP_TRANSPARENT, 1);
            }
            if (local != null && local.getPort() == 0 && Platform.IP_BIND_ADDRESS_NO_PORT != 0
                && peer.family() != Platform.AF_UNIX) {
                try {
                    Sockets.setsockopt(fd, Platform.IPPROTO_IP, Platform.IP_BIND_ADDRESS_NO_PORT, 1);
                } catch (NativeIoException e) {
                    if (e.errno() != Errors.EOPNOTSUPP && e.errno() != Errors.ENOPROTOOPT) {
                        SocketIo.log(c, LogLevel.ALERT, e.getMessage() + ", ignored");
                    }
                }
            }
            Sockets.bind(fd, PeerConnection.toSockAddr(pc.local));
            return Rc.OK;
        } catch (NativeIoException e) {
            String text = e.getMessage().startsWith("bind()") ? "bind(" + name + ") failed (" + e.errno() + ": "
                + Errors.text(e.errno()) + ")" : e.getMessage();
            SocketIo.log(c, LogLevel.CRIT, text);
            return Rc.ERROR;
        } catch (IllegalArgumentException e) {
            SocketIo.log(c, LogLevel.CRIT, "bind(" + name + ") failed: " + e.getMessage());
            return Rc.ERROR;
        }
    }

    /**
     * nginx adds the connection at once where the method can (epoll), and the events one by one elsewhere: a UDP
     * socket's write event is never waited for (a datagram is sent whole or dropped), and a level-triggered one
     * would report it writable on every turn.
     */
    private static void register(EventLoop loop, Connection c, boolean datagram) throws IOException {
        EventActions actions = loop.actions();
        if ((loop.methodFlags() & EventActions.USE_CLEAR_EVENT) != 0) {
            actions.addConnection(c);
            return;
        }
        actions.add(c.read, EventActions.READ_EVENT, EventActions.LEVEL_EVENT);
        if (datagram) {
            return;
        }
        actions.add(c.write, EventActions.WRITE_EVENT, EventActions.LEVEL_EVENT);
    }

    /** nginx's "connect() to ... failed" at the level its errno deserves, then the slot closed. */
    private static void failed(PeerConnection pc, Connection c, NativeIoException e) {
        int err = e.errno();
        LogLevel level = err == Errors.ECONNREFUSED || err == Errors.EAGAIN || err == Errors.ECONNRESET
            || err == Errors.ENETDOWN || err == Errors.ENETUNREACH || err == Errors.EHOSTDOWN
            || err == Errors.EHOSTUNREACH ? LogLevel.ERROR : LogLevel.CRIT;
        c.error = true;
        SocketIo.log(c, level, e.getMessage());
        c.loop().closeConnection(c);
        pc.connection = null;
    }

    private static void closeQuietly(int fd, ErrorLog log) {
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            log.log(LogLevel.ALERT, "close() socket " + fd + " failed (" + e.errno() + ": " + e.getMessage() + ")");
        }
    }
}
