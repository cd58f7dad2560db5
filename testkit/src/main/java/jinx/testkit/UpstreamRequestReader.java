package jinx.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads HTTP/1.x requests off one connection of a {@link FakeUpstream}, keeping every byte it takes: the head
 * first ({@link #readHead}), so that a handler may answer {@code Expect: 100-continue} before the body is read,
 * then the body ({@link #readBody}) by {@code Content-Length} or the chunked encoding (RFC 9112 section 6.3:
 * Transfer-Encoding wins over Content-Length). Lenient where servers are (a bare LF ends a line, as nginx
 * accepts), strict where a proxy's mistake should show: a malformed length or chunk is a {@link Malformed} error.
 */
final class UpstreamRequestReader {

    /** The largest head accepted: far above any proxy's header buffers. */
    static final int MAX_HEAD = 1 << 20;
    /** The largest body kept in memory. */
    static final int MAX_BODY = 64 << 20;

    /** A request the reader cannot take: the message says why. */
    static final class Malformed extends IOException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    private final InputStream in;
    private final int connection;
    private ByteArrayOutputStream raw = new ByteArrayOutputStream();
    private ByteArrayOutputStream body = new ByteArrayOutputStream();
    private String requestLine = "";
    private List<String> headerLines = new ArrayList<>();
    private List<String> trailerLines = new ArrayList<>();

    UpstreamRequestReader(InputStream in, int connection) {
        this.in = in;
        this.connection = connection;
    }

    /**
     * Reads the next request's head.
     *
     * @return false at an end of stream before the first byte (the peer closed between requests)
     * @throws Malformed when the head is not HTTP/1.x or the stream ends in it
     * @throws IOException when a read fails
     */
    boolean readHead() throws IOException {
        raw = new ByteArrayOutputStream();
        body = new ByteArrayOutputStream();
        requestLine = "";
        headerLines = new ArrayList<>();
        trailerLines = new ArrayList<>();
        String line = readLine(true);
        while (line != null && line.isEmpty()) {
            // RFC 9112 section 2.2: a server ignores empty lines before the request line
            line = readLine(true);
        }
        if (line == null) {
            return false;
        }
        requestLine = line;
        if (!line.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+ \\S+ HTTP/1\\.[01]")) {
            throw new Malformed("invalid request line");
        }
        for (line = readLine(false); !line.isEmpty(); line = readLine(false)) {
            if (line.indexOf(':') <= 0 && line.charAt(0) != ' ' && line.charAt(0) != '\t') {
                throw new Malformed("invalid header line");
            }
            headerLines.add(line);
        }
        return true;
    }

    /**
     * Reads the body of the request whose head was just read.
     *
     * @throws Malformed when its length or chunks are invalid, or the stream ends in it
     * @throws IOException when a read fails
     */
    void readBody() throws IOException {
        Received head = received(null);
        List<String> codings = head.headers("Transfer-Encoding");
        if (!codings.isEmpty()) {
            String last = codings.get(codings.size() - 1);
            String[] tokens = last.split(",");
            if (!tokens[tokens.length - 1].trim().equalsIgnoreCase("chunked")) {
                throw new Malformed("unknown transfer encoding \"" + last + "\"");
            }
            readChunked();
            return;
        }
        List<String> lengths = head.headers("Content-Length");
        if (lengths.isEmpty()) {
            return;
        }
        for (String l : lengths) {
            if (!l.equals(lengths.get(0))) {
                throw new Malformed("several Content-Length values");
            }
        }
        long n = length(lengths.get(0));
        copy(n);
    }

    /**
     * Returns what was read of the current request.
     *
     * @param error null, or why the request is malformed
     * @return the request as far as it was read
     */
    Received received(String error) {
        return new Received(connection, requestLine, List.copyOf(headerLines), body.toByteArray(),
            List.copyOf(trailerLines), raw.toByteArray(), error);
    }

    private static long length(String value) throws Malformed {
        if (!value.matches("[0-9]{1,18}")) {
            throw new Malformed("invalid Content-Length \"" + value + "\"");
        }
        long n = Long.parseLong(value);
        if (n > MAX_BODY) {
            throw new Malformed("body of " + n + " bytes is too large for the fake upstream");
        }
        return n;
    }

    private void readChunked() throws IOException {
        for (;;) {
            String line = readLine(false);
            String size = line.split(";", 2)[0].trim();
            if (!size.matches("[0-9A-Fa-f]{1,8}")) {
                throw new Malformed("invalid chunk size \"" + line + "\"");
            }
            long n = Long.parseLong(size, 16);
            if (body.size() + n > MAX_BODY) {
                throw new Malformed("chunked body too large for the fake upstream");
            }
            if (n == 0) {
                for (line = readLine(false); !line.isEmpty(); line = readLine(false)) {
                    trailerLines.add(line);
                }
                return;
            }
            copy(n);
            if (!readLine(false).isEmpty()) {
                throw new Malformed("no CRLF after a chunk's data");
            }
        }
    }

    /** Reads {@code n} body bytes. */
    private void copy(long n) throws IOException {
        byte[] buf = new byte[8192];
        while (n > 0) {
            int got = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (got < 0) {
                throw new Malformed("connection closed in the request body");
            }
            raw.write(buf, 0, got);
            body.write(buf, 0, got);
            n -= got;
        }
    }

    /**
     * Reads a line up to LF and returns it without its CRLF or LF.
     *
     * @param eofAllowed whether an end of stream before the line's first byte is a clean end (null is returned)
     */
    private String readLine(boolean eofAllowed) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (;;) {
            int b = in.read();
            if (b < 0) {
                if (eofAllowed && sb.length() == 0) {
                    return null;
                }
                throw new Malformed("connection closed in the request " + (requestLine.isEmpty() ? "line" : "head"));
            }
            raw.write(b);
            if (raw.size() > MAX_HEAD + body.size()) {
                throw new Malformed("request head over " + MAX_HEAD + " bytes");
            }
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) b);
        }
    }
}
