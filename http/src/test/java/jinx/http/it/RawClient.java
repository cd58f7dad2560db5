package jinx.http.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import jinx.http.internal.request.Responses.Response;
import jinx.http.internal.request.Responses;
import jinx.kernel.testsuite.ServerSide;

/**
 * A client that writes raw bytes and reads raw bytes: a TCP {@link Socket} (or a UNIX-domain channel), nothing
 * between the test and the server. Reads wait at most {@link #QUIET_MS} for the next bytes.
 */
final class RawClient implements AutoCloseable {

    /** How long a read waits for more bytes before it takes what came as all there is. */
    static final int QUIET_MS = 5000;

    private final Socket socket;
    private final SocketChannel unix;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private boolean eof;

    private RawClient(Socket socket, SocketChannel unix) {
        this.socket = socket;
        this.unix = unix;
    }

    /**
     * Connects to 127.0.0.1.
     *
     * @param port the port
     * @return the client
     * @throws IOException when it cannot connect
     */
    static RawClient connect(int port) throws IOException {
        return connect(new InetSocketAddress("127.0.0.1", port));
    }

    /**
     * Connects to an address.
     *
     * @param address the address
     * @return the client
     * @throws IOException when it cannot connect
     */
    static RawClient connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.connect(address, QUIET_MS);
        s.setSoTimeout(QUIET_MS);
        s.setTcpNoDelay(true);
        return new RawClient(s, null);
    }

    /** Waits until the server accepted this TCP connection and read all that was sent on it. */
    void awaitRead() throws InterruptedException {
        ServerSide.awaitRead(socket);
    }

    /**
     * Connects to a UNIX-domain socket; its reads block (the test's {@code @Timeout} bounds them).
     *
     * @param path the socket's file
     * @return the client
     * @throws IOException when it cannot connect
     */
    static RawClient unix(Path path) throws IOException {
        return new RawClient(null, SocketChannel.open(UnixDomainSocketAddress.of(path)));
    }

    /**
     * Sends a request, connects, reads until the server closes, and returns what came.
     *
     * @param port the port on 127.0.0.1
     * @param request the raw request
     * @return the bytes received, one char per byte
     * @throws IOException when the exchange fails
     */
    static String exchange(int port, String request) throws IOException {
        try (RawClient c = connect(port)) {
            return c.send(request).readAll();
        }
    }

    /**
     * Writes text, one byte per char.
     *
     * @param text the bytes
     * @return this client
     * @throws IOException when the write fails
     */
    RawClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Writes bytes.
     *
     * @param bytes the bytes
     * @return this client
     * @throws IOException when the write fails
     */
    RawClient send(byte[] bytes) throws IOException {
        if (unix != null) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                unix.write(b);
            }
            return this;
        }
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        return this;
    }

    /**
     * Closes the sending side: the server reads the end of the stream.
     *
     * @throws IOException when the call fails
     */
    void shutdownOutput() throws IOException {
        if (unix != null) {
            unix.shutdownOutput();
        } else {
            socket.shutdownOutput();
        }
    }

    /**
     * Reads until {@code n} final responses (interim ones such as 100 Continue not counted) are complete, the
     * server closes, or nothing comes for a while, and returns
     * the complete responses received on this connection so far.
     *
     * @param n how many responses to wait for
     * @return the responses
     * @throws IOException when a read fails
     */
    List<Response> responses(int n) throws IOException {
        return responses(n, false);
    }

    /**
     * Reads until {@code n} responses (to HEAD requests when {@code noBody}) are complete, the server closes,
     * or nothing comes for a while.
     *
     * @param n how many responses to wait for
     * @param noBody whether the responses have no body whatever their header says
     * @return the complete responses received on this connection so far
     * @throws IOException when a read fails
     */
    List<Response> responses(int n, boolean noBody) throws IOException {
        while (!eof && finals(Responses.split(received(), noBody, false)) < n) {
            if (!readSome()) {
                break;
            }
        }
        return Responses.split(received(), noBody, eof);
    }

    /** Interim responses (100 Continue) do not count. */
    private static int finals(List<Response> responses) {
        int n = 0;
        for (Response r : responses) {
            n += r.status() >= 200 ? 1 : 0;
        }
        return n;
    }

    /**
     * Reads one final response and returns it.
     *
     * @return the first final response on this connection
     * @throws IOException when a read fails, or no response came
     */
    Response response() throws IOException {
        for (Response r : responses(1)) {
            if (r.status() >= 200) {
                return r;
            }
        }
        throw new IOException("no complete response; received: " + received());
    }

    /**
     * Reads until what was received ends with {@code text}, the server closes, or nothing comes for a while.
     *
     * @param text the expected end
     * @return all received so far
     * @throws IOException when a read fails
     */
    String readUntil(String text) throws IOException {
        while (!eof && !received().endsWith(text) && readSome()) {
            // until the text, the end of the stream or a quiet spell
        }
        return received();
    }

    /**
     * Reads until the server closes (or nothing comes for a while) and returns all received.
     *
     * @return the bytes, one char per byte
     * @throws IOException when a read fails
     */
    String readAll() throws IOException {
        while (!eof && readSome()) {
            // until the end of the stream or a quiet spell
        }
        return received();
    }

    /**
     * Tells whether the server closes the connection within {@code ms} (a reset counts as closing); bytes that
     * come meanwhile are kept.
     *
     * @param ms how long to wait
     * @return true when the connection was closed by the server
     * @throws IOException when the socket cannot be configured
     */
    boolean closedByServer(int ms) throws IOException {
        if (eof) {
            return true;
        }
        if (unix != null) {
            readAll();
            return eof;
        }
        socket.setSoTimeout(ms);
        try {
            while (readSome()) {
                if (eof) {
                    return true;
                }
            }
            return eof;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(QUIET_MS);
            }
        }
    }

    /**
     * Returns everything received so far.
     *
     * @return the bytes, one char per byte
     */
    String received() {
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads what comes; false after a quiet spell. A reset is an end of stream. */
    private boolean readSome() throws IOException {
        byte[] buf = new byte[65536];
        int n;
        try {
            if (unix != null) {
                ByteBuffer b = ByteBuffer.wrap(buf);
                n = unix.read(b);
            } else {
                InputStream in = socket.getInputStream();
                n = in.read(buf);
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("reset")) {
                eof = true;
                return true;
            }
            throw e;
        }
        if (n < 0) {
            eof = true;
            return true;
        }
        received.write(buf, 0, n);
        return true;
    }

    @Override
    public void close() throws IOException {
        if (unix != null) {
            unix.close();
        } else {
            socket.close();
        }
    }
}
