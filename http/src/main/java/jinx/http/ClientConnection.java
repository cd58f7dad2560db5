package jinx.http;

import jinx.http.spi.HttpConfKey;
import jinx.kernel.Connection;
import jinx.kernel.LogLevel;

/**
 * An HTTP client connection as a module that takes it over before its first request sees it
 * ({@link jinx.http.spi.ConnectionTakeover}): nginx's {@code ngx_http_connection_t} as {@code ngx_http_ssl_module}
 * uses it — the server configuration of the address (switched by the TLS server name), the log's context, and the
 * way back to reading requests. Added in SPI 1.4.
 *
 * <p>Thread contract: the connection's loop thread only.
 */
public interface ClientConnection {

    /**
     * Returns the HTTP view of a connection HTTP accepted.
     *
     * @param c the connection
     * @return its view, or null when HTTP does not serve it
     */
    static ClientConnection of(Connection c) {
        return c.data instanceof ClientConnection cc ? cc : null;
    }

    /**
     * Returns the kernel connection.
     *
     * @return the connection
     */
    Connection connection();

    /**
     * Returns a module's conf of the connection's server: the default server of the address until
     * {@link #selectServer} chose another.
     *
     * @param key the module's key
     * @param <T> the conf's class
     * @return the server's conf object
     */
    <T> T srvConf(HttpConfKey<T> key);

    /**
     * Chooses the connection's server by a name, as nginx does with the TLS server name
     * ({@code ngx_http_ssl_servername()}: {@code ngx_http_validate_host()}, then
     * {@code ngx_http_find_virtual_server()} among the address's servers): a name no server has chooses the
     * address's default server; an invalid one changes nothing. Requests still choose their server by their
     * {@code Host}.
     *
     * @param name the name, as the client sent it
     * @return true when the name was valid and a server chosen
     */
    boolean selectServer(String name);

    /**
     * Returns the server's {@code client_header_timeout}, which bounds a handshake as it bounds reading a header.
     *
     * @return the timeout in ms
     */
    long clientHeaderTimeout();

    /**
     * Sets what the connection is doing, for its log lines: nginx's {@code c->log->action}
     * ({@code SSL handshaking}).
     *
     * @param action the action, or null
     */
    void action(String action);

    /**
     * Logs a line with HTTP's context ({@code while ACTION, client: ADDR, server: ADDR}) and an errno's text.
     *
     * @param level the level
     * @param errno the error number, 0 for none
     * @param message the message
     */
    void log(LogLevel level, int errno, String message);

    /**
     * Hands the connection back to HTTP, which reads its requests through the connection's
     * {@link Connection#io() I/O} (nginx's {@code ngx_http_wait_request_handler()}); the read event's
     * {@code client_header_timeout} timer, if set, keeps running.
     *
     * @param secure true when the module secured the connection ({@code $https} is {@code on}, {@code $scheme}
     *     {@code https}); false for a client that did not speak its protocol, whose requests get 497
     */
    void readRequest(boolean secure);

    /**
     * Closes the connection: nginx's {@code ngx_http_close_connection()}.
     */
    void close();

    /**
     * Evaluates a value with variables for the connection before it has a request, in its server as chosen so far:
     * nginx's {@code ngx_http_alloc_request()} in {@code ngx_http_ssl_certificate()}, which names the certificate by
     * {@code $ssl_server_name} during the handshake. Added in SPI 1.6.
     *
     * @param value the compiled value
     * @return its text; a variable not found counts as empty
     */
    String evaluate(jinx.http.spi.ComplexValue value);
}
