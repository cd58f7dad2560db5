package jinx.http.internal.request;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP tests' parser of raw HTTP/1.x responses (one char per byte), for the engine's tests here and the modules'
 * ({@link EngineFixture#get}): {@link #split} cuts a stream into complete responses, by {@code Content-Length} or the
 * chunked encoding (an incomplete last response is left out); {@link #first} takes the first response once it is
 * complete, by {@code Content-Length}, with no body for HEAD, 204 and 304. The process tests' {@code RawResponse}
 * reads streams a server closes.
 */
public final class Responses {

    /**
     * One response.
     *
     * @param statusLine the status line
     * @param headers the header lines, names in lower case (the last of a name wins)
     * @param headerText the header as sent, status line and CRLFs included
     * @param body the body
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

        /** The whole response with the {@code Date} value masked. */
        public String masked() {
            return (headerText + body).replaceAll("\r\nDate: [^\r]*\r\n", "\r\nDate: X\r\n");
        }
    }

    private Responses() {
    }

    /**
     * The complete responses of {@code raw}.
     *
     * @param raw the bytes received, one char per byte
     * @return the responses; a response with neither length nor chunks takes the rest
     */
    public static List<Response> split(String raw) {
        List<Response> list = new ArrayList<>();
        int at = 0;
        while (at < raw.length()) {
            int end = raw.indexOf("\r\n\r\n", at);
            if (end < 0) {
                break;
            }
            String head = raw.substring(at, end + 4);
            String[] lines = head.split("\r\n");
            Map<String, String> headers = headers(lines);
            int bodyStart = end + 4;
            String length = headers.get("content-length");
            if (length != null) {
                int n = Integer.parseInt(length);
                if (bodyStart + n > raw.length()) {
                    break;
                }
                list.add(new Response(lines[0], headers, head, raw.substring(bodyStart, bodyStart + n)));
                at = bodyStart + n;
                continue;
            }
            if ("chunked".equals(headers.get("transfer-encoding"))) {
                int last = raw.indexOf("\r\n0\r\n\r\n", bodyStart - 2);
                if (last < 0) {
                    break;
                }
                list.add(new Response(lines[0], headers, head, raw.substring(bodyStart, last + 7)));
                at = last + 7;
                continue;
            }
            list.add(new Response(lines[0], headers, head, raw.substring(bodyStart)));
            break;
        }
        return list;
    }

    /**
     * The first response of {@code raw} once it is complete, by {@code Content-Length} (none: no body).
     *
     * @param raw the bytes received, one char per byte
     * @param head whether it answers a HEAD request: no body
     * @return the response, or null while it is incomplete
     */
    public static Response first(String raw, boolean head) {
        int end = raw.indexOf("\r\n\r\n");
        if (end < 0) {
            return null;
        }
        String headText = raw.substring(0, end + 4);
        String[] lines = headText.split("\r\n");
        Map<String, String> headers = headers(lines);
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        String length = headers.get("content-length");
        int n = head || status == 304 || status == 204 || length == null ? 0 : Integer.parseInt(length);
        if (end + 4 + n > raw.length()) {
            return null;
        }
        return new Response(lines[0], headers, headText, raw.substring(end + 4, end + 4 + n));
    }

    /** The header lines after the status line, names in lower case, the last of a name winning. */
    private static Map<String, String> headers(String[] lines) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
            }
        }
        return headers;
    }
}
