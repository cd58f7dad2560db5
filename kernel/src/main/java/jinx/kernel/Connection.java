package jinx.kernel;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;

/**
 * A connection slot: nginx's {@code ngx_connection_t}. A loop builds {@code worker_connections} of them once,
 * each with its read and write event, and lends them out; a slot's {@link #fd()} is -1 while it is free. Its
 * fields are the loop thread's alone.
 *
 * <p>A slot is lent to a socket's descriptor, or to {@link #NO_DESCRIPTOR} for a connection whose I/O is not a
 * socket's (a {@link MemoryConnection}): its {@link #io()} says how it reads and writes, and the loop neither
 * registers its events with the event method nor closes a descriptor for it.
 */
public final class Connection {

    /**
     * The descriptor of a connection in use that has none (an in-memory connection). Negative, so that a system
     * call made with it fails ({@code EBADF}) instead of reaching someone else's file, and not -1, which marks a
     * free slot.
     */
    public static final int NO_DESCRIPTOR = -2;

    private final EventLoop loop;
    private final int slot;

    /** The read event. */
    public final Event read = new Event();
    /** The write event. */
    public final Event write = new Event();

    int fd = -1;
    private ConnectionIo io;

    /** The protocol's state for this connection (the HTTP connection or request). */
    public Object data;
    /** The listening socket it was accepted on, or null. */
    public Listening listening;
    /** The connection's number, {@code *N} in the log. */
    public long number;
    /** The log to write about this connection. */
    public ErrorLog log;
    /** The peer's address, its text made when first asked for ({@link #addrText()}). */
    private final SockAddr.Peer peer = new SockAddr.Peer();
    /** Requests served on this connection. */
    public int requests;
    /** Bytes sent. */
    public long sent;
    /** Close at the next chance: set by the loop when it reclaims an idle connection. */
    public boolean close;
    /** Waiting idle (between keep-alive requests). */
    public boolean idle;
    /**
     * Returns the peer's address as nginx prints it ({@code 127.0.0.1:50000}, {@code unix:}), made on the first
     * call: accepting a connection makes no text.
     *
     * @return the address, or null
     */
    public String addrText() {
        return peer.text();
    }

    /**
     * Sets the peer's address text (a connection made without a socket address).
     *
     * @param text the text, or null
     */
    public void addrText(String text) {
        peer.text(text);
    }

    /**
     * Sets the peer's address from the native {@code struct sockaddr} {@code accept4()} filled in.
     *
     * @param sockaddr the address
     * @param length its length
     */
    public void peer(long sockaddr, int length) {
        peer.read(sockaddr, length);
    }

    /**
     * Tells whether the peer is a UNIX-domain socket, without making an inet peer's text.
     *
     * @return true for {@code unix:}
     */
    public boolean unixPeer() {
        return peer.isUnix();
    }

    /** The connection's handlers have finished with it. */
    public boolean destroyed;
    /** A read or write timed out. */
    public boolean timedout;
    /** An I/O error happened. */
    public boolean error;
    /**
     * A reset by the peer ({@code ECONNRESET}) fails a call without being logged: nginx's
     * {@code c->log_error = NGX_ERROR_IGNORE_ECONNRESET}, set around a read of an idle keep-alive connection.
     */
    public boolean ignoreReset;

    /**
     * A connection of a worker's warm-up ({@link jinx.kernel.spi.WarmUpExchange}): its protocol writes no access
     * log, counts nothing a status page shows, and runs no handler with effects outside the server.
     */
    public boolean warmUp;

    boolean reusable;
    Connection nextFree;
    Connection reusablePrev;
    Connection reusableNext;

    Connection(EventLoop loop, int slot) {
        this.loop = loop;
        this.slot = slot;
        read.data = this;
        write.data = this;
        write.write = true;
        read.closed = true;
        write.closed = true;
        read.instance = true;
        write.instance = true;
    }

    /**
     * Returns the loop that owns this slot.
     *
     * @return the loop
     */
    public EventLoop loop() {
        return loop;
    }

    /**
     * Returns the slot's index in its loop.
     *
     * @return the index, from 0
     */
    public int slot() {
        return slot;
    }

    /**
     * Returns the descriptor, -1 while the slot is free. For event methods and the kernel's I/O.
     *
     * @return the descriptor
     */
    public int fd() {
        return fd;
    }

    /**
     * Tells whether the connection has a descriptor: false for a free slot and for a connection lent with
     * {@link #NO_DESCRIPTOR}, whose events are never registered with the event method and on which no socket
     * option or other system call applies.
     *
     * @return true for a socket
     */
    public boolean hasDescriptor() {
        return fd >= 0;
    }

    /**
     * Returns how the connection reads and writes (nginx's {@code c->recv}, {@code c->send},
     * {@code c->send_chain}): the one {@link #io(ConnectionIo)} set, or else the loop's {@link SocketIo}.
     *
     * @return the connection's I/O
     */
    public ConnectionIo io() {
        ConnectionIo i = io;
        return i != null ? i : loop.socketIo();
    }

    /**
     * Sets how the connection reads and writes, until the slot is lent again.
     *
     * @param connectionIo the I/O, or null for the loop's {@link SocketIo}
     */
    public void io(ConnectionIo connectionIo) {
        io = connectionIo;
    }

    /**
     * Tells whether {@code connectionIo} was set on this slot by {@link #io(ConnectionIo)} and the slot was not
     * lent again since.
     *
     * @param connectionIo the I/O
     * @return true when it is still the slot's own
     */
    boolean ownedBy(ConnectionIo connectionIo) {
        return io == connectionIo;
    }

    /** The loop closes the connection: the I/O set on the slot frees what it holds ({@link ConnectionIo#release}). */
    void releaseIo() {
        ConnectionIo own = io;
        if (own != null) {
            io = null;
            own.release(this);
        }
    }

    /**
     * Returns the connection's local address: its listening socket's when that is not a wildcard, else the
     * socket's own ({@code getsockname()}), asked on every call: nginx's {@code ngx_connection_local_sockaddr()},
     * which a protocol module needs for {@code $server_addr} and {@code $server_port} without the OS layer.
     * Added in SPI 1.4.
     *
     * @return the address, or null for a connection without a socket and a wildcard (or no) listening socket
     * @throws NativeIoException {@code getsockname() failed (...)}
     */
    public SockAddr localSockaddr() throws NativeIoException {
        if (listening != null && !listening.sockaddr().isWildcard()) {
            return listening.sockaddr();
        }
        if (!hasDescriptor()) {
            return null;
        }
        return Sockets.getsockname(fd);
    }

    /**
     * Tells whether the loop may close this connection to admit a new one when slots run short.
     *
     * @return true when reusable
     */
    public boolean reusable() {
        return reusable;
    }

    /**
     * Closes the connection and returns its slot: nginx's {@code ngx_close_connection()}.
     */
    public void close() {
        loop.closeConnection(this);
    }

    void lend(int descriptor, ErrorLog connectionLog) {
        fd = descriptor;
        data = null;
        listening = null;
        number = 0;
        log = connectionLog;
        peer.text(null);
        requests = 0;
        sent = 0;
        close = false;
        idle = false;
        destroyed = false;
        timedout = false;
        error = false;
        ignoreReset = false;
        warmUp = false;
        io = null;
        reusable = false;
        nextFree = null;
        read.reset();
        write.reset();
        read.data = this;
        write.data = this;
        write.write = true;
        read.log = connectionLog;
        write.log = connectionLog;
    }
}
