/**
 * The HTTP module SPI: what an HTTP module gives ({@link jinx.http.spi.HttpModule}), the contexts of
 * {@code http {}}, {@code server {}} and {@code location {}}, the phases and their handlers, and the header
 * and body filters. Follows nginx's {@code src/http/ngx_http_config.h}, {@code ngx_http_core_module.h}
 * (phases) and {@code ngx_http.c} (phase engine, filter chains).
 *
 * <h2>Order</h2>
 * Phase handlers and filters run in module order: a module that is {@code after("x")} runs its handler or
 * filter after x's. (nginx runs the later module's filter first; Jinx states every chain in execution order,
 * and {@code jinx -m} prints them so.)
 */
package jinx.http.spi;
