/**
 * The {@code headers_more} module: a header filter that sets and clears response headers, built-in ones
 * ({@code Server}, {@code Content-Type}, {@code Content-Length} ...) included, under conditions on the status
 * ({@code -s}) and the content type ({@code -t}). Follows openresty's headers-more-nginx-module
 * ({@code src/ngx_http_headers_more_headers_out.c}); the input-header directives are not part of it.
 */
package jinx.contrib.headersmore;
