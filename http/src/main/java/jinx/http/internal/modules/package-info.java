/**
 * The standard content modules and the response filters above the chunked filter, nginx's
 * {@code src/http/modules/ngx_http_static_module.c} ({@code http_static}), {@code ngx_http_index_module.c}
 * ({@code http_index}), {@code ngx_http_rewrite_module.c} with the script codes of {@code src/http/ngx_http_script.c}
 * ({@code http_rewrite}), {@code ngx_http_headers_filter_module.c} ({@code http_headers_filter}),
 * {@code ngx_http_not_modified_filter_module.c} ({@code http_not_modified_filter}) and
 * {@code ngx_http_range_filter_module.c} ({@code http_range_filter}, which also carries the part of
 * {@code ngx_http_copy_filter_module.c} that reads files into memory under {@code sendfile off}); and the helpers of
 * {@code ngx_http_core_module.c} they share ({@code ngx_http_set_content_type()}, {@code ngx_http_set_etag()},
 * {@code ngx_http_send_response()}, {@code ngx_http_filter_finalize_request()}).
 *
 * <h2>Order</h2>
 * Content handlers run as {@code BuiltinOrder} lists them: {@code http_index} before {@code http_static}. The
 * filters run {@code http_not_modified_filter}, {@code http_headers_filter}, {@code http_range_filter}, then the
 * chunked, header and write filters; the range module's body filters are the range body filter and then the copy
 * step, as nginx runs {@code ngx_http_range_body_filter} before {@code ngx_http_copy_filter}.
 *
 * <h2>Not here</h2>
 * {@code disable_symlinks} (symbolic links are followed, as nginx's default {@code disable_symlinks off}),
 * {@code open_file_cache} (every request opens its file), {@code directio}, {@code aio}, the rewrite module's
 * {@code if} block, {@code add_trailer}.
 */
package jinx.http.internal.modules;
