/**
 * The HTTP API: the request as modules see it, its headers, and the core's configuration objects. Follows
 * nginx's {@code src/http/ngx_http_request.h} and {@code ngx_http_core_module.h}.
 */
package jinx.http;
