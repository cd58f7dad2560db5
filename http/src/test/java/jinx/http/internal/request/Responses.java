package jinx.http.internal.request;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP tests' one parser of raw HTTP/1.x responses (one char per byte), for the engine's and the modules' unit
 * tests ({@link EngineFixture#get}) and the process tests ({@code jinx.http.it}): {@link #split(String, boolean,
 * boolean)} cuts a stream into complete responses, by {@code Content-Length}, the chunked encoding (trailers
 * included) or the end of the stream, with no body for 1xx, 204, 304 and answers to HEAD; an incomplete last
 * response is left out. {@link #first} takes the first response once it is complete, by {@code Content-Length}
 * alone.
 */
public final class Responses {

    /**
     * One response.
     *
     * @param statusLine the status line
     * @param headers the header lines, names in lower case (the last of a name wins)
     * @param headerText the header as sent, status line and CRLFs included
     * @param body the body as sent (a chunked body still chunked)
     */
    public record Response(String statusLine, Map<String, String> headers, String headerText, String body) {

        /** The status code. */
        public int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        /** The value of the last header line named {@code name} (any case), or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** The header lines in order, as sent ({@code Name: value}), the status line not among them. */
        public List<String> headerLines() {
            String[] lines = headerText.split("\r\n");
            return List.of(lines).subList(1, lines.length);
        }

        /** Every header line's name, in order, as sent. */
        public List<String> headerNames() {
            List<String> names = new ArrayList<>();
            for (String line : headerLines()) {
                int colon = line.indexOf(':');
                names.add(colon < 0 ? line : line.substring(0, colon));
            }
            return names;
        }

        /** The body with the chunked encoding taken off, when it has one. */
        public String content() {
            if (!"chunked".equalsIgnoreCase(header("Transfer-Encoding"))) {
                return body;
            }
            StringBuilder sb = new StringBuilder();
            int at = 0;
            for (;;) {
                int eol = body.indexOf("\r\n", at);
                int size = chunkSize(body.substring(at, eol));
                if (size == 0) {
                    return sb.toString();
                }
                sb.append(body, eol + 2, eol + 2 + size);
                at = eol + 2 + size + 2;
            }
        }

        /** The whole response with the {@code Date} value masked. */
        public String masked() {
            return (headerText + body).replaceAll("\r\nDate: [^\r]*\r\n", "\r\nDate: X\r\n");
        }
    }

    private Responses() {
    }

    /**
     * The complete responses of {@code raw}, from a server that closed after them: a response with neither length
     * nor chunks takes the rest.
     *
     * @param raw the bytes received, one char per byte
     * @return the responses
     */
    public static List<Response> split(String raw) {
        return split(raw, false, true);
    }

    /**
     * The complete responses of {@code raw}.
     *
     * @param raw the bytes received, one char per byte
     * @param noBody whether the responses answer HEAD requests
     * @param eof whether the server closed: a response without a length then ends there
     * @return the complete responses
     */
    public static List<Response> split(String raw, boolean noBody, boolean eof) {
        List<Response> list = new ArrayList<>();
        int at = 0;
        while (at < raw.length()) {
            Response head = head(raw, at);
            if (head == null) {
                break;
            }
            int start = at + head.headerText().length();
            int end = bodyEnd(raw, start, head, noBody, eof);
            if (end < 0) {
                break;
            }
            list.add(new Response(head.statusLine(), head.headers(), head.headerText(), raw.substring(start, end)));
            at = end;
        }
        return list;
    }

    /**
     * The first response of {@code raw} once it is complete, by {@code Content-Length} (none: no body).
     *
     * @param raw the bytes received, one char per byte
     * @param noBody whether it answers a HEAD request: no body
     * @return the response, or null while it is incomplete
     */
    public static Response first(String raw, boolean noBody) {
        Response head = head(raw, 0);
        if (head == null) {
            return null;
        }
        int status = head.status();
        String length = head.header("Content-Length");
        int n = noBody || status == 304 || status == 204 || length == null ? 0 : Integer.parseInt(length);
        int start = head.headerText().length();
        if (start + n > raw.length()) {
            return null;
        }
        return new Response(head.statusLine(), head.headers(), head.headerText(), raw.substring(start, start + n));
    }

    /** The status line and header starting at {@code at}, with no body, or null while the header is incomplete. */
    private static Response head(String raw, int at) {
        int end = raw.indexOf("\r\n\r\n", at);
        if (end < 0) {
            return null;
        }
        String text = raw.substring(at, end + 4);
        String[] lines = text.split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
            }
        }
        return new Response(lines[0], headers, text, "");
    }

    /** Where the body starting at {@code start} ends, or -1 when it is not all there. */
    private static int bodyEnd(String raw, int start, Response r, boolean noBody, boolean eof) {
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

    /** The end of the chunked body starting at {@code start}, its trailer included, or -1. */
    private static int chunkedEnd(String raw, int start) {
        int at = start;
        for (;;) {
            int eol = raw.indexOf("\r\n", at);
            if (eol < 0) {
                return -1;
            }
            int size = chunkSize(raw.substring(at, eol));
            if (size == 0) {
                // the trailer: header lines up to an empty one
                for (int line = eol + 2;;) {
                    int next = raw.indexOf("\r\n", line);
                    if (next < 0) {
                        return -1;
                    }
                    if (next == line) {
                        return next + 2;
                    }
                    line = next + 2;
                }
            }
            at = eol + 2 + size + 2;
            if (at > raw.length()) {
                return -1;
            }
        }
    }

    private static int chunkSize(String line) {
        return Integer.parseInt(line.split(";")[0].trim().toLowerCase(Locale.ROOT), 16);
    }
}
