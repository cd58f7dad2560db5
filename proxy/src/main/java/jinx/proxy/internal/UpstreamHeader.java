package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jinx.http.HttpRequest;
import jinx.http.ResponseParser;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * The upstream's response header as it is read: nginx's {@code ngx_http_upstream_headers_in_t} and the proxy's
 * {@code ngx_http_proxy_process_status_line()} / {@code ngx_http_proxy_process_header()}. It holds the status,
 * the lines in order and what the framing and nginx's {@code X-Accel-*} handlers take from them; a retry on the
 * next peer {@linkplain #reset() resets} it.
 */
final class UpstreamHeader {

    /** A {@code Content-Length} that is no number. */
    static final long INVALID_LENGTH = -2;

    final ResponseParser parser = ProxyBuffers.parser();
    final List<String[]> lines = new ArrayList<>();

    int status;
    String statusLine;
    long length = -1;
    boolean chunked;
    boolean connectionClose;
    /** The upstream sent no status line: the response goes on as HTTP/0.9. */
    boolean http09;
    private boolean statusParsed;

    void reset() {
        statusParsed = false;
        http09 = false;
        lines.clear();
        parser.reset();
        status = 0;
        statusLine = null;
        length = -1;
        chunked = false;
        connectionClose = false;
    }

    /**
     * Parses what {@code buffer} holds.
     *
     * @return {@link Rc#OK} once the header is whole, {@link Rc#AGAIN} for more, {@link Rc#ERROR} (logged)
     */
    int parse(HttpRequest r, ByteBuffer buffer) {
        if (!statusParsed) {
            int rc = parser.parseStatusLine(buffer);
            if (rc == Rc.AGAIN) {
                return rc;
            }
            if (rc != Rc.OK) {
                // nginx passes such a response on as HTTP/0.9: no header, the bytes as they came, then close
                r.log(LogLevel.ERROR, 0, "upstream sent no valid HTTP/1.0 header");
                statusParsed = true;
                http09 = true;
                status = 200;
                connectionClose = true;
                buffer.position(0);
                return Rc.OK;
            }
            statusParsed = true;
            status = parser.status();
            statusLine = parser.statusLine();
            connectionClose = parser.httpVersion() < HttpRequest.VERSION_11;
        }
        for (;;) {
            int rc = parser.parseHeaderLine(buffer);
            if (rc == Rc.OK) {
                line(parser.name(), parser.value());
                continue;
            }
            if (rc == ResponseParser.HEADER_DONE) {
                return Rc.OK;
            }
            if (rc == Rc.AGAIN) {
                return rc;
            }
            r.log(LogLevel.ERROR, 0, "upstream sent invalid header");
            return Rc.ERROR;
        }
    }

    private void line(String name, String value) {
        lines.add(new String[] {name, value});
        if (name.equalsIgnoreCase("Content-Length")) {
            try {
                length = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                length = INVALID_LENGTH;
            }
        } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
            chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        } else if (name.equalsIgnoreCase("Connection")) {
            String v = value.toLowerCase(Locale.ROOT);
            if (v.contains("close")) {
                connectionClose = true;
            } else if (v.contains("keep-alive")) {
                connectionClose = false;
            }
        }
    }

    /** A line's value by name, the first of that name; null when absent. */
    String value(String name) {
        for (String[] l : lines) {
            if (l[0].equalsIgnoreCase(name)) {
                return l[1];
            }
        }
        return null;
    }
}
