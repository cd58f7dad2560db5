package jinx.kernel.internal.process;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.ObjIntConsumer;

import jinx.kernel.Listening;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Polling;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.WarmUpExchange;

/**
 * The client side of a worker's warm-up ({@link WorkerWarmUp}), on a thread of its own: for each listening socket
 * a socket pair whose server end the loop accepts ({@code accept}, called here, hands it over), then the
 * modules' exchanges round after round, each request sent whole and its response read to its end, until the JIT
 * compiler has had nothing new to compile for {@link #QUIET_MS} after at least {@link #MIN_REQUESTS} requests, or
 * the deadline passes, or {@link #stop()} is called.
 *
 * <p>The server's responses are read and dropped; a connection the server closed (or that gave no answer within
 * {@link #TIMEOUT_MS}) is replaced by a new one. All I/O is non-blocking with {@code poll(2)}, so no exchange
 * can hold the thread past the deadline by more than a timeout.
 */
final class WarmUpClient implements Runnable {

    /** Requests before the compiler's quiet counts: enough for C2's thresholds on every per-request method. */
    static final int MIN_REQUESTS = 12_000;
    /**
     * Requests after which the client only waits for the compiler to finish what they queued: more would take
     * CPU from it, on a machine that gives a quiet worker only its idle time.
     */
    static final int MAX_REQUESTS = 30_000;
    /** How long the compiler must have been idle. */
    static final long QUIET_MS = 300;
    /** The longest wait for one read or write. */
    static final int TIMEOUT_MS = 1000;
    /** Failed exchanges after which the warm-up gives up. */
    static final int MAX_FAILURES = 50;

    private static final int BUFFER = 16 * 1024;

    /** One listening socket and the exchanges its module offered. */
    record Target(Listening ls, List<WarmUpExchange> exchanges) {
    }

    private final List<Target> targets;
    private final long deadlineNs;
    private final ObjIntConsumer<Listening> accept;
    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();

    private volatile boolean stop;
    private volatile boolean done;
    private volatile long requests;
    private volatile int failures;
    private volatile String why = "";

    private final NativeMemory memory = new NativeMemory();
    private final long rbuf = memory.allocate(BUFFER);
    private final long wbuf;
    private final long pollfd = memory.allocate(8);
    private final byte[] head = new byte[BUFFER];

    /**
     * @param targets the sockets and their exchanges, none empty
     * @param deadlineNs when to stop at the latest ({@link System#nanoTime()})
     * @param accept hands a server end to the loop: the loop accepts it on the listening socket
     */
    WarmUpClient(List<Target> targets, long deadlineNs, ObjIntConsumer<Listening> accept) {
        this.targets = targets;
        this.deadlineNs = deadlineNs;
        this.accept = accept;
        int longest = 1;
        for (Target t : targets) {
            for (WarmUpExchange e : t.exchanges()) {
                longest = Math.max(longest, e.request().length);
            }
        }
        this.wbuf = memory.allocate(longest);
    }

    /** Asks the thread to finish after its current exchange. */
    void stop() {
        stop = true;
    }

    boolean done() {
        return done;
    }

    long requests() {
        return requests;
    }

    int failures() {
        return failures;
    }

    /** Why it ended: empty when the compiler settled, else the reason. */
    String why() {
        return why;
    }

    @Override
    public void run() {
        int[] fds = new int[targets.size()];
        java.util.Arrays.fill(fds, -1);
        try {
            exchangeUntilSettled(fds);
        } catch (NativeIoException | RuntimeException e) {
            why = e.getMessage();
        } finally {
            for (int fd : fds) {
                close(fd);
            }
            memory.close();
            done = true;
        }
    }

    private void exchangeUntilSettled(int[] fds) throws NativeIoException {
        long compileMs = compiler.getTotalCompilationTime();
        long quietSinceNs = System.nanoTime();
        long n = 0;
        while (!stop) {
            if (n >= MAX_REQUESTS) {
                sleep();
            }
            for (int i = 0; i < fds.length && !stop && n < MAX_REQUESTS; i++) {
                for (WarmUpExchange e : targets.get(i).exchanges()) {
                    if (fds[i] == -1) {
                        fds[i] = open(targets.get(i).ls());
                    }
                    int rc = exchange(fds[i], e);
                    if (rc != Rc.OK) {
                        close(fds[i]);
                        fds[i] = -1;
                    }
                    if (rc == Rc.ERROR && ++failures >= MAX_FAILURES) {
                        why = failures + " exchanges failed";
                        return;
                    }
                    if (rc != Rc.DECLINED) {
                        requests = ++n;
                    }
                }
            }
            long now = System.nanoTime();
            if (now - deadlineNs >= 0) {
                why = "the time allowed ran out";
                return;
            }
            long c = compiler.getTotalCompilationTime();
            if (c != compileMs) {
                compileMs = c;
                quietSinceNs = now;
            } else if (n >= MIN_REQUESTS && now - quietSinceNs >= QUIET_MS * 1_000_000L) {
                return;
            }
        }
        why = "stopped";
    }

    private static void sleep() {
        try {
            Thread.sleep(QUIET_MS / 10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int open(Listening ls) throws NativeIoException {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
            Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        accept.accept(ls, sv[0]);
        return sv[1];
    }

    /**
     * One request and its response: OK; DONE when the server closed the connection after a whole response;
     * DECLINED when it had closed it before the request (a new connection is due); ERROR when it failed.
     */
    private int exchange(int fd, WarmUpExchange e) throws NativeIoException {
        byte[] req = e.request();
        NativeMemory.view(wbuf, req.length).put(req);
        int sent = 0;
        while (sent < req.length) {
            int n;
            try {
                n = Sockets.send(fd, wbuf + sent, req.length - sent);
            } catch (NativeIoException x) {
                // EPIPE: the server ended the connection after the last response (keepalive_requests)
                return sent == 0 ? Rc.DECLINED : Rc.ERROR;
            }
            if (n == Rc.AGAIN) {
                if (!await(fd, Platform.POLLOUT)) {
                    return Rc.ERROR;
                }
                continue;
            }
            sent += n;
        }
        int len = 0;
        long total = -1;
        long got = 0;
        for (;;) {
            int n;
            try {
                n = Syscalls.read(fd, rbuf, BUFFER);
            } catch (NativeIoException x) {
                // ECONNRESET: the server closed with this request unread, as at the end of keep-alive
                return got == 0 && x.errno() == Errors.ECONNRESET ? Rc.DECLINED : Rc.ERROR;
            }
            if (n == Rc.AGAIN) {
                if (!await(fd, Platform.POLLIN)) {
                    return Rc.ERROR;
                }
                continue;
            }
            if (n == 0) {
                if (got == 0) {
                    // closed before this request was read: the end of a keep-alive connection, not a failure
                    return Rc.DECLINED;
                }
                return total == Integer.MAX_VALUE ? Rc.DONE : Rc.ERROR;
            }
            got += n;
            if (total < 0) {
                int take = Math.min(n, head.length - len);
                NativeMemory.view(rbuf, take).get(head, len, take);
                len += take;
                total = e.responseLength(head, len);
                if (total < 0 && len == head.length) {
                    return Rc.ERROR;
                }
            }
            if (total >= 0 && total != Integer.MAX_VALUE && got >= total) {
                return got == total ? Rc.OK : Rc.ERROR;
            }
        }
    }

    /** Waits for {@code events} on {@code fd}; false on a timeout or at the deadline. */
    private boolean await(int fd, int events) throws NativeIoException {
        NativeMemory.putInt(pollfd + Platform.OFFSETOF_POLLFD_FD, fd);
        NativeMemory.putShort(pollfd + Platform.OFFSETOF_POLLFD_EVENTS, (short) events);
        NativeMemory.putShort(pollfd + Platform.OFFSETOF_POLLFD_REVENTS, (short) 0);
        return Polling.poll(pollfd, 1, TIMEOUT_MS) > 0 && !stop;
    }

    private static void close(int fd) {
        if (fd == -1) {
            return;
        }
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // the warm-up's own socket: nothing to tell anyone
        }
    }
}
