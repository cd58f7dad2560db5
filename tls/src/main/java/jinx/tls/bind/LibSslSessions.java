package jinx.tls.bind;

import jnr.ffi.annotations.Delegate;
import jnr.ffi.types.intptr_t;

/**
 * The calls of {@code libssl.so.3} and {@code libcrypto.so.3} behind a server's external session cache and its
 * session ticket keys: nginx's {@code ngx_ssl_new_session()}, {@code ngx_ssl_get_cached_session()},
 * {@code ngx_ssl_remove_session()} and {@code ngx_ssl_session_ticket_key_callback()}
 * (src/event/ngx_event_openssl.c), and the callbacks OpenSSL makes to them. Loaded over both libraries. Whoever
 * hands a callback to OpenSSL keeps a strong reference to it while the {@code SSL_CTX} lives. Not API.
 */
public interface LibSslSessions {

    /** {@code SSL_CTX_sess_set_get_cb}'s callback. */
    interface GetSession {

        /**
         * {@code SSL_SESSION *(*get_session_cb)(SSL *ssl, const unsigned char *data, int len, int *copy)}.
         *
         * @param ssl {@code SSL *}
         * @param id the session id the client offered
         * @param len its length
         * @param copy {@code int *}: 0 when the session returned is handed over with its reference
         * @return the session, or 0
         */
        @Delegate
        long call(long ssl, long id, int len, long copy);
    }

    /** {@code SSL_CTX_sess_set_remove_cb}'s callback. */
    interface RemoveSession {

        /**
         * {@code void (*remove_session_cb)(SSL_CTX *ctx, SSL_SESSION *sess)}.
         *
         * @param ctx {@code SSL_CTX *}
         * @param session {@code SSL_SESSION *}
         */
        @Delegate
        void call(long ctx, long session);
    }

    /** {@code SSL_CTX_set_tlsext_ticket_key_cb}'s callback. */
    interface TicketKey {

        /**
         * {@code int (*cb)(SSL *s, unsigned char key_name[16], unsigned char *iv, EVP_CIPHER_CTX *ctx,
         * HMAC_CTX *hctx, int enc)}.
         *
         * @param ssl {@code SSL *}
         * @param name the key's 16-byte name: written when encrypting, read when decrypting
         * @param iv the IV: written when encrypting
         * @param cipherCtx {@code EVP_CIPHER_CTX *} to initialise
         * @param hmacCtx {@code HMAC_CTX *} to initialise
         * @param enc 1 to encrypt a new ticket, 0 to decrypt one
         * @return 1 done, 2 done and the ticket to be renewed, 0 key not found, -1 error
         */
        @Delegate
        int call(long ssl, long name, long iv, long cipherCtx, long hmacCtx, int enc);
    }

    /**
     * {@code void SSL_CTX_sess_set_get_cb(SSL_CTX *ctx, get_session_cb)}.
     *
     * @param ctx the C argument
     * @param cb the C argument
     */
    void SSL_CTX_sess_set_get_cb(@intptr_t long ctx, GetSession cb);

    /**
     * {@code void SSL_CTX_sess_set_remove_cb(SSL_CTX *ctx, remove_session_cb)}.
     *
     * @param ctx the C argument
     * @param cb the C argument
     */
    void SSL_CTX_sess_set_remove_cb(@intptr_t long ctx, RemoveSession cb);

    /**
     * {@code void SSL_CTX_sess_set_new_cb(SSL_CTX *ctx, int (*new_session_cb)(SSL *, SSL_SESSION *));}
     *
     * @param ctx the C argument
     * @param cb the C argument
     */
    void SSL_CTX_sess_set_new_cb(@intptr_t long ctx, SslCallbacks.NewSession cb);

    /**
     * {@code long SSL_CTX_callback_ctrl(SSL_CTX *ctx, int cmd, void (*fp)(void))} with
     * {@code SSL_CTRL_SET_TLSEXT_TICKET_KEY_CB}: the macro {@code SSL_CTX_set_tlsext_ticket_key_cb}.
     *
     * @param ctx the C argument
     * @param cmd the C argument
     * @param cb the C argument
     * @return 1 when set
     */
    long SSL_CTX_callback_ctrl(@intptr_t long ctx, int cmd, TicketKey cb);

    /**
     * {@code int i2d_SSL_SESSION(const SSL_SESSION *in, unsigned char **pp);}
     *
     * @param session the C argument
     * @param pp where to write, advanced; 0 to ask the length
     * @return the length of the DER form
     */
    int i2d_SSL_SESSION(@intptr_t long session, @intptr_t long pp);

    /**
     * {@code SSL_SESSION *d2i_SSL_SESSION(SSL_SESSION **a, const unsigned char **pp, long length);}
     *
     * @param a the C argument, 0
     * @param pp the DER form's address, advanced
     * @param length its length
     * @return a new session, or 0
     */
    @intptr_t long d2i_SSL_SESSION(@intptr_t long a, @intptr_t long pp, long length);

    /**
     * {@code const unsigned char *SSL_SESSION_get_id(const SSL_SESSION *s, unsigned int *len);}
     *
     * @param session the C argument
     * @param len the C argument
     * @return the id's bytes
     */
    @intptr_t long SSL_SESSION_get_id(@intptr_t long session, @intptr_t long len);

    /**
     * {@code int RAND_bytes(unsigned char *buf, int num);}
     *
     * @param buf the C argument
     * @param num the C argument
     * @return 1 on success
     */
    int RAND_bytes(@intptr_t long buf, int num);

    /**
     * {@code const EVP_CIPHER *EVP_aes_128_cbc(void);}
     *
     * @return the cipher
     */
    @intptr_t long EVP_aes_128_cbc();

    /**
     * {@code const EVP_CIPHER *EVP_aes_256_cbc(void);}
     *
     * @return the cipher
     */
    @intptr_t long EVP_aes_256_cbc();

    /**
     * {@code const EVP_MD *EVP_sha256(void);}
     *
     * @return the digest
     */
    @intptr_t long EVP_sha256();

    /**
     * {@code int EVP_EncryptInit_ex(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *type, ENGINE *impl,
     * const unsigned char *key, const unsigned char *iv);}
     *
     * @param ctx the C argument
     * @param cipher the C argument
     * @param impl the C argument
     * @param key the C argument
     * @param iv the C argument
     * @return 1 on success
     */
    int EVP_EncryptInit_ex(@intptr_t long ctx, @intptr_t long cipher, @intptr_t long impl, @intptr_t long key,
                           @intptr_t long iv);

    /**
     * {@code int EVP_DecryptInit_ex(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *type, ENGINE *impl,
     * const unsigned char *key, const unsigned char *iv);}
     *
     * @param ctx the C argument
     * @param cipher the C argument
     * @param impl the C argument
     * @param key the C argument
     * @param iv the C argument
     * @return 1 on success
     */
    int EVP_DecryptInit_ex(@intptr_t long ctx, @intptr_t long cipher, @intptr_t long impl, @intptr_t long key,
                           @intptr_t long iv);

    /**
     * {@code int HMAC_Init_ex(HMAC_CTX *ctx, const void *key, int len, const EVP_MD *md, ENGINE *impl);}
     * (deprecated in OpenSSL 3 and still exported: the context the ticket callback is given is one).
     *
     * @param ctx the C argument
     * @param key the C argument
     * @param len the C argument
     * @param md the C argument
     * @param impl the C argument
     * @return 1 on success
     */
    int HMAC_Init_ex(@intptr_t long ctx, @intptr_t long key, int len, @intptr_t long md, @intptr_t long impl);
}
