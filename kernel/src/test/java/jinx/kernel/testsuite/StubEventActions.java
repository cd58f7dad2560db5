package jinx.kernel.testsuite;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.spi.EventActions;

/**
 * A method table that registers nothing and reports the flags it was given: a loop for I/O tests that set the
 * event flags themselves ({@link ConnectionIoContract}).
 */
public final class StubEventActions implements EventActions {

    private final int flags;

    /**
     * A table reporting {@code flags}.
     *
     * @param flags the method's flags ({@link EventActions#USE_EPOLL_EVENT} and kin)
     */
    public StubEventActions(int flags) {
        this.flags = flags;
    }

    @Override
    public void init(EventLoop l) {
    }

    @Override
    public void done() {
    }

    @Override
    public void add(Event ev, int kind, int f) {
    }

    @Override
    public void del(Event ev, int kind, int f) {
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
