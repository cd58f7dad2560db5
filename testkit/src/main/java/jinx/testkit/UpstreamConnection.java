package jinx.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One connection of a {@link FakeUpstream}, on a thread of its own: reads a request, records it, lets the
 * handler of its path answer, and goes on while the connection is persistent.
 */
final class UpstreamConnection implements Runnable, UpstreamExchange {

    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(100, "Continue"),
        Map.entry(101, "Switching Protocols"), Map.entry(200, "OK"), Map.entry(201, "Created"),
        Map.entry(204, "No Content"), Map.entry(206, "Partial Content"), Map.entry(301, "Moved Permanently"),
        Map.entry(302, "Found"), Map.entry(303, "See Other"), Map.entry(304, "Not Modified"),
        Map.entry(307, "Temporary Redirect"), Map.entry(308, "Permanent Redirect"), Map.entry(400, "Bad Request"),
        Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
        Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"), Map.entry(413, "Content Too Large"),
        Map.entry(426, "Upgrade Required"), Map.entry(429, "Too Many Requests"),
        Map.entry(500, "Internal Server Error"), Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"),
        Map.entry(504, "Gateway Timeout"));

    private final FakeUpstream upstream;
    private final Socket socket;
    private final int number;
    private InputStream in;
    private OutputStream out;
    private Received request;
    private boolean close;
    private boolean reset;

    UpstreamConnection(FakeUpstream upstream, Socket socket, int number) {
        this.upstream = upstream;
        this.socket = socket;
        this.number = number;
    }

    @Override
    public void run() {
        try {
            in = new BufferedInputStream(socket.getInputStream());
            out = new BufferedOutputStream(socket.getOutputStream());
            UpstreamRequestReader reader = new UpstreamRequestReader(in, number);
            while (!upstream.closed() && serve(reader)) {
                // one request after the other, while the connection is persistent
            }
            if (!reset) {
                out.flush();
                // FIN first: a close-delimited body ends here, and the peer reads all of it
                socket.shutdownOutput();
            }
        } catch (IOException e) {
            // the peer went away, or the upstream is closing: the connection ends
        } catch (RuntimeException | AssertionError e) {
            // a handler's bug, or an assertion in it: kept for the test, which runs on another thread
            upstream.failed(e);
        } finally {
            closeQuietly(socket);
            upstream.ended(socket);
        }
    }

    /** Serves one request; false when the connection is to end. */
    private boolean serve(UpstreamRequestReader reader) throws IOException {
        FakeUpstream.Handler handler;
        try {
            socket.setSoTimeout(upstream.idleTimeout());
            if (!reader.readHead()) {
                return false;
            }
            socket.setSoTimeout(0);
            Received head = reader.received(null);
            handler = upstream.handler(head.path());
            if (handler != null && handler.continues() && expectsContinue(head)) {
                out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            reader.readBody();
        } catch (IOException e) {
            return refuse(reader, e);
        }
        request = reader.received(null);
        upstream.record(request);
        close = !request.keepAlive();
        reset = false;
        if (handler == null) {
            respond(404, List.of("Content-Type: text/plain"), bytes("not found\n"));
        } else {
            handler.handle(request, this);
        }
        if (reset) {
            return false;
        }
        out.flush();
        return !close;
    }

    /** Records a request that could not be read whole and answers 400 if the peer is still there. */
    private boolean refuse(UpstreamRequestReader reader, IOException e) throws IOException {
        if (upstream.closed()) {
            throw e;
        }
        String why = e instanceof UpstreamRequestReader.Malformed ? e.getMessage() : e.toString();
        request = reader.received(why);
        if (request.raw().length > 0) {
            upstream.record(request);
        }
        if (e instanceof UpstreamRequestReader.Malformed) {
            close = true;
            respond(400, List.of("Content-Type: text/plain"), bytes("bad request: " + why + "\n"));
        }
        return false;
    }

    private static boolean expectsContinue(Received head) {
        return head.version().equals("HTTP/1.1") && "100-continue".equalsIgnoreCase(head.header("Expect"));
    }

    @Override
    public OutputStream out() {
        return out;
    }

    @Override
    public InputStream in() {
        return in;
    }

    @Override
    public void head(int status, List<String> headerLines) throws IOException {
        StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status))
            .append("\r\n");
        for (String line : headerLines) {
            sb.append(line).append("\r\n");
        }
        if (status >= 200 && !keepAlive()) {
            sb.append("Connection: close\r\n");
        } else if (status >= 200 && !request.version().equals("HTTP/1.1")) {
            // an HTTP/1.0 peer keeps the connection only when told so (RFC 9112 section 9.3)
            sb.append("Connection: keep-alive\r\n");
        }
        out.write(bytes(sb.append("\r\n").toString()));
    }

    @Override
    public void respond(int status, List<String> headerLines, byte[] body) throws IOException {
        boolean bodiless = status < 200 || status == 204 || status == 304;
        List<String> lines = new ArrayList<>(headerLines);
        if (!bodiless) {
            lines.add("Content-Length: " + body.length);
        }
        head(status, lines);
        if (!bodiless && !request.method().equals("HEAD")) {
            out.write(body);
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void pause(long ms) throws IOException {
        out.flush();
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("fake upstream closing");
        }
        if (upstream.closed()) {
            throw new InterruptedIOException("fake upstream closed");
        }
    }

    @Override
    public void closeAfter() {
        close = true;
    }

    @Override
    public boolean keepAlive() {
        return !close;
    }

    @Override
    public void reset() throws IOException {
        out.flush();
        reset = true;
        close = true;
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public String address() {
        return upstream.address();
    }

    /** The reason phrase of a status (RFC 9110 section 15); {@code Unknown} for the others. */
    static String reason(int status) {
        return REASONS.getOrDefault(status, "Unknown");
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing more to do with it
        }
    }
}
