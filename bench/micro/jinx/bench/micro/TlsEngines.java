package jinx.bench.micro;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.tls.SslContext;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;

/**
 * JDK 17's SSLEngine against OpenSSL 3 through Jinx's binding, on one thread, both ends of each connection in the
 * same library: CPU time per full TLS 1.3 handshake (ECDSA P-256 certificate, each library's default key exchange)
 * and per MiB of bulk data (16 KiB application writes, encrypted by the client and decrypted by the server). JSSE
 * runs in memory (wrap/unwrap between buffers); OpenSSL runs on a non-blocking UNIX socket pair, as Jinx drives it,
 * so its figures include the send and recv calls JSSE does not make. The question of issue #33: is the OpenSSL
 * route worth it against the JDK's own TLS?
 *
 * <p>Usage: {@code bench/micro/tls-engines CERT KEY [seconds]}; the certificate and key are PEM (PKCS#8 key).
 */
public final class TlsEngines {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final int CHUNK = 16384;

    private TlsEngines() {
    }

    public static void main(String[] args) throws Exception {
        String cert = args[0];
        String key = args[1];
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 5;
        SSLContext jsse = jsse(cert, key);
        SslContext server = SslContext.server(SslContext.TLSV1_3);
        server.certificate(cert, key, List.of());
        for (int round = 0; round < 2; round++) {
            String tag = round == 0 ? "warm-up " : "";
            System.out.printf("%sJSSE    handshake: %8.1f us CPU%n", tag, jsseHandshakes(jsse, seconds));
            System.out.printf("%sOpenSSL handshake: %8.1f us CPU%n", tag, opensslHandshakes(server, seconds));
            System.out.printf("%sJSSE    bulk:      %8.1f us CPU per MiB%n", tag, jsseBulk(jsse, seconds));
            System.out.printf("%sOpenSSL bulk:      %8.1f us CPU per MiB%n", tag, opensslBulk(server, seconds));
        }
        server.close();
    }

    /* ---- JSSE ---- */

    private static SSLContext jsse(String cert, String key) throws Exception {
        Certificate c = CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(Path.of(cert)));
        String pem = Files.readString(Path.of(key), StandardCharsets.US_ASCII);
        String b64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey pk = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
            .decode(b64)));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("k", pk, new char[0], new Certificate[] {c});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(ks, new char[0]);
        SSLContext ctx = SSLContext.getInstance("TLSv1.3");
        ctx.init(kmf.getKeyManagers(), new TrustManager[] {new TrustAll()}, null);
        return ctx;
    }

    /** One JSSE connection: client and server engines and the buffers between them. */
    private static final class JssePair {
        final SSLEngine client;
        final SSLEngine server;
        final ByteBuffer toServer = ByteBuffer.allocateDirect(1 << 17);
        final ByteBuffer toClient = ByteBuffer.allocateDirect(1 << 17);
        final ByteBuffer app = ByteBuffer.allocateDirect(1 << 17);
        final ByteBuffer empty = ByteBuffer.allocate(0);

        JssePair(SSLContext ctx) {
            client = ctx.createSSLEngine("localhost", 443);
            client.setUseClientMode(true);
            server = ctx.createSSLEngine();
            server.setUseClientMode(false);
        }

        void handshake() throws Exception {
            client.beginHandshake();
            server.beginHandshake();
            for (int i = 0; i < 100 && (busy(client) || busy(server)); i++) {
                step(client, toServer, toClient);
                step(server, toClient, toServer);
            }
        }

        private static boolean busy(SSLEngine e) {
            HandshakeStatus s = e.getHandshakeStatus();
            return s != HandshakeStatus.NOT_HANDSHAKING && s != HandshakeStatus.FINISHED;
        }

        private void step(SSLEngine e, ByteBuffer out, ByteBuffer in) throws Exception {
            for (;;) {
                HandshakeStatus s = e.getHandshakeStatus();
                if (s == HandshakeStatus.NEED_TASK) {
                    for (Runnable r; (r = e.getDelegatedTask()) != null; ) {
                        r.run();
                    }
                } else if (s == HandshakeStatus.NEED_WRAP) {
                    e.wrap(empty, out);
                } else if (s == HandshakeStatus.NEED_UNWRAP || s == HandshakeStatus.NEED_UNWRAP_AGAIN) {
                    in.flip();
                    app.clear();
                    var r = e.unwrap(in, app);
                    in.compact();
                    if (r.bytesConsumed() == 0 && r.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP) {
                        return;
                    }
                } else {
                    return;
                }
            }
        }
    }

    private static double jsseHandshakes(SSLContext ctx, double seconds) throws Exception {
        long cpu0 = CPU.getCurrentThreadCpuTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int n = 0;
        while (System.nanoTime() < end) {
            new JssePair(ctx).handshake();
            n++;
        }
        return (CPU.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
    }

    private static double jsseBulk(SSLContext ctx, double seconds) throws Exception {
        JssePair p = new JssePair(ctx);
        p.handshake();
        ByteBuffer data = ByteBuffer.allocateDirect(CHUNK);
        long cpu0 = CPU.getCurrentThreadCpuTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long bytes = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                data.clear();
                p.toServer.clear();
                p.client.wrap(data, p.toServer);
                p.toServer.flip();
                p.app.clear();
                while (p.toServer.hasRemaining()) {
                    p.server.unwrap(p.toServer, p.app);
                }
                bytes += CHUNK;
            }
        }
        return (CPU.getCurrentThreadCpuTime() - cpu0) / 1e3 / (bytes / 1048576.0);
    }

    /* ---- OpenSSL ---- */

    /** One OpenSSL connection on a socket pair: a client SSL on one end, a server SSL on the other. */
    private static final class OpenSslPair implements AutoCloseable {
        final LibSsl lib = OpenSsl.ssl();
        final long clientCtx;
        final long client;
        final long server;
        final int[] fds;

        OpenSslPair(SslContext ctx, long clientCtx) throws Exception {
            this.clientCtx = clientCtx;
            fds = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK);
            client = lib.SSL_new(clientCtx);
            lib.SSL_set_fd(client, fds[0]);
            lib.SSL_set_connect_state(client);
            server = lib.SSL_new(ctx.handle());
            lib.SSL_set_fd(server, fds[1]);
            lib.SSL_set_accept_state(server);
        }

        void handshake() {
            boolean c = false;
            boolean s = false;
            for (int i = 0; i < 100 && !(c && s); i++) {
                c = c || lib.SSL_do_handshake(client) == 1;
                s = s || lib.SSL_do_handshake(server) == 1;
            }
            OpenSsl.clearErrors();
        }

        @Override
        public void close() throws Exception {
            lib.SSL_free(client);
            lib.SSL_free(server);
            Syscalls.close(fds[0]);
            Syscalls.close(fds[1]);
        }
    }

    private static long clientCtx() {
        LibSsl lib = OpenSsl.ssl();
        long ctx = lib.SSL_CTX_new(lib.TLS_client_method());
        // SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF): full handshakes only
        lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, 0, 0);
        return ctx;
    }

    private static double opensslHandshakes(SslContext ctx, double seconds) throws Exception {
        long cctx = clientCtx();
        long cpu0 = CPU.getCurrentThreadCpuTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int n = 0;
        while (System.nanoTime() < end) {
            try (OpenSslPair p = new OpenSslPair(ctx, cctx)) {
                p.handshake();
            }
            n++;
        }
        double us = (CPU.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
        OpenSsl.ssl().SSL_CTX_free(cctx);
        return us;
    }

    private static double opensslBulk(SslContext ctx, double seconds) throws Exception {
        long cctx = clientCtx();
        double us;
        try (OpenSslPair p = new OpenSslPair(ctx, cctx); NativeMemory m = new NativeMemory()) {
            p.handshake();
            long data = m.allocate(CHUNK);
            long in = m.allocate(1 << 17);
            // the client reads the server's tickets first
            p.lib.SSL_read(p.client, in, 1 << 17);
            OpenSsl.clearErrors();
            long cpu0 = CPU.getCurrentThreadCpuTime();
            long end = System.nanoTime() + (long) (seconds * 1e9);
            long bytes = 0;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 64; i++) {
                    if (p.lib.SSL_write(p.client, data, CHUNK) != CHUNK) {
                        throw new IllegalStateException("SSL_write");
                    }
                    int got = 0;
                    while (got < CHUNK) {
                        int n = p.lib.SSL_read(p.server, in, 1 << 17);
                        if (n <= 0) {
                            throw new IllegalStateException("SSL_read " + n);
                        }
                        got += n;
                    }
                    bytes += CHUNK;
                }
            }
            us = (CPU.getCurrentThreadCpuTime() - cpu0) / 1e3 / (bytes / 1048576.0);
        }
        OpenSsl.ssl().SSL_CTX_free(cctx);
        return us;
    }

    /** Trusts every server: the measure is of the handshake's work, not of trust. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }
}
