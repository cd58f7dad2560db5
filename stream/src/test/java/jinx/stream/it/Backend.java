package jinx.stream.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP backend for the stream tests, on a free port of 127.0.0.1, one thread per connection: {@code ECHO} sends
 * back what it reads as it reads it and closes after the client's end; {@code LATE} reads to the end and only then
 * answers with what it read (the half-close case); {@code SILENT} reads and never answers.
 */
final class Backend implements AutoCloseable {

    enum Mode { ECHO, LATE, SILENT }

    private final ServerSocket server;
    private final Mode mode;
    private final Thread acceptor;
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean closed;

    Backend(Mode mode) throws IOException {
        this(mode, 0);
    }

    /** A backend on a given port: one started again where a stopped one was (health checks). */
    Backend(Mode mode, int port) throws IOException {
        this.mode = mode;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        this.acceptor = new Thread(this::acceptLoop, "backend-" + mode);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                synchronized (open) {
                    open.add(s);
                }
                Thread t = new Thread(() -> serve(s), "backend-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[65536];
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int n; (n = in.read(buf)) > 0; ) {
                if (mode == Mode.ECHO) {
                    out.write(buf, 0, n);
                    out.flush();
                } else {
                    all.write(buf, 0, n);
                }
            }
            if (mode == Mode.LATE) {
                out.write(all.toByteArray());
                out.flush();
            }
            if (mode == Mode.SILENT) {
                Thread.sleep(60_000);
            }
        } catch (IOException | InterruptedException e) {
            // the peer went away
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        synchronized (open) {
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
