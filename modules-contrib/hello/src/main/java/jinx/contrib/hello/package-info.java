/**
 * The {@code hello} module: a CONTENT phase handler configured per location ({@code hello}), a value merged from
 * {@code http} to {@code server} to {@code location} ({@code hello_repeat}) and a variable
 * ({@code $hello_count}). nginx's equivalent is the "hello world" module of every module-writing tutorial,
 * built like {@code src/http/modules/ngx_http_empty_gif_module.c}.
 */
package jinx.contrib.hello;
