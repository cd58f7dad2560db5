package jinx.tls;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TlsClient;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;
import jinx.kernel.testsuite.StubEventActions;
import jinx.tls.internal.OpenSsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SslClient}, the kernel's {@link TlsClient} on OpenSSL, against a server {@link SslIo} on the other end of a
 * socket pair, both driven in one thread: the handshake, the server name sent, verification of the chain and of the
 * name worded as nginx logs them, a client certificate, session reuse per key (a TLS 1.3 ticket arrives after the
 * handshake), and the configuration errors.
 */
@Timeout(60)
class SslClientTest {

    @TempDir
    static Path dir;
    static TestCerts certs;
    static SslContext server;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private EventLoop loop;
    private SslClient client;
    private final ClientSessions sessions = new ClientSessions();

    @BeforeAll
    static void context() throws Exception {
        certs = TestCerts.make(dir);
        server = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        server.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
        server.sessionCache(SslContext.CACHE_BUILTIN_DEFAULT, 300, new byte[] {7});
    }

    @AfterAll
    static void free() {
        server.close();
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        sessions.close();
        if (loop != null) {
            loop.done();
        }
        assertFalse(OpenSsl.errorQueued(), "nothing left on the thread's error queue");
    }

    private static TlsClient.Settings settings(boolean verify, String trusted, String cert, String key,
                                               Set<String> protocols) {
        return new TlsClient.Settings(protocols, "DEFAULT", cert, key, List.of(), verify, 1, trusted, null, true,
            List.of());
    }

    private static TlsClient.Settings settings(boolean verify, String trusted) {
        return settings(verify, trusted, null, null, Set.of("TLSv1.2", "TLSv1.3"));
    }

    /** One connection: the client's end and the server's, handshaken. */
    private final class Pair implements AutoCloseable {
        final Connection cc;
        final Connection sc;
        final SslIo serverIo;
        int clientRc = Rc.AGAIN;
        int serverRc = Rc.AGAIN;

        Pair(String sni, Object key) throws Exception {
            if (loop == null) {
                ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                                             new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
                loop = new EventLoop(null, new StubEventActions(EventActions.USE_CLEAR_EVENT
                    | EventActions.USE_GREEDY_EVENT | EventActions.USE_EPOLL_EVENT), 8, 0,
                    EventLoop.AcceptSettings.SINGLE, log);
            }
            int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                          Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
            cc = loop.getConnection(sv[0], loop.log());
            sc = loop.getConnection(sv[1], loop.log());
            for (Connection c : List.of(cc, sc)) {
                c.read.ready = true;
                c.write.ready = true;
            }
            serverIo = SslIo.accept(sc, server, SslIo.DEFAULT_BUFFER_SIZE);
            clientRc = client.connect(cc, sni, key, ev -> { });
            for (int i = 0; i < 100 && (clientRc == Rc.AGAIN || serverRc == Rc.AGAIN); i++) {
                if (serverRc == Rc.AGAIN) {
                    serverRc = serverIo.handshake();
                }
                if (clientRc == Rc.AGAIN) {
                    clientRc = ((SslIo) cc.io()).handshake();
                }
            }
        }

        /** The server says something and the client reads it: a TLS 1.3 ticket comes with it. */
        String exchange(String text) {
            ByteBuffer out = ByteBuffer.allocateDirect(64);
            out.put(text.getBytes(StandardCharsets.US_ASCII)).flip();
            assertEquals(text.length(), sc.io().send(sc, out));
            ByteBuffer in = ByteBuffer.allocateDirect(64);
            int n = cc.io().recv(cc, in);
            assertTrue(n > 0, "read " + n + "; " + log());
            in.flip();
            return StandardCharsets.US_ASCII.decode(in).toString();
        }

        @Override
        public void close() {
            cc.close();
            sc.close();
        }
    }

    private SslClient create(TlsClient.Settings s) throws ConfException {
        return SslClient.create(s, sessions);
    }

    private String log() {
        return logBytes.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aVerifiedHandshakeSendsTheServerName() throws Exception {
        client = create(settings(true, certs.path("ca.crt")));
        try (Pair p = new Pair("a.example", null)) {
            assertEquals(Rc.OK, p.clientRc, log());
            assertEquals(Rc.OK, p.serverRc, log());
            assertTrue(client.handshaked(p.cc));
            assertEquals("a.example", p.serverIo.serverName());
            assertNull(client.verify(p.cc, "a.example"));
            assertNull(client.verify(p.cc, "localhost"));
            assertEquals("hello", p.exchange("hello"));
        }
    }

    @Test
    void aNameTheCertificateDoesNotHoldFailsAsNginxWordsIt() throws Exception {
        client = create(settings(true, certs.path("ca.crt")));
        try (Pair p = new Pair(null, null)) {
            assertEquals(Rc.OK, p.clientRc, log());
            assertEquals("", p.serverIo.serverName(), "no server name was sent");
            assertEquals("SSL certificate does not match \"other.example\"", client.verify(p.cc, "other.example"));
        }
    }

    @Test
    void anUntrustedChainFailsWithOpenSslsCodeAndText() throws Exception {
        // c.crt is a CA of nobody's: the server's chain does not lead to it
        client = create(settings(true, certs.path("c.crt")));
        try (Pair p = new Pair(null, null)) {
            assertEquals(Rc.OK, p.clientRc, "the handshake itself does not fail: " + log());
            assertEquals("SSL certificate verify error: (21:unable to verify the first certificate)",
                         client.verify(p.cc, "localhost"));
        }
    }

    @Test
    void withoutVerificationAnyCertificatePasses() throws Exception {
        client = create(settings(false, null));
        try (Pair p = new Pair(null, null)) {
            assertEquals(Rc.OK, p.clientRc, log());
            assertNull(client.verify(p.cc, "not.the.name"));
        }
    }

    @Test
    void aSessionIsReusedUnderItsKeyOnly() throws Exception {
        client = create(settings(false, null));
        try (Pair p = new Pair(null, "peer-a")) {
            assertNull(client.verify(p.cc, "localhost"));
            assertEquals("x", p.exchange("x"));
            assertFalse(((SslIo) p.cc.io()).sessionReused());
        }
        assertTrue(sessions.size() == 1, "the ticket was kept");
        try (Pair p = new Pair(null, "peer-a")) {
            assertEquals(Rc.OK, p.clientRc, log());
            assertTrue(((SslIo) p.cc.io()).sessionReused(), "the second connection resumes");
            assertTrue(p.serverIo.sessionReused());
        }
        try (Pair p = new Pair(null, "peer-b")) {
            assertFalse(((SslIo) p.cc.io()).sessionReused(), "another key starts afresh");
        }
    }

    @Test
    void aFailedVerificationKeepsNoSession() throws Exception {
        client = create(settings(true, certs.path("c.crt")));
        try (Pair p = new Pair(null, "peer")) {
            assertTrue(client.verify(p.cc, "localhost") != null);
            p.exchange("y");
        }
        assertEquals(0, sessions.size());
    }

    @Test
    void aClientCertificateIsLoaded() throws Exception {
        client = create(settings(false, null, certs.path("rsa.crt"), certs.path("rsa.key"),
                                           Set.of("TLSv1.3")));
        try (Pair p = new Pair(null, null)) {
            assertEquals(Rc.OK, p.clientRc, log());
            assertEquals("TLSv1.3", ((SslIo) p.cc.io()).protocol());
        }
    }

    @Test
    void configurationErrorsAreNginxs() {
        ConfException e = assertThrows(ConfException.class, () -> create(
            settings(true, dir.resolve("missing.crt").toString())));
        assertTrue(e.getMessage().startsWith("SSL_CTX_load_verify_locations(\"" + dir.resolve("missing.crt")
            + "\") failed"), e.getMessage());
        e = assertThrows(ConfException.class, () -> create(settings(false, null,
            certs.path("rsa.crt"), certs.path("ec.key"), Set.of("TLSv1.3"))));
        assertTrue(e.getMessage().startsWith("SSL_CTX_use_PrivateKey(\""), e.getMessage());
        OpenSsl.clearErrors();
    }
}
