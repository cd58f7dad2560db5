package jinx.http.internal.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.Listening;
import jinx.kernel.spi.WarmUpExchange;

/**
 * What HTTP offers a worker's warm-up ({@link jinx.kernel.spi.WarmUpExchange}): for each address of a listening
 * socket, requests to its default server's own locations, those the core answers itself (a file, an index, a
 * {@code return}; no content handler of a module, no regular expression, no named or internal location), three
 * times each: plain, with {@code If-None-Match: *} (a 304 for a file) and with an {@code If-Modified-Since} date
 * (the date parsed). Their responses carry a {@code Content-Length}, which {@link #responseLength} reads.
 *
 * <p>A warm-up connection ({@link jinx.kernel.Connection#warmUp}) writes no access log and no error log, and
 * runs no module's content handler (an internal redirect could reach one): see {@code RequestHeaders},
 * {@code AccessLog} and {@code PhaseRunner}.
 */
public final class HttpWarmUp {

    /** Locations per server, at most: the hot code is the same for all of them. */
    static final int MAX_LOCATIONS = 16;

    private HttpWarmUp() {
    }

    /**
     * Returns the exchanges for a listening socket HTTP serves.
     *
     * @param ls the socket
     * @return the exchanges, none for a socket of another protocol
     */
    public static List<WarmUpExchange> exchanges(Listening ls) {
        if (!(ls.servers instanceof ListeningServers servers)) {
            return List.of();
        }
        List<WarmUpExchange> out = new ArrayList<>();
        for (AddrConf a : servers.addrs()) {
            HttpCoreSrvConf srv = a.defaultServer();
            String host = srv.serverName == null || srv.serverName.isEmpty() ? "localhost" : srv.serverName;
            List<String> uris = new ArrayList<>();
            collect(srv.locConf().staticLocations, uris);
            for (String uri : uris) {
                String head = "GET " + uri + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: jinx-warmup\r\n"
                    + "Accept: */*\r\n";
                out.add(new Exchange(head + "\r\n"));
                out.add(new Exchange(head + "If-None-Match: *\r\n\r\n"));
                out.add(new Exchange(head + "If-Modified-Since: Thu, 01 Jan 1970 00:00:01 GMT\r\n\r\n"));
            }
        }
        return out;
    }

    /** The tree's locations, in name order, that are safe to request. */
    private static void collect(LocationTree node, List<String> uris) {
        if (node == null || uris.size() >= MAX_LOCATIONS) {
            return;
        }
        collect(node.left, uris);
        add(node.exact, uris);
        add(node.inclusive, uris);
        collect(node.tree, uris);
        collect(node.right, uris);
    }

    private static void add(HttpCoreLocConf clcf, List<String> uris) {
        if (clcf == null || uris.size() >= MAX_LOCATIONS || clcf.named || clcf.noname || clcf.regex != null
            || clcf.handler != null || clcf.internal == 1) {
            return;
        }
        String uri = clcf.escapedName.isEmpty() ? clcf.name : clcf.escapedName;
        if (!uri.startsWith("/") || uris.contains(uri)) {
            return;
        }
        for (int i = 0; i < uri.length(); i++) {
            char ch = uri.charAt(i);
            if (ch <= ' ' || ch >= 0x7f) {
                return;
            }
        }
        uris.add(uri);
    }

    /**
     * Finds where an HTTP/1.x response ends, from its head: the head's length plus {@code Content-Length}; the
     * head alone for 1xx, 204 and 304; {@link Integer#MAX_VALUE} (the end of the connection) without a length.
     *
     * @param buf the bytes received
     * @param len how many
     * @return the length, or -1 while the head is incomplete
     */
    static int responseLength(byte[] buf, int len) {
        int end = -1;
        for (int i = 3; i < len; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                end = i + 1;
                break;
            }
        }
        if (end < 0) {
            return -1;
        }
        String head = new String(buf, 0, end, StandardCharsets.ISO_8859_1);
        int status = head.length() > 12 ? parseStatus(head) : -1;
        if (status < 0) {
            return Integer.MAX_VALUE;
        }
        if (status < 200 || status == 204 || status == 304) {
            return end;
        }
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                try {
                    long n = Long.parseLong(line.substring(colon + 1).strip());
                    return n < 0 || end + n >= Integer.MAX_VALUE ? Integer.MAX_VALUE : end + (int) n;
                } catch (NumberFormatException e) {
                    return Integer.MAX_VALUE;
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    private static int parseStatus(String head) {
        if (!head.startsWith("HTTP/1.") || head.charAt(8) != ' ') {
            return -1;
        }
        try {
            return Integer.parseInt(head.substring(9, 12));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One request, its bytes made once. */
    private record Exchange(byte[] bytes) implements WarmUpExchange {

        Exchange(String text) {
            this(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public byte[] request() {
            return bytes;
        }

        @Override
        public int responseLength(byte[] buf, int len) {
            return HttpWarmUp.responseLength(buf, len);
        }
    }
}
