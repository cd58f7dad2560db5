package jinx.testkit;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP backend for stream tests, on a free port of 127.0.0.1, one thread: {@code ECHO} sends each datagram back
 * to its sender, {@code DOUBLE} sends it back twice, {@code SILENT} reads and never answers. It counts the
 * datagrams it received, so a run can count losses. Stopped by {@link #close()}.
 */
public final class UdpBackend implements AutoCloseable {

    /** How the backend answers. */
    public enum Mode {
        /** Each datagram back once. */
        ECHO,
        /** Each datagram back twice. */
        DOUBLE,
        /** No answer. */
        SILENT
    }

    private final DatagramSocket socket;
    private final Mode mode;
    private final Thread thread;
    private final AtomicLong received = new AtomicLong();
    private volatile boolean closed;

    /**
     * Starts a backend.
     *
     * @param mode how it answers
     * @throws IOException when the socket cannot be bound
     */
    public UdpBackend(Mode mode) throws IOException {
        this.mode = mode;
        this.socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        socket.setReceiveBufferSize(4 << 20);
        this.thread = new Thread(this::serve, "udp-backend-" + mode);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Returns the port.
     *
     * @return the port
     */
    public int port() {
        return socket.getLocalPort();
    }

    /**
     * Returns how many datagrams came.
     *
     * @return the count
     */
    public long received() {
        return received.get();
    }

    private void serve() {
        byte[] buf = new byte[65536];
        while (!closed) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
                received.incrementAndGet();
                if (mode == Mode.SILENT) {
                    continue;
                }
                DatagramPacket back = new DatagramPacket(buf, p.getLength(), p.getSocketAddress());
                socket.send(back);
                if (mode == Mode.DOUBLE) {
                    socket.send(back);
                }
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        socket.close();
        thread.join(5000);
    }
}
