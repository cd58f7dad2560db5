package jinx.tls.bind;

import jnr.ffi.types.intptr_t;
import jnr.ffi.types.u_int64_t;

/**
 * The calls of {@code libssl.so.3} Jinx makes, each the prototype of OpenSSL 3.0's {@code ssl.h}. The macros of
 * {@code ssl.h} are not symbols: {@code SSL_CTX_set_session_cache_mode} and its kin are {@link #SSL_CTX_ctrl} calls
 * with the {@code SSL_CTRL_*} numbers the facade names. Not API.
 */
public interface LibSsl {

    /**
     * {@code const SSL_METHOD *TLS_server_method(void);}
     *
     * @return the general-purpose server method
     */
    long TLS_server_method();

    /**
     * {@code SSL_CTX *SSL_CTX_new(const SSL_METHOD *method);}
     *
     * @param method the C argument
     * @return a new context, 0 on failure
     */
    @intptr_t long SSL_CTX_new(@intptr_t long method);

    /**
     * {@code void SSL_CTX_free(SSL_CTX *ctx);}
     *
     * @param ctx the C argument
     */
    void SSL_CTX_free(@intptr_t long ctx);

    /**
     * {@code uint64_t SSL_CTX_set_options(SSL_CTX *ctx, uint64_t options);}
     *
     * @param ctx the C argument
     * @param options the C argument
     * @return the options now set
     */
    @u_int64_t long SSL_CTX_set_options(@intptr_t long ctx, @u_int64_t long options);

    /**
     * {@code uint64_t SSL_CTX_clear_options(SSL_CTX *ctx, uint64_t options);}
     *
     * @param ctx the C argument
     * @param options the C argument
     * @return the options now set
     */
    @u_int64_t long SSL_CTX_clear_options(@intptr_t long ctx, @u_int64_t long options);

    /**
     * {@code long SSL_CTX_ctrl(SSL_CTX *ctx, int cmd, long larg, void *parg);}
     *
     * @param ctx the C argument
     * @param cmd the C argument
     * @param larg the C argument
     * @param parg the C argument
     * @return the control's answer (the macros' return value)
     */
    long SSL_CTX_ctrl(@intptr_t long ctx, int cmd, long larg, @intptr_t long parg);

    /**
     * {@code long SSL_CTX_callback_ctrl(SSL_CTX *, int cmd, void (*fp) (void));}
     *
     * @param ctx the C argument
     * @param cmd the C argument
     * @param cb the C argument
     * @return 1 on success
     */
    long SSL_CTX_callback_ctrl(@intptr_t long ctx, int cmd, SslCallbacks.ServerName cb);

    /**
     * {@code int SSL_CTX_use_certificate_chain_file(SSL_CTX *ctx, const char *file);}
     *
     * @param ctx the C argument
     * @param file the C argument
     * @return 1 on success
     */
    int SSL_CTX_use_certificate_chain_file(@intptr_t long ctx, String file);

    /**
     * {@code int SSL_CTX_use_PrivateKey_file(SSL_CTX *ctx, const char *file, int type);}
     *
     * @param ctx the C argument
     * @param file the C argument
     * @param type the C argument
     * @return 1 on success
     */
    int SSL_CTX_use_PrivateKey_file(@intptr_t long ctx, String file, int type);

    /**
     * {@code int SSL_CTX_check_private_key(const SSL_CTX *ctx);}
     *
     * @param ctx the C argument
     * @return 1 when the key matches the certificate
     */
    int SSL_CTX_check_private_key(@intptr_t long ctx);

    /**
     * {@code void SSL_CTX_set_default_passwd_cb_userdata(SSL_CTX *ctx, void *u);}
     *
     * @param ctx the C argument
     * @param userdata the C argument
     */
    void SSL_CTX_set_default_passwd_cb_userdata(@intptr_t long ctx, @intptr_t long userdata);

    /**
     * {@code int SSL_CTX_set_cipher_list(SSL_CTX *ctx, const char *str);}
     *
     * @param ctx the C argument
     * @param list the C argument
     * @return 1 when a cipher was selected
     */
    int SSL_CTX_set_cipher_list(@intptr_t long ctx, String list);

    /**
     * {@code int SSL_CTX_set_ciphersuites(SSL_CTX *ctx, const char *str);}
     *
     * @param ctx the C argument
     * @param list the C argument
     * @return 1 on success
     */
    int SSL_CTX_set_ciphersuites(@intptr_t long ctx, String list);

    /**
     * {@code long SSL_CTX_set_timeout(SSL_CTX *ctx, long t);}
     *
     * @param ctx the C argument
     * @param seconds the C argument
     * @return the previous timeout
     */
    long SSL_CTX_set_timeout(@intptr_t long ctx, long seconds);

    /**
     * {@code int SSL_CTX_set_session_id_context(SSL_CTX *ctx, const unsigned char *sid_ctx, unsigned int sid_ctx_len);}
     *
     * @param ctx the C argument
     * @param sidCtx the C argument
     * @param length the C argument
     * @return 1 on success
     */
    int SSL_CTX_set_session_id_context(@intptr_t long ctx, @intptr_t long sidCtx, int length);

    /**
     * {@code void SSL_CTX_set_alpn_select_cb(SSL_CTX *ctx, SSL_CTX_alpn_select_cb_func cb, void *arg);}
     *
     * @param ctx the C argument
     * @param cb the C argument
     * @param arg the C argument
     */
    void SSL_CTX_set_alpn_select_cb(@intptr_t long ctx, SslCallbacks.AlpnSelect cb, @intptr_t long arg);

    /**
     * {@code void SSL_CTX_set_verify(SSL_CTX *ctx, int mode, SSL_verify_cb verify_callback);}
     *
     * @param ctx the C argument
     * @param mode the C argument
     * @param callback the C argument
     */
    void SSL_CTX_set_verify(@intptr_t long ctx, int mode, @intptr_t long callback);

    /**
     * {@code void SSL_CTX_set_verify(SSL_CTX *ctx, int mode, SSL_verify_cb verify_callback);} with a callback.
     *
     * @param ctx the C argument
     * @param mode the C argument
     * @param callback the C argument
     */
    void SSL_CTX_set_verify(@intptr_t long ctx, int mode, SslCallbacks.Verify callback);

    /**
     * {@code int SSL_CTX_get_verify_mode(const SSL_CTX *ctx);}
     *
     * @param ctx the C argument
     * @return the mode
     */
    int SSL_CTX_get_verify_mode(@intptr_t long ctx);

    /**
     * {@code void SSL_CTX_set_verify_depth(SSL_CTX *ctx, int depth);}
     *
     * @param ctx the C argument
     * @param depth the C argument
     */
    void SSL_CTX_set_verify_depth(@intptr_t long ctx, int depth);

    /**
     * {@code int SSL_CTX_load_verify_locations(SSL_CTX *ctx, const char *CAfile, const char *CApath);}
     *
     * @param ctx the C argument
     * @param caFile the C argument
     * @param caPath the C argument
     * @return 1 on success
     */
    int SSL_CTX_load_verify_locations(@intptr_t long ctx, String caFile, String caPath);

    /**
     * {@code STACK_OF(X509_NAME) *SSL_load_client_CA_file(const char *file);}
     *
     * @param file the C argument
     * @return the names, 0 on failure
     */
    @intptr_t long SSL_load_client_CA_file(String file);

    /**
     * {@code void SSL_CTX_set_client_CA_list(SSL_CTX *ctx, STACK_OF(X509_NAME) *list);}
     *
     * @param ctx the C argument
     * @param list the C argument
     */
    void SSL_CTX_set_client_CA_list(@intptr_t long ctx, @intptr_t long list);

    /**
     * {@code SSL_CONF_CTX *SSL_CONF_CTX_new(void);}
     *
     * @return a new configuration context
     */
    @intptr_t long SSL_CONF_CTX_new();

    /**
     * {@code unsigned int SSL_CONF_CTX_set_flags(SSL_CONF_CTX *cctx, unsigned int flags);}
     *
     * @param cctx the C argument
     * @param flags the C argument
     * @return the flags now set
     */
    int SSL_CONF_CTX_set_flags(@intptr_t long cctx, int flags);

    /**
     * {@code void SSL_CONF_CTX_set_ssl_ctx(SSL_CONF_CTX *cctx, SSL_CTX *ctx);}
     *
     * @param cctx the C argument
     * @param ctx the C argument
     */
    void SSL_CONF_CTX_set_ssl_ctx(@intptr_t long cctx, @intptr_t long ctx);

    /**
     * {@code int SSL_CONF_cmd(SSL_CONF_CTX *cctx, const char *option, const char *value);}
     *
     * @param cctx the C argument
     * @param option the C argument
     * @param value the C argument
     * @return 2 or 1 when applied, 0 or less otherwise
     */
    int SSL_CONF_cmd(@intptr_t long cctx, String option, String value);

    /**
     * {@code int SSL_CONF_CTX_finish(SSL_CONF_CTX *cctx);}
     *
     * @param cctx the C argument
     * @return 1 on success
     */
    int SSL_CONF_CTX_finish(@intptr_t long cctx);

    /**
     * {@code void SSL_CONF_CTX_free(SSL_CONF_CTX *cctx);}
     *
     * @param cctx the C argument
     */
    void SSL_CONF_CTX_free(@intptr_t long cctx);

    /**
     * {@code SSL *SSL_new(SSL_CTX *ctx);}
     *
     * @param ctx the C argument
     * @return a new connection, 0 on failure
     */
    @intptr_t long SSL_new(@intptr_t long ctx);

    /**
     * {@code void SSL_free(SSL *ssl);}
     *
     * @param ssl the C argument
     */
    void SSL_free(@intptr_t long ssl);

    /**
     * {@code int SSL_set_fd(SSL *ssl, int fd);}
     *
     * @param ssl the C argument
     * @param fd the C argument
     * @return 1 on success
     */
    int SSL_set_fd(@intptr_t long ssl, int fd);

    /**
     * {@code void SSL_set_accept_state(SSL *ssl);}
     *
     * @param ssl the C argument
     */
    void SSL_set_accept_state(@intptr_t long ssl);

    /**
     * {@code void SSL_set_connect_state(SSL *ssl);}
     *
     * @param ssl the C argument
     */
    void SSL_set_connect_state(@intptr_t long ssl);

    /**
     * {@code SSL_CTX *SSL_set_SSL_CTX(SSL *ssl, SSL_CTX *ctx);}
     *
     * @param ssl the C argument
     * @param ctx the C argument
     * @return the context set
     */
    @intptr_t long SSL_set_SSL_CTX(@intptr_t long ssl, @intptr_t long ctx);

    /**
     * {@code uint64_t SSL_set_options(SSL *ssl, uint64_t options);}
     *
     * @param ssl the C argument
     * @param options the C argument
     * @return the options now set
     */
    @u_int64_t long SSL_set_options(@intptr_t long ssl, @u_int64_t long options);

    /**
     * {@code void SSL_set_verify(SSL *ssl, int mode, SSL_verify_cb verify_callback);}
     *
     * @param ssl the C argument
     * @param mode the C argument
     * @param callback the C argument
     */
    void SSL_set_verify(@intptr_t long ssl, int mode, @intptr_t long callback);

    /**
     * {@code void SSL_set_verify_depth(SSL *ssl, int depth);}
     *
     * @param ssl the C argument
     * @param depth the C argument
     */
    void SSL_set_verify_depth(@intptr_t long ssl, int depth);

    /**
     * {@code int SSL_do_handshake(SSL *ssl);}
     *
     * @param ssl the C argument
     * @return 1 when done, 0 or less otherwise (SSL_get_error says why)
     */
    int SSL_do_handshake(@intptr_t long ssl);

    /**
     * {@code int SSL_read(SSL *ssl, void *buf, int num);}
     *
     * @param ssl the C argument
     * @param buf the C argument
     * @param num the C argument
     * @return bytes read, 0 or less otherwise
     */
    int SSL_read(@intptr_t long ssl, @intptr_t long buf, int num);

    /**
     * {@code int SSL_write(SSL *ssl, const void *buf, int num);}
     *
     * @param ssl the C argument
     * @param buf the C argument
     * @param num the C argument
     * @return bytes written, 0 or less otherwise
     */
    int SSL_write(@intptr_t long ssl, @intptr_t long buf, int num);

    /**
     * {@code int SSL_pending(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return bytes decrypted and buffered
     */
    int SSL_pending(@intptr_t long ssl);

    /**
     * {@code int SSL_get_error(const SSL *ssl, int ret);}
     *
     * @param ssl the C argument
     * @param ret the C argument
     * @return SSL_ERROR_*
     */
    int SSL_get_error(@intptr_t long ssl, int ret);

    /**
     * {@code int SSL_shutdown(SSL *ssl);}
     *
     * @param ssl the C argument
     * @return 1 when complete, 0 when sent, less on failure
     */
    int SSL_shutdown(@intptr_t long ssl);

    /**
     * {@code void SSL_set_shutdown(SSL *ssl, int mode);}
     *
     * @param ssl the C argument
     * @param mode the C argument
     */
    void SSL_set_shutdown(@intptr_t long ssl, int mode);

    /**
     * {@code int SSL_get_shutdown(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return SSL_SENT_SHUTDOWN, SSL_RECEIVED_SHUTDOWN
     */
    int SSL_get_shutdown(@intptr_t long ssl);

    /**
     * {@code void SSL_set_quiet_shutdown(SSL *ssl, int mode);}
     *
     * @param ssl the C argument
     * @param mode the C argument
     */
    void SSL_set_quiet_shutdown(@intptr_t long ssl, int mode);

    /**
     * {@code int SSL_in_init(const SSL *s);}
     *
     * @param ssl the C argument
     * @return 1 while the handshake is not done
     */
    int SSL_in_init(@intptr_t long ssl);

    /**
     * {@code const char *SSL_get_version(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return the protocol's name (TLSv1.3)
     */
    String SSL_get_version(@intptr_t long ssl);

    /**
     * {@code const SSL_CIPHER *SSL_get_current_cipher(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return the cipher, 0 before the handshake
     */
    @intptr_t long SSL_get_current_cipher(@intptr_t long ssl);

    /**
     * {@code const char *SSL_CIPHER_get_name(const SSL_CIPHER *cipher);}
     *
     * @param cipher the C argument
     * @return OpenSSL's name of the cipher
     */
    String SSL_CIPHER_get_name(@intptr_t long cipher);

    /**
     * {@code int SSL_session_reused(const SSL *s);}
     *
     * @param ssl the C argument
     * @return 1 when the session was resumed
     */
    int SSL_session_reused(@intptr_t long ssl);

    /**
     * {@code SSL_SESSION *SSL_get_session(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return the session, not referenced
     */
    @intptr_t long SSL_get_session(@intptr_t long ssl);

    /**
     * {@code const unsigned char *SSL_SESSION_get_id(const SSL_SESSION *s, unsigned int *len);}
     *
     * @param session the C argument
     * @param len the C argument
     * @return the id's bytes
     */
    @intptr_t long SSL_SESSION_get_id(@intptr_t long session, @intptr_t long len);

    /**
     * {@code const char *SSL_get_servername(const SSL *s, const int type);}
     *
     * @param ssl the C argument
     * @param type the C argument
     * @return the name the client sent, or null
     */
    String SSL_get_servername(@intptr_t long ssl, int type);

    /**
     * {@code void SSL_get0_alpn_selected(const SSL *ssl, const unsigned char **data, unsigned int *len);}
     *
     * @param ssl the C argument
     * @param data the C argument
     * @param len the C argument
     */
    void SSL_get0_alpn_selected(@intptr_t long ssl, @intptr_t long data, @intptr_t long len);

    /**
     * {@code const SSL_METHOD *TLS_client_method(void);}
     *
     * @return the general-purpose client method
     */
    long TLS_client_method();

    /**
     * {@code long SSL_ctrl(SSL *ssl, int cmd, long larg, void *parg);}
     *
     * @param ssl the C argument
     * @param cmd the C argument
     * @param larg the C argument
     * @param parg the C argument
     * @return the control's answer
     */
    long SSL_ctrl(@intptr_t long ssl, int cmd, long larg, @intptr_t long parg);

    /**
     * {@code int SSL_set_alpn_protos(SSL *ssl, const unsigned char *protos, unsigned int protos_len);}
     *
     * @param ssl the C argument
     * @param protos the C argument
     * @param len the C argument
     * @return 0 on success
     */
    int SSL_set_alpn_protos(@intptr_t long ssl, @intptr_t long protos, int len);

    /**
     * {@code SSL_SESSION *SSL_get1_session(SSL *ssl);}
     *
     * @param ssl the C argument
     * @return the session, referenced
     */
    @intptr_t long SSL_get1_session(@intptr_t long ssl);

    /**
     * {@code int SSL_set_session(SSL *ssl, SSL_SESSION *session);}
     *
     * @param ssl the C argument
     * @param session the C argument
     * @return 1 on success
     */
    int SSL_set_session(@intptr_t long ssl, @intptr_t long session);

    /**
     * {@code void SSL_SESSION_free(SSL_SESSION *session);}
     *
     * @param session the C argument
     */
    void SSL_SESSION_free(@intptr_t long session);

    /**
     * {@code long SSL_get_verify_result(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return {@code X509_V_OK} (0) or the verification's error code
     */
    long SSL_get_verify_result(@intptr_t long ssl);

    /**
     * {@code X509 *SSL_get1_peer_certificate(const SSL *ssl);}
     *
     * @param ssl the C argument
     * @return the peer's certificate, referenced, or 0
     */
    @intptr_t long SSL_get1_peer_certificate(@intptr_t long ssl);

    /**
     * {@code void SSL_CTX_sess_set_new_cb(SSL_CTX *ctx, int (*new_session_cb)(SSL *, SSL_SESSION *));}
     *
     * @param ctx the C argument
     * @param cb the C argument
     */
    void SSL_CTX_sess_set_new_cb(@intptr_t long ctx, SslCallbacks.NewSession cb);

    /**
     * {@code X509_STORE *SSL_CTX_get_cert_store(const SSL_CTX *ctx);}
     *
     * @param ctx the C argument
     * @return the context's store
     */
    @intptr_t long SSL_CTX_get_cert_store(@intptr_t long ctx);
    /**
     * {@code long SSL_CTX_callback_ctrl(SSL_CTX *ctx, int cmd, void (*fp)(void));} for the OCSP status callback
     * ({@code SSL_CTX_set_tlsext_status_cb}: {@code SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB}, 63).
     *
     * @param ctx the context
     * @param cmd the command
     * @param cb the callback
     * @return 1 on success
     */
    long SSL_CTX_callback_ctrl(@intptr_t long ctx, int cmd, SslCallbacks.WithArg cb);

    /**
     * {@code int SSL_CTX_remove_session(SSL_CTX *ctx, SSL_SESSION *c);}
     *
     * @param ctx the context whose cache holds the session
     * @param session the session
     * @return 1 when it was cached
     */
    int SSL_CTX_remove_session(@intptr_t long ctx, @intptr_t long session);

    /**
     * {@code X509 *SSL_get_certificate(const SSL *ssl);}
     *
     * @param ssl the connection
     * @return the certificate the server sends, not referenced; 0 when none
     */
    @intptr_t long SSL_get_certificate(@intptr_t long ssl);

    /**
     * {@code int SSL_CTX_get_verify_depth(const SSL_CTX *ctx);}
     *
     * @param ctx the context
     * @return the depth
     */
    int SSL_CTX_get_verify_depth(@intptr_t long ctx);

    /**
     * {@code SSL_verify_cb SSL_CTX_get_verify_callback(const SSL_CTX *ctx);}
     *
     * @param ctx the context
     * @return the callback's address, 0 when none
     */
    @intptr_t long SSL_CTX_get_verify_callback(@intptr_t long ctx);

    /**
     * {@code void SSL_CTX_set_cert_cb(SSL_CTX *c, int (*cert_cb)(SSL *ssl, void *arg), void *arg);}
     *
     * @param ctx the context
     * @param cb the callback
     * @param arg its argument
     */
    void SSL_CTX_set_cert_cb(@intptr_t long ctx, SslCallbacks.WithArg cb, @intptr_t long arg);

    /**
     * {@code int SSL_use_certificate_chain_file(SSL *ssl, const char *file);}
     *
     * @param ssl the connection
     * @param file the PEM file of the certificate and its chain
     * @return 1 on success
     */
    int SSL_use_certificate_chain_file(@intptr_t long ssl, String file);

    /**
     * {@code int SSL_use_PrivateKey_file(SSL *ssl, const char *file, int type);}
     *
     * @param ssl the connection
     * @param file the key's file
     * @param type {@code SSL_FILETYPE_PEM}
     * @return 1 on success
     */
    int SSL_use_PrivateKey_file(@intptr_t long ssl, String file, int type);

    /**
     * {@code void SSL_set_default_passwd_cb_userdata(SSL *s, void *u);}
     *
     * @param ssl the connection
     * @param userdata the password, NUL-terminated, or 0
     */
    void SSL_set_default_passwd_cb_userdata(@intptr_t long ssl, @intptr_t long userdata);
}
