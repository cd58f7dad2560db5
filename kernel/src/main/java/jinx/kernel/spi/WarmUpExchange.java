package jinx.kernel.spi;

/**
 * One request of a worker's warm-up and how to tell where its response ends: what a module offers through
 * {@link JinxModule#warmUp} so that a worker a reload started runs its protocol's hot code before it takes a
 * client, instead of serving its first seconds from the interpreter while the compiler catches up.
 *
 * <p>The kernel sends {@link #request()} on a connection it made for the purpose (a socket pair, accepted on the
 * listening socket as a client's would be, marked {@link jinx.kernel.Connection#warmUp}) and reads until
 * {@link #responseLength} finds the whole response, then sends the next request on the same connection. A
 * request must be safe to repeat thousands of times: no side effect beyond what a module skips for a warm-up
 * connection.
 */
public interface WarmUpExchange {

    /**
     * Returns the request's bytes, sent whole.
     *
     * @return the bytes; the same array may be returned every time
     */
    byte[] request();

    /**
     * Finds the end of the response that starts at {@code buf[0]}.
     *
     * @param buf the bytes received so far
     * @param len how many
     * @return the response's length once {@code buf} holds all of it, -1 while it does not, or
     *     {@link Integer#MAX_VALUE} for a response that ends when the server closes the connection
     */
    int responseLength(byte[] buf, int len);
}
