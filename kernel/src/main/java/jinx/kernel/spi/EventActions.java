package jinx.kernel.spi;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;

/**
 * An event method's table: nginx's {@code ngx_event_actions_t}. One instance serves one {@link EventLoop}.
 *
 * <p>Thread contract: everything except {@link #notify(Runnable)} is called on the loop's thread only.
 */
public interface EventActions {

    /** Register for reading. */
    int READ_EVENT = 1;
    /** Register for writing. */
    int WRITE_EVENT = 2;

    /** Flag for {@link #add}: level-triggered (listening sockets, channels). */
    int LEVEL_EVENT = 0;
    /** Flag for {@link #add}: edge-triggered, nginx's {@code NGX_CLEAR_EVENT}. */
    int CLEAR_EVENT = 0x1;
    /** Flag for {@link #add}: one of several loops watching a listening socket, nginx's EPOLLEXCLUSIVE use. */
    int EXCLUSIVE_EVENT = 0x2;
    /** Flag for {@link #del}: the descriptor is about to be closed, so the kernel forgets it anyway. */
    int CLOSE_EVENT = 0x4;
    /** Flag for {@link #del}: disable only (methods that can). */
    int DISABLE_EVENT = 0x8;

    /** Flag for {@link #processEvents}: refresh the cached time after waiting. */
    int UPDATE_TIME = 0x1;
    /** Flag for {@link #processEvents}: post events instead of calling their handlers (accept mutex held). */
    int POST_EVENTS = 0x2;

    /** {@link #flags()}: the method is edge-triggered (nginx's {@code NGX_USE_CLEAR_EVENT}). */
    int USE_CLEAR_EVENT = 0x1;
    /** {@link #flags()}: the method is level-triggered. */
    int USE_LEVEL_EVENT = 0x2;
    /** {@link #flags()}: read until EAGAIN (or a short read with RDHUP), nginx's {@code NGX_USE_GREEDY_EVENT}. */
    int USE_GREEDY_EVENT = 0x4;
    /** {@link #flags()}: epoll, with EPOLLRDHUP: a short read means drained. */
    int USE_EPOLL_EVENT = 0x8;
    /** {@link #flags()}: the method indexes by descriptor (poll), so connections need no registration data. */
    int USE_FD_EVENT = 0x10;

    /**
     * Prepares the method for a loop: nginx's {@code init}.
     *
     * @param loop the loop this instance serves
     * @throws java.io.IOException when the method cannot start (the message names the call)
     */
    void init(EventLoop loop) throws java.io.IOException;

    /**
     * Releases what {@link #init} made: nginx's {@code done}.
     */
    void done();

    /**
     * Registers interest in one direction of an event's connection.
     *
     * @param ev the event (its {@code write} says which direction)
     * @param kind {@link #READ_EVENT} or {@link #WRITE_EVENT}
     * @param flags {@link #LEVEL_EVENT}, {@link #CLEAR_EVENT}, {@link #EXCLUSIVE_EVENT}
     * @throws java.io.IOException naming the call that failed
     */
    void add(Event ev, int kind, int flags) throws java.io.IOException;

    /**
     * Removes interest in one direction.
     *
     * @param ev the event
     * @param kind {@link #READ_EVENT} or {@link #WRITE_EVENT}
     * @param flags {@link #CLOSE_EVENT}, {@link #DISABLE_EVENT}
     * @throws java.io.IOException naming the call that failed
     */
    void del(Event ev, int kind, int flags) throws java.io.IOException;

    /**
     * Enables a disabled event (same as {@link #add} for methods that cannot disable).
     *
     * @param ev the event
     * @param kind the direction
     * @param flags as for {@link #add}
     * @throws java.io.IOException naming the call that failed
     */
    default void enable(Event ev, int kind, int flags) throws java.io.IOException {
        add(ev, kind, flags);
    }

    /**
     * Disables an event (same as {@link #del} for methods that cannot disable).
     *
     * @param ev the event
     * @param kind the direction
     * @param flags as for {@link #del}
     * @throws java.io.IOException naming the call that failed
     */
    default void disable(Event ev, int kind, int flags) throws java.io.IOException {
        del(ev, kind, flags);
    }

    /**
     * Registers both directions of a connection, edge-triggered where the method can.
     *
     * @param c the connection
     * @throws java.io.IOException naming the call that failed
     */
    void addConnection(Connection c) throws java.io.IOException;

    /**
     * Removes both directions of a connection.
     *
     * @param c the connection
     * @param flags {@link #CLOSE_EVENT} when the descriptor is about to be closed
     * @throws java.io.IOException naming the call that failed
     */
    void delConnection(Connection c, int flags) throws java.io.IOException;

    /**
     * Asks the method to read a connection's socket ahead, once: when its next wait returns the connection
     * readable, the method receives at most {@code size} bytes in the same native call and hands them to the read
     * handler in the read event ({@link Event#preread}), where the loop's {@link jinx.kernel.SocketIo#recv} takes
     * them. For a connection whose handler reads as soon as it is readable, with the loop's socket I/O, such as a
     * keep-alive connection waiting for its next request: each read ahead saves a call into native code. Methods
     * that cannot (the default) ignore it; closing or removing the connection cancels it.
     *
     * @param c the connection, registered with {@link #addConnection}
     * @param size the most to read, at least 1
     */
    default void preread(Connection c, int size) {
    }

    /**
     * Wakes the loop from any thread and runs {@code handler} on the loop's thread.
     *
     * @param handler what to run
     */
    void notify(Runnable handler);

    /**
     * Waits at most {@code timer} ms (-1: until something happens) and handles what became ready: sets
     * {@code ready}, then calls each event's handler or, with {@link #POST_EVENTS}, posts it. Updates the loop's
     * cached time after the wait when {@code flags} has {@link #UPDATE_TIME}. The only place a loop sleeps.
     *
     * @param timer the longest wait in ms, or -1
     * @param flags {@link #UPDATE_TIME}, {@link #POST_EVENTS}
     * @throws java.io.IOException when waiting itself failed
     */
    void processEvents(long timer, int flags) throws java.io.IOException;

    /**
     * Returns what kind of method this is: {@link #USE_CLEAR_EVENT}, {@link #USE_LEVEL_EVENT} ...
     *
     * @return the flags
     */
    int flags();
}
