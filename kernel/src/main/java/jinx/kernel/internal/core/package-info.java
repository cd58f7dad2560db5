/**
 * The kernel's own modules: {@code core} (the main-context directives and {@code load_module}), {@code errlog}
 * ({@code error_log}) and {@code conf} ({@code include}). Follows nginx's {@code src/core/nginx.c}
 * ({@code ngx_core_commands}), {@code src/core/ngx_log.c} and {@code src/core/ngx_conf_file.c}.
 */
package jinx.kernel.internal.core;
