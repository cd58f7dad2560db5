package jinx.kernel;

/**
 * An event: nginx's {@code ngx_event_t}. A connection has a read and a write event; an event is also a timer and
 * an entry of a posted queue, through the node and links embedded in it, so setting a timer or posting an
 * event allocates nothing. Its fields are the loop thread's alone.
 */
public final class Event {

    /** What the event is about: the connection, usually. */
    public Object data;
    /** What to call when the event fires. */
    public EventHandler handler;
    /** The log to write about this event. */
    public ErrorLog log;

    /** This is a write event. */
    public boolean write;
    /** This is the read event of a listening socket. */
    public boolean accept;
    /** The event is registered with the event method. */
    public boolean active;
    /** The event is registered but disabled (methods that can disable). */
    public boolean disabled;
    /** Data can be read (room to write) now: set by the method, cleared when a read drains it. */
    public boolean ready;
    /** Registered for one notification only. */
    public boolean oneshot;
    /** An asynchronous operation finished. */
    public boolean complete;
    /** The peer closed its side. */
    public boolean eof;
    /** The socket has an error. */
    public boolean error;
    /** The handler is called because the event's timer expired. */
    public boolean timedout;
    /** A rate limit delays the event. */
    public boolean delayed;
    /** EOF seen with EPOLLRDHUP while data may still be unread. */
    public boolean pendingEof;
    /** The slot's connection was closed. */
    public boolean closed;
    /** A timer on this event does not keep a gracefully exiting worker alive. */
    public boolean cancelable;
    /**
     * The event of a process's own descriptor (the master's channel, the signalfd), not a client's: a graceful
     * exit neither waits for nor closes it (nginx's {@code ev->channel}).
     */
    public boolean channel;
    /** The stale-event filter bit, flipped on every lend of the slot. */
    public boolean instance;
    /**
     * How many bytes (or connections, for accept) are available: -1 unknown, 0 none; for a listening socket,
     * whether to accept more than one ({@code multi_accept}).
     */
    public int available;
    /** An index the event method may keep (poll's position in its array), -1 when none. */
    public int index = -1;
    /**
     * The event method read the socket ahead, in its wait ({@link jinx.kernel.spi.EventActions#preread}): the
     * next receive takes {@link #prereadCount} from {@link #prereadAddress} instead of calling {@code recv}.
     */
    public boolean preread;
    /** Bytes read ahead and not yet taken, 0 for the peer's end of file, or {@code -errno} of the read. */
    public int prereadCount;
    /** How many bytes the read ahead asked for: fewer came when the socket was drained. */
    public int prereadSize;
    /** Where the bytes read ahead are; valid until the loop's next wait. */
    public long prereadAddress;

    /* The timer node (nginx's ev->timer), keyed by expiry in wrapping 32-bit milliseconds. */
    int timerKey;
    boolean timerSet;
    Event timerLeft;
    Event timerRight;
    Event timerParent;
    boolean timerRed;

    /* The posted-queue links (nginx's ev->queue), and the queue the event is on, or null. */
    PostedQueue postedQueue;
    Event postedPrev;
    Event postedNext;

    /**
     * Returns the connection this event belongs to.
     *
     * @return {@code (Connection) data}
     */
    public Connection connection() {
        return (Connection) data;
    }

    /**
     * Tells whether a timer is set on this event.
     *
     * @return true while the event is in the timer tree
     */
    public boolean timerSet() {
        return timerSet;
    }

    /**
     * Tells whether the event waits in a posted queue.
     *
     * @return true while posted
     */
    public boolean posted() {
        return postedQueue != null;
    }

    /**
     * Returns the expiry time of the timer, in the loop's wrapping milliseconds.
     *
     * @return the key; meaningful only while {@link #timerSet()}
     */
    public int timerKey() {
        return timerKey;
    }

    /**
     * Clears every flag and link, keeping the instance bit flipped, as nginx's {@code ngx_get_connection()}
     * does with the events of a slot it lends.
     */
    void reset() {
        boolean flipped = !instance;
        data = null;
        handler = null;
        log = null;
        write = false;
        accept = false;
        active = false;
        disabled = false;
        ready = false;
        oneshot = false;
        complete = false;
        eof = false;
        error = false;
        timedout = false;
        delayed = false;
        pendingEof = false;
        closed = false;
        cancelable = false;
        channel = false;
        available = 0;
        index = -1;
        preread = false;
        prereadCount = 0;
        prereadSize = 0;
        prereadAddress = 0;
        timerKey = 0;
        timerSet = false;
        timerLeft = null;
        timerRight = null;
        timerParent = null;
        timerRed = false;
        postedQueue = null;
        postedPrev = null;
        postedNext = null;
        instance = flipped;
    }
}
