/**
 * TLS through OpenSSL 3, nginx's {@code src/event/ngx_event_openssl.c}: {@link jinx.tls.SslContext} (an
 * {@code SSL_CTX} and its settings: {@code ngx_ssl_create()}, {@code ngx_ssl_certificate()},
 * {@code ngx_ssl_ciphers()}, {@code ngx_ssl_session_cache()}), {@link jinx.tls.SslIo} (a connection's TLS, the
 * kernel's {@code ConnectionIo} over OpenSSL on the non-blocking socket: {@code ngx_ssl_create_connection()},
 * {@code ngx_ssl_handshake()}, {@code ngx_ssl_recv()}, {@code ngx_ssl_write()}, {@code ngx_ssl_send_chain()},
 * {@code ngx_ssl_shutdown()}). Protocol neutral: HTTP's {@code ngx_http_ssl_module} is built on it, and so can the
 * proxy and stream be.
 *
 * <p>Thread contract: an {@code SslContext} is configured on one thread, then only read; an {@code SslIo} belongs
 * to its connection's loop thread.
 */
package jinx.tls;
