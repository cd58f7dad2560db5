package jinx.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * A raw client for the fake upstream's tests: the kit's {@link JinxClient} over TCP, and an exchange that tells
 * a reset (RST) from a close (FIN), which the kit's client takes as the same end of stream.
 */
final class UpstreamClient {

    /** What came back on a connection before it ended. */
    record Ending(String received, boolean reset) {
    }

    private UpstreamClient() {
    }

    static JinxClient client(FakeUpstream up) {
        return new JinxClient(() -> new SocketSession(up.port()));
    }

    static Socket connect(FakeUpstream up) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", up.port()), 5000);
        s.setSoTimeout(5000);
        return s;
    }

    /**
     * Sends {@code request} on a new connection and reads until the upstream closes or resets it (a quiet spell of
     * 5 s fails the test with a timeout exception).
     */
    static Ending untilEnd(FakeUpstream up, String request) throws IOException {
        try (Socket s = connect(up)) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return untilEnd(s);
        }
    }

    static Ending untilEnd(Socket s) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        InputStream in = s.getInputStream();
        try {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                got.write(buf, 0, n);
            }
        } catch (SocketException e) {
            if (!String.valueOf(e.getMessage()).contains("reset")) {
                throw e;
            }
            return new Ending(got.toString(StandardCharsets.ISO_8859_1), true);
        }
        return new Ending(got.toString(StandardCharsets.ISO_8859_1), false);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
