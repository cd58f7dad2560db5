package jinx.kernel.testsuite;

import java.io.IOException;
import java.util.Arrays;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;

/**
 * A small line protocol that lives in the tests (it is not shipped): every line a client sends comes back, on a
 * keep-alive connection that a timer closes after {@code idleTimeoutMs} without a request. It is written the way
 * an nginx protocol module is: a listening socket's handler that registers the read event, handlers that read
 * until {@code AGAIN}, never block, re-arm the write event when the socket buffer is full, and delete and set
 * the idle timer (nginx's {@code keepalive_timeout}) around every request.
 *
 * <p>Everything but the counters runs on the loop's thread; the counters may be read from any thread.
 */
public final class LineEcho {

    private static final int BUFFER = 4096;
    private static final int MAX_LINE = 64 * 1024;

    private final EventLoop loop;
    private final long idleTimeoutMs;
    private final int addFlags;
    private final boolean level;
    private final long in;
    private final long out;

    private volatile int open;
    private volatile int maxOpen;
    private volatile int accepted;
    private volatile int lines;
    private volatile int closedIdle;
    private volatile int closedEof;
    private volatile int closedError;

    /**
     * A protocol instance for one loop.
     *
     * @param loop the loop
     * @param idleTimeoutMs how long an idle connection stays, 0 for ever
     * @param memory native memory for the two loop-wide buffers, owned by the caller
     */
    public LineEcho(EventLoop loop, long idleTimeoutMs, NativeMemory memory) {
        this.loop = loop;
        this.idleTimeoutMs = idleTimeoutMs;
        boolean clear = (loop.methodFlags() & EventActions.USE_CLEAR_EVENT) != 0;
        this.addFlags = clear ? EventActions.CLEAR_EVENT : EventActions.LEVEL_EVENT;
        this.level = !clear;
        this.in = memory.allocate(BUFFER);
        this.out = memory.allocate(BUFFER);
    }

    /** One connection's state: the partial line read, and the reply bytes the socket did not take yet. */
    private static final class State {
        byte[] line = new byte[64];
        int lineLength;
        byte[] pending = new byte[64];
        int pendingStart;
        int pendingEnd;
    }

    /**
     * The listening socket's handler (nginx's {@code ls->handler}): registers the read event and sets the idle
     * timer.
     *
     * @param c the accepted connection
     */
    public void accept(Connection c) {
        accepted++;
        int now = ++open;
        if (now > maxOpen) {
            maxOpen = now;
        }
        c.data = new State();
        c.read.handler = this::read;
        c.write.handler = this::write;
        try {
            loop.actions().add(c.read, EventActions.READ_EVENT, addFlags);
        } catch (IOException e) {
            closedError++;
            close(c);
            return;
        }
        if (idleTimeoutMs > 0) {
            loop.addTimer(c.read, idleTimeoutMs);
        }
    }

    private void read(Event ev) {
        Connection c = ev.connection();
        if (ev.timedout) {
            closedIdle++;
            close(c);
            return;
        }
        if (c.close) {
            close(c);
            return;
        }
        State s = (State) c.data;
        loop.deleteTimer(ev);
        for (;;) {
            int n;
            try {
                n = Sockets.recv(c.fd(), in, BUFFER);
            } catch (NativeIoException e) {
                closedError++;
                close(c);
                return;
            }
            if (n == Rc.AGAIN) {
                break;
            }
            if (n == 0) {
                closedEof++;
                close(c);
                return;
            }
            if (!take(s, n) || !flush(c, s)) {
                closedError++;
                close(c);
                return;
            }
        }
        idle(c, s);
    }

    /* Appends what recv() read to the line; every complete line goes to the pending reply. */
    private boolean take(State s, int n) {
        for (int i = 0; i < n; i++) {
            byte b = NativeMemory.getByte(in + i);
            if (s.lineLength == s.line.length) {
                if (s.line.length >= MAX_LINE) {
                    return false;
                }
                s.line = Arrays.copyOf(s.line, s.line.length * 2);
            }
            s.line[s.lineLength++] = b;
            if (b == '\n') {
                reply(s);
            }
        }
        return true;
    }

    private void reply(State s) {
        lines++;
        int needed = s.pendingEnd - s.pendingStart + s.lineLength;
        if (s.pendingEnd + s.lineLength > s.pending.length) {
            byte[] bigger = s.pending.length >= needed ? s.pending : new byte[Math.max(needed, s.pending.length * 2)];
            System.arraycopy(s.pending, s.pendingStart, bigger, 0, s.pendingEnd - s.pendingStart);
            s.pending = bigger;
            s.pendingEnd -= s.pendingStart;
            s.pendingStart = 0;
        }
        System.arraycopy(s.line, 0, s.pending, s.pendingEnd, s.lineLength);
        s.pendingEnd += s.lineLength;
        s.lineLength = 0;
    }

    /* Sends what is pending; re-arms the write event if the socket would block. False on a send failure. */
    private boolean flush(Connection c, State s) {
        while (s.pendingStart < s.pendingEnd) {
            int len = Math.min(BUFFER, s.pendingEnd - s.pendingStart);
            NativeMemory.put(out, s.pending, s.pendingStart, len);
            int n;
            try {
                n = Sockets.send(c.fd(), out, len);
            } catch (NativeIoException e) {
                return false;
            }
            if (n == Rc.AGAIN) {
                return armWrite(c);
            }
            s.pendingStart += n;
        }
        s.pendingStart = 0;
        s.pendingEnd = 0;
        return disarmWrite(c);
    }

    private boolean armWrite(Connection c) {
        if (c.write.active) {
            return true;
        }
        try {
            loop.actions().add(c.write, EventActions.WRITE_EVENT, addFlags);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /* A level-triggered method would report the writable socket on every turn: remove the write event. */
    private boolean disarmWrite(Connection c) {
        if (!level || !c.write.active) {
            return true;
        }
        try {
            loop.actions().del(c.write, EventActions.WRITE_EVENT, 0);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void write(Event ev) {
        Connection c = ev.connection();
        State s = (State) c.data;
        if (!flush(c, s)) {
            closedError++;
            close(c);
            return;
        }
        idle(c, s);
    }

    /* Keep-alive: with the reply sent, the connection waits for the next request at most idleTimeoutMs. */
    private void idle(Connection c, State s) {
        if (idleTimeoutMs > 0 && s.pendingStart == s.pendingEnd && !c.read.timerSet()) {
            loop.addTimer(c.read, idleTimeoutMs);
        }
    }

    private void close(Connection c) {
        c.data = null;
        open--;
        c.close();
    }

    /**
     * Returns how many connections are open.
     *
     * @return the count
     */
    public int open() {
        return open;
    }

    /**
     * Returns the most connections open at once.
     *
     * @return the count
     */
    public int maxOpen() {
        return maxOpen;
    }

    /**
     * Returns how many connections were accepted.
     *
     * @return the count
     */
    public int accepted() {
        return accepted;
    }

    /**
     * Returns how many lines were echoed.
     *
     * @return the count
     */
    public int lines() {
        return lines;
    }

    /**
     * Returns how many connections the idle timer closed.
     *
     * @return the count
     */
    public int closedIdle() {
        return closedIdle;
    }

    /**
     * Returns how many connections closed because the client did.
     *
     * @return the count
     */
    public int closedEof() {
        return closedEof;
    }

    /**
     * Returns how many connections closed on an error.
     *
     * @return the count
     */
    public int closedError() {
        return closedError;
    }
}
