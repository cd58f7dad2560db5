package jinx.kernel;

/**
 * A queue of posted events, nginx's {@code ngx_posted_events} and kin: an intrusive doubly linked list through
 * the events' own links, so posting allocates nothing. An event is on one queue at most.
 */
final class PostedQueue {

    private Event head;
    private Event tail;

    boolean isEmpty() {
        return head == null;
    }

    /** Appends {@code ev} unless it is posted already (nginx's "update posted event"). */
    void post(Event ev) {
        if (ev.postedQueue != null) {
            return;
        }
        ev.postedQueue = this;
        ev.postedNext = null;
        ev.postedPrev = tail;
        if (tail == null) {
            head = ev;
        } else {
            tail.postedNext = ev;
        }
        tail = ev;
    }

    /** Removes {@code ev} from whichever queue it is on. */
    static void unlink(Event ev) {
        if (ev.postedQueue != null) {
            ev.postedQueue.remove(ev);
        }
    }

    /** Removes {@code ev}, which must be on this queue. */
    void remove(Event ev) {
        if (ev.postedPrev == null) {
            head = ev.postedNext;
        } else {
            ev.postedPrev.postedNext = ev.postedNext;
        }
        if (ev.postedNext == null) {
            tail = ev.postedPrev;
        } else {
            ev.postedNext.postedPrev = ev.postedPrev;
        }
        ev.postedPrev = null;
        ev.postedNext = null;
        ev.postedQueue = null;
    }

    Event first() {
        return head;
    }

    /** Moves every event of {@code other} to the end of this queue, in order. */
    void takeAll(PostedQueue other, boolean setReady) {
        for (Event ev = other.first(); ev != null; ev = other.first()) {
            other.remove(ev);
            if (setReady) {
                ev.ready = true;
            }
            post(ev);
        }
    }
}
