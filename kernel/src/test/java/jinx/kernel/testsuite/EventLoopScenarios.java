package jinx.kernel.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.LoopHarness.Fd;
import jinx.kernel.testsuite.LoopHarness.LoopThread;

/**
 * The loop-wide half of the event-method contract ({@link EventActionsContract} extends it): a whole
 * {@link EventLoop} over the method serving real connections on 127.0.0.1 — 5,000 at once, slot exhaustion with
 * {@code worker_connections 8}, a keep-alive line protocol whose idle connections a timer closes, and the stale
 * event of a slot closed and lent again within one batch. It also holds the suite's set-up: the descriptor
 * baseline taken before each test and checked after it, and the {@link LoopHarness}.
 */
public abstract class EventLoopScenarios {

    /** Slots for the tests on a few sockets. */
    static final int SLOTS = 16;

    private Map<String, String> fdBaseline;
    /** The test's loops, sockets and log; closed after each test. */
    protected LoopHarness h;

    /**
     * Returns a fresh, uninitialised method table; the loop calls {@code init} on it.
     *
     * @return the table
     */
    protected abstract EventActions newActions();

    /**
     * Returns the method's name for the figures the suite prints ({@code CONTRACT-5000 epoll: ...}).
     *
     * @return the name; the table's class name unless overridden
     */
    protected String methodName() {
        return newActions().getClass().getSimpleName();
    }

    @BeforeEach
    final void contractSetUp() throws Exception {
        assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
        // one table made and finished before the baseline, so that what the method loads once is in it
        try (LoopHarness warm = new LoopHarness(LogLevel.WARN)) {
            warm.loop(newActions(), 1);
        }
        fdBaseline = OpenFds.baseline();
        h = new LoopHarness(LogLevel.INFO);
    }

    @AfterEach
    final void contractTearDown() throws Exception {
        if (h != null) {
            h.close();
        }
        if (fdBaseline != null) {
            OpenFds.assertBackTo(fdBaseline);
        }
    }

    /* ---- helpers for both halves ---- */

    /**
     * Tells whether the loop's method is edge-triggered.
     *
     * @param loop the loop
     * @return true with {@link EventActions#USE_CLEAR_EVENT}
     */
    protected static boolean clear(EventLoop loop) {
        return (loop.methodFlags() & EventActions.USE_CLEAR_EVENT) != 0;
    }

    /**
     * Returns the flags a protocol registers with, as nginx's {@code ngx_handle_read_event()} picks them.
     *
     * @param loop the loop
     * @return {@link EventActions#CLEAR_EVENT} or {@link EventActions#LEVEL_EVENT}
     */
    protected static int addFlags(EventLoop loop) {
        return clear(loop) ? EventActions.CLEAR_EVENT : EventActions.LEVEL_EVENT;
    }

    /**
     * Lends a slot to a descriptor; the loop closes it from then on.
     *
     * @param loop the loop
     * @param fd the descriptor, handed over
     * @return the connection
     */
    protected Connection lend(EventLoop loop, Fd fd) {
        Connection c = loop.getConnection(fd.handOver(), h.log());
        assertNotNull(c, "no free slot");
        return c;
    }

    /**
     * Turns the loop on this thread for {@code ms}, whatever happens.
     *
     * @param loop the loop
     * @param ms how long
     * @throws IOException when waiting fails
     */
    protected static void turnFor(EventLoop loop, long ms) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        for (long left = ms; left > 0; left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            loop.actions().processEvents(left, EventActions.UPDATE_TIME);
        }
    }

    /**
     * Encodes ASCII.
     *
     * @param s the text
     * @return the bytes
     */
    protected static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Reads what a socket holds until AGAIN; {@code "EOF"} is appended when recv() returned 0.
     *
     * @param fd the socket
     * @param buf native scratch memory
     * @param size its size
     * @return the text read
     * @throws NativeIoException when recv() fails
     */
    protected static String drain(int fd, long buf, int size) throws NativeIoException {
        StringBuilder sb = new StringBuilder();
        byte[] bytes = new byte[size];
        for (;;) {
            int n = Sockets.recv(fd, buf, size);
            if (n == Rc.AGAIN) {
                return sb.toString();
            }
            if (n == 0) {
                return sb.append("EOF").toString();
            }
            NativeMemory.get(buf, bytes, 0, n);
            sb.append(new String(bytes, 0, n, StandardCharsets.US_ASCII));
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new IOException("EOF after \"" + sb + "\"");
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    /* Whether the server closed the client: EOF, or a reset when the server closed with data unread. */
    private static boolean closedByServer(Socket s) throws IOException {
        try {
            return s.getInputStream().read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    /* ---- 5,000 connections ---- */

    /**
     * 5,000 clients connected at once to one loop over this method, each served a line echo; then all close.
     * Afterwards every slot is back on the free list and the process's descriptors are back to what they were.
     * Prints one line of figures, {@code CONTRACT-5000 <method>: ...}, for the closing note.
     */
    @Test
    @Tag("slow")
    @Timeout(value = 180, threadMode = ThreadMode.SEPARATE_THREAD)
    void fiveThousandConnections() throws Exception {
        int n = 5000;
        Syscalls.Rlimit nofile = Syscalls.getrlimit(Platform.RLIMIT_NOFILE);
        assumeTrue(nofile.soft() == Platform.RLIM_INFINITY || nofile.soft() >= 12_000,
            "RLIMIT_NOFILE " + nofile.soft() + " is below 12,000: 5,000 clients and 5,000 server sockets");
        int slots = n + 64;
        EventLoop loop = h.loop(newActions(), slots);
        Listening ls = h.listening(4096);
        NativeMemory memory = new NativeMemory();
        h.closeLater(memory);
        LineEcho echo = new LineEcho(loop, 0, memory);
        ls.handler = echo::accept;
        loop.listen(ls);
        LoopThread t = h.start(loop, "contract-5000");
        Map<String, String> running = OpenFds.open();
        long allocatedBefore = allocatedBytes(t.thread());
        long turnsBefore = t.turns();
        long start = System.nanoTime();

        Socket[] clients = new Socket[n];
        for (int i = 0; i < n; i++) {
            clients[i] = h.client(ls, 30_000);
            clients[i].getOutputStream().write(ascii("hello " + i + "\n"));
        }
        for (int i = 0; i < n; i++) {
            assertEquals("hello " + i, readLine(clients[i].getInputStream()), "echo " + i);
        }
        int open = echo.open();
        int fdsAtPeak = OpenFds.count();
        long connected = System.nanoTime();
        for (Socket s : clients) {
            s.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (echo.open() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        long end = System.nanoTime();
        long allocated = allocatedBytes(t.thread()) - allocatedBefore;
        long turns = t.turns() - turnsBefore;

        assertEquals(n, open, "connections open at once");
        assertEquals(n, echo.accepted(), "accepted");
        assertEquals(n, echo.lines(), "lines echoed");
        assertEquals(0, echo.open(), "server connections left open");
        assertEquals(n, echo.closedEof(), "closed on the client's EOF");
        assertEquals(slots - 1, (int) t.call(loop::freeConnectionCount), "every slot but the listener's free");
        OpenFds.assertBackTo(running);
        t.stop();

        double wallMs = (end - start) / 1e6;
        System.out.printf(Locale.ROOT, "CONTRACT-5000 %s: connections=%d simultaneous=%d wall=%.0f ms"
                + " (connect+echo %.0f ms, close %.0f ms) turns=%d fds-at-peak=%d"
                + " loop-thread-allocated=%s bytes (%s bytes/connection) free-slots=%d/%d fds-back-to-baseline=yes%n",
            methodName(), n, open, wallMs, (connected - start) / 1e6, (end - connected) / 1e6, turns, fdsAtPeak,
            allocated < 0 ? "n/a" : Long.toString(allocated),
            allocated < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", (double) allocated / n), slots - 1, slots);
    }

    /*
     * com.sun.management.ThreadMXBean.getThreadAllocatedBytes, through reflection: the kernel's tests compile
     * inside module jinx.kernel, which does not read java.management. -1 where the JVM lacks the counter.
     */
    private static long allocatedBytes(Thread thread) {
        try {
            Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
            Class<?> sunMx = Class.forName("com.sun.management.ThreadMXBean");
            if (!sunMx.isInstance(mx) || !(Boolean) sunMx.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx)) {
                return -1;
            }
            return (Long) sunMx.getMethod("getThreadAllocatedBytes", long.class).invoke(mx, thread.getId());
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }

    /* ---- slot exhaustion ---- */

    /**
     * {@code worker_connections 8}: the listener takes a slot, seven idle (reusable) clients the rest. An eighth
     * client is admitted by closing the connection idle longest, with nginx's warning; once no connection is
     * reusable, the next client is closed at once, with nginx's alert.
     */
    @Test
    @Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
    void slotExhaustion() throws Exception {
        int slots = 8;
        EventLoop loop = h.loop(newActions(), slots);
        Listening ls = h.listening(64);
        long buf = h.memory(64);
        List<Long> accepted = new ArrayList<>();
        List<Long> reclaimed = new ArrayList<>();
        List<Long> busy = new ArrayList<>();
        ls.handler = c -> {
            accepted.add(c.number);
            c.read.handler = ev -> {
                Connection cc = ev.connection();
                if (cc.close) {
                    // the loop reclaims an idle connection: nginx's c->close, seen by the read handler
                    reclaimed.add(cc.number);
                    cc.close();
                    return;
                }
                try {
                    String got = drain(cc.fd(), buf, 64);
                    if (got.endsWith("EOF")) {
                        cc.close();
                    } else if (!got.isEmpty() && cc.reusable()) {
                        loop.reusableConnection(cc, false);
                        busy.add(cc.number);
                    }
                } catch (NativeIoException e) {
                    cc.close();
                }
            };
            try {
                loop.actions().add(c.read, EventActions.READ_EVENT, addFlags(loop));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            loop.reusableConnection(c, true);
        };
        loop.listen(ls);

        Socket[] clients = new Socket[9];
        for (int i = 0; i < 7; i++) {
            clients[i] = h.client(ls, 2000);
            int k = i + 1;
            assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> accepted.size() == k), "client " + i);
        }
        assertEquals(0, loop.freeConnectionCount(), "free slots");
        assertEquals(7, loop.reusableConnectionCount(), "idle connections");

        clients[7] = h.client(ls, 2000);
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> accepted.size() == 8), "eighth client");
        assertEquals(List.of(accepted.get(0)), reclaimed, "the connection idle longest closed");
        assertTrue(closedByServer(clients[0]), "first client not closed");
        assertTrue(Pattern.compile("\\[warn\\] \\d+#\\d+: 8 worker_connections are not enough, reusing connections\n")
            .matcher(h.logText()).find(), "warning missing:\n" + h.logText());
        assertEquals(7, loop.reusableConnectionCount(), "idle connections after the swap");

        for (int i = 1; i < 8; i++) {
            OutputStream out = clients[i].getOutputStream();
            out.write('x');
            out.flush();
        }
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> busy.size() == 7), "busy clients " + busy);
        assertEquals(0, loop.reusableConnectionCount(), "no connection reusable");

        clients[8] = h.client(ls, 2000);
        Pattern alert = Pattern.compile("\\[alert\\] \\d+#\\d+: 8 worker_connections are not enough\n");
        assertTrue(LoopHarness.turnUntil(loop, 100, 5000, () -> alert.matcher(h.logText()).find()),
            "alert missing:\n" + h.logText());
        assertTrue(closedByServer(clients[8]), "the client with no slot not closed");
        assertEquals(8, accepted.size(), "a client accepted without a slot");
        assertEquals(1, reclaimed.size(), "a busy connection reclaimed");
        assertEquals(0, loop.freeConnectionCount(), "free slots");
    }

    /* ---- a keep-alive protocol with an idle timer ---- */

    /**
     * {@link LineEcho} serves 40 clients at once through the real loop: each sends four requests 400 ms apart
     * (the first in two parts, so the handler meets AGAIN mid-line) on one keep-alive connection, which thus lives
     * longer than the idle timeout, then goes idle and is closed by the loop's timer 1 s after its last request —
     * not before, and not later than the timer's 300 ms lazy update plus scheduling slack.
     */
    @Test
    @Tag("slow")
    @Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
    void keepAliveProtocolWithIdleTimer() throws Exception {
        int n = 40;
        long idleMs = 1000;
        long slackMs = 700;
        EventLoop loop = h.loop(newActions(), 128);
        Listening ls = h.listening(128);
        NativeMemory memory = new NativeMemory();
        h.closeLater(memory);
        LineEcho echo = new LineEcho(loop, idleMs, memory);
        ls.handler = echo::accept;
        loop.listen(ls);
        LoopThread t = h.start(loop, "contract-keepalive");

        ExecutorService pool = Executors.newFixedThreadPool(n);
        h.closeLater(pool::shutdownNow);
        List<Future<long[]>> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            results.add(pool.submit(() -> keepAliveClient(ls, id, idleMs, slackMs)));
        }
        for (int i = 0; i < n; i++) {
            long[] r = results.get(i).get(30, TimeUnit.SECONDS);
            long sinceRequest = TimeUnit.NANOSECONDS.toMillis(r[2] - r[0]);
            long sinceReply = TimeUnit.NANOSECONDS.toMillis(r[2] - r[1]);
            // the loop's clock is whole milliseconds, read after the request arrived: the timer cannot expire
            // sooner than idleMs - 1 after the client sent its last request
            assertTrue(sinceRequest >= idleMs - 1, "client " + i + " closed " + sinceRequest + " ms after its request");
            assertTrue(sinceReply <= idleMs + 300 + slackMs, "client " + i + " closed " + sinceReply
                + " ms after its reply");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (echo.open() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        assertEquals(n, echo.accepted(), "accepted");
        assertEquals(4 * n, echo.lines(), "lines echoed");
        assertEquals(n, echo.closedIdle(), "closed by the idle timer");
        assertEquals(0, echo.closedError(), "closed on errors");
        assertEquals(0, (int) t.call(loop::timerCount), "timers left");
        t.stop();
    }

    /* Four requests on one connection, then idle; returns {last request sent, its reply read, EOF seen} in ns. */
    private long[] keepAliveClient(Listening ls, int id, long idleMs, long slackMs) throws Exception {
        Socket s = h.client(ls, (int) (idleMs + 300 + slackMs + 2000));
        OutputStream out = s.getOutputStream();
        InputStream in = s.getInputStream();
        long sent = 0;
        long replied = 0;
        for (int r = 0; r < 4; r++) {
            if (r > 0) {
                Thread.sleep(400);
            }
            String line = "client " + id + " request " + r;
            sent = System.nanoTime();
            if (r == 0) {
                out.write(ascii(line.substring(0, 3)));
                out.flush();
                Thread.sleep(30);
            }
            out.write(ascii((r == 0 ? line.substring(3) : line) + "\n"));
            out.flush();
            assertEquals(line, readLine(in), "reply");
            replied = System.nanoTime();
        }
        assertEquals(-1, in.read(), "the idle connection must be closed, not sent anything");
        long eof = System.nanoTime();
        s.close();
        return new long[] {sent, replied, eof};
    }

    /* ---- stale events ---- */

    /**
     * The stale-event case provoked on purpose: connections X and A both have data, so one wait returns both. The
     * handler run first closes the other one and lends a new connection B its slot (the free list lends the slot
     * just freed), registering B for reading though B has nothing to read. The other one's event, already taken
     * from the kernel, must reach neither its old handler nor B's.
     *
     * <p>The mechanism is the method's. epoll hands back a batch copied out of the kernel, each entry carrying
     * the slot and its instance bit: the entry for A is still in the batch, and is skipped because the slot's
     * instance bit flipped when it was lent to B — {@link EventLoop#staleEvents()} counts it. poll (an fd-indexed
     * method, {@link EventActions#USE_FD_EVENT}) scans its own pollfd array after each handler: closing A removes
     * A's entry and its revents from the array, so the scan never meets A's readiness and nothing is counted.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void staleEventOfAConnectionClosedAndLentInTheSameBatch() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] px = h.socketPair();
        Fd[] pa = h.socketPair();
        Connection x = lend(loop, px[0]);
        Connection a = lend(loop, pa[0]);
        long buf = h.memory(64);
        int[] first = {0};
        int[] again = {0};
        int[] toB = {0};
        int[] victimSlot = {-1};
        Connection[] b = {null};
        Event[] firstEvent = {null};
        for (Connection[] pair : new Connection[][] {{x, a}, {a, x}}) {
            Connection self = pair[0];
            Connection other = pair[1];
            self.read.handler = ev -> {
                if (first[0]++ > 0) {
                    again[0]++;
                    return;
                }
                firstEvent[0] = ev;
                try {
                    drain(self.fd(), buf, 64);
                    victimSlot[0] = other.slot();
                    other.close();
                    b[0] = lend(loop, h.socketPair()[0]);
                    b[0].read.handler = e -> toB[0]++;
                    b[0].write.handler = e -> toB[0]++;
                    loop.actions().add(b[0].read, EventActions.READ_EVENT, addFlags(loop));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            };
            loop.actions().add(self.read, EventActions.READ_EVENT, addFlags(loop));
        }
        px[1].send(buf, ascii("x"));
        pa[1].send(buf, ascii("a"));
        long stale = loop.staleEvents();

        loop.actions().processEvents(1000, EventActions.UPDATE_TIME);

        assertEquals(1, first[0], "handlers run in the batch");
        assertEquals(0, again[0], "the closed connection's handler ran");
        assertEquals(victimSlot[0], b[0].slot(), "B took the closed connection's slot");
        assertEquals(0, toB[0], "the closed connection's event reached B");
        if ((loop.methodFlags() & EventActions.USE_FD_EVENT) == 0) {
            assertEquals(stale + 1, loop.staleEvents(), "the stale event skipped and counted");
        } else {
            assertEquals(stale, loop.staleEvents(), "an fd-indexed method drops the entry instead");
        }
        turnFor(loop, 100);
        assertEquals(0, toB[0], "B reported with nothing to read");
    }

    /**
     * The other stale case every method meets: one report carries both directions of X; X's read handler closes
     * X and lends its slot to B, registered for writing. X's write half must not reach B; it is skipped and
     * counted ({@link EventLoop#staleEvents()}) by every method.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void staleWriteHalfAfterTheReadHandlerClosed() throws Exception {
        EventLoop loop = h.loop(newActions(), SLOTS);
        Fd[] px = h.socketPair();
        Connection x = lend(loop, px[0]);
        long buf = h.memory(64);
        int slot = x.slot();
        int[] reads = {0};
        int[] toB = {0};
        Connection[] b = {null};
        x.read.handler = ev -> {
            reads[0]++;
            x.close();
            try {
                b[0] = lend(loop, h.socketPair()[0]);
                b[0].read.handler = e -> toB[0]++;
                b[0].write.handler = e -> toB[0]++;
                loop.actions().add(b[0].write, EventActions.WRITE_EVENT, addFlags(loop));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
        x.write.handler = ev -> { };
        loop.actions().add(x.read, EventActions.READ_EVENT, addFlags(loop));
        loop.actions().add(x.write, EventActions.WRITE_EVENT, addFlags(loop));
        px[1].send(buf, ascii("x"));
        long stale = loop.staleEvents();

        loop.actions().processEvents(1000, EventActions.UPDATE_TIME);

        assertEquals(1, reads[0], "X's read handler");
        assertEquals(slot, b[0].slot(), "B took X's slot");
        assertEquals(0, toB[0], "X's write half reached B");
        assertEquals(stale + 1, loop.staleEvents(), "the stale write half skipped and counted");
    }
}
