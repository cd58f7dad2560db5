/**
 * The access log: {@code log_format}, {@code access_log}, the predefined {@code combined} format, buffered and
 * gzipped writes, and the LOG phase handler (module {@code http_log},
 * {@link jinx.http.internal.log.HttpLogModule}). Follows nginx's
 * {@code src/http/modules/ngx_http_log_module.c}.
 */
package jinx.http.internal.log;
