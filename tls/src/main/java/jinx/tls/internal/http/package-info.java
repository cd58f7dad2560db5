/**
 * HTTPS: nginx's {@code src/http/modules/ngx_http_ssl_module.c} and the TLS part of
 * {@code ngx_http_request.c} ({@code ngx_http_ssl_handshake()}, {@code ngx_http_ssl_servername()}), written on the
 * exported API of {@code jinx.http} ({@code ConnectionTakeover}, {@code ClientConnection}) and of {@code jinx.tls}.
 */
package jinx.tls.internal.http;
