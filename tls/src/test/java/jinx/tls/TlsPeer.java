package jinx.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;

/**
 * The client end of a socket pair, speaking TLS through OpenSSL in non-blocking mode: the peer of the tests of
 * {@link SslIo}. Trusts nothing in particular (no verification): the tests are about I/O, not trust.
 */
final class TlsPeer implements AutoCloseable {

    private static final int SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;

    private final LibSsl lib = OpenSsl.ssl();
    private final NativeMemory memory = new NativeMemory();
    private final long buf = memory.allocate(65536);
    private final int fd;
    private long ctx;
    long ssl;

    /**
     * A client on {@code fd}.
     *
     * @param fd the socket
     * @param serverName the SNI name to send, or null
     * @param alpn the ALPN protocols to offer, or null
     * @param maxVersion the highest protocol ({@code TLS1_2_VERSION}...), 0 for OpenSSL's
     */
    TlsPeer(int fd, String serverName, String[] alpn, int maxVersion) {
        this.fd = fd;
        ctx = lib.SSL_CTX_new(lib.TLS_client_method());
        if (maxVersion != 0) {
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_MAX_PROTO_VERSION, maxVersion, 0);
        }
        ssl = lib.SSL_new(ctx);
        lib.SSL_set_fd(ssl, fd);
        lib.SSL_set_connect_state(ssl);
        if (serverName != null) {
            byte[] b = serverName.getBytes(StandardCharsets.US_ASCII);
            long s = memory.allocate(b.length + 1L);
            NativeMemory.put(s, b, 0, b.length);
            lib.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, OpenSsl.TLSEXT_NAMETYPE_HOST_NAME, s);
        }
        if (alpn != null) {
            ByteArrayOutputStream w = new ByteArrayOutputStream();
            for (String p : alpn) {
                w.write(p.length());
                w.writeBytes(p.getBytes(StandardCharsets.US_ASCII));
            }
            byte[] b = w.toByteArray();
            long p = memory.allocate(b.length);
            NativeMemory.put(p, b, 0, b.length);
            lib.SSL_set_alpn_protos(ssl, p, b.length);
        }
    }

    /**
     * One step of the handshake.
     *
     * @return 1 when done, 0 while waiting, -1 on failure
     */
    int handshake() {
        int n = lib.SSL_do_handshake(ssl);
        if (n == 1) {
            return 1;
        }
        int e = lib.SSL_get_error(ssl, n);
        OpenSsl.clearErrors();
        return e == OpenSsl.SSL_ERROR_WANT_READ || e == OpenSsl.SSL_ERROR_WANT_WRITE ? 0 : -1;
    }

    void write(byte[] data) throws IOException {
        NativeMemory.put(buf, data, 0, data.length);
        int n = lib.SSL_write(ssl, buf, data.length);
        if (n != data.length) {
            OpenSsl.clearErrors();
            throw new IOException("SSL_write: " + n);
        }
    }

    byte[] read() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (;;) {
            int n = lib.SSL_read(ssl, buf, 65536);
            if (n <= 0) {
                OpenSsl.clearErrors();
                return out.toByteArray();
            }
            byte[] b = new byte[n];
            NativeMemory.get(buf, b, 0, n);
            out.write(b, 0, n);
        }
    }

    void shutdown() {
        lib.SSL_shutdown(ssl);
        OpenSsl.clearErrors();
    }

    /** Writes raw bytes on the socket, under TLS. */
    void raw(byte[] data) throws NativeIoException {
        NativeMemory.put(buf, data, 0, data.length);
        jinx.kernel.os.Sockets.send(fd, buf, data.length);
    }

    @Override
    public void close() {
        if (ssl != 0) {
            lib.SSL_free(ssl);
            ssl = 0;
        }
        if (ctx != 0) {
            lib.SSL_CTX_free(ctx);
            ctx = 0;
        }
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // closed already
        }
        memory.close();
    }
}
