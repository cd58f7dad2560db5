/**
 * The module list: ordering the modules of a cycle and loading the jars {@code load_module} names. Ports
 * {@code src/core/ngx_module.c} ({@code ngx_add_module()}, {@code ngx_preinit_modules()}) and the loading half of
 * {@code ngx_load_module()} in {@code src/core/nginx.c}.
 *
 * <p>nginx orders modules by the list {@code auto/modules} writes and by the {@code order} array a dynamic module
 * carries; Jinx keeps the first as the kernel's built-in order and replaces the second with
 * {@link jinx.kernel.spi.JinxModule#after()} and {@link jinx.kernel.spi.JinxModule#before()}, sorted
 * topologically by {@link jinx.kernel.internal.module.ModuleSorter}. A {@code dlopen()} becomes a
 * {@link java.lang.ModuleLayer} per jar, built by {@link jinx.kernel.internal.module.ModuleJarLoader}.
 */
package jinx.kernel.internal.module;
