package jinx.tls;

import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibCrypto;
import jinx.tls.bind.LibSsl;
import jinx.tls.internal.OpenSsl;

/**
 * The bodies of {@link SslContext}'s server settings beyond certificates: nginx's
 * {@code ngx_ssl_client_certificate()}, {@code ngx_ssl_dhparam()}, {@code ngx_ssl_stapling_file()} with
 * {@code ngx_ssl_certificate_status_callback()}
 * (src/event/ngx_event_openssl.c, ngx_event_openssl_stapling.c), kept apart so that the context stays readable.
 */
final class ServerSsl {

    /* ssl.h: SSL_CTRL_SET_TMP_DH, SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB, SSL_CTRL_SET_TLSEXT_STATUS_REQ_OCSP_RESP */
    private static final int SSL_CTRL_SET_TMP_DH = 3;
    private static final int SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB = 63;
    private static final int SSL_CTRL_SET_TLSEXT_STATUS_REQ_OCSP_RESP = 71;

    private ServerSsl() {
    }

    /** nginx's {@code ngx_ssl_client_certificate()}: verify the peer, and the CAs it may choose from. */
    static void clientCertificate(LibSsl lib, long ctx, String file, int depth) throws SslException {
        lib.SSL_CTX_set_verify_depth(ctx, depth);
        if (file == null) {
            return;
        }
        OpenSsl.clearErrors();
        if (lib.SSL_CTX_load_verify_locations(ctx, file, null) == 0) {
            throw new SslException(OpenSsl.error("SSL_CTX_load_verify_locations(\"" + file + "\") failed"));
        }
        // it may leave errors in the queue while returning success (nginx)
        OpenSsl.clearErrors();
        long list = lib.SSL_load_client_CA_file(file);
        if (list == 0) {
            throw new SslException(OpenSsl.error("SSL_load_client_CA_file(\"" + file + "\") failed"));
        }
        lib.SSL_CTX_set_client_CA_list(ctx, list);
    }

    /** nginx's {@code ngx_ssl_dhparam()} as built against OpenSSL 3 with its deprecated DH calls (Debian's). */
    static void dhparam(LibSsl lib, long ctx, String file) throws SslException {
        LibCrypto crypto = OpenSsl.crypto();
        OpenSsl.clearErrors();
        long bio = crypto.BIO_new_file(file, "r");
        if (bio == 0) {
            throw new SslException(OpenSsl.error("BIO_new_file(\"" + file + "\") failed"));
        }
        try {
            long dh = crypto.PEM_read_bio_DHparams(bio, 0, 0, 0);
            if (dh == 0) {
                throw new SslException(OpenSsl.error("PEM_read_bio_DHparams(\"" + file + "\") failed"));
            }
            try {
                if (lib.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_TMP_DH, 0, dh) != 1) {
                    throw new SslException(OpenSsl.error("SSL_CTX_set_tmp_dh(\"" + file + "\") failed"));
                }
            } finally {
                crypto.DH_free(dh);
            }
        } finally {
            crypto.BIO_free(bio);
        }
    }

    /**
     * nginx's {@code ngx_ssl_stapling_file()}: the DER response, read and written again by OpenSSL as nginx does
     * (read here, as the macro {@code d2i_OCSP_RESPONSE_bio} reads it, then {@code d2i_OCSP_RESPONSE()}).
     *
     * @return the response's bytes
     */
    static byte[] staplingFile(String path) throws SslException {
        LibCrypto crypto = OpenSsl.crypto();
        OpenSsl.clearErrors();
        long bio = crypto.BIO_new_file(path, "rb");
        if (bio == 0) {
            throw new SslException(OpenSsl.error("BIO_new_file(\"" + path + "\") failed"));
        }
        crypto.BIO_free(bio);
        byte[] file;
        try {
            file = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            throw new SslException("BIO_new_file(\"" + path + "\") failed (" + e.getMessage() + ")");
        }
        long response;
        try (NativeMemory m = new NativeMemory()) {
            long in = m.allocate(Math.max(1, file.length));
            NativeMemory.put(in, file, 0, file.length);
            long p = m.allocate(8);
            NativeMemory.putLong(p, in);
            response = crypto.d2i_OCSP_RESPONSE(0, p, file.length);
        }
        if (response == 0) {
            throw new SslException(OpenSsl.error("d2i_OCSP_RESPONSE_bio(\"" + path + "\") failed"));
        }
        try (NativeMemory m = new NativeMemory()) {
            int len = crypto.i2d_OCSP_RESPONSE(response, 0);
            if (len <= 0) {
                throw new SslException(OpenSsl.error("i2d_OCSP_RESPONSE(\"" + path + "\") failed"));
            }
            long buf = m.allocate(len);
            long p = m.allocate(8);
            NativeMemory.putLong(p, buf);
            crypto.i2d_OCSP_RESPONSE(response, p);
            byte[] der = new byte[len];
            NativeMemory.get(buf, der, 0, len);
            return der;
        } finally {
            crypto.OCSP_RESPONSE_free(response);
        }
    }

    /** Sets the status callback that staples {@code der}: nginx's {@code ngx_ssl_certificate_status_callback()}. */
    static jinx.tls.bind.SslCallbacks.WithArg stapling(LibSsl lib, long ctx, byte[] der) {
        jinx.tls.bind.SslCallbacks.WithArg stub = (ssl, arg) -> staple(lib, ssl, der);
        lib.SSL_CTX_callback_ctrl(ctx, SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB, stub);
        return stub;
    }

    private static int staple(LibSsl lib, long ssl, byte[] der) {
        if (lib.SSL_get_certificate(ssl) == 0) {
            return OpenSsl.SSL_TLSEXT_ERR_NOACK;
        }
        // a copy in OpenSSL's memory, which it frees itself (nginx)
        long p = OpenSsl.crypto().CRYPTO_malloc(der.length, "jinx", 0);
        if (p == 0) {
            return OpenSsl.SSL_TLSEXT_ERR_NOACK;
        }
        NativeMemory.put(p, der, 0, der.length);
        lib.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_STATUS_REQ_OCSP_RESP, der.length, p);
        return OpenSsl.SSL_TLSEXT_ERR_OK;
    }
}
