package jinx.kernel;

import java.io.IOException;

import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * Accepting connections on a loop's listening sockets: nginx's {@code ngx_event_accept()},
 * {@code ngx_trylock_accept_mutex()}, {@code ngx_enable_accept_events()}, {@code ngx_disable_accept_events()} and
 * {@code ngx_reorder_accept_events()} (src/event/ngx_event_accept.c) and the listening part of
 * {@code ngx_event_process_init()}.
 */
final class EventAccept {

    /** Room for any sockaddr (sizeof(struct sockaddr_storage)). */
    private static final int SOCKADDR_SIZE = 128;

    private final EventLoop loop;
    private final EventLoop.AcceptSettings settings;
    private final NativeMemory memory = new NativeMemory();
    private final long sockaddr;
    private final long socklen;
    private final java.util.List<Listening> listening = new java.util.ArrayList<>();
    private final java.util.List<DatagramListener> datagrams = new java.util.ArrayList<>();
    /** nginx's ngx_accept_disabled: above 0 this loop skips the mutex, letting emptier workers accept. */
    private int acceptDisabled;
    private boolean mutexHeld;
    private boolean exclusive;
    /** A warm-up runs: no accepting, no mutex. */
    private boolean paused;

    EventAccept(EventLoop loop, EventLoop.AcceptSettings settings) {
        this.loop = loop;
        this.settings = settings;
        this.sockaddr = memory.allocate(SOCKADDR_SIZE);
        this.socklen = memory.allocate(8);
    }

    boolean usesMutex() {
        return settings.acceptMutex() != null;
    }

    boolean mutexHeld() {
        return mutexHeld;
    }

    void listen(Listening ls) throws IOException {
        Connection c = loop.getConnection(ls.fd(), ls.log != null ? ls.log : loop.log());
        if (c == null) {
            throw new IOException("no free connection slot for the listening socket " + ls.addrText());
        }
        c.listening = ls;
        ls.connection = c;
        c.read.accept = true;
        if (ls.datagram) {
            DatagramListener d = new DatagramListener(loop, this);
            datagrams.add(d);
            c.read.handler = ev -> receive(d, ev);
        } else {
            c.read.handler = this::accept;
        }
        listening.add(ls);
        if (ls.reuseport) {
            loop.actions().add(c.read, EventActions.READ_EVENT, 0);
            return;
        }
        if (usesMutex()) {
            return;
        }
        if (settings.exclusive() && (loop.methodFlags() & EventActions.USE_EPOLL_EVENT) != 0) {
            exclusive = true;
            loop.actions().add(c.read, EventActions.READ_EVENT, EventActions.EXCLUSIVE_EVENT);
            return;
        }
        loop.actions().add(c.read, EventActions.READ_EVENT, 0);
    }

    boolean paused() {
        return paused;
    }

    /** Stops accepting on every listening socket, reuseport ones too, and gives up the mutex if held. */
    void pause() {
        paused = true;
        if (mutexHeld) {
            settings.acceptMutex().unlock();
            mutexHeld = false;
        }
        disableAcceptEvents(true);
    }

    /** Accepts again as {@link #listen} registered: the mutex, when used, decides at the next turn. */
    void resume() {
        paused = false;
        if (usesMutex()) {
            for (Listening ls : listening) {
                if (ls.reuseport) {
                    add(ls.connection, 0);
                }
            }
            return;
        }
        for (Listening ls : listening) {
            add(ls.connection, exclusive && !ls.reuseport ? EventActions.EXCLUSIVE_EVENT : 0);
        }
    }

    private void add(Connection c, int flags) {
        if (c == null || c.read.active) {
            return;
        }
        try {
            loop.actions().add(c.read, EventActions.READ_EVENT, flags);
        } catch (IOException e) {
            loop.log().alert(e.getMessage());
        }
    }

    /** Step 2 of a turn: take the mutex, or cap the wait so that another try comes soon. */
    long trylock(long timer) {
        if (acceptDisabled > 0) {
            acceptDisabled--;
            return timer;
        }
        if (settings.acceptMutex().tryLock()) {
            if (!mutexHeld) {
                enableAcceptEvents();
                mutexHeld = true;
            }
            return timer;
        }
        if (mutexHeld) {
            disableAcceptEvents(false);
            mutexHeld = false;
        }
        long delay = settings.acceptMutexDelay();
        return timer == -1 || timer > delay ? delay : timer;
    }

    /** Step 6: the lock is released right after the accepts, so other workers can accept while we serve. */
    void unlock() {
        if (mutexHeld) {
            settings.acceptMutex().unlock();
        }
    }

    private void accept(Event ev) {
        if (ev.timedout) {
            enableAcceptEvents();
            ev.timedout = false;
        }
        Connection lc = ev.connection();
        Listening ls = lc.listening;
        ev.available = settings.multiAccept() ? 1 : 0;
        if (ev.log != null && ev.log.isEnabled(LogLevel.DEBUG)) {
            // the text only when it is logged: accepting makes no object
            debug(ev.log, "accept on " + ls.addrText() + ", ready: " + ev.available);
        }
        do {
            int s;
            try {
                NativeMemory.putInt(socklen, SOCKADDR_SIZE);
                s = Sockets.accept4(ls.fd(), sockaddr, socklen, Platform.SOCK_NONBLOCK);
            } catch (NativeIoException e) {
                if (failed(ev, e)) {
                    continue;
                }
                return;
            }
            if (s == Rc.AGAIN) {
                debug(ev.log, "accept() not ready");
                return;
            }
            acceptDisabled = loop.connectionCount() / 8 - loop.freeConnectionCount();
            Connection c = loop.getConnection(s, ls.log != null ? ls.log : loop.log());
            if (c == null) {
                closeAccepted(s);
                return;
            }
            c.listening = ls;
            // a new socket can be written to at once: nginx's ngx_event_accept() sets wev->ready
            c.write.ready = true;
            c.number = loop.nextConnectionNumber();
            c.peer(sockaddr, NativeMemory.getInt(socklen));
            if (c.log.isEnabled(LogLevel.DEBUG)) {
                c.log.log(LogLevel.DEBUG, c.number, "accept: " + c.addrText() + " fd:" + s);
            }
            ls.handler.accept(c);
        } while (ev.available > 0);
        if (exclusive) {
            reorder(lc);
        }
    }

    /** A listening datagram socket's read event: nginx's {@code ngx_event_recvmsg()}. */
    private void receive(DatagramListener d, Event ev) {
        if (ev.timedout) {
            enableAcceptEvents();
            ev.timedout = false;
        }
        d.recv(ev, settings.multiAccept());
    }

    /** nginx's {@code ngx_accept_disabled}, as a new UDP session sets it. */
    void disableFor(int disabled) {
        acceptDisabled = disabled;
    }

    /** Returns true to go on accepting (a connection aborted by the peer while multi_accept is on). */
    private boolean failed(Event ev, NativeIoException e) {
        int errno = e.errno();
        if (errno == Errors.ECONNABORTED) {
            ev.log.log(LogLevel.ERROR, e.getMessage());
            return ev.available > 0;
        }
        if (errno == Errors.EMFILE || errno == Errors.ENFILE) {
            ev.log.log(LogLevel.CRIT, e.getMessage());
            disableAcceptEvents(true);
            if (usesMutex()) {
                if (mutexHeld) {
                    settings.acceptMutex().unlock();
                    mutexHeld = false;
                }
                acceptDisabled = 1;
            } else {
                loop.addTimer(ev, settings.acceptMutexDelay());
            }
            return false;
        }
        ev.log.log(LogLevel.ALERT, e.getMessage());
        return false;
    }

    /** nginx's ngx_reorder_accept_events(): every 16th wake-up, go to the back of the exclusive wait queue. */
    private void reorder(Connection lc) {
        if (lc.requests++ % 16 != 0 && acceptDisabled <= 0) {
            return;
        }
        try {
            loop.actions().del(lc.read, EventActions.READ_EVENT, EventActions.DISABLE_EVENT);
            loop.actions().add(lc.read, EventActions.READ_EVENT, EventActions.EXCLUSIVE_EVENT);
        } catch (IOException e) {
            loop.log().alert(e.getMessage());
        }
    }

    private void enableAcceptEvents() {
        for (Listening ls : listening) {
            Connection c = ls.connection;
            if (c == null || c.read.active || ls.reuseport) {
                continue;
            }
            try {
                loop.actions().add(c.read, EventActions.READ_EVENT, 0);
            } catch (IOException e) {
                loop.log().alert(e.getMessage());
            }
        }
    }

    /** {@code all}: also reuseport sockets, which only EMFILE disables (they belong to this worker alone). */
    private void disableAcceptEvents(boolean all) {
        for (Listening ls : listening) {
            Connection c = ls.connection;
            if (c == null || !c.read.active || (ls.reuseport && !all)) {
                continue;
            }
            try {
                loop.actions().del(c.read, EventActions.READ_EVENT, EventActions.DISABLE_EVENT);
            } catch (IOException e) {
                loop.log().alert(e.getMessage());
            }
        }
    }

    private void closeAccepted(int s) {
        try {
            Syscalls.close(s);
        } catch (NativeIoException e) {
            loop.log().alert(e.getMessage());
        }
    }

    private static void debug(ErrorLog log, String message) {
        if (log != null && log.isEnabled(LogLevel.DEBUG)) {
            log.log(LogLevel.DEBUG, message);
        }
    }

    void close() {
        for (DatagramListener d : datagrams) {
            d.close();
        }
        memory.close();
    }
}
