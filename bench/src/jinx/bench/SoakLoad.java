package jinx.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's clients ({@link Soak}): blocking sockets, one thread each, every request with {@code User-Agent: soak}
 * so that its access-log line can be told from the harness's own. Four kinds, each paced so that the load stays
 * modest on a shared host: keep-alive {@code /hello}, {@code /hello} on a new connection each, a large file over
 * keep-alive, and slow clients that dribble their request out and read a file in small pieces.
 *
 * <p>A failed request is counted as one of three: on a connection the killed worker held (its client port was among
 * the worker's sockets when the harness killed it: {@link #killing}), near a kill (within {@link #NEAR_KILL_MS} of
 * one, but not among those ports: accepted between the look and the kill), or other. A keep-alive connection that
 * the server closed between two requests (an old worker closing its idle connections as it stops gracefully after a
 * reload, as nginx's do) gives no byte of the next response: that request is sent again on a new connection, as
 * HTTP clients do, and counted as {@link #retried}, not as failed.
 */
final class SoakLoad {

    /** How long after a kill an unattributed failure counts as near it. */
    static final long NEAR_KILL_MS = 2000;

    /** Responses read in full with the expected status and length. */
    final LongAdder ok = new LongAdder();
    /** Failures on a connection the killed worker held. */
    final LongAdder failedKilled = new LongAdder();
    /** Failures near a kill on a connection not known to be the killed worker's. */
    final LongAdder failedNearKill = new LongAdder();
    /** The other failures: the ones that count. */
    final LongAdder failedOther = new LongAdder();
    /** Keep-alive connections closed by the server between requests, the request sent again. */
    final LongAdder retried = new LongAdder();
    /** The last few other failures, for the report. */
    final List<String> samples = new ArrayList<>();

    /** Client ports of the killed worker's connections, with the time of the kill (ms). */
    private final Map<Integer, Long> killedPorts = new ConcurrentHashMap<>();
    private final AtomicLong lastKill = new AtomicLong(Long.MIN_VALUE / 2);
    private final int port;
    private final long bigLength;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    SoakLoad(int port, long bigLength) {
        this.port = port;
        this.bigLength = bigLength;
    }

    /** Marks the client ports of a worker's connections as the killed worker's, just before it is killed. */
    void killing(List<Integer> clientPorts) {
        long now = System.currentTimeMillis();
        killedPorts.entrySet().removeIf(e -> now - e.getValue() > 60_000);
        for (int p : clientPorts) {
            killedPorts.put(p, now);
        }
        lastKill.set(now);
    }

    /** Starts the clients. */
    void start(int keepAlive, int fresh, int big, int slow) {
        for (int i = 0; i < keepAlive; i++) {
            spawn("keepalive-" + i, new Client("/hello", 6, true, 5, false));
        }
        for (int i = 0; i < fresh; i++) {
            spawn("fresh-" + i, new Client("/hello", 6, false, 10, false));
        }
        for (int i = 0; i < big; i++) {
            spawn("big-" + i, new Client("/big.bin", bigLength, true, 100, false));
        }
        for (int i = 0; i < slow; i++) {
            spawn("slow-" + i, new Client("/slow.bin", 256 * 1024, true, 200, true));
        }
    }

    private void spawn(String name, Runnable r) {
        Thread t = new Thread(r, "soak-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Stops the clients and waits for them. */
    void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(15_000);
        }
    }

    /** One client: a path, its body's length, keep-alive or not, a pause between requests, slow or not. */
    private final class Client implements Runnable {
        private final String path;
        private final long length;
        private final boolean keepAlive;
        private final long pauseMs;
        private final boolean slow;
        private final byte[] request;
        private Socket socket;
        private InputStream in;
        private int served;

        Client(String path, long length, boolean keepAlive, long pauseMs, boolean slow) {
            this.path = path;
            this.length = length;
            this.keepAlive = keepAlive;
            this.pauseMs = pauseMs;
            this.slow = slow;
            this.request = ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: soak\r\n"
                + (keepAlive ? "" : "Connection: close\r\n") + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void run() {
            while (running) {
                once();
                try {
                    Thread.sleep(pauseMs);
                } catch (InterruptedException e) {
                    return;
                }
            }
            close();
        }

        private void once() {
            boolean reused = socket != null;
            int clientPort = -1;
            long[] got = {0};
            try {
                if (socket == null) {
                    open();
                }
                clientPort = socket.getLocalPort();
                exchange(got);
                ok.increment();
                served++;
                if (!keepAlive) {
                    close();
                }
            } catch (IOException | RuntimeException e) {
                close();
                if (reused && got[0] == 0 && !killedPort(clientPort)) {
                    retried.increment();
                    // the request again on a new connection: one request, counted once
                    once();
                    return;
                }
                fail(clientPort, e);
            }
        }

        private boolean killedPort(int clientPort) {
            Long at = killedPorts.get(clientPort);
            return at != null && System.currentTimeMillis() - at < 60_000;
        }

        private void fail(int clientPort, Exception e) {
            if (killedPort(clientPort)) {
                failedKilled.increment();
            } else if (System.currentTimeMillis() - lastKill.get() < NEAR_KILL_MS) {
                failedNearKill.increment();
            } else {
                failedOther.increment();
                synchronized (samples) {
                    if (samples.size() < 20) {
                        samples.add(String.format("%tT %s port %d after %d on the connection: %s",
                            System.currentTimeMillis(), path, clientPort, served, e));
                    }
                }
            }
        }

        private void open() throws IOException {
            Socket s = new Socket();
            if (slow) {
                // a small receive buffer, so that the server's writes wait on this client's reads
                s.setReceiveBufferSize(8192);
            }
            s.setSoTimeout(15_000);
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket = s;
            in = new BufferedInputStream(s.getInputStream(), 16384);
            served = 0;
        }

        private void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing what failed
                }
            }
            socket = null;
            in = null;
        }

        /** One request and its response; {@code got[0]} counts the response's bytes read. */
        private void exchange(long[] got) throws IOException {
            OutputStream out = socket.getOutputStream();
            if (slow) {
                // the request over about a second, in pieces of 8 bytes
                for (int i = 0; i < request.length; i += 8) {
                    out.write(request, i, Math.min(8, request.length - i));
                    out.flush();
                    pause(request.length <= 8 ? 0 : 1000L * 8 / request.length);
                }
            } else {
                out.write(request);
                out.flush();
            }
            String head = readHead(got);
            if (!head.startsWith("HTTP/1.1 200 ")) {
                throw new IOException("status " + head.lines().findFirst().orElse(""));
            }
            String cl = Server.header(head, "Content-Length");
            if (cl == null || Long.parseLong(cl.trim()) != length) {
                throw new IOException("Content-Length " + cl + ", not " + length);
            }
            byte[] buf = new byte[slow ? 4096 : 65536];
            long left = length;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new EOFException("body ended " + left + " bytes short");
                }
                left -= n;
                got[0] += n;
                if (slow) {
                    pause(10);
                }
            }
        }

        private String readHead(long[] got) throws IOException {
            StringBuilder sb = new StringBuilder();
            int state = 0;
            while (state < 4) {
                int b = in.read();
                if (b < 0) {
                    throw new EOFException(got[0] == 0 ? "closed before a response" : "closed in the header");
                }
                got[0]++;
                sb.append((char) b);
                state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
                    ? state + 1 : b == '\r' ? 1 : 0;
                if (sb.length() > 8192) {
                    throw new IOException("header over 8 KiB");
                }
            }
            return sb.toString();
        }

        private void pause(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
