package jinx.http.internal.request;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Connection;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.MemoryConnection;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

/**
 * The socketless request path: a client connection that needs no listening socket and no TCP, in the spirit of
 * Jetty's {@code LocalConnector} and Netty's {@code EmbeddedChannel}. A connection is lent a slot of the loop and
 * handed to a listening socket's handler as if it had been accepted there, so the request runs through the real
 * reader, phases, filters and the connection's I/O; the test plays the client, writing requests and reading
 * responses without blocking.
 *
 * <p>Two transports. {@link #open} makes a {@link MemoryConnection}: no descriptor at all, the request bytes
 * queued in memory, the response collected in memory (file buffers read into it), readiness posted to the loop.
 * {@link #openSocketPair} hands the server one end of a UNIX-domain socket pair instead, for what needs a real
 * socket: a full socket buffer (partial writes, {@code send_timeout}), the kernel's half-close and lingering
 * close, a client that goes away in the middle of a response. Both print the client as {@code unix:}.
 *
 * <p>Thread contract: the loop's thread (a test usually drives the loop itself); a socket pair's client end may
 * be used from any one thread.
 */
public final class LocalConnection implements AutoCloseable {

    private static final int CHUNK = 64 * 1024;
    private static final String ADDR = "unix:";

    private final Connection server;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    /* the in-memory transport, or null */
    private final MemoryConnection memory;
    /* the socket pair's client end and its scratch, or -1 and null */
    private int client;
    private final NativeMemory nativeMemory;
    private final long scratch;
    private boolean eof;

    private LocalConnection(MemoryConnection memory) {
        this.server = memory.connection();
        this.memory = memory;
        this.client = -1;
        this.nativeMemory = null;
        this.scratch = 0;
    }

    private LocalConnection(Connection server, int client) {
        this.server = server;
        this.memory = null;
        this.client = client;
        this.nativeMemory = new NativeMemory();
        this.scratch = nativeMemory.allocate(CHUNK);
    }

    /**
     * Opens an in-memory connection to the servers of {@code ls}: nginx's accept without a socket to accept on,
     * and without a socket at all.
     *
     * @param loop the loop to serve it, called on its thread
     * @param ls a listening socket of an {@code http {}} block (its descriptor need not be open)
     * @return the client end
     * @throws IOException when no connection slot can be had
     */
    public static LocalConnection open(EventLoop loop, Listening ls) throws IOException {
        MemoryConnection mc = MemoryConnection.accept(loop, ls, ADDR);
        if (mc == null) {
            throw new IOException("no free connection slot");
        }
        return new LocalConnection(mc);
    }

    /**
     * Opens a connection to the servers of {@code ls} over a UNIX-domain socket pair: the server's end is a real
     * socket.
     *
     * @param loop the loop to serve it, called on its thread
     * @param ls a listening socket of an {@code http {}} block (its descriptor need not be open)
     * @return the client end
     * @throws IOException when no socket pair or no connection slot can be had
     */
    public static LocalConnection openSocketPair(EventLoop loop, Listening ls) throws IOException {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
            Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        Connection c = loop.getConnection(sv[0], ls.log != null ? ls.log : loop.log());
        if (c == null) {
            Syscalls.close(sv[0]);
            Syscalls.close(sv[1]);
            throw new IOException("no free connection slot");
        }
        c.listening = ls;
        // writable at once, as an accepted socket is (nginx's ngx_event_accept() sets wev->ready)
        c.write.ready = true;
        c.number = loop.nextConnectionNumber();
        c.addrText(ADDR);
        LocalConnection lc = new LocalConnection(c, sv[1]);
        ls.handler.accept(c);
        return lc;
    }

    /**
     * Returns the server end, the connection the engine serves (its slot may be reused once it is closed).
     *
     * @return the connection
     */
    public Connection server() {
        return server;
    }

    /**
     * Returns the in-memory transport, or null over a socket pair.
     *
     * @return the memory connection
     */
    public MemoryConnection memory() {
        return memory;
    }

    /**
     * Writes bytes to the server, as much as the transport takes now (all of it in memory).
     *
     * @param bytes the bytes
     * @return how many were written
     * @throws NativeIoException when the server end is closed ({@code EPIPE}) or another failure
     */
    public int send(byte[] bytes) throws NativeIoException {
        if (memory != null) {
            memory.write(bytes);
            return bytes.length;
        }
        int off = 0;
        while (off < bytes.length) {
            int len = Math.min(CHUNK, bytes.length - off);
            NativeMemory.put(scratch, bytes, off, len);
            int n = Sockets.send(client, scratch, len);
            if (n == Rc.AGAIN) {
                break;
            }
            off += n;
        }
        return off;
    }

    /**
     * Writes text (one byte per char) to the server.
     *
     * @param text the text
     * @return how many bytes were written
     * @throws NativeIoException when the write fails
     */
    public int send(String text) throws NativeIoException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Reads what the server sent since the last read, without waiting.
     *
     * @return the new bytes, possibly none
     * @throws NativeIoException when the read fails (a reset, for instance)
     */
    public byte[] receive() throws NativeIoException {
        byte[] bytes = memory != null ? receiveMemory() : receiveSocket();
        received.write(bytes, 0, bytes.length);
        return bytes;
    }

    private byte[] receiveMemory() {
        byte[] bytes = memory.read();
        if (memory.eof()) {
            eof = true;
        }
        return bytes;
    }

    private byte[] receiveSocket() throws NativeIoException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[CHUNK];
        for (;;) {
            int n = Sockets.recv(client, scratch, CHUNK);
            if (n == Rc.AGAIN) {
                break;
            }
            if (n == 0) {
                eof = true;
                break;
            }
            NativeMemory.get(scratch, chunk, 0, n);
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    /**
     * Returns everything received so far, as text (one char per byte).
     *
     * @return the text
     * @throws NativeIoException when a read fails
     */
    public String received() throws NativeIoException {
        receive();
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Tells whether the server closed its end, or shut its writing side (a read saw the end of the stream).
     *
     * @return true after the server closed
     * @throws NativeIoException when a read fails
     */
    public boolean closedByServer() throws NativeIoException {
        receive();
        return eof;
    }

    /**
     * Closes the client's sending side: the server reads the end of the stream.
     *
     * @throws NativeIoException when the call fails
     */
    public void shutdownOutput() throws NativeIoException {
        if (memory != null) {
            memory.shutdownOutput();
            return;
        }
        Sockets.shutdown(client, Platform.SHUT_WR);
    }

    /**
     * Closes the client end: the client goes away, and the server learns it as it would from a socket. Idempotent.
     */
    @Override
    public void close() {
        if (memory != null) {
            memory.close();
            return;
        }
        if (client != -1) {
            try {
                Syscalls.close(client);
            } catch (NativeIoException e) {
                // the descriptor is gone either way
            }
            client = -1;
        }
        nativeMemory.close();
    }
}
