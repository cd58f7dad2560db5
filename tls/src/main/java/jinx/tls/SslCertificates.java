package jinx.tls;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.SslErrors;

/**
 * Certificates chosen during the handshake: the body of nginx's {@code ngx_http_ssl_certificate()} callback
 * ({@code SSL_CTX_set_cert_cb}) with {@code ngx_ssl_connection_certificate()} (src/event/ngx_event_openssl.c), which
 * load the files the connection's values name onto the connection, as nginx 1.22 does on every handshake.
 */
final class SslCertificates {

    private SslCertificates() {
    }

    /** The callback's body: 1 with the certificates set, 0 to fail the handshake (logged at {@code error}). */
    static int select(LibSsl lib, long ssl, SslContext.CertificateSelector selector, List<String> passwords) {
        SslIo io = SslIo.handshaking(ssl);
        if (io == null || io.handshaked) {
            return 0;
        }
        List<String> files = selector.select(io);
        if (files == null) {
            return 0;
        }
        for (int i = 0; i + 1 < files.size(); i += 2) {
            if (!use(lib, io, files.get(i), files.get(i + 1), passwords)) {
                return 0;
            }
        }
        return 1;
    }

    private static boolean use(LibSsl lib, SslIo io, String cert, String key, List<String> passwords) {
        OpenSsl.clearErrors();
        if (!readable(io, cert, "cannot load certificate \"")) {
            return false;
        }
        if (lib.SSL_use_certificate_chain_file(io.ssl, cert) != 1) {
            SslErrors.log(io.c, LogLevel.ERROR, 0, OpenSsl.error("cannot load certificate \"" + cert
                                                                 + "\": PEM_read_bio_X509_AUX() failed"));
            return false;
        }
        if (!readable(io, key, "cannot load certificate key \"")) {
            return false;
        }
        List<String> tries = passwords.isEmpty() ? java.util.Collections.singletonList(null) : passwords;
        try (NativeMemory m = new NativeMemory()) {
            for (int i = 0; i < tries.size(); i++) {
                String pw = tries.get(i);
                byte[] b = pw == null ? new byte[0] : pw.getBytes(StandardCharsets.UTF_8);
                // an encrypted key without a password must fail, not prompt: an empty one at least
                long userdata = m.allocate(b.length + 1L);
                NativeMemory.put(userdata, b, 0, b.length);
                NativeMemory.putByte(userdata + b.length, (byte) 0);
                lib.SSL_set_default_passwd_cb_userdata(io.ssl, userdata);
                int rc = lib.SSL_use_PrivateKey_file(io.ssl, key, OpenSsl.SSL_FILETYPE_PEM);
                lib.SSL_set_default_passwd_cb_userdata(io.ssl, 0);
                if (rc == 1) {
                    return true;
                }
                if (i < tries.size() - 1) {
                    OpenSsl.clearErrors();
                }
            }
        }
        SslErrors.log(io.c, LogLevel.ERROR, 0, OpenSsl.error("cannot load certificate key \"" + key
                                                             + "\": PEM_read_bio_PrivateKey() failed"));
        return false;
    }

    /** nginx's {@code BIO_new_file() failed} for a file that cannot be opened. */
    private static boolean readable(SslIo io, String file, String what) {
        long bio = OpenSsl.crypto().BIO_new_file(file, "r");
        if (bio == 0) {
            SslErrors.log(io.c, LogLevel.ERROR, 0, OpenSsl.error(what + file + "\": BIO_new_file() failed"));
            return false;
        }
        OpenSsl.crypto().BIO_free(bio);
        return true;
    }
}
