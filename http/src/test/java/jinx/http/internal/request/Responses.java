package jinx.http.internal.request;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits raw HTTP/1.x responses (one char per byte) into complete responses, by {@code Content-Length} or the
 * chunked encoding; an incomplete last response is left out.
 */
final class Responses {

    /**
     * One response.
     *
     * @param statusLine the status line
     * @param headers the header lines, names in lower case (the last of a name wins)
     * @param headerText the header as sent, status line and CRLFs included
     * @param body the body
     */
    record Response(String statusLine, Map<String, String> headers, String headerText, String body) {

        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private Responses() {
    }

    static List<Response> split(String raw) {
        List<Response> list = new ArrayList<>();
        int at = 0;
        while (at < raw.length()) {
            int end = raw.indexOf("\r\n\r\n", at);
            if (end < 0) {
                break;
            }
            String head = raw.substring(at, end + 4);
            String[] lines = head.split("\r\n");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
                }
            }
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
}
