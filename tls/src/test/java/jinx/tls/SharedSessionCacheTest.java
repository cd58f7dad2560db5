package jinx.tls;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.SharedZone;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SharedSessionCache} on a standalone zone, two server contexts on it standing for two worker processes
 * (each its own {@code SSL_CTX} and its own view of the zone): a session made by one resumes on the other, over
 * TLS 1.2 and TLS 1.3 without tickets; a full zone drops its oldest sessions, as nginx's cache does, and keeps
 * the newest; the ticket key made with the zone is the same for every view. And {@link TicketKeys} of 48 and 80
 * bytes: a ticket made by one context is taken by another with the same keys, also when its key is no longer the
 * first.
 */
@Timeout(60)
class SharedSessionCacheTest {

    @TempDir
    static Path dir;
    static TestCerts certs;
    static ErrorLog log;
    private static final LibSsl LIB = OpenSsl.ssl();

    @BeforeAll
    static void certificates() throws Exception {
        certs = TestCerts.make(dir);
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                            new PrintStream(System.err, true, StandardCharsets.ISO_8859_1));
    }

    @AfterAll
    static void closeLog() {
        log.close();
    }

    private static SslContext server(SharedSessionCache cache, TicketKeys keys) throws SslException {
        SslContext c = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        c.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
        c.sessionCache(cache != null ? SslContext.CACHE_NO_BUILTIN : SslContext.CACHE_NONE, 300, new byte[] {9});
        if (cache != null) {
            c.sharedSessionCache(cache, 300);
        }
        if (keys != null) {
            c.ticketKeys(keys);
        } else {
            c.noTickets();
        }
        return c;
    }

    /** One handshake offering {@code session} (0 for none); returns the client's session (referenced) or 0. */
    private static long connect(SslContext server, int version, long session, boolean[] reused) throws Exception {
        try (SslPair pair = new SslPair(server, null, null, version)) {
            if (session != 0) {
                LIB.SSL_set_session(pair.peer.ssl, session);
            }
            assertEquals(Rc.OK, pair.handshake(), pair.log());
            // a TLS 1.3 ticket comes after the handshake: the client reads it with the server's first bytes
            java.nio.ByteBuffer x = java.nio.ByteBuffer.allocateDirect(1).put((byte) 'x').flip();
            pair.io.send(pair.c, x);
            pair.peer.read();
            reused[0] = pair.io.sessionReused();
            assertFalse(pair.log().contains("[alert]"), pair.log());
            long got = LIB.SSL_get1_session(pair.peer.ssl);
            // a client that closes without close_notify makes its session not resumable (OpenSSL's bad session)
            pair.peer.shutdown();
            return got;
        }
    }

    private static void resumesAcross(int version) throws Exception {
        SharedZone zone = SharedZone.create("SSL", 1 << 20, "http_ssl", log);
        try {
            SharedSessionCache one = new SharedSessionCache(zone);
            one.init();
            SharedSessionCache other = new SharedSessionCache(zone);
            try (SslContext a = server(one, null); SslContext b = server(other, null)) {
                boolean[] reused = new boolean[1];
                long s = connect(a, version, 0, reused);
                assertFalse(reused[0]);
                // TLS 1.3 sends two tickets, each a session
                assertTrue(one.size() >= 1, "sessions in the zone: " + one.size());
                long again = connect(b, version, s, reused);
                assertTrue(reused[0], "the other context resumes the first one's session");
                LIB.SSL_SESSION_free(s);
                LIB.SSL_SESSION_free(again);
            }
        } finally {
            zone.release();
        }
    }

    @Test
    void aSessionMadeInOneWorkerResumesInAnotherOverTls12() throws Exception {
        resumesAcross(OpenSsl.TLS1_2_VERSION);
    }

    @Test
    void aSessionMadeInOneWorkerResumesInAnotherOverTls13() throws Exception {
        resumesAcross(0);
    }

    @Test
    void aFullZoneDropsTheOldestSessionsAndKeepsTheNewest() throws Exception {
        SharedZone zone = SharedZone.create("small", 8 * SharedZone.PAGE_SIZE, "http_ssl", log);
        try {
            SharedSessionCache cache = new SharedSessionCache(zone);
            cache.init();
            try (SslContext a = server(cache, null)) {
                boolean[] reused = new boolean[1];
                long first = connect(a, OpenSsl.TLS1_2_VERSION, 0, reused);
                long last = 0;
                for (int i = 0; i < 200; i++) {
                    if (last != 0) {
                        LIB.SSL_SESSION_free(last);
                    }
                    last = connect(a, OpenSsl.TLS1_2_VERSION, 0, reused);
                }
                int held = cache.size();
                assertTrue(held > 10 && held < 200, "the zone holds some sessions, not all: " + held);
                LIB.SSL_SESSION_free(connect(a, OpenSsl.TLS1_2_VERSION, last, reused));
                assertTrue(reused[0], "the newest session resumes");
                LIB.SSL_SESSION_free(connect(a, OpenSsl.TLS1_2_VERSION, first, reused));
                assertFalse(reused[0], "the oldest was dropped");
                LIB.SSL_SESSION_free(first);
                LIB.SSL_SESSION_free(last);
            }
        } finally {
            zone.release();
        }
    }

    @Test
    void theZonesTicketKeyIsTheSameInEveryView() throws Exception {
        SharedZone zone = SharedZone.create("keys", 8 * SharedZone.PAGE_SIZE, "http_ssl", log);
        try {
            SharedSessionCache one = new SharedSessionCache(zone);
            one.init();
            byte[] key = one.ticketKey();
            assertNotNull(key);
            assertEquals(80, key.length);
            assertArrayEquals(key, new SharedSessionCache(zone).ticketKey());
            try (SslContext a = server(one, new TicketKeys(one::ticketKey));
                 SslContext b = server(new SharedSessionCache(zone), new TicketKeys(one::ticketKey))) {
                boolean[] reused = new boolean[1];
                long s = connect(a, 0, 0, reused);
                LIB.SSL_SESSION_free(connect(b, 0, s, reused));
                assertTrue(reused[0]);
                LIB.SSL_SESSION_free(s);
            }
        } finally {
            zone.release();
        }
    }

    private static byte[] key(int size, int seed) {
        byte[] k = new byte[size];
        for (int i = 0; i < size; i++) {
            k[i] = (byte) (seed * 31 + i);
        }
        return k;
    }

    private static void ticketsResume(int size, int version) throws Exception {
        byte[] first = key(size, 1);
        byte[] second = key(80, 2);
        try (SslContext a = server(null, new TicketKeys(List.of(first)));
             SslContext b = server(null, new TicketKeys(List.of(first, second)));
             SslContext rotated = server(null, new TicketKeys(List.of(second, first)));
             SslContext other = server(null, new TicketKeys(List.of(second)))) {
            boolean[] reused = new boolean[1];
            long s = connect(a, version, 0, reused);
            LIB.SSL_SESSION_free(connect(b, version, s, reused));
            assertTrue(reused[0], "the same first key");
            LIB.SSL_SESSION_free(connect(rotated, version, s, reused));
            assertTrue(reused[0], "a key that only decrypts now");
            LIB.SSL_SESSION_free(connect(other, version, s, reused));
            assertFalse(reused[0], "a ticket of an unknown key is a full handshake");
            LIB.SSL_SESSION_free(s);
        }
    }

    @Test
    void ticketsOf80ByteKeysResumeInAnotherContext() throws Exception {
        ticketsResume(80, 0);
        ticketsResume(80, OpenSsl.TLS1_2_VERSION);
    }

    @Test
    void ticketsOf48ByteKeysResumeInAnotherContext() throws Exception {
        ticketsResume(48, 0);
        ticketsResume(48, OpenSsl.TLS1_2_VERSION);
    }

    @Test
    void keyFilesAreOf48Or80Bytes() {
        assertTrue(TicketKeys.validSize(48) && TicketKeys.validSize(80));
        assertFalse(TicketKeys.validSize(64) || TicketKeys.validSize(0));
    }
}
