/**
 * The standard HTTP modules and the response filters above the chunked filter, nginx's
 * {@code src/http/modules/ngx_http_static_module.c} ({@code http_static}), {@code ngx_http_index_module.c}
 * ({@code http_index}), {@code ngx_http_autoindex_module.c} ({@code http_autoindex}),
 * {@code ngx_http_rewrite_module.c} with the script codes of {@code src/http/ngx_http_script.c} ({@code http_rewrite},
 * {@code if} included), {@code ngx_http_map_module.c} ({@code http_map}), {@code ngx_http_split_clients_module.c}
 * ({@code http_split_clients}, with {@code src/core/ngx_murmurhash.c}), {@code ngx_http_referer_module.c}
 * ({@code http_referer}), {@code ngx_http_secure_link_module.c} ({@code http_secure_link}),
 * {@code ngx_http_random_index_module.c} ({@code http_random_index}), {@code ngx_http_browser_module.c}
 * ({@code http_browser}), {@code ngx_http_charset_filter_module.c} ({@code http_charset_filter}, whose
 * {@code charset_map} tables nginx ships as {@code conf/koi-utf}, {@code conf/koi-win} and {@code conf/win-utf}), {@code ngx_http_geo_module.c}
 * ({@code http_geo}), {@code ngx_http_access_module.c} ({@code http_access}), {@code ngx_http_realip_module.c}
 * ({@code http_realip}), {@code ngx_http_auth_basic_module.c} ({@code http_auth_basic}, with
 * {@code src/core/ngx_crypt.c}), {@code ngx_http_headers_filter_module.c} ({@code http_headers_filter}),
 * {@code ngx_http_not_modified_filter_module.c} ({@code http_not_modified_filter}),
 * {@code ngx_http_gzip_filter_module.c} ({@code http_gzip_filter}, with {@code ngx_http_gzip_ok()} of
 * {@code ngx_http_core_module.c}), {@code ngx_http_gzip_static_module.c} ({@code http_gzip_static}),
 * {@code ngx_http_limit_req_module.c} ({@code http_limit_req}) and {@code ngx_http_limit_conn_module.c}
 * ({@code http_limit_conn}), whose zones keep a hash table and an LRU list in place of nginx's red-black tree
 * ({@code ShmTable}), {@code ngx_http_empty_gif_module.c} ({@code http_empty_gif}), and
 * {@code ngx_http_range_filter_module.c} ({@code http_range_filter}, which also carries the part of
 * {@code ngx_http_copy_filter_module.c} that reads files into memory under {@code sendfile off}); and the helpers of
 * {@code ngx_http_core_module.c} they share ({@code ngx_http_set_content_type()}, {@code ngx_http_set_etag()},
 * {@code ngx_http_send_response()}, {@code ngx_http_filter_finalize_request()}, {@code ngx_ptocidr()} and
 * {@code ngx_http_get_forwarded_addr()}).
 *
 * <h2>Order</h2>
 * Handlers of one phase run as {@code BuiltinOrder} lists their modules: in PREACCESS {@code http_limit_req}
 * before {@code http_limit_conn} (nginx runs its handler array backwards); in ACCESS {@code http_access} before
 * {@code http_auth_basic} (as nginx runs them); in CONTENT {@code http_random_index}, {@code http_index}, {@code http_autoindex},
 * {@code http_gzip_static}, then {@code http_static}. The filters run {@code http_not_modified_filter},
 * {@code http_headers_filter}, {@code http_gzip_filter}, {@code http_range_filter}, then the chunked, header and
 * write filters; the range module's body filters are the range body filter and then the copy step, as nginx runs
 * {@code ngx_http_range_body_filter} before {@code ngx_http_copy_filter}. The gzip header filter runs before the
 * range header filter as in nginx (a compressed response has no ranges); its body filter, which comes before the
 * copy step here, reads file data into memory itself with the same {@code FileCopy}.
 *
 * <h2>Not here</h2>
 * {@code disable_symlinks} (symbolic links are followed, as nginx's default {@code disable_symlinks off}),
 * {@code open_file_cache} (every request opens its file), {@code directio}, {@code aio}; the
 * PROXY protocol for {@code real_ip_header proxy_protocol}; binary {@code geo} range bases; host names in
 * {@code set_real_ip_from}; {@code autoindex} counts a name's length in bytes (there is no {@code charset} module
 * to make it UTF-8).
 */
package jinx.http.internal.modules;
