package jinx.event.epoll;

import java.io.IOException;
import java.util.Locale;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * The epoll method's table for one loop: nginx's {@code ngx_epoll_module.c} ({@code ngx_epoll_init},
 * {@code ngx_epoll_add_event}, {@code ngx_epoll_del_event}, {@code ngx_epoll_add_connection},
 * {@code ngx_epoll_del_connection}, {@code ngx_epoll_notify}, {@code ngx_epoll_process_events},
 * {@code ngx_epoll_done}).
 *
 * <p>One registration per descriptor carries both directions; its {@code data.u64} is the connection's slot index
 * shifted left by one, or'ed with the read event's instance bit (nginx stores the connection's address or'ed with
 * the bit in {@code data.ptr}). An event whose slot was closed, or closed and lent again, earlier in the same batch
 * is skipped as stale and counted ({@link EventLoop#staleEvent()}).
 *
 * <p>{@link #notify(Runnable)} goes through an eventfd registered with the same epoll instance
 * ({@link EpollNotify}).
 *
 * <p>Thread contract: everything but {@link #notify(Runnable)} runs on the loop's thread. The hot path
 * ({@link #processEvents}, {@link #add}, {@link #del}, {@link #addConnection}) allocates nothing: the event array
 * and the {@code epoll_ctl} argument are preallocated native memory, and debug text is built only when the log
 * takes debug.
 */
public final class EpollEventActions implements EventActions {

    private static final int EPOLLIN = Platform.EPOLLIN;
    private static final int EPOLLOUT = Platform.EPOLLOUT;
    private static final int EPOLLRDHUP = Platform.EPOLLRDHUP;
    private static final int EPOLLET = Platform.EPOLLET;
    private static final int EPOLLERR = Platform.EPOLLERR;
    private static final int EPOLLHUP = Platform.EPOLLHUP;
    private static final int EPOLLEXCLUSIVE = Platform.EPOLLEXCLUSIVE;
    private static final int CTL_ADD = Platform.EPOLL_CTL_ADD;
    private static final int CTL_MOD = Platform.EPOLL_CTL_MOD;
    private static final int CTL_DEL = Platform.EPOLL_CTL_DEL;

    /** nginx's {@code NGX_READ_EVENT} on epoll. */
    private static final int READ_EVENTS = EPOLLIN | EPOLLRDHUP;
    /** What {@link #addConnection} registers, as nginx's {@code ngx_epoll_add_connection()}. */
    private static final int CONNECTION_EVENTS = EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP;

    private final int nevents;
    private final EpollNotify notifier = new EpollNotify();

    private EventLoop loop;
    private NativeMemory memory;
    private EpollEventArray eventList;
    private EpollEventArray ctlEvent;
    private int ep = -1;
    /** The reads ahead, made by the first {@link #preread}; null until then, and without libjinxio. */
    private EpollPreread reads;

    /**
     * A table whose {@code epoll_wait} returns at most {@code nevents} events ({@code epoll_events}).
     *
     * @param nevents the size of the event array, at least 1
     */
    public EpollEventActions(int nevents) {
        if (nevents < 1) {
            throw new IllegalArgumentException("epoll_events " + nevents);
        }
        this.nevents = nevents;
    }

    /**
     * Creates the epoll instance ({@code epoll_create1(EPOLL_CLOEXEC)}), the event array of {@code epoll_events}
     * entries, and the notify eventfd, registered: nginx's {@code ngx_epoll_init()} and
     * {@code ngx_epoll_notify_init()}. On failure everything made so far is released.
     */
    @Override
    public void init(EventLoop eventLoop) throws IOException {
        if (loop != null) {
            throw new IllegalStateException("epoll: init twice");
        }
        loop = eventLoop;
        memory = new NativeMemory();
        try {
            eventList = new EpollEventArray(memory, nevents);
            ctlEvent = new EpollEventArray(memory, 1);
            ep = EpollSyscalls.create1(Platform.EPOLL_CLOEXEC);
            notifier.open(ep, ctlEvent, memory.allocate(8), eventLoop.log());
        } catch (IOException | RuntimeException e) {
            done();
            throw e;
        }
    }

    /**
     * Closes the epoll descriptor and the eventfd and frees the native memory: nginx's {@code ngx_epoll_done()}.
     * Idempotent. Runnables still queued are dropped.
     */
    @Override
    public void done() {
        notifier.close();
        if (ep != -1) {
            try {
                Syscalls.close(ep);
            } catch (NativeIoException e) {
                loop.log().alert("epoll close() failed (" + e.errno() + ": " + Errors.text(e.errno()) + ")");
            }
            ep = -1;
        }
        if (memory != null) {
            memory.close();
        }
    }

    /**
     * Registers one direction, merging it with the other one's registration: nginx's
     * {@code ngx_epoll_add_event()}. {@link #CLEAR_EVENT} is {@code EPOLLET}; {@link #EXCLUSIVE_EVENT} is
     * {@code EPOLLEXCLUSIVE}, and drops {@code EPOLLRDHUP}, which the kernel refuses with it.
     */
    @Override
    public void add(Event ev, int kind, int flags) throws IOException {
        Connection c = ev.connection();
        int events;
        Event e;
        int prev;
        if (kind == READ_EVENT) {
            e = c.write;
            prev = EPOLLOUT;
            events = READ_EVENTS;
        } else {
            e = c.read;
            prev = READ_EVENTS;
            events = EPOLLOUT;
        }
        int op;
        if (e.active) {
            op = CTL_MOD;
            events |= prev;
        } else {
            op = CTL_ADD;
        }
        if ((flags & EXCLUSIVE_EVENT) != 0) {
            events &= ~EPOLLRDHUP;
        }
        events |= epollFlags(flags);
        if (isDebug(ev.log)) {
            debug(ev.log, c, "epoll add event: fd:" + c.fd() + " op:" + op + " ev:" + hex(events, 8));
        }
        ctl(op, c.fd(), events, data(c.slot(), ev.instance));
        ev.active = true;
    }

    /**
     * Removes one direction, keeping the other one's registration: nginx's {@code ngx_epoll_del_event()}. With
     * {@link #CLOSE_EVENT} only {@code active} is cleared: closing the descriptor removes it from epoll. When the
     * other direction stays, it is re-registered with {@code flags} ({@link #CLEAR_EVENT} keeps it
     * edge-triggered), as nginx does.
     */
    @Override
    public void del(Event ev, int kind, int flags) throws IOException {
        if (reads != null && kind == READ_EVENT) {
            reads.disarm(ev.connection());
        }
        if ((flags & CLOSE_EVENT) != 0) {
            ev.active = false;
            return;
        }
        Connection c = ev.connection();
        Event e;
        int prev;
        if (kind == READ_EVENT) {
            e = c.write;
            prev = EPOLLOUT;
        } else {
            e = c.read;
            prev = READ_EVENTS;
        }
        int op;
        int events;
        long data;
        if (e.active) {
            op = CTL_MOD;
            events = prev | epollFlags(flags);
            data = data(c.slot(), ev.instance);
        } else {
            op = CTL_DEL;
            events = 0;
            data = 0;
        }
        if (isDebug(ev.log)) {
            debug(ev.log, c, "epoll del event: fd:" + c.fd() + " op:" + op + " ev:" + hex(events, 8));
        }
        ctl(op, c.fd(), events, data);
        ev.active = false;
    }

    /**
     * Registers both directions edge-triggered, {@code EPOLLIN|EPOLLOUT|EPOLLET|EPOLLRDHUP}: nginx's
     * {@code ngx_epoll_add_connection()}.
     */
    @Override
    public void addConnection(Connection c) throws IOException {
        if (isDebug(c.log)) {
            debug(c.log, c, "epoll add connection: fd:" + c.fd() + " ev:" + hex(CONNECTION_EVENTS, 8));
        }
        ctlEvent.set(0, CONNECTION_EVENTS, data(c.slot(), c.read.instance));
        try {
            EpollSyscalls.ctl(ep, CTL_ADD, c.fd(), ctlEvent.address());
        } catch (NativeIoException e) {
            throw new NativeIoException("epoll_ctl(EPOLL_CTL_ADD, " + c.fd() + ")", e.errno(), Errors.text(e.errno()));
        }
        c.read.active = true;
        c.write.active = true;
    }

    /**
     * Removes both directions: nginx's {@code ngx_epoll_del_connection()}; with {@link #CLOSE_EVENT} only the
     * flags are cleared.
     */
    @Override
    public void delConnection(Connection c, int flags) throws IOException {
        if (reads != null) {
            if ((flags & CLOSE_EVENT) != 0) {
                reads.cancel(c);
            } else {
                reads.disarm(c);
            }
        }
        if ((flags & CLOSE_EVENT) == 0) {
            if (isDebug(c.log)) {
                debug(c.log, c, "epoll del connection: fd:" + c.fd());
            }
            ctl(CTL_DEL, c.fd(), 0, 0);
        }
        c.read.active = false;
        c.write.active = false;
    }

    /**
     * Arms the connection's read ahead ({@link EpollPreread}); nothing without libjinxio.
     */
    @Override
    public void preread(Connection c, int size) {
        if (reads == null) {
            if (!EpollSyscalls.canPreread() || memory == null) {
                return;
            }
            reads = new EpollPreread(memory, loop.connectionCount(), nevents);
        }
        reads.arm(c, data(c.slot(), c.read.instance), size);
    }

    /**
     * Queues {@code handler} and wakes the loop through the eventfd: nginx's {@code ngx_epoll_notify()}. Any
     * thread. A failed write is logged at {@code alert}, as nginx.
     *
     * @throws IllegalStateException before {@link #init} or after {@link #done}
     */
    @Override
    public void notify(Runnable handler) {
        notifier.notify(handler);
    }

    /**
     * Waits in {@code epoll_wait} and hands out what became ready: nginx's {@code ngx_epoll_process_events()}.
     */
    @Override
    public void processEvents(long timer, int flags) throws IOException {
        ErrorLog log = loop.log();
        boolean debug = log.isEnabled(LogLevel.DEBUG);
        if (debug) {
            log.log(LogLevel.DEBUG, "epoll timer: " + timer);
        }
        int timeout = timer < 0 ? -1 : (int) Math.min(timer, Integer.MAX_VALUE);
        int n;
        // a wait reads ahead only when the bytes the last one read ahead were all taken: they are in the same area
        boolean ahead = reads != null && reads.idle();
        try {
            n = EpollSyscalls.wait(ep, eventList.address(), nevents, timeout, ahead ? reads.block() : 0, log);
        } finally {
            // nginx refreshes the time before it looks at the result, failure included
            if ((flags & UPDATE_TIME) != 0) {
                loop.updateTime();
            }
        }
        boolean post = (flags & POST_EVENTS) != 0;
        for (int i = 0; i < n; i++) {
            long data = eventList.data(i);
            if (data == EpollNotify.DATA) {
                if (post) {
                    loop.post(notifier.event());
                } else {
                    notifier.handle(notifier.event());
                }
                continue;
            }
            handle(data, eventList.events(i), post, debug, log, ahead ? i : -1);
        }
    }

    /** One event; {@code entry} is its index when the wait read ahead, -1 otherwise. */
    private void handle(long data, int revents, boolean post, boolean debug, ErrorLog log, int entry) {
        int slot = (int) (data >>> 1);
        boolean instance = (data & 1) != 0;
        Connection c = loop.connection(slot);
        Event rev = c.read;
        if (c.fd() == -1 || rev.instance != instance) {
            // the stale event from a file descriptor that was just closed in this iteration
            stale(slot, debug, log);
            return;
        }
        if (debug) {
            log.log(LogLevel.DEBUG, "epoll: fd:" + c.fd() + " ev:" + hex(revents, 4) + " d:" + Long.toHexString(data));
        }
        if ((revents & (EPOLLERR | EPOLLHUP)) != 0) {
            if (debug) {
                log.log(LogLevel.DEBUG, "epoll_wait() error on fd:" + c.fd() + " ev:" + hex(revents, 4));
            }
            // if the error events were returned, add EPOLLIN and EPOLLOUT to handle the events at least in one
            // active handler (nginx)
            revents |= EPOLLIN | EPOLLOUT;
        }
        if ((revents & EPOLLIN) != 0 && rev.active) {
            if ((revents & EPOLLRDHUP) != 0) {
                rev.pendingEof = true;
            }
            rev.ready = true;
            rev.available = -1;
            if (entry >= 0) {
                reads.give(entry, rev);
            } else if (reads != null) {
                // a wait that did not read ahead leaves the entry armed: the handler reads by itself now
                reads.disarm(c);
            }
            if (post) {
                if (rev.accept) {
                    loop.postAccept(rev);
                } else {
                    loop.post(rev);
                }
            } else {
                rev.handler.handle(rev);
            }
        }
        Event wev = c.write;
        if ((revents & EPOLLOUT) != 0 && wev.active) {
            // the read handler may have closed the connection, and the slot been lent again
            if (c.fd() == -1 || wev.instance != instance) {
                stale(slot, debug, log);
                return;
            }
            wev.ready = true;
            if (post) {
                loop.post(wev);
            } else {
                wev.handler.handle(wev);
            }
        }
    }

    private void stale(int slot, boolean debug, ErrorLog log) {
        loop.staleEvent();
        if (debug) {
            log.log(LogLevel.DEBUG, "epoll: stale event " + slot);
        }
    }

    private void ctl(int op, int fd, int events, long data) throws NativeIoException {
        ctlEvent.set(0, events, data);
        EpollSyscalls.ctl(ep, op, fd, ctlEvent.address());
    }

    /** The registration's {@code data.u64}: the slot and the instance bit. */
    static long data(int slot, boolean instance) {
        return (long) slot << 1 | (instance ? 1L : 0L);
    }

    /** The SPI's registration flags as epoll bits: nginx's {@code NGX_CLEAR_EVENT}, {@code NGX_EXCLUSIVE_EVENT}. */
    private static int epollFlags(int flags) {
        int events = 0;
        if ((flags & CLEAR_EVENT) != 0) {
            events |= EPOLLET;
        }
        if ((flags & EXCLUSIVE_EVENT) != 0) {
            events |= EPOLLEXCLUSIVE;
        }
        return events;
    }

    /** nginx's {@code USE_CLEAR_EVENT | USE_GREEDY_EVENT | USE_EPOLL_EVENT}. */
    @Override
    public int flags() {
        return USE_CLEAR_EVENT | USE_GREEDY_EVENT | USE_EPOLL_EVENT;
    }

    /**
     * Returns the epoll descriptor, for tests that read {@code /proc/self/fdinfo}.
     *
     * @return the descriptor, -1 when not initialised
     */
    int epollFd() {
        return ep;
    }

    private static boolean isDebug(ErrorLog log) {
        return log != null && log.isEnabled(LogLevel.DEBUG);
    }

    private static void debug(ErrorLog log, Connection c, String message) {
        log.log(LogLevel.DEBUG, c.number, message);
    }

    /** nginx's {@code %08XD} / {@code %04XD}: upper-case hex, zero-padded. */
    private static String hex(int value, int width) {
        String s = Integer.toHexString(value).toUpperCase(Locale.ROOT);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
