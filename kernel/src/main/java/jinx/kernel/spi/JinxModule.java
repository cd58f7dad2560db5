package jinx.kernel.spi;

import java.util.List;

import jinx.kernel.Cycle;
import jinx.kernel.Listening;

/**
 * A Jinx module: nginx's {@code ngx_module_t}. Built-in modules are found with {@link java.util.ServiceLoader};
 * others are jars named by {@code load_module}. The lifecycle is described in this package's documentation.
 *
 * <p>A module states the SPI version it was built against by implementing {@link #builtFor()} as
 * {@code return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);}.
 */
public interface JinxModule {

    /**
     * Returns the module's name, unique among modules ({@code "core"}, {@code "epoll"}, {@code "echo"}).
     *
     * @return the name
     */
    String name();

    /**
     * Returns the module's type: {@link ModuleType#CORE}, {@link ModuleType#CONF} or the type a block defines.
     *
     * @return the type
     */
    ModuleType type();

    /**
     * Returns the SPI version the module was compiled against:
     * {@code ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR)}, whose constants the compiler copies into the
     * module.
     *
     * @return the version
     */
    ApiVersion builtFor();

    /**
     * Returns the module's directives.
     *
     * @return the directive table
     */
    default List<Directive<?>> directives() {
        return List.of();
    }

    /**
     * Returns the type-specific context: a {@link CoreModule} for {@code CORE} modules, and what the owner of the
     * module's type asks for the others.
     *
     * @return the context, or null
     */
    default Object context() {
        return null;
    }

    /**
     * Returns the names of the modules this one stands after: its handlers and filters run after theirs.
     *
     * @return module names
     */
    default List<String> after() {
        return List.of();
    }

    /**
     * Returns the names of the modules this one stands before: its handlers and filters run before theirs.
     *
     * @return module names
     */
    default List<String> before() {
        return List.of();
    }

    /**
     * Returns lines that {@code jinx -m} prints under the module table: what this module built from the
     * configuration that a reader should see, such as the HTTP phase handlers and filter chains in execution
     * order.
     *
     * @param cycle the cycle the configuration built
     * @return the lines, none by default
     */
    default List<String> report(Cycle cycle) {
        return List.of();
    }

    /**
     * Called in the master once per cycle, after the configuration is parsed (nginx's {@code init_module}).
     *
     * @param cycle the new cycle
     * @throws Exception to refuse the cycle
     */
    default void initModule(Cycle cycle) throws Exception {
    }

    /**
     * Called in each worker before its event loop starts (nginx's {@code init_process}).
     *
     * @param cycle the worker's cycle
     * @throws Exception to stop the worker
     */
    default void initProcess(Cycle cycle) throws Exception {
    }

    /**
     * Returns the requests that warm this module's code on a listening socket it serves, run by a worker that a
     * reload started before it reports ready (with {@code worker_warmup} on), while the old workers still serve:
     * see {@link WarmUpExchange}. Called on the loop thread after {@link #initProcess}.
     *
     * @param cycle the worker's cycle
     * @param ls one of the cycle's listening sockets
     * @return the exchanges, none by default and for a socket another module serves
     */
    default List<WarmUpExchange> warmUp(Cycle cycle, Listening ls) {
        return List.of();
    }

    /**
     * Called in each worker as it exits (nginx's {@code exit_process}).
     *
     * @param cycle the worker's cycle
     */
    default void exitProcess(Cycle cycle) {
    }

    /**
     * Reopens the files this module writes, for log rotation: called on the loop thread of a serving process
     * when it receives {@code USR1} (nginx's {@code ngx_reopen_files()}), after the error log was reopened.
     * A failure is the module's to log; the other modules' files are reopened all the same.
     *
     * @param cycle the serving cycle
     */
    default void reopenFiles(Cycle cycle) {
    }

    /**
     * Called in the master as it exits (nginx's {@code exit_master}).
     *
     * @param cycle the master's cycle
     */
    default void exitMaster(Cycle cycle) {
    }
}
