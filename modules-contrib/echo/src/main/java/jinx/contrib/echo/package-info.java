/**
 * The {@code echo} module: {@code echo}, {@code echo_duplicate}, {@code echo_flush}, {@code echo_sleep} and
 * {@code echo_exec} as a CONTENT phase handler, following openresty's echo-nginx-module
 * ({@code src/ngx_http_echo_echo.c}, {@code ngx_http_echo_sleep.c}, {@code ngx_http_echo_handler.c}).
 * Subrequests ({@code echo_location}) come with a later issue.
 */
package jinx.contrib.echo;
