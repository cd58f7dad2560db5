package jinx.tls.bind;

import jnr.ffi.annotations.Delegate;

/**
 * The C callbacks OpenSSL calls back into Java. jnr-ffi makes a native stub per object: whoever hands one to
 * OpenSSL keeps a strong reference to it for as long as the {@code SSL_CTX} lives, or the stub is collected
 * under OpenSSL's feet. Not API.
 */
public final class SslCallbacks {

    private SslCallbacks() {
    }

    /**
     * The TLS server name callback ({@code SSL_CTX_set_tlsext_servername_callback}, set through
     * {@code SSL_CTX_callback_ctrl(ctx, SSL_CTRL_SET_TLSEXT_SERVERNAME_CB, cb)}).
     */
    public interface ServerName {

        /**
         * {@code int (*cb)(SSL *s, int *al, void *arg)}.
         *
         * @param ssl {@code SSL *}
         * @param alert {@code int *}: the alert to send when refusing
         * @param arg the callback's argument
         * @return {@code SSL_TLSEXT_ERR_OK}, {@code SSL_TLSEXT_ERR_NOACK} or {@code SSL_TLSEXT_ERR_ALERT_FATAL}
         */
        @Delegate
        int call(long ssl, long alert, long arg);
    }

    /** The ALPN select callback ({@code SSL_CTX_set_alpn_select_cb}). */
    public interface AlpnSelect {

        /**
         * {@code int (*cb)(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
         * unsigned int inlen, void *arg)}.
         *
         * @param ssl {@code SSL *}
         * @param out {@code const unsigned char **}: the chosen protocol, pointing into {@code in}
         * @param outlen {@code unsigned char *}: its length
         * @param in the client's list, length-prefixed names
         * @param inlen the list's length
         * @param arg the callback's argument
         * @return {@code SSL_TLSEXT_ERR_OK} or {@code SSL_TLSEXT_ERR_ALERT_FATAL}
         */
        @Delegate
        int call(long ssl, long out, long outlen, long in, int inlen, long arg);
    }

    /** The new session callback of a client context ({@code SSL_CTX_sess_set_new_cb}). */
    public interface NewSession {

        /**
         * {@code int (*new_session_cb)(SSL *ssl, SSL_SESSION *sess)}.
         *
         * @param ssl {@code SSL *}
         * @param session {@code SSL_SESSION *}, referenced for the callback
         * @return 1 when the callback keeps the reference, 0 when OpenSSL drops it
         */
        @Delegate
        int call(long ssl, long session);
    }

    /** The certificate verification callback ({@code SSL_CTX_set_verify}). */
    public interface Verify {

        /**
         * {@code int (*verify_callback)(int preverify_ok, X509_STORE_CTX *x509_ctx)}.
         *
         * @param ok whether the certificate passed so far
         * @param storeCtx {@code X509_STORE_CTX *}
         * @return 1 to go on with the chain, 0 to stop
         */
        @Delegate
        int call(int ok, long storeCtx);
    }
    /**
     * A callback {@code int (*cb)(SSL *s, void *arg)}: a server's OCSP status callback
     * ({@code SSL_CTX_set_tlsext_status_cb}) and its certificate callback ({@code SSL_CTX_set_cert_cb}).
     */
    public interface WithArg {

        /**
         * {@code int (*cb)(SSL *s, void *arg)}.
         *
         * @param ssl {@code SSL *}
         * @param arg the callback's argument
         * @return the status callback: {@code SSL_TLSEXT_ERR_OK} with a response set, {@code SSL_TLSEXT_ERR_NOACK}
         *     without; the certificate callback: 1 to go on, 0 to fail the handshake
         */
        @Delegate
        int call(long ssl, long arg);
    }
}
