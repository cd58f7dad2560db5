/**
 * Cycles: building one configuration's modules, conf objects and logs from an optional old cycle, and the
 * directive dispatcher. Follows nginx's {@code src/core/ngx_cycle.c} ({@code ngx_init_cycle()}) and
 * {@code src/core/ngx_conf_file.c} ({@code ngx_conf_parse()}, {@code ngx_conf_handler()}).
 */
package jinx.kernel.internal.cycle;
