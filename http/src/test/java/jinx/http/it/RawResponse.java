package jinx.http.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.x response as the bytes came (one char per byte), and the parser that cuts a stream of bytes into
 * responses: by {@code Content-Length}, the chunked encoding, or the end of the stream; none for 1xx, 204, 304 and
 * answers to HEAD.
 *
 * @param statusLine the status line
 * @param headerLines the header lines in order, as sent ({@code Name: value})
 * @param head the status line and header, CRLFs included
 * @param body the body as sent (chunked bodies still chunked)
 */
record RawResponse(String statusLine, List<String> headerLines, String head, String body) {

    /**
     * Returns the status code.
     *
     * @return the code
     */
    int status() {
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    /**
     * Returns the value of the last header line named {@code name} (any case), or null.
     *
     * @param name the name
     * @return the value, trimmed
     */
    String header(String name) {
        String value = null;
        for (String line : headerLines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                value = line.substring(colon + 1).trim();
            }
        }
        return value;
    }

    /**
     * Returns every header line's name, in order.
     *
     * @return the names
     */
    List<String> headerNames() {
        List<String> names = new ArrayList<>();
        for (String line : headerLines) {
            int colon = line.indexOf(':');
            names.add(colon < 0 ? line : line.substring(0, colon));
        }
        return names;
    }

    /**
     * Returns the body with the chunked encoding taken off, when it has one.
     *
     * @return the content
     */
    String content() {
        if (!"chunked".equalsIgnoreCase(header("Transfer-Encoding"))) {
            return body;
        }
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (;;) {
            int eol = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, eol).split(";")[0].trim(), 16);
            if (size == 0) {
                return sb.toString();
            }
            sb.append(body, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }

    /**
     * Cuts {@code raw} into the complete responses it holds.
     *
     * @param raw the bytes received, one char per byte
     * @param noBody whether the responses answer HEAD requests
     * @param eof whether the server closed: a response without a length then ends there
     * @return the complete responses
     */
    static List<RawResponse> split(String raw, boolean noBody, boolean eof) {
        List<RawResponse> list = new ArrayList<>();
        int at = 0;
        while (at < raw.length()) {
            int end = raw.indexOf("\r\n\r\n", at);
            if (end < 0) {
                break;
            }
            String head = raw.substring(at, end + 4);
            String[] lines = head.split("\r\n");
            List<String> headerLines = List.of(lines).subList(1, lines.length);
            RawResponse bare = new RawResponse(lines[0], headerLines, head, "");
            int bodyEnd = bodyEnd(raw, end + 4, bare, noBody, eof);
            if (bodyEnd < 0) {
                break;
            }
            list.add(new RawResponse(lines[0], headerLines, head, raw.substring(end + 4, bodyEnd)));
            at = bodyEnd;
        }
        return list;
    }

    /** Where the body starting at {@code start} ends, or -1 when it is not all there. */
    private static int bodyEnd(String raw, int start, RawResponse r, boolean noBody, boolean eof) {
        int status = r.status();
        if (noBody || status < 200 || status == 204 || status == 304) {
            return start;
        }
        if ("chunked".equalsIgnoreCase(r.header("Transfer-Encoding"))) {
            return chunkedEnd(raw, start);
        }
        String length = r.header("Content-Length");
        if (length != null) {
            long n = Long.parseLong(length);
            return start + n <= raw.length() ? (int) (start + n) : -1;
        }
        return eof ? raw.length() : -1;
    }

    private static int chunkedEnd(String raw, int start) {
        int at = start;
        for (;;) {
            int eol = raw.indexOf("\r\n", at);
            if (eol < 0) {
                return -1;
            }
            int size = Integer.parseInt(raw.substring(at, eol).split(";")[0].trim().toLowerCase(Locale.ROOT), 16);
            if (size == 0) {
                // the trailer fields, if any, then an empty line
                int line = eol + 2;
                for (;;) {
                    int end = raw.indexOf("\r\n", line);
                    if (end < 0) {
                        return -1;
                    }
                    if (end == line) {
                        return end + 2;
                    }
                    line = end + 2;
                }
            }
            at = eol + 2 + size + 2;
            if (at > raw.length()) {
                return -1;
            }
        }
    }
}
