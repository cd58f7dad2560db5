package jinx.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One request as it reached a {@link FakeUpstream}: the request line and header lines as sent (in order, line
 * ends taken off), the body with any chunked encoding taken off, the trailer lines of a chunked body, and every
 * byte of the request as it came on the wire. A request the fake upstream could not parse (a bad chunk size, the
 * connection closed in the middle) is recorded too, as far as it was read, with {@link #error()} saying why.
 *
 * <p>Text is one char per byte (ISO-8859-1), as in {@link Response}. The arrays are the recorded ones, not
 * copies: do not change them.
 *
 * @param connection the number of the connection it came on (1 for the first one the upstream accepted)
 * @param requestLine the request line, e.g. {@code GET /echo HTTP/1.0}
 * @param headerLines the header lines in order, as sent ({@code Name: value})
 * @param body the body, de-chunked (empty when there is none)
 * @param trailerLines the trailer lines after the last chunk, in order (empty when none)
 * @param raw every byte of the request as received: head, then the body as sent (chunked bodies still chunked)
 * @param error null for a well-formed request; otherwise why it is not one
 */
public record Received(int connection, String requestLine, List<String> headerLines, byte[] body,
                       List<String> trailerLines, byte[] raw, String error) {

    /**
     * Returns the method, the first word of the request line.
     *
     * @return the method, e.g. {@code GET}
     */
    public String method() {
        return word(0);
    }

    /**
     * Returns the request target as sent, query included.
     *
     * @return the URI, e.g. {@code /echo?a=1}
     */
    public String uri() {
        return word(1);
    }

    /**
     * Returns the request target without its query string.
     *
     * @return the path, e.g. {@code /echo}
     */
    public String path() {
        String uri = uri();
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    /**
     * Returns the protocol version of the request line.
     *
     * @return e.g. {@code HTTP/1.1}; empty when the line has none
     */
    public String version() {
        return word(2);
    }

    /**
     * Returns the value of the first header line named {@code name} (any case), or null.
     *
     * @param name the name
     * @return the value, trimmed
     */
    public String header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? null : values.get(0);
    }

    /**
     * Returns the values of every header line named {@code name} (any case), in order.
     *
     * @param name the name
     * @return the values, trimmed
     */
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>();
        for (String line : headerLines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                values.add(line.substring(colon + 1).trim());
            }
        }
        return values;
    }

    /**
     * Returns the de-chunked body as text.
     *
     * @return the body, one char per byte
     */
    public String bodyText() {
        return new String(body, StandardCharsets.ISO_8859_1);
    }

    /**
     * Returns every byte received for this request as text.
     *
     * @return the raw request, one char per byte
     */
    public String rawText() {
        return new String(raw, StandardCharsets.ISO_8859_1);
    }

    /**
     * Tells whether the request asked for the connection to be kept after the response: HTTP/1.1 without
     * {@code Connection: close}, or HTTP/1.0 with {@code Connection: keep-alive}.
     *
     * @return true when the connection is persistent
     */
    public boolean keepAlive() {
        boolean close = false;
        boolean keep = false;
        for (String value : headers("Connection")) {
            for (String token : value.split(",")) {
                close |= token.trim().equalsIgnoreCase("close");
                keep |= token.trim().equalsIgnoreCase("keep-alive");
            }
        }
        if (version().equals("HTTP/1.1")) {
            return !close;
        }
        return keep && !close;
    }

    private String word(int i) {
        String[] words = requestLine.split(" ", 3);
        return i < words.length ? words[i] : "";
    }

    @Override
    public String toString() {
        return "Received[connection " + connection + (error == null ? "" : ", error: " + error) + "]\n" + rawText();
    }
}
