package jinx.kernel;

/**
 * The timers of one loop: nginx's {@code src/event/ngx_event_timer.c} and {@code ngx_event_timer.h}. A timer is
 * an event in the {@link TimerTree}, keyed by its expiry in the cached monotonic milliseconds; when it expires the
 * event's own handler is called with {@code timedout} set, so one handler tells "data arrived" from "time ran
 * out". The nearest timer is the timeout of the event method's wait ({@link #find()}). Its state is the loop
 * thread's alone.
 */
final class EventTimers {

    /**
     * A timer moved by less than this many ms stays where it is, nginx's {@code NGX_TIMER_LAZY_DELAY}: fast
     * connections reset their timers constantly, and this spares a delete and an insert each time, at the cost of
     * a timeout up to 300 ms late or early.
     */
    static final int LAZY_DELAY = 300;

    /** What {@link #find()} returns when no timer is set, nginx's {@code NGX_TIMER_INFINITE}: wait forever. */
    static final long INFINITE = -1;

    /**
     * The longest timer, in ms (about 12.4 days): keys are compared by the sign of their difference, which holds
     * while every key in the tree is within 2^31 ms of every other; capping timers at 2^30 ms keeps that true
     * with room for timers that expired but were not yet run.
     */
    static final long MAX_TIMER = 1L << 30;

    private final CachedTime time;
    private final TimerTree tree = new TimerTree();

    /**
     * Timers keyed on {@code time}'s {@link CachedTime#msec()}.
     *
     * @param time the loop's cached time
     */
    EventTimers(CachedTime time) {
        this.time = time;
    }

    /**
     * Returns the cached time the timers are keyed on.
     *
     * @return the time
     */
    CachedTime time() {
        return time;
    }

    /**
     * Sets {@code ev}'s timer to expire {@code ms} from the cached now, or moves it: nginx's
     * {@code ngx_event_add_timer()}. A set timer whose expiry would move by less than {@link #LAZY_DELAY} is left
     * alone.
     *
     * @param ev the event
     * @param ms the delay, 0 to {@link #MAX_TIMER} ms; a negative delay counts as 0, a longer one as
     *     {@link #MAX_TIMER}
     */
    void add(Event ev, long ms) {
        long timer = Math.max(0, Math.min(ms, MAX_TIMER));
        int key = time.msec() + (int) timer;

        if (ev.timerSet) {
            // nginx: ngx_abs(diff) < NGX_TIMER_LAZY_DELAY, written without abs, whose Integer.MIN_VALUE is negative
            int diff = key - ev.timerKey;
            if (diff > -LAZY_DELAY && diff < LAZY_DELAY) {
                if (debug(ev)) {
                    log(ev, "event timer: " + fd(ev) + ", old: " + unsigned(ev.timerKey) + ", new: "
                        + unsigned(key));
                }
                return;
            }
            delete(ev);
        }

        ev.timerKey = key;
        if (debug(ev)) {
            log(ev, "event timer add: " + fd(ev) + ": " + timer + ":" + unsigned(key));
        }
        tree.insert(ev);
        ev.timerSet = true;
    }

    /**
     * Removes {@code ev}'s timer: nginx's {@code ngx_event_del_timer()}. Unlike nginx, which leaves the check to
     * its callers ({@code if (ev->timer_set)}), does nothing when no timer is set, since deleting an event that is
     * not in the tree would corrupt it.
     *
     * @param ev the event
     */
    void delete(Event ev) {
        if (!ev.timerSet) {
            return;
        }
        if (debug(ev)) {
            log(ev, "event timer del: " + fd(ev) + ": " + unsigned(ev.timerKey));
        }
        tree.delete(ev);
        ev.timerSet = false;
    }

    /**
     * Returns how long the event method may wait: the ms until the nearest timer, 0 when it is due, or
     * {@link #INFINITE} when no timer is set: nginx's {@code ngx_event_find_timer()}.
     *
     * @return the timeout in ms, or {@link #INFINITE}
     */
    long find() {
        Event min = tree.min();
        if (min == null) {
            return INFINITE;
        }
        int timer = min.timerKey - time.msec();
        return timer > 0 ? timer : 0;
    }

    /**
     * Runs every timer due at the cached now, earliest first: each is removed, marked {@code timedout} and handed
     * to its event's handler, which may set timers again: nginx's {@code ngx_event_expire_timers()}. A handler
     * that sets its own timer to 0 ms is called again in the same run, as in nginx.
     */
    void expire() {
        for (;;) {
            Event ev = tree.min();
            if (ev == null) {
                return;
            }
            // node->key > ngx_current_msec, as a signed difference
            if (ev.timerKey - time.msec() > 0) {
                return;
            }
            if (debug(ev)) {
                log(ev, "event timer del: " + fd(ev) + ": " + unsigned(ev.timerKey));
            }
            tree.delete(ev);
            ev.timerSet = false;
            ev.timedout = true;
            ev.handler.handle(ev);
        }
    }

    /**
     * Tells whether every timer left is {@code cancelable}, so that a gracefully exiting worker may go: nginx's
     * {@code ngx_event_no_timers_left()}.
     *
     * @return true when no timer, or only cancelable ones, are set
     */
    boolean noTimersLeft() {
        for (Event ev = tree.min(); ev != null; ev = tree.next(ev)) {
            if (!ev.cancelable) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns the number of timers set.
     *
     * @return the count
     */
    int size() {
        return tree.size();
    }

    private static boolean debug(Event ev) {
        return ev.log != null && ev.log.isEnabled(LogLevel.DEBUG);
    }

    /* ngx_event_ident(ev->data): the connection's descriptor. */
    private static int fd(Event ev) {
        return ev.data instanceof Connection c ? c.fd() : -1;
    }

    private static void log(Event ev, String message) {
        long number = ev.data instanceof Connection c ? c.number : 0;
        ev.log.log(LogLevel.DEBUG, number, message);
    }

    /* nginx prints keys with %M, an unsigned ngx_msec_t. */
    private static String unsigned(int key) {
        return Integer.toUnsignedString(key);
    }
}
