package jinx.testkit;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import jinx.kernel.Embedded;
import jinx.kernel.Listening;
import jinx.kernel.MemoryConnection;

/**
 * A connection in memory ({@link MemoryConnection}): no descriptor, the request bytes queued for the server, the
 * response collected; while it waits for bytes the session turns the server's loop on the test's thread, so
 * timers fire and the request runs through the real reader, phases and filters.
 */
final class MemorySession extends JinxClient.Session {

    private final Embedded server;
    private final MemoryConnection mc;

    MemorySession(Embedded server, Listening ls) throws IOException {
        this.server = server;
        this.mc = MemoryConnection.accept(server.loop(), ls, "unix:");
        if (mc == null) {
            throw new IOException("no free connection slot");
        }
    }

    @Override
    public JinxClient.Session send(byte[] bytes) throws IOException {
        mc.write(bytes);
        return this;
    }

    @Override
    public void shutdownOutput() {
        mc.shutdownOutput();
    }

    @Override
    boolean readSome() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JinxClient.QUIET_MS);
        for (;;) {
            byte[] bytes = mc.read();
            if (bytes.length > 0) {
                append(bytes, bytes.length);
                return true;
            }
            if (mc.eof()) {
                endOfStream();
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            server.turn(10);
        }
    }

    @Override
    public void close() throws IOException {
        mc.close();
        // let the server learn that the client went away, as it would from a socket
        for (int i = 0; i < 10 && !mc.closed(); i++) {
            server.turn(1);
        }
    }
}
