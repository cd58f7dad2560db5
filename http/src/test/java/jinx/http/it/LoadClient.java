package jinx.http.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests kept going while a test changes the processes behind a port: threads sending {@code GET /} in a loop,
 * half on a new connection each time, half on keep-alive connections. A failed request is one that gets no
 * complete {@code 200} with the expected body; on a keep-alive connection the server may close while idle (a
 * gracefully stopping worker does), and that request is retried once on a new connection, as HTTP clients do.
 */
final class LoadClient implements AutoCloseable {

    private final int port;
    private final String body;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong requests = new AtomicLong();
    private final List<String> failures = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private LoadClient(int port, String body) {
        this.port = port;
        this.body = body;
    }

    /**
     * Starts the threads.
     *
     * @param port the port on 127.0.0.1
     * @param body the body every response must have
     * @param n the number of threads, at least 2
     * @return the running client
     */
    static LoadClient start(int port, String body, int n) {
        LoadClient load = new LoadClient(port, body);
        for (int i = 0; i < n; i++) {
            boolean keepAlive = i % 2 == 1;
            Thread t = new Thread(() -> load.loop(keepAlive), "load-" + i);
            t.setDaemon(true);
            load.threads.add(t);
            t.start();
        }
        return load;
    }

    long requests() {
        return requests.get();
    }

    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** Waits (60 s at most) until {@code more} requests were answered since now. */
    void awaitMore(long more) throws InterruptedException {
        long target = requests.get() + more;
        Daemons.awaitTrue(() -> requests.get() >= target || !failures().isEmpty(), 60,
            more + " more requests (failures: " + failures() + ")");
    }

    private void loop(boolean keepAlive) {
        Socket s = null;
        while (!stop.get()) {
            boolean reused = s != null;
            try {
                if (s == null) {
                    s = connect();
                }
                boolean closes = exchange(s, keepAlive);
                requests.incrementAndGet();
                if (!keepAlive || closes) {
                    s.close();
                    s = null;
                }
            } catch (IOException e) {
                close(s);
                s = null;
                if (reused && e instanceof ClosedIdle) {
                    continue;
                }
                synchronized (failures) {
                    failures.add(e.toString());
                }
            }
        }
        close(s);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** The server closed a kept-alive connection before sending a byte of the response: retried once. */
    private static final class ClosedIdle extends IOException {
        private static final long serialVersionUID = 1L;

        ClosedIdle(String message) {
            super(message);
        }
    }

    /** One request and its response; returns whether the server closes the connection after it. */
    private boolean exchange(Socket s, boolean keepAlive) throws IOException {
        try {
            s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: localhost\r\n"
                + (keepAlive ? "" : "Connection: close\r\n") + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new ClosedIdle("write: " + e);
        }
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b;
            try {
                b = in.read();
            } catch (IOException e) {
                if (head.size() == 0) {
                    throw new ClosedIdle("read: " + e);
                }
                throw e;
            }
            if (b == -1) {
                if (head.size() == 0) {
                    throw new ClosedIdle("end of stream before the response");
                }
                throw new IOException("end of stream in the header: " + head);
            }
            head.write(b);
        }
        String header = head.toString(StandardCharsets.ISO_8859_1);
        if (!header.startsWith("HTTP/1.1 200 ")) {
            throw new IOException("response " + header);
        }
        int length = -1;
        for (String line : header.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] got = in.readNBytes(Math.max(length, 0));
        String text = new String(got, StandardCharsets.ISO_8859_1);
        if (length < 0 || !text.equals(body)) {
            throw new IOException("body \"" + text + "\" (Content-Length " + length + ")");
        }
        // a gracefully stopping worker answers with Connection: close; the next request needs a new connection
        return header.contains("Connection: close\r\n");
    }

    private static void close(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /** Stops the threads and waits for them (20 s at most each). */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(20));
        }
    }
}
