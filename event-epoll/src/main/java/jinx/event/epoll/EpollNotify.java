package jinx.event.epoll;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * The loop's wake-up channel: nginx's {@code ngx_epoll_notify_init()}, {@code ngx_epoll_notify()} and
 * {@code ngx_epoll_notify_handler()}. {@link #notify(Runnable)} (any thread) queues the runnable and writes an
 * eventfd registered with the loop's epoll instance; the loop thread's {@link #handle(Event)} reads the eventfd,
 * resetting it, then runs what was queued before the reset.
 *
 * <p>The eventfd is registered level-triggered with {@link #DATA} and read on every wake-up. (nginx registers it
 * edge-triggered and reads it once every 2^32 wake-ups; one read per batch of notifies is cheap and cannot lose a
 * wake-up whatever the kernel's edge rules for eventfd.) A runnable queued after the reset wrote the eventfd
 * after the reset, so the next wait wakes for it; a runnable that throws leaves the rest queued and the eventfd
 * written again.
 */
final class EpollNotify {

    /** The eventfd's {@code data.u64}: all ones, which {@code slot << 1 | instance} never is. */
    static final long DATA = -1L;

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final Object lock = new Object();
    /** nginx's {@code notify_event}: what the loop calls or, with {@code POST_EVENTS}, posts. */
    private final Event event = new Event();
    /** Guarded by {@link #lock}: -1 before {@link #open} and after {@link #close}. */
    private int fd = -1;
    private long scratch;
    private ErrorLog log;

    EpollNotify() {
        EventHandler handler = this::handle;
        event.handler = handler;
        event.active = true;
    }

    /**
     * Creates the eventfd ({@code EFD_NONBLOCK | EFD_CLOEXEC}) and registers it, level-triggered, for reading.
     *
     * @param ep the epoll descriptor
     * @param ctlEvent a one-entry array to pass to {@code epoll_ctl}
     * @param eventfdScratch 8 bytes of native memory the reads go to
     * @param loopLog the loop's log
     * @throws IOException {@code eventfd() failed (...)}, {@code epoll_ctl(EPOLL_CTL_ADD, eventfd) failed (...)}
     */
    void open(int ep, EpollEventArray ctlEvent, long eventfdScratch, ErrorLog loopLog) throws IOException {
        log = loopLog;
        event.log = loopLog;
        scratch = eventfdScratch;
        int efd = Syscalls.eventfd(0, Platform.EFD_NONBLOCK | Platform.EFD_CLOEXEC);
        synchronized (lock) {
            fd = efd;
        }
        ctlEvent.set(0, Platform.EPOLLIN, DATA);
        try {
            EpollSyscalls.ctl(ep, Platform.EPOLL_CTL_ADD, efd, ctlEvent.address());
        } catch (NativeIoException e) {
            throw new NativeIoException("epoll_ctl(EPOLL_CTL_ADD, eventfd)", e.errno(), Errors.text(e.errno()));
        }
        if (log.isEnabled(LogLevel.DEBUG)) {
            log.log(LogLevel.DEBUG, "notify eventfd: " + efd);
        }
    }

    /**
     * Closes the eventfd and drops what is queued. Idempotent.
     */
    void close() {
        synchronized (lock) {
            if (fd != -1) {
                try {
                    Syscalls.close(fd);
                } catch (NativeIoException e) {
                    log.alert("eventfd close() failed (" + e.errno() + ": " + Errors.text(e.errno()) + ")");
                }
                fd = -1;
            }
        }
        queue.clear();
    }

    /**
     * Returns the event the loop calls or posts when the eventfd is readable.
     *
     * @return nginx's {@code notify_event}
     */
    Event event() {
        return event;
    }

    /**
     * Queues {@code handler} and writes the eventfd. Any thread.
     *
     * @param handler what to run on the loop's thread
     * @throws IllegalStateException before {@link #open} or after {@link #close}
     */
    void notify(Runnable handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (lock) {
            if (fd == -1) {
                throw new IllegalStateException("epoll: notify on a loop that is not running");
            }
            queue.offer(handler);
            wake();
        }
    }

    /** The eventfd's handler, nginx's {@code ngx_epoll_notify_handler()}: reset, then run what was queued. */
    void handle(Event ev) {
        int efd;
        synchronized (lock) {
            efd = fd;
        }
        try {
            Syscalls.eventfdRead(efd, scratch);
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
        }
        int n = queue.size();
        boolean finished = false;
        try {
            for (int i = 0; i < n; i++) {
                Runnable r = queue.poll();
                if (r == null) {
                    break;
                }
                r.run();
            }
            finished = true;
        } finally {
            if (!finished && !queue.isEmpty()) {
                synchronized (lock) {
                    if (fd != -1) {
                        wake();
                    }
                }
            }
        }
    }

    /** Writes the eventfd; the caller holds {@link #lock} and has checked that it is open. */
    private void wake() {
        try {
            Syscalls.eventfdWrite(fd, 1);
        } catch (NativeIoException e) {
            // nginx: "write() to eventfd %d failed" at alert
            log.alert(e.getMessage());
        }
    }
}
