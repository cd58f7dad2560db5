package jinx.kernel;

import java.io.IOException;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * One worker's event loop: nginx's {@code ngx_process_events_and_timers()} with everything it owns — the event
 * method's table, the timer tree, the three posted queues, the cached time and the connection slots. One thread
 * runs it; nothing here is static, so several loops live side by side in one JVM (tests, an in-process server).
 *
 * <p>Thread contract: every method runs on the loop's thread, except {@link #notify(Runnable)}.
 */
public final class EventLoop {

    private final Cycle cycle;
    private final ErrorLog log;
    private final EventActions actions;
    private final int methodFlags;
    private final long timerResolution;
    private final CachedTime time;
    private final EventTimers timers;
    private final PostedQueue posted = new PostedQueue();
    private final PostedQueue postedAccept = new PostedQueue();
    private final PostedQueue postedNext = new PostedQueue();
    private final ConnectionSlots slots;
    private final EventAccept accept;
    private SocketIo socketIo;
    private long connectionCounter;
    private long staleEvents;
    private boolean exiting;

    /**
     * Builds a loop: the method's table initialised, {@code connections} slots made.
     *
     * @param cycle the cycle the loop serves
     * @param actions the event method's table, fresh
     * @param connections {@code worker_connections}
     * @param timerResolution {@code timer_resolution} in ms, 0 for none
     * @param acceptSettings how this loop accepts
     * @param log the log
     * @throws IOException when the event method cannot start
     */
    public EventLoop(Cycle cycle, EventActions actions, int connections, long timerResolution,
                     AcceptSettings acceptSettings, ErrorLog log) throws IOException {
        this.cycle = cycle;
        this.log = log;
        this.actions = actions;
        this.timerResolution = timerResolution;
        this.time = new CachedTime();
        this.timers = new EventTimers(time);
        this.slots = new ConnectionSlots(this, connections);
        this.accept = new EventAccept(this, acceptSettings);
        try {
            actions.init(this);
        } catch (IOException | RuntimeException e) {
            accept.close();
            throw e;
        }
        this.methodFlags = actions.flags();
    }

    /**
     * How a loop accepts connections: nginx's {@code multi_accept}, {@code accept_mutex},
     * {@code accept_mutex_delay}, and whether several workers share the listening sockets.
     *
     * @param multiAccept accept every pending connection at once
     * @param acceptMutex the lock taken to accept, or null when accept_mutex is off or there is one worker
     * @param acceptMutexDelay how long a loop that missed the lock waits, in ms
     * @param exclusive register shared listening sockets exclusively (several workers, epoll)
     */
    public record AcceptSettings(boolean multiAccept, AcceptMutex acceptMutex, long acceptMutexDelay,
                                 boolean exclusive) {

        /** One worker: no mutex, no exclusive registration, one connection per wake-up. */
        public static final AcceptSettings SINGLE = new AcceptSettings(false, null, 500, false);
    }

    /**
     * The lock that lets one worker at a time accept (nginx's {@code ngx_accept_mutex}): in shared memory across
     * workers.
     */
    public interface AcceptMutex {

        /**
         * Tries to take the lock without waiting.
         *
         * @return true when taken
         */
        boolean tryLock();

        /** Releases the lock. */
        void unlock();
    }

    /**
     * Returns the cycle.
     *
     * @return the cycle
     */
    public Cycle cycle() {
        return cycle;
    }

    /**
     * Returns the loop's log.
     *
     * @return the log
     */
    public ErrorLog log() {
        return log;
    }

    /**
     * Returns the event method's table.
     *
     * @return the table
     */
    public EventActions actions() {
        return actions;
    }

    /**
     * Returns the event method's flags ({@link EventActions#USE_CLEAR_EVENT} ...).
     *
     * @return the flags
     */
    public int methodFlags() {
        return methodFlags;
    }

    /* ---- time ---- */

    /**
     * Returns the cached monotonic time in wrapping 32-bit milliseconds, refreshed once per turn.
     *
     * @return the time
     */
    public int currentMsec() {
        return time.msec();
    }

    /**
     * Returns the cached wall-clock time in ms since the epoch.
     *
     * @return the time
     */
    public long wallMillis() {
        return time.wallMillis();
    }

    /**
     * Returns the cached time formatted for the error log ({@code 2026/11/30 15:38:18}).
     *
     * @return the time
     */
    public String logTime() {
        return time.logTime();
    }

    /**
     * Returns the cached time formatted for HTTP ({@code Mon, 30 Nov 2026 15:38:18 GMT}).
     *
     * @return the time
     */
    public String httpTime() {
        return time.httpTime();
    }

    /**
     * Refreshes the cached time: event methods call this right after they wait.
     */
    public void updateTime() {
        time.update();
    }

    /* ---- timers ---- */

    /**
     * Sets (or moves) a timer on an event; a move of less than 300 ms is skipped (nginx's lazy delay).
     *
     * @param ev the event
     * @param ms from now
     */
    public void addTimer(Event ev, long ms) {
        timers.add(ev, ms);
    }

    /**
     * Removes an event's timer, if set.
     *
     * @param ev the event
     */
    public void deleteTimer(Event ev) {
        if (ev.timerSet) {
            timers.delete(ev);
        }
    }

    /**
     * Tells whether only cancelable timers are left: a gracefully exiting worker may exit.
     *
     * @return true when no timer keeps the loop alive
     */
    public boolean noTimersLeft() {
        return timers.noTimersLeft();
    }

    /**
     * Returns the number of timers set.
     *
     * @return the count
     */
    public int timerCount() {
        return timers.size();
    }

    /**
     * Returns the loop's socket I/O (its native scratch is the loop's own), made on first use.
     *
     * @return the socket I/O
     */
    public SocketIo socketIo() {
        if (socketIo == null) {
            socketIo = new SocketIo(methodFlags);
        }
        return socketIo;
    }

    void releaseSocketIo() {
        if (socketIo != null) {
            socketIo.close();
            socketIo = null;
        }
    }

    /* ---- (re)arming events, as the method needs ---- */

    /**
     * Makes sure the read event will be reported when data arrives, the way the method needs it (nginx's
     * {@code ngx_handle_read_event()}): an edge-triggered method registers once; a level-triggered one
     * registers while the event is not ready and unregisters once it is, or the loop would spin. Nothing is
     * registered for a connection without a descriptor, whose events its own I/O posts.
     *
     * @param rev the read event
     * @param flags {@link EventActions#CLOSE_EVENT} when the connection is about to close
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged)
     */
    public int handleReadEvent(Event rev, int flags) {
        return handle(rev, EventActions.READ_EVENT, flags);
    }

    /**
     * Makes sure the write event will be reported when the socket can take more (nginx's
     * {@code ngx_handle_write_event()}).
     *
     * @param wev the write event
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged)
     */
    public int handleWriteEvent(Event wev) {
        return handle(wev, EventActions.WRITE_EVENT, 0);
    }

    private int handle(Event ev, int kind, int flags) {
        if (ev.data instanceof Connection c && c.fd == Connection.NO_DESCRIPTOR) {
            // an in-memory connection's events are never registered: it posts them itself (MemoryConnection)
            return Rc.OK;
        }
        try {
            if ((methodFlags & EventActions.USE_CLEAR_EVENT) != 0) {
                if (!ev.active && !ev.ready) {
                    actions.add(ev, kind, EventActions.CLEAR_EVENT);
                }
                return Rc.OK;
            }
            if (!ev.active && !ev.ready) {
                actions.add(ev, kind, EventActions.LEVEL_EVENT);
                return Rc.OK;
            }
            boolean closing = (flags & EventActions.CLOSE_EVENT) != 0;
            if (ev.active && (ev.ready || closing)) {
                actions.del(ev, kind, EventActions.LEVEL_EVENT | flags);
            }
            return Rc.OK;
        } catch (IOException e) {
            log.alert(e.getMessage());
            return Rc.ERROR;
        }
    }

    /* ---- posted events ---- */

    /**
     * Posts an event: its handler runs at the end of this turn.
     *
     * @param ev the event
     */
    public void post(Event ev) {
        debugPost(ev);
        posted.post(ev);
    }

    /**
     * Posts an event to the next turn, which then does not sleep (nginx's {@code ngx_posted_next_events}).
     *
     * @param ev the event
     */
    public void postNext(Event ev) {
        debugPost(ev);
        postedNext.post(ev);
    }

    /**
     * Posts a listening socket's event to the accept queue, run right after the wait (event methods, with
     * {@link EventActions#POST_EVENTS}).
     *
     * @param ev the event
     */
    public void postAccept(Event ev) {
        debugPost(ev);
        postedAccept.post(ev);
    }

    /** nginx's "post event %p" and "update posted event %p"; the slot and direction stand for the pointer. */
    private static void debugPost(Event ev) {
        ErrorLog l = ev.log;
        if (l == null || !l.isEnabled(LogLevel.DEBUG)) {
            return;
        }
        String what = ev.data instanceof Connection c ? c.slot() + (ev.write ? "w" : "r") : "?";
        l.log(LogLevel.DEBUG, (ev.posted() ? "update posted event " : "post event ") + what);
    }

    /**
     * Removes an event from whichever posted queue holds it.
     *
     * @param ev the event
     */
    public void deletePosted(Event ev) {
        PostedQueue.unlink(ev);
    }

    /* ---- connections ---- */

    /**
     * Lends a free slot to descriptor {@code fd}, closing idle connections first when free slots run short.
     *
     * @param fd the descriptor, or {@link Connection#NO_DESCRIPTOR} for a connection that is no socket
     * @param connectionLog the connection's log
     * @return the connection, or null (logged: {@code N worker_connections are not enough})
     */
    public Connection getConnection(int fd, ErrorLog connectionLog) {
        return slots.get(fd, connectionLog);
    }

    /**
     * Returns a slot to the free list without touching its descriptor (nginx's {@code ngx_free_connection()}).
     *
     * @param c the connection
     */
    public void freeConnection(Connection c) {
        slots.free(c);
    }

    /**
     * Closes a connection: its timers and posted events removed, the event method told, the slot freed, the
     * descriptor closed (nginx's {@code ngx_close_connection()}). A connection without a descriptor only has its
     * slot freed: the event method never knew it.
     *
     * @param c the connection
     */
    public void closeConnection(Connection c) {
        if (c.fd == -1) {
            log.alert("connection already closed");
            return;
        }
        c.releaseIo();
        deleteTimer(c.read);
        deleteTimer(c.write);
        if (c.fd == Connection.NO_DESCRIPTOR) {
            c.read.active = false;
            c.write.active = false;
        } else {
            try {
                actions.delConnection(c, EventActions.CLOSE_EVENT);
            } catch (IOException e) {
                log.alert(e.getMessage());
            }
        }
        PostedQueue.unlink(c.read);
        PostedQueue.unlink(c.write);
        c.read.closed = true;
        c.write.closed = true;
        slots.reusable(c, false);
        int fd = c.fd;
        c.fd = -1;
        slots.free(c);
        if (fd == Connection.NO_DESCRIPTOR) {
            return;
        }
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            log.alert("close() socket " + fd + " failed (" + e.errno() + ": " + e.getMessage() + ")");
        }
    }

    /**
     * Marks a connection as one the loop may close to admit a new one (idle keep-alive), or not.
     *
     * @param c the connection
     * @param reusable whether it may be reclaimed
     */
    public void reusableConnection(Connection c, boolean reusable) {
        slots.reusable(c, reusable);
    }

    /**
     * Returns the slot with index {@code slot}: event methods find connections this way.
     *
     * @param slot the index
     * @return the slot
     */
    public Connection connection(int slot) {
        return slots.slot(slot);
    }

    /**
     * Returns {@code worker_connections}.
     *
     * @return the number of slots
     */
    public int connectionCount() {
        return slots.size();
    }

    /**
     * Returns the number of free slots.
     *
     * @return the count
     */
    public int freeConnectionCount() {
        return slots.freeCount();
    }

    /**
     * Returns the number of reusable (idle) connections.
     *
     * @return the count
     */
    public int reusableConnectionCount() {
        return slots.reusableCount();
    }

    /**
     * Returns the next connection number ({@code *N} in the log).
     *
     * @return the number
     */
    public long nextConnectionNumber() {
        return ++connectionCounter;
    }

    /**
     * Counts an event skipped as stale: its slot was closed, or closed and lent again, earlier in the same batch.
     */
    public void staleEvent() {
        staleEvents++;
    }

    /**
     * Returns how many stale events were skipped.
     *
     * @return the count
     */
    public long staleEvents() {
        return staleEvents;
    }

    /* ---- listening sockets ---- */

    /**
     * Takes a slot for a listening socket and registers it as nginx's {@code ngx_event_process_init()} does:
     * level-triggered; exclusively when several workers share it on epoll; not at all while an accept mutex
     * decides who listens.
     *
     * @param ls the open listening socket
     * @throws IOException when registration fails, or no slot is free
     */
    public void listen(Listening ls) throws IOException {
        accept.listen(ls);
    }

    /**
     * Stops accepting on every listening socket until {@link #resumeAccepting()}: the loop turns for a warm-up
     * while the other workers take the clients.
     */
    public void pauseAccepting() {
        accept.pause();
    }

    /** Accepts again after {@link #pauseAccepting()}. */
    public void resumeAccepting() {
        accept.resume();
    }

    /* ---- the loop ---- */

    /**
     * Wakes the loop from any thread and runs {@code handler} on it.
     *
     * @param handler what to run
     */
    public void notify(Runnable handler) {
        actions.notify(handler);
    }

    /**
     * One turn, in nginx's eight steps: find the nearest timer; the accept mutex; the next-turn queue; wait and
     * handle events; the posted accepts; release the mutex; expire timers; the posted events.
     *
     * @throws IOException when waiting itself failed
     */
    public void processEventsAndTimers() throws IOException {
        long timer;
        int flags;
        if (timerResolution > 0) {
            timer = timerResolution;
            flags = 0;
        } else {
            timer = timers.find();
            flags = EventActions.UPDATE_TIME;
        }
        if (accept.usesMutex() && !accept.paused()) {
            timer = accept.trylock(timer);
            if (accept.mutexHeld()) {
                flags |= EventActions.POST_EVENTS;
            }
        }
        if (!postedNext.isEmpty()) {
            posted.takeAll(postedNext, true);
            timer = 0;
        }
        int before = time.msec();
        actions.processEvents(timer, flags);
        if (log.isEnabled(LogLevel.DEBUG)) {
            log.log(LogLevel.DEBUG, "timer delta: " + (time.msec() - before));
        }
        if (timerResolution > 0) {
            resolutionTick();
        }
        processPosted(postedAccept);
        accept.unlock();
        timers.expire();
        processPosted(posted);
    }

    /**
     * With timer_resolution the cached time moves only when that much time has passed (nginx's SIGALRM). Measured
     * from the cached time itself, on its own wrapping millisecond scale: every step is then at least
     * timer_resolution, and no starting value can stall the clock.
     */
    private void resolutionTick() {
        int now = (int) Math.floorDiv(System.nanoTime(), 1_000_000L);
        if (now - time.msec() >= timerResolution) {
            time.update();
        }
    }

    private static void processPosted(PostedQueue queue) {
        for (Event ev = queue.first(); ev != null; ev = queue.first()) {
            queue.remove(ev);
            ev.handler.handle(ev);
        }
    }

    /* ---- graceful exit ---- */

    /**
     * Tells whether the process is exiting gracefully (nginx's {@code ngx_exiting}): keep-alive is refused and the
     * loop ends once no connection and no non-cancelable timer is left.
     *
     * @return whether it is exiting
     */
    public boolean exiting() {
        return exiting;
    }

    /**
     * Starts a graceful exit, as nginx's worker on QUIT: marks the loop exiting, takes the listening sockets out
     * of the loop (the caller closes them) and closes the idle connections ({@link #closeIdleConnections()}).
     */
    public void startExiting() {
        exiting = true;
        for (int i = 0; i < slots.size(); i++) {
            Connection c = slots.slot(i);
            if (c.fd != -1 && c.listening != null && c.listening.connection == c) {
                releaseListening(c);
            }
        }
        closeIdleConnections();
    }

    /**
     * nginx's {@code ngx_close_idle_connections()}: every idle connection (between keep-alive requests) is told
     * to close and its read handler runs. As nginx, a new connection still waiting for its first request is not
     * idle: its request may be on the way (a graceful stop or a reload would lose it), so it is served (with
     * {@code Connection: close}) or ends by its {@code client_header_timeout} or {@code worker_shutdown_timeout}.
     */
    public void closeIdleConnections() {
        for (int i = 0; i < slots.size(); i++) {
            Connection c = slots.slot(i);
            if (c.fd != -1 && c.idle && c.read.handler != null) {
                c.close = true;
                c.read.handler.handle(c.read);
            }
        }
    }

    /**
     * Closes every connection still open (nginx's {@code worker_shutdown_timeout} handler): each is marked
     * {@code close} and {@code error} and its read handler runs.
     */
    public void closeAllConnections() {
        for (int i = 0; i < slots.size(); i++) {
            Connection c = slots.slot(i);
            if (c.fd != -1 && (c.listening == null || c.listening.connection != c) && c.read.handler != null
                && !c.read.channel) {
                c.close = true;
                c.error = true;
                c.read.handler.handle(c.read);
            }
        }
    }

    /**
     * Returns how many connections other than listening sockets and the process's own channels hold a slot.
     *
     * @return the count
     */
    public int activeConnections() {
        int n = 0;
        for (int i = 0; i < slots.size(); i++) {
            Connection c = slots.slot(i);
            if (c.fd != -1 && (c.listening == null || c.listening.connection != c) && !c.read.channel) {
                n++;
            }
        }
        return n;
    }

    /**
     * Releases the event method and closes every connection still open; listening sockets leave the loop but
     * stay open (the cycle owns them).
     */
    public void done() {
        for (int i = 0; i < slots.size(); i++) {
            Connection c = slots.slot(i);
            if (c.fd == -1) {
                continue;
            }
            if (c.listening != null && c.listening.connection == c) {
                releaseListening(c);
                continue;
            }
            closeConnection(c);
        }
        actions.done();
        accept.close();
        releaseSocketIo();
    }

    private void releaseListening(Connection c) {
        deleteTimer(c.read);
        try {
            actions.delConnection(c, 0);
        } catch (IOException e) {
            log.alert(e.getMessage());
        }
        c.listening.connection = null;
        c.fd = -1;
        slots.free(c);
    }
}
