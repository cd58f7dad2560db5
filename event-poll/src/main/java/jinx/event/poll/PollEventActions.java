package jinx.event.poll;

import java.io.IOException;
import java.util.Locale;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * The poll method's table, nginx's {@code ngx_poll_module.c}: one {@code struct pollfd} array in native memory,
 * level-triggered, an entry per descriptor shared by its read and write events, whose {@link Event#index} is the
 * entry's position. A delete that empties an entry moves the last entry into its place (nginx's compaction), so
 * the array is always dense. A second, Java, array aligned with it holds each entry's connection slot (nginx
 * looks connections up by descriptor in {@code cycle->files}); entry 0 is the notify eventfd ({@link PollNotify}),
 * which is never deleted and so never moves.
 *
 * <p>Thread contract: everything except {@link #notify(Runnable)} runs on the loop's thread. The wait and the
 * scan allocate nothing; debug lines are built only when debug logging is on.
 */
final class PollEventActions implements EventActions {

    private static final int SIZEOF_POLLFD = Platform.SIZEOF_POLLFD;
    private static final int FD = Platform.OFFSETOF_POLLFD_FD;
    private static final int EVENTS = Platform.OFFSETOF_POLLFD_EVENTS;
    private static final int REVENTS = Platform.OFFSETOF_POLLFD_REVENTS;
    private static final int POLLIN = Platform.POLLIN;
    private static final int POLLOUT = Platform.POLLOUT;
    private static final int POLLERR = Platform.POLLERR;
    private static final int POLLHUP = Platform.POLLHUP;
    private static final int POLLNVAL = Platform.POLLNVAL;
    private static final int KNOWN = POLLIN | POLLOUT | POLLERR | POLLHUP | POLLNVAL;

    /** The slot recorded for the notify entry. */
    private static final int NOTIFY = -1;

    private final NativeMemory memory = new NativeMemory();
    private EventLoop loop;
    private ErrorLog log;
    /** nginx's {@code event_list}: {@link #capacity} entries of {@code struct pollfd}. */
    private long list;
    private int capacity;
    /** nginx's {@code nevents}: the entries in use, from 0. */
    private int nevents;
    /** Each entry's connection slot, {@link #NOTIFY} for entry 0. */
    private int[] slots;
    private PollNotify notify;
    /** The last log asked whether it debugs, and its answer: see {@link #debug(ErrorLog)}. */
    private ErrorLog debugLog;
    private boolean debugOn;

    /** Entries whose revents this scan has not consumed yet: poll()'s count, less what was handled or deleted. */
    private int pending;
    private boolean scanning;
    /** The position being handled. */
    private int scanPos;
    /** The lowest position behind {@link #scanPos} a handler's delete moved an unscanned entry to. */
    private int rescanFrom = Integer.MAX_VALUE;

    @Override
    public void init(EventLoop eventLoop) throws IOException {
        if (list != 0) {
            throw new IllegalStateException("poll event actions already initialised");
        }
        this.loop = eventLoop;
        this.log = eventLoop.log();
        // each connection slot holds one entry at most (both directions share it), and the eventfd one more
        capacity = eventLoop.connectionCount() + 1;
        list = memory.allocate((long) capacity * SIZEOF_POLLFD);
        long scratch = memory.allocate(8);
        slots = new int[capacity];
        int efd;
        try {
            efd = Syscalls.eventfd(0, Platform.EFD_NONBLOCK | Platform.EFD_CLOEXEC);
        } catch (NativeIoException e) {
            memory.close();
            list = 0;
            throw e;
        }
        notify = new PollNotify(efd, scratch, log);
        put(0, efd, POLLIN);
        slots[0] = NOTIFY;
        nevents = 1;
    }

    @Override
    public void done() {
        if (notify != null) {
            notify.close();
        }
        memory.close();
        list = 0;
        nevents = 0;
    }

    @Override
    public int flags() {
        return USE_LEVEL_EVENT | USE_FD_EVENT;
    }

    /** nginx's {@code ngx_poll_add_event()}: OR into the other direction's entry, or append one. */
    @Override
    public void add(Event ev, int kind, int flags) throws IOException {
        checkOpen();
        Connection c = ev.connection();
        ev.active = true;
        Event e;
        int event;
        if (kind == READ_EVENT) {
            e = c.write;
            event = POLLIN;
        } else {
            e = c.read;
            event = POLLOUT;
        }
        ErrorLog elog = ev.log != null ? ev.log : log;
        if (ev.index != -1) {
            elog.log(LogLevel.ALERT, c.number, "poll event fd:" + c.fd() + " ev:" + event + " is already set");
            return;
        }
        boolean debug = debug(elog);
        if (debug) {
            elog.log(LogLevel.DEBUG, c.number, "poll add event: fd:" + c.fd() + " ev:" + event);
        }
        if (e.index == -1) {
            if (nevents == capacity) {
                ev.active = false;
                throw new IOException("poll event array is full: " + capacity + " entries");
            }
            put(nevents, c.fd(), event);
            slots[nevents] = c.slot();
            ev.index = nevents++;
        } else {
            if (debug) {
                elog.log(LogLevel.DEBUG, c.number, "poll add index: " + e.index);
            }
            long p = entry(e.index);
            NativeMemory.putShort(p + EVENTS, (short) (NativeMemory.getShort(p + EVENTS) | event));
            ev.index = e.index;
        }
        ev.oneshot = false;
    }

    /**
     * nginx's {@code ngx_poll_del_event()}: clear the direction's bit, or, when the other direction is not
     * registered, remove the entry by moving the last one into its place. {@link #CLOSE_EVENT} changes nothing:
     * poll keeps no state in the kernel, so the entry must go even when the descriptor is about to be closed.
     */
    @Override
    public void del(Event ev, int kind, int flags) throws IOException {
        checkOpen();
        Connection c = ev.connection();
        ev.active = false;
        Event e;
        int event;
        if (kind == READ_EVENT) {
            e = c.write;
            event = POLLIN;
        } else {
            e = c.read;
            event = POLLOUT;
        }
        ErrorLog elog = ev.log != null ? ev.log : log;
        if (ev.index == -1) {
            elog.log(LogLevel.ALERT, c.number, "poll event fd:" + c.fd() + " ev:" + event + " is already deleted");
            return;
        }
        boolean debug = debug(elog);
        if (debug) {
            elog.log(LogLevel.DEBUG, c.number, "poll del event: fd:" + c.fd() + " ev:" + event);
        }
        if (e.index == -1) {
            remove(ev.index, elog, c.number, debug);
        } else {
            if (debug) {
                elog.log(LogLevel.DEBUG, c.number, "poll del index: " + e.index);
            }
            long p = entry(e.index);
            NativeMemory.putShort(p + EVENTS, (short) (NativeMemory.getShort(p + EVENTS) & ~event));
        }
        ev.index = -1;
    }

    /** Removes entry {@code index}: the last entry takes its place and its events learn their new index. */
    private void remove(int index, ErrorLog elog, long number, boolean debug) {
        long p = entry(index);
        if (scanning && NativeMemory.getShort(p + REVENTS) != 0) {
            // its readiness, counted by poll(), goes with it
            pending--;
        }
        nevents--;
        if (index >= nevents) {
            return;
        }
        if (debug) {
            elog.log(LogLevel.DEBUG, number, "index: copy event " + nevents + " to " + index);
        }
        long last = entry(nevents);
        int fd = NativeMemory.getInt(last + FD);
        NativeMemory.putInt(p + FD, fd);
        NativeMemory.putShort(p + EVENTS, NativeMemory.getShort(last + EVENTS));
        NativeMemory.putShort(p + REVENTS, NativeMemory.getShort(last + REVENTS));
        int slot = slots[nevents];
        slots[index] = slot;
        if (scanning && index < scanPos && index < rescanFrom) {
            // the scan has passed this position: go back for the entry moved here
            rescanFrom = index;
        }
        Connection m = loop.connection(slot);
        if (fd == -1 || m.fd() != fd) {
            elog.log(LogLevel.ALERT, number, "unexpected last event");
            return;
        }
        if (m.read.index == nevents) {
            m.read.index = index;
        }
        if (m.write.index == nevents) {
            m.write.index = index;
        }
    }

    /** poll has no connection registration in nginx; here it is both directions, level-triggered. */
    @Override
    public void addConnection(Connection c) throws IOException {
        add(c.read, READ_EVENT, LEVEL_EVENT);
        add(c.write, WRITE_EVENT, LEVEL_EVENT);
    }

    /** As nginx's {@code ngx_close_connection()} does without {@code ngx_del_conn}: each registered direction. */
    @Override
    public void delConnection(Connection c, int flags) throws IOException {
        if (c.read.active || c.read.disabled) {
            del(c.read, READ_EVENT, flags);
        }
        if (c.write.active || c.write.disabled) {
            del(c.write, WRITE_EVENT, flags);
        }
    }

    @Override
    public void notify(Runnable handler) {
        PollNotify n = notify;
        if (n == null) {
            throw new IllegalStateException("poll event actions not initialised");
        }
        n.notify(handler);
    }

    /** nginx's {@code ngx_poll_process_events()}. */
    @Override
    public void processEvents(long timer, int flags) throws IOException {
        checkOpen();
        boolean debug = debug(log);
        if (debug) {
            log.log(LogLevel.DEBUG, "poll timer: " + timer);
        }
        int ready;
        try {
            ready = PollSyscalls.poll(list, nevents, timer < 0 ? -1 : (int) Math.min(timer, Integer.MAX_VALUE));
        } finally {
            if ((flags & UPDATE_TIME) != 0) {
                loop.updateTime();
            }
        }
        if (debug) {
            log.log(LogLevel.DEBUG, "poll ready " + (ready == Rc.AGAIN ? -1 : ready) + " of " + nevents);
        }
        if (ready == Rc.AGAIN) {
            log.log(LogLevel.INFO, PollSyscalls.INTERRUPTED);
            return;
        }
        if (ready == 0) {
            if (timer != -1) {
                return;
            }
            log.alert("poll() returned no events without timeout");
            return;
        }
        pending = ready;
        scan((flags & POST_EVENTS) != 0, debug);
    }

    /**
     * Walks the array while entries with revents are left. Handlers run from here may add and delete entries:
     * each entry's revents are cleared once consumed, so a position is looked at again after its handlers (an
     * entry moved there by a delete is then handled, an untouched one is skipped), and an entry moved behind
     * the scan sends it back there. nginx, which posts every event since 1.x, needs neither.
     */
    private void scan(boolean post, boolean debug) throws IOException {
        scanning = true;
        rescanFrom = Integer.MAX_VALUE;
        try {
            int i = 0;
            while (i < nevents && pending > 0) {
                long p = entry(i);
                int revents = NativeMemory.getShort(p + REVENTS) & 0xffff;
                if (revents == 0) {
                    i++;
                    continue;
                }
                NativeMemory.putShort(p + REVENTS, (short) 0);
                pending--;
                scanPos = i;
                handle(i, p, revents, post, debug);
                if (rescanFrom < i) {
                    i = rescanFrom;
                }
                rescanFrom = Integer.MAX_VALUE;
            }
        } finally {
            scanning = false;
        }
        if (pending != 0) {
            log.alert("poll ready != events");
            pending = 0;
        }
    }

    private void handle(int i, long p, int revents, boolean post, boolean debug) throws IOException {
        int fd = NativeMemory.getInt(p + FD);
        if (debug) {
            log.log(LogLevel.DEBUG, "poll: " + i + ": fd:" + fd + " ev:" + hex(NativeMemory.getShort(p + EVENTS))
                + " rev:" + hex(revents));
        }
        if ((revents & POLLNVAL) != 0) {
            log.alert("poll() error fd:" + fd + " ev:" + hex(NativeMemory.getShort(p + EVENTS)) + " rev:"
                + hex(revents));
        }
        if ((revents & ~KNOWN) != 0) {
            log.alert("strange poll() events fd:" + fd + " ev:" + hex(NativeMemory.getShort(p + EVENTS)) + " rev:"
                + hex(revents));
        }
        if (fd == -1) {
            return;
        }
        int slot = slots[i];
        if (slot == NOTIFY) {
            notify.drain();
            return;
        }
        Connection c = loop.connection(slot);
        if (c.fd() != fd) {
            log.alert("unexpected event");
            // as nginx: certainly our fault; disable the entry so that it does not spin
            if (i == nevents - 1) {
                nevents--;
            } else {
                NativeMemory.putInt(p + FD, -1);
            }
            return;
        }
        if ((revents & (POLLERR | POLLHUP | POLLNVAL)) != 0 && (revents & (POLLIN | POLLOUT)) == 0) {
            // errors without POLLIN or POLLOUT: let an active handler see them (nginx)
            revents |= POLLIN | POLLOUT;
        }
        boolean instance = c.read.instance;
        if ((revents & POLLIN) != 0 && c.read.active) {
            ready(c.read, post);
        }
        if ((revents & POLLOUT) == 0) {
            return;
        }
        if (c.fd() != fd || c.read.instance != instance) {
            // the read handler closed the connection, and perhaps lent its slot again
            loop.staleEvent();
            if (debug) {
                log.log(LogLevel.DEBUG, "poll: stale event fd:" + fd);
            }
            return;
        }
        if (c.write.active) {
            ready(c.write, post);
        }
    }

    private void ready(Event ev, boolean post) {
        ev.ready = true;
        if (!post) {
            ev.handler.handle(ev);
        } else if (ev.accept) {
            loop.postAccept(ev);
        } else {
            loop.post(ev);
        }
    }

    /**
     * Tells whether {@code l} writes debug lines. A log's targets and levels are fixed when it is made, so the
     * answer is kept per log instance: {@link ErrorLog#isEnabled} walks its targets with an iterator, which the
     * JIT does not always scalar-replace, and add and del run for every connection.
     */
    private boolean debug(ErrorLog l) {
        if (l != debugLog) {
            debugLog = l;
            debugOn = l.isEnabled(LogLevel.DEBUG);
        }
        return debugOn;
    }

    /** The array is native memory: touching it before init or after done would crash the JVM, not throw. */
    private void checkOpen() {
        if (list == 0) {
            throw new IllegalStateException("poll event actions are not initialised, or done");
        }
    }

    private long entry(int i) {
        return list + (long) i * SIZEOF_POLLFD;
    }

    private void put(int i, int fd, int events) {
        long p = entry(i);
        NativeMemory.putInt(p + FD, fd);
        NativeMemory.putShort(p + EVENTS, (short) events);
        NativeMemory.putShort(p + REVENTS, (short) 0);
    }

    /** nginx's {@code %04Xd}. */
    private static String hex(int v) {
        String s = Integer.toHexString(v & 0xffff).toUpperCase(Locale.ROOT);
        return "0000".substring(s.length()) + s;
    }

    /* ---- for tests: the array as poll() sees it ---- */

    int entries() {
        return nevents;
    }

    int entryFd(int i) {
        return NativeMemory.getInt(entry(i) + FD);
    }

    int entryEvents(int i) {
        return NativeMemory.getShort(entry(i) + EVENTS) & 0xffff;
    }

    int entrySlot(int i) {
        return slots[i];
    }

    int notifyFd() {
        return notify.fd();
    }

    int notifyQueued() {
        return notify.queued();
    }
}
