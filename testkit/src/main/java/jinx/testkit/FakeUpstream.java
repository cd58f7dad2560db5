package jinx.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A backend that misbehaves on request, for testing a proxy: an HTTP/1.0 and 1.1 server on a free port of
 * 127.0.0.1 whose answer is chosen by the request's path, so that the same {@code proxy_pass} in nginx and in
 * Jinx exercises it the same way. It records every request whole ({@link #requests()}), counts the connections it
 * accepted ({@link #connections()}, to see a proxy's keepalive reuse) and keeps connections open between
 * requests (HTTP/1.1 unless {@code Connection: close}; HTTP/1.0 with {@code Connection: keep-alive}).
 *
 * <pre>{@code
 * try (FakeUpstream up = FakeUpstream.start()) {
 *     // proxy_pass http://127.0.0.1:<up.port()>; in the server under test, then a request for /echo
 *     assertEquals("GET /echo HTTP/1.0", up.lastRequest().requestLine());
 * }
 * }</pre>
 *
 * <p>A thread per connection with blocking sockets: a test tool, not a server. The paths, matched by prefix (the
 * path equals the prefix or goes on with {@code /}; the longest registered prefix wins; the query string is not
 * part of the path); N and MS are decimal numbers; "pattern" is {@link #pattern(int)}:
 * <table>
 * <caption>Behaviours</caption>
 * <tr><th>path</th><th>answer</th></tr>
 * <tr><td>{@code /echo}</td><td>200, {@code text/plain}, Content-Length; the body is the request line and the
 *     header lines as received, each followed by LF, an empty line, then the de-chunked request body</td></tr>
 * <tr><td>{@code /hello}</td><td>200, {@code hello\n}, Content-Length</td></tr>
 * <tr><td>{@code /size/N}</td><td>200, N bytes of the pattern, Content-Length</td></tr>
 * <tr><td>{@code /chunked/N}</td><td>200, N bytes of the pattern, {@code Transfer-Encoding: chunked}, chunks of
 *     1, 2, 4, ... up to 8192 bytes, each written (flushed) on its own</td></tr>
 * <tr><td>{@code /trailers}</td><td>200, chunked ({@code hello\n} in two chunks) with a {@code Trailer} header and
 *     the trailers {@code X-Checksum: 5d41402a} and {@code X-Trailer: done}</td></tr>
 * <tr><td>{@code /close/N}</td><td>200, N bytes of the pattern, no length: the body ends when the upstream closes
 *     (FIN)</td></tr>
 * <tr><td>{@code /http10}</td><td>an {@code HTTP/1.0 200 OK} response, {@code http/1.0\n} with Content-Length,
 *     then close (no keep-alive)</td></tr>
 * <tr><td>{@code /status/NNN}</td><td>that status (200-999) with {@code status NNN\n} and Content-Length (no body
 *     for 204 and 304); anything else is 400</td></tr>
 * <tr><td>{@code /slow-header/MS}</td><td>nothing for MS milliseconds, then 200 {@code slow\n}</td></tr>
 * <tr><td>{@code /slow-body/MS}</td><td>the header and {@code first\n} at once (Content-Length 13), MS
 *     milliseconds later {@code second\n}</td></tr>
 * <tr><td>{@code /garbage}</td><td>{@code this is not HTTP\r\n\r\n} (no status line), then close</td></tr>
 * <tr><td>{@code /bad-header}</td><td>a status line, then a header line without a colon, then close</td></tr>
 * <tr><td>{@code /big-header[/N]}</td><td>200 with an {@code X-Big} header line of N bytes (default 16384: over
 *     nginx's 4k/8k {@code proxy_buffer_size})</td></tr>
 * <tr><td>{@code /reset-header}</td><td>a reset (RST: SO_LINGER 0, then close) before any byte</td></tr>
 * <tr><td>{@code /reset-body}</td><td>the header (Content-Length 1000) and 100 bytes of the pattern, 100 ms, then
 *     a reset</td></tr>
 * <tr><td>{@code /close-early}</td><td>the header (Content-Length 200) at once, 100 ms later the first 100 bytes
 *     of the pattern, then close (FIN)</td></tr>
 * <tr><td>{@code /bad-chunk}</td><td>chunked: a valid chunk {@code hello\n}, then the chunk size {@code zz},
 *     then close</td></tr>
 * <tr><td>{@code /wrong-length}</td><td>{@code Content-Length: 100} and {@code short\n} in one write, then
 *     close</td></tr>
 * <tr><td>{@code /headers}</td><td>200 with {@code Server} and a fixed {@code Date}, three {@code Set-Cookie}
 *     (with Domain and Path attributes), {@code Location: http://127.0.0.1:PORT/x}, {@code Refresh: 5;
 *     url=http://127.0.0.1:PORT/x}, {@code X-Accel-Buffering: yes}, {@code X-Accel-Expires: 0},
 *     {@code X-Accel-Limit-Rate: 0}, {@code X-Pad} and a lower-case {@code x-lower-case}, body {@code headers\n}
 *     (no {@code X-Accel-Charset}: nginx logs an error for a charset it was not configured with)</td></tr>
 * <tr><td>{@code /redirect[/P]}</td><td>302 with {@code Location: http://127.0.0.1:PORT/P} (default
 *     {@code /x}): the upstream's own address, as {@code proxy_redirect default} rewrites</td></tr>
 * <tr><td>{@code /upgrade}</td><td>with an {@code Upgrade} header: 101 (with {@code Sec-WebSocket-Accept} when a
 *     {@code Sec-WebSocket-Key} came), then every byte received is echoed until the peer closes its side; then
 *     close. Without one: 426</td></tr>
 * <tr><td>{@code /expect}</td><td>{@code HTTP/1.1 100 Continue} before reading the body when the request has
 *     {@code Expect: 100-continue}; then 200 with the body received as the body</td></tr>
 * <tr><td>anything else</td><td>404 {@code not found\n}</td></tr>
 * </table>
 * Responses are HTTP/1.1 (but {@code /http10}), carry no Date or Server (but {@code /headers}), say
 * {@code Connection: close} when the request asked for a close or the body ends with the connection, and
 * {@code Connection: keep-alive} to an HTTP/1.0 request that asked for it; the broken ones ({@code /reset-body},
 * {@code /close-early}, {@code /bad-chunk}, {@code /wrong-length}) close or reset without announcing it, as a
 * failing backend does. A HEAD request gets the header only. A request the upstream cannot parse is recorded
 * with its {@link Received#error()} and answered 400, then the connection is closed.
 *
 * <p>{@link #on(String, Handler)} adds or replaces a behaviour. Thread-safe: requests are served, and may be
 * read, from any thread.
 */
public final class FakeUpstream implements AutoCloseable {

    /** How long {@link #awaitRequests} and {@link #awaitOpenConnections} wait at most, in ms. */
    public static final int AWAIT_MS = 10_000;

    private final ServerSocket server;
    private final Thread acceptor;
    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    private final List<Received> requests = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;
    private volatile int idleTimeout;

    /**
     * Answers one request of a {@link FakeUpstream}.
     */
    @FunctionalInterface
    public interface Handler {

        /**
         * Answers the request by writing bytes, valid or not, to {@link UpstreamExchange#out()}. When it returns,
         * what was written is flushed and the connection waits for the next request, unless the request or the
         * handler ({@link UpstreamExchange#closeAfter()}) asked for a close. What it throws other than an
         * {@link IOException} closes the connection and is kept in {@link FakeUpstream#failures()}.
         *
         * @param request the request, body read
         * @param exchange the connection
         * @throws IOException when the connection fails (it is then closed)
         */
        void handle(Received request, UpstreamExchange exchange) throws IOException;

        /**
         * Tells whether this handler honours {@code Expect: 100-continue}: the upstream then sends
         * {@code HTTP/1.1 100 Continue} before it reads the body of an HTTP/1.1 request that expects it.
         *
         * @return false unless overridden
         */
        default boolean continues() {
            return false;
        }
    }

    private FakeUpstream(int port) throws IOException {
        server = new ServerSocket();
        // a backend started again on the port of one that was stopped (health check tests)
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 512);
        UpstreamBehaviours.install(this);
        acceptor = new Thread(this::acceptLoop, "fake-upstream-" + server.getLocalPort());
        acceptor.setDaemon(true);
    }

    /**
     * Starts a fake upstream on a free port of 127.0.0.1.
     *
     * @return the upstream, to be closed
     * @throws IOException when it cannot listen
     */
    public static FakeUpstream start() throws IOException {
        return start(0);
    }

    /**
     * Starts a fake upstream on a given port of 127.0.0.1: a backend brought back where a stopped one was.
     *
     * @param port the port, 0 for a free one
     * @return the upstream, to be closed
     * @throws IOException when it cannot listen
     */
    public static FakeUpstream start(int port) throws IOException {
        FakeUpstream up = new FakeUpstream(port);
        up.acceptor.start();
        return up;
    }

    /**
     * Returns the port it listens on.
     *
     * @return the port
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Returns the address it listens on, as {@code proxy_pass} and {@code server} take it.
     *
     * @return {@code 127.0.0.1:port}
     */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /**
     * Adds a behaviour, or replaces the one of the same prefix.
     *
     * @param pathPrefix the path it answers: the path equals it or goes on with {@code /} (a prefix ending in
     *     {@code /} matches every path that starts with it, so {@code "/"} matches all)
     * @param handler the handler
     * @return this upstream
     */
    public FakeUpstream on(String pathPrefix, Handler handler) {
        if (!pathPrefix.startsWith("/")) {
            throw new IllegalArgumentException("a path prefix starts with /: " + pathPrefix);
        }
        handlers.put(pathPrefix, handler);
        return this;
    }

    /**
     * Closes (FIN) a connection whose next request's head does not come whole within {@code ms}, as a backend's
     * keep-alive timeout does: a proxy then finds a cached connection closed. Applies from the next request on.
     *
     * @param ms the timeout; 0, the default, waits for ever
     * @return this upstream
     */
    public FakeUpstream idleTimeout(int ms) {
        idleTimeout = ms;
        return this;
    }

    /**
     * Returns how many connections it has accepted since it started.
     *
     * @return the count
     */
    public int connections() {
        return accepted.get();
    }

    /**
     * Returns how many of its connections are open now.
     *
     * @return the count
     */
    public int openConnections() {
        return sockets.size();
    }

    /**
     * Returns the requests received since the start or the last {@link #clear()}, in the order they were read.
     *
     * @return a copy of the list
     */
    public List<Received> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /**
     * Returns the last request received.
     *
     * @return the request
     * @throws IllegalStateException when none came
     */
    public Received lastRequest() {
        synchronized (requests) {
            if (requests.isEmpty()) {
                throw new IllegalStateException("no request reached the fake upstream at " + address());
            }
            return requests.get(requests.size() - 1);
        }
    }

    /**
     * Returns what handlers threw other than I/O errors (a bug, a failed assertion), in order; the connection
     * of each was closed. A test may assert that it is empty.
     *
     * @return a copy of the list
     */
    public List<Throwable> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** Forgets the requests received so far (the connection count stays). */
    public void clear() {
        synchronized (requests) {
            requests.clear();
        }
    }

    /**
     * Waits until at least {@code n} requests were received, at most {@link #AWAIT_MS}.
     *
     * @param n how many
     * @return the requests
     * @throws IllegalStateException when fewer came in time
     */
    public List<Received> awaitRequests(int n) {
        await(() -> requests().size() >= n, "requests: " + requests());
        return requests();
    }

    /**
     * Waits until exactly {@code n} of its connections are open, at most {@link #AWAIT_MS} (to see a proxy close
     * or keep its upstream connections).
     *
     * @param n how many
     * @throws IllegalStateException when that did not happen in time
     */
    public void awaitOpenConnections(int n) {
        await(() -> openConnections() == n, "open connections: " + openConnections() + ", expected " + n);
    }

    /**
     * Stops listening, closes every connection and ends every thread it started.
     */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(UpstreamConnection::closeQuietly);
        threads.forEach(Thread::interrupt);
        join(acceptor);
        threads.forEach(FakeUpstream::join);
    }

    /**
     * Returns the deterministic body of {@code /size/N}, {@code /chunked/N} and {@code /close/N}: byte i is
     * {@code "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n"} at i mod 64.
     *
     * @param n the length
     * @return the bytes
     */
    public static byte[] pattern(int n) {
        return UpstreamBehaviours.pattern(n);
    }

    /** Finds the handler of the longest matching prefix, or null. */
    Handler handler(String path) {
        String best = null;
        for (String prefix : handlers.keySet()) {
            boolean match = prefix.endsWith("/") ? path.startsWith(prefix)
                : path.equals(prefix) || path.startsWith(prefix + "/");
            if (match && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        return best == null ? null : handlers.get(best);
    }

    void record(Received request) {
        synchronized (requests) {
            requests.add(request);
        }
    }

    void failed(Throwable t) {
        synchronized (failures) {
            failures.add(t);
        }
    }

    int idleTimeout() {
        return idleTimeout;
    }

    boolean closed() {
        return closed;
    }

    void ended(Socket s) {
        sockets.remove(s);
        threads.remove(Thread.currentThread());
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            int n = accepted.incrementAndGet();
            sockets.add(s);
            if (closed) {
                // close() may have gone over the sockets before this one joined them
                UpstreamConnection.closeQuietly(s);
                sockets.remove(s);
                return;
            }
            Thread t = new Thread(new UpstreamConnection(this, s, n), "fake-upstream-" + port() + "-" + n);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + AWAIT_MS * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("fake upstream: waited " + AWAIT_MS + " ms; " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted; " + what, e);
            }
        }
    }

    private static void join(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
