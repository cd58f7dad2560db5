package jinx.kernel.testsuite;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * What one contract test needs around a real {@link EventLoop}: a log captured in memory, socket pairs,
 * loopback listening sockets and clients, the loop run on a thread of its own, and a {@link #close()} that
 * releases everything in a fixed order (loop thread stopped, loop done, descriptors closed, memory freed) so the
 * test can then check the process's descriptors against its baseline.
 */
public final class LoopHarness implements AutoCloseable {

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final ErrorLog log;
    private final NativeMemory memory = new NativeMemory();
    private final List<EventLoop> loops = new ArrayList<>();
    private final List<LoopThread> threads = new ArrayList<>();
    private final List<Fd> fds = new ArrayList<>();
    private final List<Socket> clients = new ArrayList<>();
    private final List<AutoCloseable> others = new ArrayList<>();

    /**
     * A harness whose log keeps lines up to {@code level}.
     *
     * @param level the least severe level kept
     * @throws IOException never: the log writes to memory
     */
    public LoopHarness(LogLevel level) throws IOException {
        PrintStream stream = new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1);
        this.log = ErrorLog.open(List.of(new ErrorLog.Target(null, level)), stream);
    }

    /**
     * Returns the captured log.
     *
     * @return the log
     */
    public ErrorLog log() {
        return log;
    }

    /**
     * Returns what the log has captured so far.
     *
     * @return the text
     */
    public String logText() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Builds a loop over {@code actions} with {@code connections} slots, one worker's accept settings and no
     * cycle; {@link #close()} finishes it.
     *
     * @param actions a fresh table
     * @param connections {@code worker_connections}
     * @return the loop
     * @throws IOException when the method cannot start
     */
    public EventLoop loop(EventActions actions, int connections) throws IOException {
        return loop(actions, connections, 0, EventLoop.AcceptSettings.SINGLE);
    }

    /**
     * Builds a loop with the given {@code timer_resolution} and accept settings and no cycle; {@link #close()}
     * finishes it.
     *
     * @param actions a fresh table
     * @param connections {@code worker_connections}
     * @param timerResolution {@code timer_resolution} in ms, 0 for none
     * @param accept how the loop accepts ({@code multi_accept}, the delay after EMFILE)
     * @return the loop
     * @throws IOException when the method cannot start
     */
    public EventLoop loop(EventActions actions, int connections, long timerResolution,
                          EventLoop.AcceptSettings accept) throws IOException {
        EventLoop loop = new EventLoop(null, actions, connections, timerResolution, accept, log);
        loops.add(loop);
        return loop;
    }

    /**
     * Allocates native memory freed by {@link #close()}.
     *
     * @param size bytes
     * @return the address
     */
    public long memory(int size) {
        return memory.allocate(size);
    }

    /**
     * Creates a non-blocking unix stream socket pair; {@link #close()} closes what the test did not.
     *
     * @return the two ends
     * @throws NativeIoException when the call fails
     */
    public Fd[] socketPair() throws NativeIoException {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
            Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        return new Fd[] {track(sv[0]), track(sv[1])};
    }

    /**
     * Creates a connected non-blocking TCP pair over 127.0.0.1; the listening socket it took is closed again.
     *
     * @return the accepted end and the connecting end
     * @throws IOException when a call fails
     */
    public Fd[] tcpPair() throws IOException {
        Fd listener = listeningSocket(1);
        try {
            SockAddr addr = Sockets.getsockname(listener.fd());
            Fd client = track(Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0));
            Sockets.connect(client.fd(), addr);
            Syscalls.setNonBlocking(client.fd());
            int s = Rc.AGAIN;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (s == Rc.AGAIN && System.nanoTime() < deadline) {
                s = Sockets.accept4(listener.fd(), 0, 0, Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
                if (s == Rc.AGAIN) {
                    Thread.sleep(1);
                }
            }
            if (s == Rc.AGAIN) {
                throw new IOException("accept4() on 127.0.0.1: nothing came");
            }
            return new Fd[] {track(s), client};
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            listener.close();
        }
    }

    /**
     * Opens a non-blocking listening socket on 127.0.0.1 with a port the kernel picks, as a {@link Listening}
     * ready for {@link EventLoop#listen}; {@link #close()} closes it after the loops are done.
     *
     * @param backlog the accept queue's length
     * @return the listening socket, open
     * @throws NativeIoException when a call fails
     */
    public Listening listening(int backlog) throws NativeIoException {
        Fd fd = listeningSocket(backlog);
        Listening ls = new Listening(Sockets.getsockname(fd.fd()));
        ls.backlog = backlog;
        ls.open(fd.fd(), false);
        return ls;
    }

    /**
     * Opens a non-blocking UDP socket bound to 127.0.0.1 with a port the kernel picks, as a datagram
     * {@link Listening} ready for {@link EventLoop#listen}; {@link #close()} closes it after the loops are done.
     *
     * @return the listening socket, open
     * @throws NativeIoException when a call fails
     */
    public Listening datagramListening() throws NativeIoException {
        Fd fd = track(Sockets.socket(Platform.AF_INET, Platform.SOCK_DGRAM | Platform.SOCK_CLOEXEC, 0));
        Syscalls.setNonBlocking(fd.fd());
        Sockets.bind(fd.fd(), SockAddr.parse("127.0.0.1:0"));
        Listening ls = new Listening(Sockets.getsockname(fd.fd()));
        ls.datagram = true;
        ls.open(fd.fd(), false);
        return ls;
    }

    private Fd listeningSocket(int backlog) throws NativeIoException {
        Fd fd = track(Sockets.socket(Platform.AF_INET, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC, 0));
        Sockets.setsockopt(fd.fd(), Platform.SOL_SOCKET, Platform.SO_REUSEADDR, 1);
        Syscalls.setNonBlocking(fd.fd());
        Sockets.bind(fd.fd(), SockAddr.parse("127.0.0.1:0"));
        Sockets.listen(fd.fd(), backlog);
        return fd;
    }

    /**
     * Connects a blocking {@code java.net} client to a listening socket; {@link #close()} closes it.
     *
     * @param ls the listening socket
     * @param readTimeoutMs {@code SO_TIMEOUT}
     * @return the client
     * @throws IOException when the connection fails
     */
    public Socket client(Listening ls, int readTimeoutMs) throws IOException {
        Socket s = new Socket();
        synchronized (clients) {
            clients.add(s);
        }
        s.connect(new java.net.InetSocketAddress(ls.sockaddr().inetAddress(), ls.sockaddr().port()), 10_000);
        s.setSoTimeout(readTimeoutMs);
        s.setTcpNoDelay(true);
        return s;
    }

    /**
     * Closes something at {@link #close()}, after the loops and descriptors.
     *
     * @param c what to close
     */
    public void closeLater(AutoCloseable c) {
        others.add(c);
    }

    /**
     * Wraps a descriptor so that {@link #close()} closes it unless the test did.
     *
     * @param fd the descriptor
     * @return the wrapper
     */
    public Fd track(int fd) {
        Fd f = new Fd(fd);
        fds.add(f);
        return f;
    }

    /**
     * Runs {@code loop} on a thread of its own, turn after turn, until {@link LoopThread#stop()}.
     *
     * @param loop the loop, not yet driven by any other thread
     * @param name the thread's name
     * @return the running thread
     */
    public LoopThread start(EventLoop loop, String name) {
        LoopThread t = new LoopThread(loop, name);
        threads.add(t);
        t.thread.start();
        return t;
    }

    /**
     * Turns {@code loop} on the calling thread, each wait at most {@code waitMs}, until {@code done} holds or
     * {@code timeoutMs} pass.
     *
     * @param loop the loop
     * @param waitMs the longest single wait
     * @param timeoutMs the longest in all
     * @param done the condition
     * @return whether the condition holds
     * @throws IOException when waiting fails
     */
    public static boolean turnUntil(EventLoop loop, long waitMs, long timeoutMs, BooleanSupplier done)
        throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            loop.actions().processEvents(waitMs, EventActions.UPDATE_TIME);
        }
        return true;
    }

    /**
     * Stops the loop threads, finishes the loops, closes the descriptors and clients, frees the memory and closes
     * the log. The first failure is thrown after everything has been tried: an {@link IOException} as it is, an
     * assertion or runtime failure as it is, anything else wrapped.
     *
     * @throws IOException the first failure
     */
    @Override
    public void close() throws IOException {
        Throwable first = null;
        for (LoopThread t : threads) {
            first = attempt(first, t::stop);
        }
        for (EventLoop loop : loops) {
            first = attempt(first, loop::done);
        }
        synchronized (clients) {
            for (Socket s : clients) {
                first = attempt(first, s::close);
            }
        }
        for (Fd fd : fds) {
            first = attempt(first, fd::close);
        }
        for (AutoCloseable c : others) {
            first = attempt(first, c::close);
        }
        memory.close();
        log.close();
        if (first instanceof IOException e) {
            throw e;
        }
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IOException(first);
        }
    }

    private static Throwable attempt(Throwable first, AutoCloseable step) {
        try {
            step.close();
            return first;
        } catch (Exception | AssertionError e) {
            if (first == null) {
                return e;
            }
            first.addSuppressed(e);
            return first;
        }
    }

    /**
     * A descriptor closed once.
     */
    public static final class Fd implements AutoCloseable {

        private int fd;

        Fd(int fd) {
            this.fd = fd;
        }

        /**
         * Returns the descriptor.
         *
         * @return the descriptor, -1 once closed or handed over
         */
        public int fd() {
            return fd;
        }

        /**
         * Hands the descriptor to an owner that closes it (a loop's connection): this wrapper forgets it.
         *
         * @return the descriptor
         */
        public int handOver() {
            int d = fd;
            fd = -1;
            return d;
        }

        /**
         * Writes bytes, all of them, retrying while the socket buffer is full.
         *
         * @param scratch native memory of at least {@code bytes.length}
         * @param bytes what to write
         * @throws NativeIoException when the call fails
         */
        public void send(long scratch, byte[] bytes) throws NativeIoException {
            NativeMemory.put(scratch, bytes, 0, bytes.length);
            int off = 0;
            while (off < bytes.length) {
                int n = Sockets.send(fd, scratch + off, bytes.length - off);
                if (n == Rc.AGAIN) {
                    Thread.yield();
                    continue;
                }
                off += n;
            }
        }

        /**
         * Closes the descriptor unless closed already.
         *
         * @throws NativeIoException when {@code close()} fails
         */
        @Override
        public void close() throws NativeIoException {
            if (fd == -1) {
                return;
            }
            int d = fd;
            fd = -1;
            Syscalls.close(d);
        }
    }

    /**
     * A loop turning on a thread of its own: nginx's worker, stopped through {@link EventLoop#notify}.
     */
    public static final class LoopThread {

        private final EventLoop loop;
        private final Thread thread;
        private volatile boolean stopping;
        private volatile Throwable failure;
        private volatile long turns;

        LoopThread(EventLoop loop, String name) {
            this.loop = loop;
            this.thread = new Thread(this::run, name);
            this.thread.setDaemon(true);
        }

        private void run() {
            try {
                while (!stopping) {
                    loop.processEventsAndTimers();
                    turns++;
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        /**
         * Returns the loop's thread.
         *
         * @return the thread
         */
        public Thread thread() {
            return thread;
        }

        /**
         * Returns how many turns the loop has finished.
         *
         * @return the count
         */
        public long turns() {
            return turns;
        }

        /**
         * Returns what the loop threw, if it stopped on a failure.
         *
         * @return the failure, or null
         */
        public Throwable failure() {
            return failure;
        }

        /**
         * Runs {@code task} on the loop's thread and waits for its result.
         *
         * @param task what to run
         * @param <T> the result's type
         * @return the result
         * @throws Exception what the task threw, or a timeout after 10 s
         */
        public <T> T call(Callable<T> task) throws Exception {
            CompletableFuture<T> result = new CompletableFuture<>();
            loop.notify(() -> {
                try {
                    result.complete(task.call());
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
            return result.get(10, TimeUnit.SECONDS);
        }

        /**
         * Stops the loop at the end of its turn and waits for its thread. Idempotent.
         *
         * @throws Exception when the thread does not end within 10 s, or the loop failed
         */
        public void stop() throws Exception {
            if (thread.isAlive()) {
                loop.notify(() -> stopping = true);
                thread.join(10_000);
                if (thread.isAlive()) {
                    throw new IllegalStateException("the loop thread " + thread.getName() + " did not stop");
                }
            }
            if (failure != null) {
                throw new AssertionError("the loop failed", failure);
            }
        }
    }
}
