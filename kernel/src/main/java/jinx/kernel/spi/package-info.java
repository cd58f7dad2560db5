/**
 * The module SPI: what every Jinx module is, and how it declares its directives. Follows nginx's
 * {@code src/core/ngx_module.[ch]} and {@code src/core/ngx_conf_file.[ch]}.
 *
 * <h2>Lifecycle</h2>
 * A module is found with {@link java.util.ServiceLoader} (built in) or loaded from a jar named by
 * {@code load_module}. For every configuration (a {@link jinx.kernel.Cycle}) the kernel:
 * <ol>
 *   <li>creates a fresh instance of every module and orders them: built-in modules in the kernel's fixed list,
 *       every other module by its {@link jinx.kernel.spi.JinxModule#after()} and
 *       {@link jinx.kernel.spi.JinxModule#before()} names (topological, ties by name);</li>
 *   <li>calls {@link jinx.kernel.spi.CoreModule#createConf} of every {@code CORE} module, parses the
 *       configuration (block directives such as {@code events {}} create the confs of the modules of their own
 *       type and parse their block), then calls {@link jinx.kernel.spi.CoreModule#initConf} of every
 *       {@code CORE} module;</li>
 *   <li>in the master, calls {@link jinx.kernel.spi.JinxModule#initModule} of every module, in order; if any
 *       step fails the new cycle is dropped and the old one stays in force;</li>
 *   <li>in every worker, calls {@link jinx.kernel.spi.JinxModule#initProcess} before the event loop starts and
 *       {@link jinx.kernel.spi.JinxModule#exitProcess} when the worker exits;</li>
 *   <li>in the master, calls {@link jinx.kernel.spi.JinxModule#exitMaster} when the master exits.</li>
 * </ol>
 *
 * <h2>Order words</h2>
 * {@code after("x")} means "my handler or filter runs after x's", and the module stands after x in the module
 * list. (In nginx the module later in the list sees a response first; Jinx states every order in execution
 * order, and prints chains that way.)
 */
package jinx.kernel.spi;
