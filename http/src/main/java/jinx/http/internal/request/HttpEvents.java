package jinx.http.internal.request;

import java.io.IOException;

import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.EventActions;

/**
 * nginx's {@code ngx_handle_read_event()} and {@code ngx_handle_write_event()} (src/event/ngx_event.c): register
 * interest in a direction when it is not ready, edge-triggered where the method can; on a level-triggered method
 * also remove it again when the event is ready (or the connection is about to close), so the loop does not spin.
 * A connection without a descriptor (an in-memory one) is never registered: its I/O posts its events.
 */
public final class HttpEvents {

    private HttpEvents() {
    }

    /**
     * nginx's {@code ngx_handle_read_event(rev, flags)}.
     *
     * @param rev the read event
     * @param flags 0, or {@link EventActions#CLOSE_EVENT}
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged at alert)
     */
    public static int handleRead(Event rev, int flags) {
        return handle(rev, EventActions.READ_EVENT, flags);
    }

    /**
     * nginx's {@code ngx_handle_write_event(wev, 0)}.
     *
     * @param wev the write event
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged at alert)
     */
    public static int handleWrite(Event wev) {
        return handle(wev, EventActions.WRITE_EVENT, 0);
    }

    private static int handle(Event ev, int kind, int flags) {
        if (!ev.connection().hasDescriptor()) {
            return Rc.OK;
        }
        EventLoop loop = ev.connection().loop();
        int method = loop.methodFlags();
        try {
            if ((method & EventActions.USE_CLEAR_EVENT) != 0) {
                if (!ev.active && !ev.ready) {
                    loop.actions().add(ev, kind, EventActions.CLEAR_EVENT);
                }
                return Rc.OK;
            }
            if (!ev.active && !ev.ready) {
                loop.actions().add(ev, kind, EventActions.LEVEL_EVENT);
                return Rc.OK;
            }
            if (ev.active && (ev.ready || (flags & EventActions.CLOSE_EVENT) != 0)) {
                loop.actions().del(ev, kind, EventActions.LEVEL_EVENT | flags);
            }
            return Rc.OK;
        } catch (IOException e) {
            ev.connection().log.log(LogLevel.ALERT, ev.connection().number, e.getMessage());
            return Rc.ERROR;
        }
    }

    /**
     * Removes interest in a direction on a level-triggered method, where a ready but unwanted event would fire
     * on every turn (nginx's {@code ngx_del_event()} under {@code NGX_USE_LEVEL_EVENT}).
     *
     * @param ev the event
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged at alert)
     */
    public static int delLevel(Event ev) {
        EventLoop loop = ev.connection().loop();
        if ((loop.methodFlags() & EventActions.USE_LEVEL_EVENT) == 0 || !ev.active
            || !ev.connection().hasDescriptor()) {
            return Rc.OK;
        }
        try {
            loop.actions().del(ev, ev.write ? EventActions.WRITE_EVENT : EventActions.READ_EVENT, 0);
            return Rc.OK;
        } catch (IOException e) {
            ev.connection().log.log(LogLevel.ALERT, ev.connection().number, e.getMessage());
            return Rc.ERROR;
        }
    }
}
