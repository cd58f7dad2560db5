package jinx.kernel;

/**
 * A loop's connection slots: nginx's {@code cycle->connections}, the free list threaded through the slots
 * themselves, and the queue of reusable (idle) connections closed first when free slots run short
 * ({@code ngx_get_connection()}, {@code ngx_free_connection()}, {@code ngx_drain_connections()},
 * {@code ngx_reusable_connection()} in src/core/ngx_connection.c).
 */
final class ConnectionSlots {

    private final EventLoop loop;
    private final Connection[] slots;
    private Connection free;
    private int freeCount;
    /** Newest first: drained from the tail, so the connection idle longest goes first. */
    private Connection reusableHead;
    private Connection reusableTail;
    private int reusableCount;
    private long lastReuseWarning = Long.MIN_VALUE;

    ConnectionSlots(EventLoop loop, int n) {
        this.loop = loop;
        this.slots = new Connection[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new Connection(loop, i);
        }
        for (int i = n - 1; i >= 0; i--) {
            slots[i].nextFree = free;
            free = slots[i];
        }
        freeCount = n;
    }

    int size() {
        return slots.length;
    }

    int freeCount() {
        return freeCount;
    }

    int reusableCount() {
        return reusableCount;
    }

    Connection slot(int i) {
        return slots[i];
    }

    Connection get(int fd, ErrorLog log) {
        drain();
        Connection c = free;
        if (c == null) {
            loop.log().log(LogLevel.ALERT, slots.length + " worker_connections are not enough");
            return null;
        }
        free = c.nextFree;
        freeCount--;
        c.lend(fd, log);
        return c;
    }

    void free(Connection c) {
        c.nextFree = free;
        c.data = null;
        free = c;
        freeCount++;
    }

    void reusable(Connection c, boolean reusable) {
        if (c.reusable) {
            unlinkReusable(c);
        }
        c.reusable = reusable;
        if (!reusable) {
            return;
        }
        c.reusablePrev = null;
        c.reusableNext = reusableHead;
        if (reusableHead != null) {
            reusableHead.reusablePrev = c;
        } else {
            reusableTail = c;
        }
        reusableHead = c;
        reusableCount++;
    }

    private void unlinkReusable(Connection c) {
        if (c.reusablePrev == null) {
            reusableHead = c.reusableNext;
        } else {
            c.reusablePrev.reusableNext = c.reusableNext;
        }
        if (c.reusableNext == null) {
            reusableTail = c.reusablePrev;
        } else {
            c.reusableNext.reusablePrev = c.reusablePrev;
        }
        c.reusablePrev = null;
        c.reusableNext = null;
        reusableCount--;
    }

    /** Closes idle connections when free slots fall to 1/16: at most 32, an eighth of the idle, one at least. */
    private void drain() {
        if (freeCount > slots.length / 16 || reusableCount == 0) {
            return;
        }
        long second = loop.wallMillis() / 1000;
        if (second != lastReuseWarning) {
            lastReuseWarning = second;
            loop.log().warn(slots.length + " worker_connections are not enough, reusing connections");
        }
        int n = Math.max(Math.min(32, reusableCount / 8), 1);
        for (int i = 0; i < n && reusableTail != null; i++) {
            Connection c = reusableTail;
            c.close = true;
            c.read.handler.handle(c.read);
        }
    }
}
