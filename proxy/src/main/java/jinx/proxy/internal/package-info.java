/**
 * The {@code http_upstream} and {@code http_proxy} modules: {@code upstream {}} with its directives, and
 * {@code proxy_pass} with the request's state machine (connect, send, read the response header, relay the body
 * in bounded buffers, try the next peer), with {@code resolver} for the hosts {@code proxy_pass} with variables names.
 *
 * <p>Follows nginx's src/http/ngx_http_upstream.c, src/http/modules/ngx_http_proxy_module.c and
 * src/event/ngx_event_pipe.c (without temporary files).
 */
package jinx.proxy.internal;
