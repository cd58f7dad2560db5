package jinx.kernel.spi;

import jinx.kernel.ConfException;

/**
 * What a directive does with its arguments: nginx's {@code cmd->set}. The dispatcher has already checked the
 * context, the arity and duplicates; the handler checks values and stores them in the conf object.
 *
 * @param <C> the type of the conf object the directive sets
 */
@FunctionalInterface
public interface DirectiveHandler<C> {

    /**
     * Applies the directive.
     *
     * @param cf the parser's state: the arguments, the cycle, where we are
     * @param conf the conf object of the directive's module for the current context, or null for a directive
     *     declared without a conf type
     * @throws ConfException with nginx's text, without a place; the parser adds the file and line
     */
    void set(ConfContext cf, C conf) throws ConfException;
}
