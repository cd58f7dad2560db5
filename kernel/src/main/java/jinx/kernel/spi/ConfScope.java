package jinx.kernel.spi;

import java.util.List;

import jinx.kernel.ConfException;

/**
 * What a block gives the directives inside it: nginx's {@code cf->ctx}, {@code cf->module_type} and
 * {@code cf->cmd_type}. The main context is one scope; {@code events {}} makes another; {@code http {}},
 * {@code server {}} and {@code location {}} make their own.
 */
public interface ConfScope {

    /**
     * Returns the context the block is, checked against each directive's {@link Directive#contexts()}.
     *
     * @return the context
     */
    Ctx ctx();

    /**
     * Returns the type of the modules whose directives stand in this block (modules of type {@code CONF} are
     * looked up everywhere).
     *
     * @return the module type
     */
    ModuleType moduleType();

    /**
     * Returns the conf object a directive of {@code module} sets in this block: the one of type {@code type}
     * among those the block holds for the module (an http location holds a main, a server and a location conf
     * of each module).
     *
     * @param module the directive's module
     * @param type the directive's {@link Directive#confType()}
     * @return the conf object, or null when the block holds none of that type
     */
    Object conf(JinxModule module, Class<?> type);

    /**
     * Returns a handler that takes every line of the block instead of the directive dispatcher (nginx's
     * {@code cf->handler}, used by blocks of data such as {@code types {}} or {@code map {}}), or null.
     *
     * @return the line handler, or null to dispatch directives
     */
    default LineHandler lineHandler() {
        return null;
    }

    /**
     * Takes the lines of a block of data.
     */
    @FunctionalInterface
    interface LineHandler {

        /**
         * Takes one line ({@code text/html html htm;}).
         *
         * @param cf the parser's state
         * @param words the line's words, the first included
         * @throws ConfException with nginx's text, without a place
         */
        void line(ConfContext cf, List<String> words) throws ConfException;
    }
}
