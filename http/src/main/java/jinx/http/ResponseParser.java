package jinx.http;

import java.nio.ByteBuffer;

import jinx.http.internal.parse.ChunkedState;
import jinx.http.internal.parse.HttpParseState;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.parse.StatusLine;
import jinx.kernel.Rc;

/**
 * Reads an HTTP/1.x response as it arrives, for modules that talk to HTTP servers (a proxy): nginx's
 * {@code ngx_http_parse_status_line()}, {@code ngx_http_parse_header_line()} and {@code ngx_http_parse_chunked()},
 * which nginx's upstream modules call from the core. The parsers are the core's own (the request parser's header
 * line, in its upstream mode), so a response is framed exactly as nginx frames it. Each method takes bytes from
 * the buffer's position to its limit, moves the position past what it consumed, and answers
 * {@link Rc#AGAIN} when it needs more: call again with the same state once more bytes are in the buffer (the
 * unconsumed ones kept in front). Added in SPI 1.3.
 *
 * <p>One parser per response being read; {@link #reset()} makes it ready for the next one. Not thread-safe.
 */
public final class ResponseParser {

    /** {@link #parseHeaderLine}: the empty line ending the header was read. */
    public static final int HEADER_DONE = HttpParser.PARSE_HEADER_DONE;
    /** {@link #parseHeaderLine}: the line is not a valid header line (nginx's upstream answers 502). */
    public static final int INVALID_HEADER = HttpParser.PARSE_INVALID_HEADER;

    private final HttpParseState state = new HttpParseState();
    private final StatusLine status = new StatusLine();
    private final ChunkedState chunked = new ChunkedState();
    private String statusLine;
    private String name;
    private String value;

    /**
     * A parser ready for a response.
     */
    public ResponseParser() {
        reset();
    }

    /**
     * Makes the parser ready for a new response.
     */
    public void reset() {
        state.reset();
        state.upstream = true;
        status.reset();
        chunked.reset();
        statusLine = null;
        name = null;
        value = null;
    }

    /**
     * Parses the status line ({@code HTTP/1.1 200 OK}).
     *
     * @param b the bytes received
     * @return {@link Rc#OK} ({@link #status()} and kin are set, the position is past the line), {@link Rc#AGAIN},
     *     or {@link Rc#ERROR} when it is no status line (nginx's proxy then takes the response as HTTP/0.9)
     */
    public int parseStatusLine(ByteBuffer b) {
        int rc = HttpParser.parseStatusLine(state, b, status);
        if (rc == Rc.OK) {
            statusLine = text(b, status.start, status.end);
            state.state = 0;
        }
        return rc;
    }

    /**
     * Returns the status code of the line parsed.
     *
     * @return the code
     */
    public int status() {
        return status.code;
    }

    /**
     * Returns the protocol version as {@link HttpRequest#VERSION_11} and kin.
     *
     * @return the version
     */
    public int httpVersion() {
        return status.httpVersion;
    }

    /**
     * Returns the status line's code and text ({@code 200 OK}), as nginx's {@code status_line}.
     *
     * @return the text
     */
    public String statusLine() {
        return statusLine;
    }

    /**
     * Parses one header line; after {@link Rc#OK}, {@link #name()} and {@link #value()} hold it.
     *
     * @param b the bytes received
     * @return {@link Rc#OK}, {@link Rc#AGAIN}, {@link #HEADER_DONE} or {@link #INVALID_HEADER}
     */
    public int parseHeaderLine(ByteBuffer b) {
        int rc = HttpParser.parseHeaderLine(state, b, true);
        if (rc == Rc.OK) {
            name = text(b, state.headerNameStart, state.headerNameEnd);
            value = text(b, state.headerStart, state.headerEnd);
        }
        return rc;
    }

    /**
     * Returns the name of the header line parsed last, as sent.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the value of the header line parsed last, without surrounding whitespace.
     *
     * @return the value
     */
    public String value() {
        return value;
    }

    /**
     * Parses a chunked body. {@link Rc#OK}: chunk data starts at the position, {@link #chunkSize()} bytes of it
     * (some possibly still to come); take up to that many, tell {@link #consumed(long)}, and call again.
     * {@link Rc#AGAIN}: the buffer is used up. {@link Rc#DONE}: the last chunk and its trailer were read.
     * {@link Rc#ERROR}: invalid chunked data.
     *
     * @param b the bytes received
     * @return {@link Rc#OK}, {@link Rc#AGAIN}, {@link Rc#DONE} or {@link Rc#ERROR}
     */
    public int parseChunked(ByteBuffer b) {
        return HttpParser.parseChunked(chunked, b);
    }

    /**
     * Returns the bytes of chunk data left to take after {@link #parseChunked} answered {@link Rc#OK}.
     *
     * @return bytes
     */
    public long chunkSize() {
        return chunked.size;
    }

    /**
     * Counts chunk data taken from the buffer.
     *
     * @param n bytes taken
     */
    public void consumed(long n) {
        chunked.size -= n;
    }

    private static String text(ByteBuffer b, int start, int end) {
        if (start < 0 || end < start) {
            return "";
        }
        byte[] bytes = new byte[end - start];
        b.get(start, bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
