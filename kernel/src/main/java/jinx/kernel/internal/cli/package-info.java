/**
 * The {@code jinx} command line: nginx's options ({@code -h -v -V -t -T -q -s -p -c -e -g}) and Jinx's
 * {@code -m} and {@code -l}. Follows nginx's {@code src/core/nginx.c} ({@code ngx_get_options()},
 * {@code ngx_show_version_info()}) and {@code ngx_signal_process()} in {@code src/core/ngx_cycle.c}.
 */
package jinx.kernel.internal.cli;
