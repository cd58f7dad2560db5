package jinx.event.poll;

import java.util.ArrayDeque;
import java.util.Objects;

import jinx.kernel.ErrorLog;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;

/**
 * The poll method's {@code notify}: nginx's poll module has none, so ours borrows epoll's, an eventfd watched
 * level-triggered for {@code POLLIN} in the pollfd array, and a queue of handlers run on the loop's thread.
 *
 * <p>Thread contract: {@link #notify(Runnable)} runs on any thread; {@link #drain()} and {@link #close()} on the
 * loop's. One lock guards the queue, the pending-wakeup bit and the descriptor, so a late {@code notify} never
 * writes to a descriptor {@link #close()} has released (and the OS may have given to someone else). The queue
 * is an {@link ArrayDeque}: adding allocates nothing but its occasional growth.
 */
final class PollNotify {

    private final Object lock = new Object();
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final int fd;
    private final long scratch;
    private final ErrorLog log;
    /** An eventfd write is outstanding: further notifies add to the queue only. Guarded by {@link #lock}. */
    private boolean wakeupPending;
    /** {@link #close()} ran: handlers are dropped. Guarded by {@link #lock}. */
    private boolean closed;

    /**
     * Wraps an eventfd.
     *
     * @param fd a non-blocking eventfd this object now owns
     * @param scratch the address of 8 bytes of native memory to read the counter into
     * @param log where failures go
     */
    PollNotify(int fd, long scratch, ErrorLog log) {
        this.fd = fd;
        this.scratch = scratch;
        this.log = log;
    }

    /**
     * Returns the eventfd.
     *
     * @return the descriptor
     */
    int fd() {
        return fd;
    }

    /**
     * Queues {@code handler} and wakes the loop; any thread. After {@link #close()} the handler is dropped: the
     * loop that would run it is gone.
     *
     * @param handler what to run on the loop's thread
     */
    void notify(Runnable handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (lock) {
            if (closed) {
                return;
            }
            queue.addLast(handler);
            wakeLocked();
        }
    }

    /**
     * Runs the handlers queued before this call, on the loop's thread, once {@code poll()} reported the eventfd
     * readable. The counter is reset first and the queue measured after, so a handler queued meanwhile either
     * runs now or has written the counter again and wakes the next {@code poll()}. Handlers queued by the
     * handlers run at the next turn, so a handler that keeps re-queueing itself cannot starve the loop. If a
     * handler throws, the exception goes to the loop as from any event handler, and the handlers left behind wake
     * the next turn.
     *
     * @throws NativeIoException when the eventfd cannot be read
     */
    void drain() throws NativeIoException {
        Syscalls.eventfdRead(fd, scratch);
        int n;
        synchronized (lock) {
            wakeupPending = false;
            n = queue.size();
        }
        for (; n > 0; n--) {
            Runnable handler;
            synchronized (lock) {
                handler = queue.pollFirst();
            }
            if (handler == null) {
                return;
            }
            boolean done = false;
            try {
                handler.run();
                done = true;
            } finally {
                if (!done) {
                    synchronized (lock) {
                        if (!queue.isEmpty()) {
                            wakeLocked();
                        }
                    }
                }
            }
        }
    }

    /**
     * Returns the number of handlers waiting.
     *
     * @return the count
     */
    int queued() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /**
     * Drops the waiting handlers and closes the eventfd. Idempotent.
     */
    void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                log.alert(e.getMessage());
            }
        }
    }

    private void wakeLocked() {
        if (wakeupPending) {
            return;
        }
        wakeupPending = true;
        try {
            Syscalls.eventfdWrite(fd, 1);
        } catch (NativeIoException e) {
            wakeupPending = false;
            log.alert(e.getMessage());
        }
    }
}
