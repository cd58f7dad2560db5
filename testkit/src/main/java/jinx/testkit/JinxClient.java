package jinx.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A raw HTTP client for the server under test: the test writes the exact bytes it wants (a malformed request
 * line, a header too long, a body split anywhere) and reads the exact bytes the server sent. Over a TCP socket to
 * 127.0.0.1, or, for a server in memory, over an in-memory connection whose loop the client turns while it waits.
 *
 * <p>Waits are bounded: a read gives up after {@link #QUIET_MS} without new bytes. Each call of {@link #get},
 * {@link #request} and {@link #exchange} uses a new connection; {@link #open()} keeps one for several requests
 * (keep-alive, pipelining).
 */
public final class JinxClient {

    /** How long a read waits for more bytes before it takes what came as all there is. */
    public static final int QUIET_MS = 5000;

    private final Opener opener;

    /** Opens a connection to the server under test. */
    @FunctionalInterface
    interface Opener {
        Session open() throws IOException;
    }

    JinxClient(Opener opener) {
        this.opener = opener;
    }

    /**
     * Opens a connection.
     *
     * @return the connection, to be closed by the caller
     * @throws IOException when it cannot be opened
     */
    public Session open() throws IOException {
        return opener.open();
    }

    /**
     * Sends {@code GET uri HTTP/1.1} with {@code Host: localhost} and {@code Connection: close} and reads the
     * response.
     *
     * @param uri the request target
     * @return the response
     * @throws IOException when the exchange fails or no complete response came
     */
    public Response get(String uri) throws IOException {
        return request("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    /**
     * Sends raw bytes on a new connection and reads one final response.
     *
     * @param raw the request, one byte per char
     * @return the response
     * @throws IOException when the exchange fails or no complete response came
     */
    public Response request(String raw) throws IOException {
        try (Session s = open()) {
            return s.send(raw).response();
        }
    }

    /**
     * Sends raw bytes on a new connection and returns everything the server sent until it closed (or went quiet).
     *
     * @param raw the bytes, one byte per char
     * @return what came back, one char per byte
     * @throws IOException when the exchange fails
     */
    public String exchange(String raw) throws IOException {
        try (Session s = open()) {
            return s.send(raw).readAll();
        }
    }

    /**
     * One connection to the server under test.
     */
    public abstract static class Session implements AutoCloseable {

        private final StringBuilder received = new StringBuilder();
        private boolean eof;

        Session() {
        }

        /**
         * Writes text, one byte per char.
         *
         * @param text the bytes
         * @return this session
         * @throws IOException when the write fails
         */
        public Session send(String text) throws IOException {
            return send(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        /**
         * Writes bytes.
         *
         * @param bytes the bytes
         * @return this session
         * @throws IOException when the write fails
         */
        public abstract Session send(byte[] bytes) throws IOException;

        /**
         * Closes the sending side: the server reads the end of the stream.
         *
         * @throws IOException when the call fails
         */
        public abstract void shutdownOutput() throws IOException;

        /**
         * Reads until {@code n} final responses are complete, the server closes, or nothing comes for
         * {@link #QUIET_MS}, and returns the complete responses received on this connection so far.
         *
         * @param n how many final responses to wait for
         * @return the responses, interim ones included
         * @throws IOException when a read fails
         */
        public List<Response> responses(int n) throws IOException {
            while (!eof && Response.finals(Response.split(received(), false, false)) < n) {
                if (!readSome()) {
                    break;
                }
            }
            return Response.split(received(), false, eof);
        }

        /**
         * Reads one final response and returns it.
         *
         * @return the first final response on this connection
         * @throws IOException when a read fails, or no complete response came
         */
        public Response response() throws IOException {
            for (Response r : responses(1)) {
                if (r.status() >= 200) {
                    return r;
                }
            }
            throw new IOException("no complete response; received: " + received());
        }

        /**
         * Reads until what was received contains {@code text}, the server closes, or nothing comes for
         * {@link #QUIET_MS}; returns all received (a part of a response sent early, for instance).
         *
         * @param text the text awaited
         * @return the bytes, one char per byte
         * @throws IOException when a read fails
         */
        public String readUntil(String text) throws IOException {
            while (!eof && !received().contains(text) && readSome()) {
                // until the text, the end of the stream or a quiet spell
            }
            return received();
        }

        /**
         * Reads until the server closes (or nothing comes for {@link #QUIET_MS}) and returns all received.
         *
         * @return the bytes, one char per byte
         * @throws IOException when a read fails
         */
        public String readAll() throws IOException {
            while (!eof && readSome()) {
                // until the end of the stream or a quiet spell
            }
            return received();
        }

        /**
         * Tells whether the server closed the connection (reading what came, waiting at most
         * {@link #QUIET_MS}).
         *
         * @return true when the server closed
         * @throws IOException when a read fails
         */
        public boolean closedByServer() throws IOException {
            readAll();
            return eof;
        }

        /**
         * Returns everything received so far.
         *
         * @return the bytes, one char per byte
         */
        public String received() {
            return received.toString();
        }

        /** Takes what came: for the transports. */
        void append(byte[] bytes, int len) {
            for (int i = 0; i < len; i++) {
                received.append((char) (bytes[i] & 0xff));
            }
        }

        /** The server closed: for the transports. */
        void endOfStream() {
            eof = true;
        }

        /**
         * Reads what comes, waiting at most {@link #QUIET_MS} for the first byte.
         *
         * @return false after a quiet spell
         * @throws IOException when a read fails
         */
        abstract boolean readSome() throws IOException;

        @Override
        public abstract void close() throws IOException;
    }
}
