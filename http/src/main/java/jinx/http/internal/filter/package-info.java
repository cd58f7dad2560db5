/**
 * The last filters of the response, nginx's {@code src/http/ngx_http_chunked_filter_module.c},
 * {@code ngx_http_header_filter_module.c} and {@code ngx_http_write_filter_module.c}: three HTTP modules, in
 * execution order {@code http_chunked_filter} (the chunked transfer coding), {@code http_header_filter} (the
 * status line and headers as bytes) and {@code http_write_filter} (buffering, {@code postpone_output},
 * {@code limit_rate}, and the connection's {@link jinx.kernel.ConnectionIo#sendChain}).
 *
 * <p>As in nginx the header filter hands its bytes straight to the write filter, not to the body filters. The
 * write filter keeps a request's pending output in its request context ({@link
 * jinx.http.internal.filter.WriteFilterModule#output}); the connection's {@code buffered} bit
 * {@link jinx.http.internal.filter.WriteFilterModule#WRITE_BUFFERED} tells the engine that output is pending, and
 * the engine's writer passes {@code null} down the body filters to push it.
 */
package jinx.http.internal.filter;
