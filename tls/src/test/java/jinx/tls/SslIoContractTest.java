package jinx.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Connection;
import jinx.kernel.Rc;
import jinx.kernel.testsuite.ConnectionIoContract;
import jinx.tls.internal.OpenSsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@link SslIo} keeps {@link ConnectionIoContract} after a TLS 1.3 handshake with an OpenSSL client. */
class SslIoContractTest extends ConnectionIoContract {

    @TempDir
    static Path dir;
    static SslContext ctx;
    private SslPair pair;

    @BeforeAll
    static void context() throws Exception {
        TestCerts certs = TestCerts.make(dir);
        ctx = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        ctx.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
    }

    @AfterAll
    static void free() {
        ctx.close();
    }

    @Override
    protected Connection open() throws IOException {
        try {
            pair = new SslPair(ctx, null, null, 0);
        } catch (SslException e) {
            throw new IOException(e);
        }
        assertEquals(Rc.OK, pair.handshake(), pair.log());
        // the client reads the server's session tickets, which TLS 1.3 sends after the handshake
        pair.peer.read();
        return pair.c;
    }

    @Override
    protected void peerWrite(byte[] data) throws IOException {
        pair.peer.write(data);
        c.read.ready = true;
    }

    @Override
    protected byte[] peerRead() {
        return pair.peer.read();
    }

    @Override
    protected void peerClose() {
        pair.peer.shutdown();
        c.read.ready = true;
    }

    @Override
    protected void closePeer() {
        if (pair != null) {
            pair.close();
        }
        assertFalse(OpenSsl.errorQueued(), "nothing left on the thread's error queue");
    }
}
