/**
 * The stream modules: the block and its phases (nginx's ngx_stream.c, ngx_stream_core_module.c,
 * ngx_stream_handler.c), variables and complex values (ngx_stream_variables.c, ngx_stream_script.c), the access
 * log (ngx_stream_log_module.c), {@code allow}/{@code deny} (ngx_stream_access_module.c), {@code return}
 * (ngx_stream_return_module.c), {@code upstream {}} (ngx_stream_upstream.c, ngx_stream_upstream_hash_module.c,
 * ngx_stream_upstream_least_conn_module.c, ngx_stream_upstream_random_module.c, on the balancers of
 * {@code jinx.proxy.upstream}) and {@code proxy_pass} (ngx_stream_proxy_module.c), with {@code resolver}
 * (ngx_stream_core_module.c's, on {@code jinx.proxy.upstream.Resolver}).
 */
package jinx.stream.internal;
