package jinx.testkit;

import static jinx.testkit.UpstreamConnection.bytes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jinx.testkit.FakeUpstream.Handler;

/**
 * The built-in behaviours of a {@link FakeUpstream}, one per path prefix; the table is in its Javadoc. Where a
 * behaviour closes or resets on purpose it does so without a {@code Connection: close} first, as a backend that
 * fails does, unless closing is how its body ends ({@code /close/N}).
 */
final class UpstreamBehaviours {

    private static final byte[] PATTERN = bytes("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n");
    private static final List<String> TEXT = List.of("Content-Type: text/plain");
    private static final List<String> CHUNKED = List.of("Content-Type: text/plain", "Transfer-Encoding: chunked");
    /** RFC 6455 section 1.3: the GUID appended to Sec-WebSocket-Key. */
    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** A body held in memory whole: bounds {@code /size/N} and friends. */
    private static final int MAX_SIZE = 256 << 20;
    /** The longest {@code X-Big} value. */
    private static final int MAX_HEADER = 1 << 20;

    /** A behaviour that takes a number from the path. */
    @FunctionalInterface
    private interface Numbered {
        void handle(int n, Received request, UpstreamExchange exchange) throws IOException;
    }

    private UpstreamBehaviours() {
    }

    static void install(FakeUpstream up) {
        up.on("/echo", UpstreamBehaviours::echo)
            .on("/hello", (r, ex) -> ex.respond(200, TEXT, bytes("hello\n")))
            .on("/size", numbered("/size", -1, MAX_SIZE, (n, r, ex) -> ex.respond(200, TEXT, pattern(n))))
            .on("/chunked", numbered("/chunked", -1, MAX_SIZE, UpstreamBehaviours::chunked))
            .on("/trailers", UpstreamBehaviours::trailers)
            .on("/close", numbered("/close", -1, MAX_SIZE, UpstreamBehaviours::closeDelimited))
            .on("/http10", UpstreamBehaviours::http10)
            .on("/status", numbered("/status", -1, 999, UpstreamBehaviours::status))
            .on("/slow-header", numbered("/slow-header", -1, 3_600_000, (n, r, ex) -> {
                ex.pause(n);
                ex.respond(200, TEXT, bytes("slow\n"));
            }))
            .on("/slow-body", numbered("/slow-body", -1, 3_600_000, UpstreamBehaviours::slowBody))
            .on("/garbage", (r, ex) -> {
                ex.out().write(bytes("this is not HTTP\r\n\r\n"));
                ex.closeAfter();
            })
            .on("/bad-header", (r, ex) -> {
                ex.out().write(bytes("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nthis line has no colon\r\n\r\nbad\n"));
                ex.closeAfter();
            })
            .on("/big-header", numbered("/big-header", 16384, MAX_HEADER, (n, r, ex) ->
                ex.respond(200, List.of("Content-Type: text/plain", "X-Big: " + alnum(n)), bytes("big\n"))))
            .on("/reset-header", (r, ex) -> ex.reset())
            .on("/reset-body", (r, ex) -> {
                ex.head(200, List.of("Content-Type: text/plain", "Content-Length: 1000"));
                ex.out().write(pattern(100));
                // let the bytes reach the peer: an RST drops what the sender still holds
                ex.pause(100);
                ex.reset();
            })
            .on("/close-early", (r, ex) -> {
                ex.head(200, List.of("Content-Type: text/plain", "Content-Length: 200"));
                ex.pause(100);
                ex.out().write(pattern(100));
                ex.closeAfter();
            })
            .on("/bad-chunk", (r, ex) -> {
                ex.head(200, CHUNKED);
                ex.out().write(bytes("6\r\nhello\n\r\nzz\r\n"));
                ex.closeAfter();
            })
            .on("/wrong-length", (r, ex) -> {
                ex.head(200, List.of("Content-Type: text/plain", "Content-Length: 100"));
                ex.out().write(bytes("short\n"));
                ex.closeAfter();
            })
            .on("/headers", UpstreamBehaviours::headers)
            .on("/redirect", UpstreamBehaviours::redirect)
            .on("/upgrade", UpstreamBehaviours::upgrade)
            .on("/expect", new Handler() {
                @Override
                public void handle(Received r, UpstreamExchange ex) throws IOException {
                    ex.respond(200, TEXT, r.body());
                }

                @Override
                public boolean continues() {
                    return true;
                }
            });
    }

    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = PATTERN[i & 63];
        }
        return b;
    }

    /** Letters and digits only: a header value. */
    private static String alnum(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) PATTERN[i % 62]);
        }
        return sb.toString();
    }

    /**
     * Wraps a behaviour that takes the number after {@code prefix/}: 400 when it is missing (and there is no
     * default) or not a number up to {@code max}.
     */
    private static Handler numbered(String prefix, int dflt, int max, Numbered h) {
        return (r, ex) -> {
            String path = r.path();
            String arg = path.length() > prefix.length() + 1 ? path.substring(prefix.length() + 1) : "";
            if (arg.isEmpty() && dflt >= 0) {
                h.handle(dflt, r, ex);
                return;
            }
            if (!arg.matches("[0-9]{1,9}") || Integer.parseInt(arg) > max) {
                ex.respond(400, TEXT, bytes("bad number \"" + arg + "\" in " + prefix + "/N (0-" + max + ")\n"));
                return;
            }
            h.handle(Integer.parseInt(arg), r, ex);
        };
    }

    private static boolean sendsBody(Received r) {
        return !r.method().equals("HEAD");
    }

    private static void echo(Received r, UpstreamExchange ex) throws IOException {
        StringBuilder sb = new StringBuilder(r.requestLine()).append('\n');
        for (String line : r.headerLines()) {
            sb.append(line).append('\n');
        }
        byte[] head = bytes(sb.append('\n').toString());
        byte[] body = new byte[head.length + r.body().length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(r.body(), 0, body, head.length, r.body().length);
        ex.respond(200, TEXT, body);
    }

    private static void chunked(int n, Received r, UpstreamExchange ex) throws IOException {
        ex.head(200, CHUNKED);
        if (!sendsBody(r)) {
            return;
        }
        byte[] body = pattern(n);
        OutputStream out = ex.out();
        // chunks of 1, 2, 4, ... 8192 bytes, each flushed on its own: the parser on the other end sees sizes of
        // every width, split anywhere across reads
        int size = 1;
        for (int at = 0; at < n; at += size, size = Math.min(size * 2, 8192)) {
            int len = Math.min(size, n - at);
            out.write(bytes(Integer.toHexString(len) + "\r\n"));
            out.write(body, at, len);
            out.write(bytes("\r\n"));
            ex.flush();
        }
        out.write(bytes("0\r\n\r\n"));
    }

    private static void trailers(Received r, UpstreamExchange ex) throws IOException {
        ex.head(200, List.of("Content-Type: text/plain", "Transfer-Encoding: chunked",
            "Trailer: X-Checksum, X-Trailer"));
        if (sendsBody(r)) {
            ex.out().write(bytes("3\r\nhel\r\n3\r\nlo\n\r\n0\r\nX-Checksum: 5d41402a\r\nX-Trailer: done\r\n\r\n"));
        }
    }

    private static void closeDelimited(int n, Received r, UpstreamExchange ex) throws IOException {
        ex.closeAfter();
        ex.head(200, TEXT);
        if (sendsBody(r)) {
            ex.out().write(pattern(n));
        }
    }

    private static void http10(Received r, UpstreamExchange ex) throws IOException {
        ex.closeAfter();
        ex.out().write(bytes("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\n"));
        if (sendsBody(r)) {
            ex.out().write(bytes("http/1.0\n"));
        }
    }

    private static void status(int n, Received r, UpstreamExchange ex) throws IOException {
        if (n < 200) {
            ex.respond(400, TEXT, bytes("bad status " + n + " in /status/NNN (200-999)\n"));
            return;
        }
        ex.respond(n, TEXT, bytes("status " + n + "\n"));
    }

    private static void slowBody(int n, Received r, UpstreamExchange ex) throws IOException {
        ex.head(200, List.of("Content-Type: text/plain", "Content-Length: 13"));
        if (sendsBody(r)) {
            ex.out().write(bytes("first\n"));
            ex.pause(n);
            ex.out().write(bytes("second\n"));
        }
    }

    private static void headers(Received r, UpstreamExchange ex) throws IOException {
        String self = "http://" + ex.address();
        ex.respond(200, List.of("Server: fake-upstream", "Date: Sun, 06 Nov 1994 08:49:37 GMT",
            "Content-Type: text/plain", "Set-Cookie: a=1; Domain=127.0.0.1; Path=/",
            "Set-Cookie: b=2; Path=/headers/; HttpOnly", "Set-Cookie: c=3; domain=localhost; path=/x; Secure",
            "Location: " + self + "/x", "Refresh: 5; url=" + self + "/x", "X-Accel-Buffering: yes",
            "X-Accel-Expires: 0", "X-Accel-Limit-Rate: 0", "X-Pad: avoid browser bug",
            "x-lower-case: kept"), bytes("headers\n"));
    }

    private static void redirect(Received r, UpstreamExchange ex) throws IOException {
        String path = r.path();
        String target = path.length() > "/redirect/".length() ? path.substring("/redirect".length()) : "/x";
        ex.respond(302, List.of("Content-Type: text/plain", "Location: http://" + ex.address() + target),
            bytes("redirect\n"));
    }

    private static void upgrade(Received r, UpstreamExchange ex) throws IOException {
        String protocol = r.header("Upgrade");
        if (protocol == null) {
            ex.respond(426, TEXT, bytes("upgrade required\n"));
            return;
        }
        List<String> lines = new ArrayList<>(List.of("Upgrade: " + protocol, "Connection: Upgrade"));
        String key = r.header("Sec-WebSocket-Key");
        if (key != null) {
            lines.add("Sec-WebSocket-Accept: " + websocketAccept(key));
        }
        ex.head(101, lines);
        ex.flush();
        ex.closeAfter();
        byte[] buf = new byte[8192];
        // a tunnel now: echo until the peer closes its side, then close ours
        for (int n = ex.in().read(buf); n >= 0; n = ex.in().read(buf)) {
            ex.out().write(buf, 0, n);
            ex.flush();
        }
    }

    static String websocketAccept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
