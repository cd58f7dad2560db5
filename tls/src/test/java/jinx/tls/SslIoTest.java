package jinx.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.tls.internal.OpenSsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SslIo}'s handshake and what nginx's variables read from it, against an OpenSSL client: failures worded and
 * leveled as nginx's (plain HTTP, garbage, a peer that closes, a protocol the server refuses, no common ALPN
 * protocol), the server name switching the context, ALPN, the session's facts, a file sent through
 * {@code sendChain}, and an empty error queue after each.
 */
@Timeout(60)
class SslIoTest {

    @TempDir
    static Path dir;
    static TestCerts certs;
    static SslContext ctx;
    private SslPair pair;

    @BeforeAll
    static void context() throws Exception {
        certs = TestCerts.make(dir);
        ctx = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        ctx.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
    }

    @AfterAll
    static void free() {
        ctx.close();
    }

    @AfterEach
    void close() {
        if (pair != null) {
            pair.close();
        }
        assertFalse(OpenSsl.errorQueued(), "nothing left on the thread's error queue");
    }

    @Test
    void aHandshakeGivesTheSessionsFacts() throws Exception {
        pair = new SslPair(ctx, "a.example", null, 0);
        assertEquals(Rc.OK, pair.handshake(), pair.log());
        assertTrue(pair.io.handshaked());
        assertTrue(pair.c.read.ready && pair.c.write.ready);
        assertEquals("TLSv1.3", pair.io.protocol());
        assertTrue(pair.io.cipher().startsWith("TLS_"), pair.io.cipher());
        assertEquals("a.example", pair.io.serverName());
        assertFalse(pair.io.sessionReused());
        assertEquals("", pair.io.alpnProtocol());
    }

    @Test
    void tls12WithACacheAndNoTickets() throws Exception {
        SslContext cached = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        try {
            cached.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
            cached.sessionCache(SslContext.CACHE_BUILTIN_DEFAULT, 300, new byte[] {1, 2, 3});
            cached.noTickets();
            pair = new SslPair(cached, null, null, OpenSsl.TLS1_2_VERSION);
            assertEquals(Rc.OK, pair.handshake(), pair.log());
            assertEquals("TLSv1.2", pair.io.protocol());
            assertTrue(pair.io.cipher().startsWith("ECDHE-ECDSA-"), pair.io.cipher());
            assertTrue(pair.io.sessionId().matches("[0-9A-F]{64}"), pair.io.sessionId());
            assertEquals("", pair.io.serverName());
        } finally {
            cached.close();
        }
    }

    @Test
    void aRefusedProtocolFailsTheHandshakeAsNginxLogsIt() throws Exception {
        SslContext only13 = SslContext.server(SslContext.TLSV1_3);
        try {
            only13.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
            pair = new SslPair(only13, null, null, OpenSsl.TLS1_2_VERSION);
            assertEquals(Rc.ERROR, pair.handshake());
            assertTrue(pair.log().contains("[error] "), pair.log());
            assertTrue(pair.log().contains(": *3 SSL_do_handshake() failed (SSL: error:0A000102:SSL "
                                           + "routines::unsupported protocol)"), pair.log());
        } finally {
            only13.close();
        }
    }

    @Test
    void plainHttpIsAHandshakeFailure() throws Exception {
        pair = new SslPair(ctx, null, null, 0);
        pair.peer.raw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(Rc.ERROR, pair.io.handshake());
        assertTrue(pair.log().contains("SSL_do_handshake() failed (SSL: error:0A00009C:SSL routines::http request)"),
                   pair.log());
        assertTrue(pair.c.read.eof && pair.c.read.error);
    }

    @Test
    void aPeerThatClosesInTheHandshake() throws Exception {
        pair = new SslPair(ctx, null, null, 0);
        assertEquals(Rc.AGAIN, pair.io.handshake());
        pair.peer.raw(new byte[] {0x16, 0x03, 0x01});
        pair.peer.close();
        assertEquals(Rc.ERROR, pair.io.handshake());
        // error, not info: the pair's connection was not accepted on a listening socket (nginx's log_error)
        assertTrue(pair.log().contains("[error] "), pair.log());
        assertTrue(pair.log().contains(": *3 peer closed connection in SSL handshake"), pair.log());
    }

    @Test
    void theServerNameSwitchesTheContext() throws Exception {
        SslContext other = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        SslContext sni = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        try {
            other.certificate(certs.path("c.crt"), certs.path("c.key"), List.of());
            sni.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
            String[] seen = new String[1];
            sni.serverName((io, name) -> {
                seen[0] = name;
                return name.equals("c.example") ? other : null;
            });
            pair = new SslPair(sni, "c.example", null, 0);
            assertEquals(Rc.OK, pair.handshake(), pair.log());
            assertEquals("c.example", seen[0]);
            assertEquals("c.example", pair.io.serverName());
        } finally {
            other.close();
            sni.close();
        }
    }

    @Test
    void alpnChoosesTheServersFirstProtocolTheClientOffers() throws Exception {
        SslContext alpn = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
        try {
            alpn.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
            alpn.alpn(List.of("http/1.1", "http/1.0"));
            pair = new SslPair(alpn, null, new String[] {"h2", "http/1.0", "http/1.1"}, 0);
            assertEquals(Rc.OK, pair.handshake(), pair.log());
            assertEquals("http/1.1", pair.io.alpnProtocol());
            pair.close();
            pair = new SslPair(alpn, null, new String[] {"h2"}, 0);
            assertEquals(Rc.ERROR, pair.handshake());
            assertTrue(pair.log().contains("no application protocol"), pair.log());
        } finally {
            alpn.close();
        }
    }

    @Test
    void aFileGoesOutThroughSendChain() throws Exception {
        pair = new SslPair(ctx, null, null, 0);
        assertEquals(Rc.OK, pair.handshake(), pair.log());
        pair.peer.read();
        Path f = dir.resolve("body.txt");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        Files.writeString(f, sb);
        int fd = jinx.kernel.os.Files.open(f.toString(), Platform.O_RDONLY, 0);
        try (NativeMemory m = new NativeMemory()) {
            java.nio.ByteBuffer head = NativeMemory.view(m.allocate(7), 7);
            head.put("HEADER\n".getBytes(StandardCharsets.ISO_8859_1)).flip();
            Buf file = new Buf();
            file.inFile = true;
            file.fileFd = fd;
            file.fileName = f.toString();
            file.filePos = 0;
            file.fileLast = Files.size(f);
            BufChain chain = new BufChain(Buf.of(head), new BufChain(file, null));
            StringBuilder got = new StringBuilder();
            for (int i = 0; i < 100 && chain != null; i++) {
                chain = pair.io.sendChain(pair.c, chain, 0);
                got.append(new String(pair.peer.read(), StandardCharsets.ISO_8859_1));
                pair.c.write.ready = true;
            }
            assertNull(chain);
            got.append(new String(pair.peer.read(), StandardCharsets.ISO_8859_1));
            assertEquals("HEADER\n" + sb, got.toString());
            assertEquals(file.fileLast, file.filePos);
        } finally {
            closeQuietly(fd);
        }
    }

    @Test
    void closingFreesTheSessionAndSendsCloseNotify() throws Exception {
        pair = new SslPair(ctx, null, null, 0);
        assertEquals(Rc.OK, pair.handshake(), pair.log());
        pair.peer.read();
        pair.c.close();
        assertEquals("", pair.io.protocol());
        assertEquals(0, pair.peer.read().length);
        assertEquals(2, OpenSsl.ssl().SSL_get_shutdown(pair.peer.ssl) & OpenSsl.SSL_RECEIVED_SHUTDOWN,
                     "the client got close_notify");
    }

    private static void closeQuietly(int fd) {
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // closed already
        }
    }
}
