package jinx.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.StubEventActions;

/**
 * A loop without an event method, a connection on one end of a socket pair with its {@link SslIo}, and a
 * {@link TlsPeer} on the other: both ends of a handshake driven by the test, in one thread.
 */
final class SslPair implements AutoCloseable {

    final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    final EventLoop loop;
    final Connection c;
    final SslIo io;
    final TlsPeer peer;

    SslPair(SslContext ctx, String serverName, String[] alpn, int maxVersion) throws IOException, SslException {
        ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                                     new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
        loop = new EventLoop(null, new StubEventActions(EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
            | EventActions.USE_EPOLL_EVENT), 4, 0, EventLoop.AcceptSettings.SINGLE, log);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        c = loop.getConnection(sv[0], log);
        c.number = 3;
        c.read.ready = true;
        c.write.ready = true;
        io = SslIo.accept(c, ctx, SslIo.DEFAULT_BUFFER_SIZE);
        peer = new TlsPeer(sv[1], serverName, alpn, maxVersion);
    }

    /**
     * Runs both ends' handshakes until both are done or one fails.
     *
     * @return the server's last answer: {@link Rc#OK} or {@link Rc#ERROR}
     */
    int handshake() {
        int server = Rc.AGAIN;
        int client = 0;
        for (int i = 0; i < 100 && (server == Rc.AGAIN || client == 0); i++) {
            if (client == 0) {
                client = peer.handshake();
            }
            if (server == Rc.AGAIN) {
                server = io.handshake();
            }
            if (server == Rc.ERROR) {
                return server;
            }
        }
        return server;
    }

    String log() {
        return logBytes.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        if (c.fd() != -1) {
            c.close();
        }
        peer.close();
        loop.done();
    }
}
