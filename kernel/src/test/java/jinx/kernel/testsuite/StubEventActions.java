package jinx.kernel.testsuite;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.spi.EventActions;

/**
 * A method table that registers nothing and reports the flags it was given: a loop for I/O tests that set the
 * event flags themselves ({@link ConnectionIoContract}); one that marks an event active while it is added, for
 * code that checks whether its event is registered (the HTTP filters' and request body tests).
 */
public final class StubEventActions implements EventActions {

    private final int flags;
    private final boolean marksActive;

    /**
     * A table reporting {@code flags}.
     *
     * @param flags the method's flags ({@link EventActions#USE_EPOLL_EVENT} and kin)
     */
    public StubEventActions(int flags) {
        this(flags, false);
    }

    /**
     * A table reporting {@code flags} that, when {@code marksActive}, sets an event's {@code active} on add and
     * clears it on del, as a real method does.
     *
     * @param flags the method's flags
     * @param marksActive whether add and del mark the event
     */
    public StubEventActions(int flags, boolean marksActive) {
        this.flags = flags;
        this.marksActive = marksActive;
    }

    @Override
    public void init(EventLoop l) {
    }

    @Override
    public void done() {
    }

    @Override
    public void add(Event ev, int kind, int f) {
        if (marksActive) {
            ev.active = true;
        }
    }

    @Override
    public void del(Event ev, int kind, int f) {
        if (marksActive) {
            ev.active = false;
        }
    }

    @Override
    public void addConnection(Connection conn) {
    }

    @Override
    public void delConnection(Connection conn, int f) {
    }

    @Override
    public void notify(Runnable handler) {
    }

    @Override
    public void processEvents(long timer, int f) {
    }

    @Override
    public int flags() {
        return flags;
    }
}
