package jinx.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * A {@link FakeUpstream.Handler}'s view of the connection its request came on: the raw streams, helpers that
 * write a response head or a whole response, and the ways to end the connection (close, reset).
 */
public interface UpstreamExchange {

    /**
     * Returns the stream to write the response to, raw; buffered, flushed when the handler returns.
     *
     * @return the output stream
     */
    OutputStream out();

    /**
     * Returns the stream of the bytes after the request (for a tunnel after 101).
     *
     * @return the input stream
     */
    InputStream in();

    /**
     * Writes an HTTP/1.1 response head: the status line, the header lines, and (but for 1xx) the
     * {@code Connection} header the request calls for: {@code close} when the connection ends after this
     * response, {@code keep-alive} to an HTTP/1.0 request that asked for it. The body is the caller's.
     *
     * @param status the status code
     * @param headerLines header lines ({@code Name: value}) in order
     * @throws IOException when the write fails
     */
    void head(int status, List<String> headerLines) throws IOException;

    /**
     * Writes an HTTP/1.1 response: {@link #head} with the header lines and {@code Content-Length} (but for
     * 1xx, 204 and 304), then the body (not to HEAD).
     *
     * @param status the status code
     * @param headerLines header lines ({@code Name: value}) to send first, in order
     * @param body the body
     * @throws IOException when the write fails
     */
    void respond(int status, List<String> headerLines, byte[] body) throws IOException;

    /**
     * Flushes what was written to the socket.
     *
     * @throws IOException when the write fails
     */
    void flush() throws IOException;

    /**
     * Flushes, then waits.
     *
     * @param ms how long
     * @throws IOException when the flush fails, or the upstream is closed meanwhile
     */
    void pause(long ms) throws IOException;

    /** Closes the connection (FIN) once the handler returns, whatever the request asked. */
    void closeAfter();

    /**
     * Tells whether the connection stays open after this response.
     *
     * @return false when the request or the handler asked for a close
     */
    boolean keepAlive();

    /**
     * Resets the connection now: SO_LINGER 0, then close, so the peer gets an RST (and loses what it has not
     * read yet). What was written is flushed first.
     *
     * @throws IOException when the flush or close fails
     */
    void reset() throws IOException;

    /**
     * Returns the upstream's own address.
     *
     * @return {@code 127.0.0.1:port}
     */
    String address();
}
