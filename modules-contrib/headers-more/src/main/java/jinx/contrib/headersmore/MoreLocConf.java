package jinx.contrib.headersmore;

import java.util.List;

/**
 * The commands of a context: inherited from the enclosing context when this one has none (as nginx's
 * {@code add_header}), otherwise only its own.
 */
final class MoreLocConf {

    /** The commands in order; null until merged when the context has none. */
    List<MoreCommand> commands;
}
