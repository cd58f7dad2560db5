package jinx.stream.spi;

import jinx.stream.StreamSession;

/**
 * How a stream variable gets its value: nginx's {@code ngx_stream_get_variable_pt}.
 */
@FunctionalInterface
public interface StreamVariable {

    /**
     * Returns the variable's value for a session.
     *
     * @param s the session
     * @return the value, or null for "not found" (an empty string in a log line, {@code -} in nginx's
     *     log module)
     */
    String get(StreamSession s);
}
