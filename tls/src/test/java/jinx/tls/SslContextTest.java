package jinx.tls;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.SslErrors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenSSL binding loads and {@link SslContext} words failures as nginx's {@code [emerg]} lines, leaving the
 * thread's error queue empty: a missing certificate, a key of another certificate, an encrypted key without and
 * with its password, a cipher list that selects nothing, an unknown {@code ssl_conf_command}, unknown curves.
 */
@Timeout(60)
class SslContextTest {

    @TempDir
    static Path dir;
    static TestCerts certs;
    private SslContext ctx;

    @BeforeAll
    static void makeCerts() throws Exception {
        certs = TestCerts.make(dir);
    }

    @BeforeEach
    void create() throws SslException {
        ctx = SslContext.server(SslContext.TLSV1_2 | SslContext.TLSV1_3);
    }

    @AfterEach
    void free() {
        ctx.close();
        assertFalse(OpenSsl.errorQueued(), "nothing left on the thread's error queue");
    }

    @Test
    void certificatesOfBothKeyTypesLoad() throws SslException {
        ctx.certificate(certs.path("ec.crt"), certs.path("ec.key"), List.of());
        ctx.certificate(certs.path("rsa.crt"), certs.path("rsa.key"), List.of());
    }

    @Test
    void aMissingCertificateIsWordedAsNginx() {
        SslException e = assertThrows(SslException.class,
            () -> ctx.certificate(certs.path("none.crt"), certs.path("ec.key"), List.of()));
        assertTrue(e.getMessage().startsWith("cannot load certificate \"" + certs.path("none.crt")
                                             + "\": BIO_new_file() failed (SSL: error:"), e.getMessage());
        assertTrue(e.getMessage().contains("No such file or directory"), e.getMessage());
        assertTrue(e.getMessage().endsWith(")"), e.getMessage());
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() {
        SslException e = assertThrows(SslException.class,
            () -> ctx.certificate(certs.path("ec.crt"), certs.path("other.key"), List.of()));
        assertTrue(e.getMessage().startsWith("SSL_CTX_use_PrivateKey(\"" + certs.path("other.key")
                                             + "\") failed (SSL: error:"), e.getMessage());
        assertTrue(e.getMessage().contains("key values mismatch"), e.getMessage());
    }

    @Test
    void anEncryptedKeyNeedsItsPassword() throws SslException {
        SslException e = assertThrows(SslException.class,
            () -> ctx.certificate(certs.path("ec.crt"), certs.path("ec-enc.key"), List.of()));
        assertTrue(e.getMessage().startsWith("SSL_CTX_use_PrivateKey(\"" + certs.path("ec-enc.key") + "\") failed"),
                   e.getMessage());
        ctx.certificate(certs.path("ec.crt"), certs.path("ec-enc.key"), List.of("wrong", "secret"));
    }

    @Test
    void aCipherListThatSelectsNothingIsRefused() {
        SslException e = assertThrows(SslException.class, () -> ctx.ciphers("BOGUS", false));
        assertEquals("SSL_CTX_set_cipher_list(\"BOGUS\") failed (SSL: error:0A0000B9:SSL routines::no cipher match)",
                     e.getMessage());
    }

    @Test
    void confCommandsApplyAndUnknownOnesAreRefused() throws SslException {
        ctx.confCommands(List.of("Options", "PrioritizeChaCha"));
        SslException e = assertThrows(SslException.class, () -> ctx.confCommands(List.of("NoSuchCommand", "x")));
        assertTrue(e.getMessage().startsWith("SSL_CONF_cmd(\"NoSuchCommand\", \"x\") failed"), e.getMessage());
    }

    @Test
    void curves() throws SslException {
        ctx.ecdhCurve("auto");
        ctx.ecdhCurve("X25519:prime256v1");
        SslException e = assertThrows(SslException.class, () -> ctx.ecdhCurve("nonsense"));
        assertTrue(e.getMessage().startsWith("SSL_CTX_set1_curves_list(\"nonsense\") failed"), e.getMessage());
    }

    @Test
    void nginxsHandshakeFailureTable() {
        assertTrue(SslErrors.peerReason(267), "wrong version number");
        assertTrue(SslErrors.peerReason(156), "http request");
        assertTrue(SslErrors.peerReason(1040), "alert handshake failure");
        assertFalse(SslErrors.peerReason(0));
        assertFalse(SslErrors.peerReason(5000));
    }
}
