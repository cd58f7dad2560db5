package jinx.kernel;

/**
 * A connection slot: nginx's {@code ngx_connection_t}. A loop builds {@code worker_connections} of them once,
 * each with its read and write event, and lends them out; a slot's {@link #fd()} is -1 while it is free. Its
 * fields are the loop thread's alone.
 */
public final class Connection {

    private final EventLoop loop;
    private final int slot;

    /** The read event. */
    public final Event read = new Event();
    /** The write event. */
    public final Event write = new Event();

    int fd = -1;

    /** The protocol's state for this connection (the HTTP connection or request). */
    public Object data;
    /** The listening socket it was accepted on, or null. */
    public Listening listening;
    /** The connection's number, {@code *N} in the log. */
    public long number;
    /** The log to write about this connection. */
    public ErrorLog log;
    /** The peer's address as nginx prints it ({@code 127.0.0.1:50000}), or null. */
    public String addrText;
    /** Requests served on this connection. */
    public int requests;
    /** Bytes sent. */
    public long sent;
    /** Close at the next chance: set by the loop when it reclaims an idle connection. */
    public boolean close;
    /** Waiting idle (between keep-alive requests). */
    public boolean idle;
    /** The connection's handlers have finished with it. */
    public boolean destroyed;
    /** A read or write timed out. */
    public boolean timedout;
    /** An I/O error happened. */
    public boolean error;

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
        addrText = null;
        requests = 0;
        sent = 0;
        close = false;
        idle = false;
        destroyed = false;
        timedout = false;
        error = false;
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
