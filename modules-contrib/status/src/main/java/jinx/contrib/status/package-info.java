/**
 * The {@code status} module: {@code stub_status} as nginx's {@code src/http/modules/ngx_http_stub_status_module.c}
 * prints it, {@code status_format prometheus} for Prometheus' text exposition format, and nginx's
 * {@code $connections_*} variables. The counters live in a shared memory zone so that every worker reports the
 * same totals.
 */
package jinx.contrib.status;
