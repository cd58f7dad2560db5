package jinx.contrib.echo;

import java.util.List;

import jinx.http.spi.ComplexValue;

/**
 * One echo directive of a location, compiled: the handler runs a location's commands in the order written.
 *
 * @param kind what it does
 * @param args its arguments (options taken off), compiled
 * @param newline for {@code echo}: whether a newline ends the output ({@code -n} turns it off)
 */
record EchoCommand(Kind kind, List<ComplexValue> args, boolean newline) {

    /** The directives. */
    enum Kind {
        /** {@code echo [-n] [--] text...}: the words joined by spaces, then a newline. */
        ECHO,
        /** {@code echo_duplicate count text}: the text count times, no newline. */
        DUPLICATE,
        /** {@code echo_flush}: sends what is buffered now. */
        FLUSH,
        /** {@code echo_sleep seconds}: waits on a timer, the loop free meanwhile. */
        SLEEP,
        /** {@code echo_exec uri|@name [args]}: an internal redirect. */
        EXEC
    }
}
