package jinx.kernel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.ConnectionIoContract;
import jinx.kernel.testsuite.StubEventActions;

/** {@link SocketIo} keeps {@link ConnectionIoContract} over a UNIX socket pair, with epoll's flags. */
@EnabledOnOs(OS.LINUX)
class SocketIoContractTest extends ConnectionIoContract {

    private EventLoop loop;
    private int peer = -1;
    private final NativeMemory scratch = new NativeMemory();
    private final long buf = scratch.allocate(65536);

    @Override
    protected Connection open() throws IOException {
        ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.EMERG)), System.err);
        loop = new EventLoop(null, new StubEventActions(EventActions.USE_CLEAR_EVENT | EventActions.USE_GREEDY_EVENT
            | EventActions.USE_EPOLL_EVENT), 4, 0, EventLoop.AcceptSettings.SINGLE, log);
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        Connection conn = loop.getConnection(sv[0], log);
        peer = sv[1];
        conn.read.ready = true;
        conn.write.ready = true;
        conn.read.available = -1;
        return conn;
    }

    @Override
    protected void peerWrite(byte[] data) throws NativeIoException {
        NativeMemory.put(buf, data, 0, data.length);
        Sockets.send(peer, buf, data.length);
        c.read.ready = true;
        c.read.available = -1;
    }

    @Override
    protected byte[] peerRead() throws NativeIoException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (;;) {
            int n = Sockets.recv(peer, buf, 65536);
            if (n <= 0) {
                return out.toByteArray();
            }
            byte[] b = new byte[n];
            NativeMemory.get(buf, b, 0, n);
            out.write(b, 0, n);
        }
    }

    @Override
    protected void peerClose() throws NativeIoException {
        Sockets.shutdown(peer, Platform.SHUT_WR);
        c.read.ready = true;
        c.read.pendingEof = true;
    }

    @Override
    protected void closePeer() {
        try {
            if (peer >= 0) {
                Syscalls.close(peer);
            }
        } catch (NativeIoException e) {
            // closed already
        }
        if (loop != null) {
            loop.done();
        }
        scratch.close();
    }

}
