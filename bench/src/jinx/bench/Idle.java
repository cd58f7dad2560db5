package jinx.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Idle keep-alive connections: each sends one request, reads the whole response and then stays open and silent,
 * so the server holds it in its keep-alive state. Closed with a reset (linger 0) so that no port stays in
 * TIME_WAIT on this side between rounds.
 */
final class Idle implements AutoCloseable {

    private final List<SocketChannel> channels = new ArrayList<>();

    /** Opens {@code n} idle keep-alive connections to {@code port}. */
    static Idle open(int port, int n) throws IOException {
        Idle idle = new Idle();
        byte[] req = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer in = ByteBuffer.allocate(4096);
        try {
            for (int i = 0; i < n; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                idle.channels.add(ch);
                ch.setOption(StandardSocketOptions.SO_LINGER, 0);
                ch.write(ByteBuffer.wrap(req));
                in.clear();
                // the response is small: read until its body ("hello\n") has arrived
                while (!endsWithHello(in)) {
                    if (ch.read(in) < 0) {
                        throw new IOException("connection " + i + " closed by the server");
                    }
                }
            }
        } catch (IOException e) {
            idle.close();
            throw e;
        }
        return idle;
    }

    private static boolean endsWithHello(ByteBuffer b) {
        int p = b.position();
        if (p < 6) {
            return false;
        }
        String tail = new String(b.array(), p - 6, 6, StandardCharsets.ISO_8859_1);
        return tail.equals("hello\n");
    }

    /** How many are still open (the server closed none). */
    int stillOpen() throws IOException {
        int open = 0;
        ByteBuffer one = ByteBuffer.allocate(1);
        for (SocketChannel ch : channels) {
            ch.configureBlocking(false);
            one.clear();
            try {
                if (ch.read(one) == 0) {
                    open++;
                }
            } catch (IOException e) {
                // reset by the server: not open
            }
            ch.configureBlocking(true);
        }
        return open;
    }

    @Override
    public void close() {
        for (SocketChannel ch : channels) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing a reset connection: nothing left to release
            }
        }
        channels.clear();
    }
}
