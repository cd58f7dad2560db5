package jinx.http.internal.variables;

/**
 * What the core variables need from a request beyond {@link jinx.http.HttpRequest}'s fields: the data nginx's
 * {@code ngx_http_variables.c} reads from {@code r->connection}, the server conf, the clock and the request body.
 * The engine's request ({@code CoreRequest}) implements it; a variable whose request does not is "not found".
 *
 * <p>Every method runs on the request's loop thread and must be cheap: no system call.
 */
public interface RequestFacts {

    /**
     * Returns the client's address as text ({@code c->addr_text}): {@code 127.0.0.1}, {@code ::1}, or
     * {@code unix:} for a UNIX-domain socket.
     *
     * @return {@code $remote_addr}
     */
    String remoteAddr();

    /**
     * Returns the client's port, 0 for a UNIX-domain socket.
     *
     * @return {@code $remote_port}
     */
    int remotePort();

    /**
     * Returns the address that accepted the connection, as text ({@code 127.0.0.1}; for a wildcard listen, the
     * connection's real local address).
     *
     * @return {@code $server_addr}
     */
    String serverAddr();

    /**
     * Returns the port that accepted the connection.
     *
     * @return {@code $server_port}
     */
    int serverPort();

    /**
     * Returns the first {@code server_name} of the request's server ({@code cscf->server_name}), possibly empty.
     *
     * @return {@code $server_name}
     */
    String serverName();

    /**
     * Returns the loop's cached wall-clock time, in ms since the epoch ({@code ngx_timeofday()}): the time of
     * {@code $msec}, {@code $time_local}, {@code $time_iso8601} and the end of {@code $request_time} (which
     * starts at {@link jinx.http.HttpRequest#startMsec}).
     *
     * @return the time
     */
    long wallMillis();

    /**
     * Returns the bytes sent to the client for this request, status line and headers included
     * ({@code r->connection->sent}).
     *
     * @return {@code $bytes_sent}
     */
    long bytesSent();

    /**
     * Returns the bytes of the response body sent ({@code c->sent - r->header_size}, not below 0).
     *
     * @return {@code $body_bytes_sent}
     */
    long bodyBytesSent();

    /**
     * Returns the connection's number ({@code c->number}, the {@code *N} of the error log).
     *
     * @return {@code $connection}
     */
    long connectionNumber();

    /**
     * Returns the number of requests served on the connection so far, this one included.
     *
     * @return {@code $connection_requests}
     */
    int connectionRequests();

    /**
     * Returns the request body when it was read into memory, or null (no body read, or a body in a temporary
     * file).
     *
     * @return {@code $request_body}
     */
    String requestBody();

    /**
     * Returns the status an {@code error_page} redirection keeps for the log ({@code r->err_status}), or 0.
     *
     * @return the status
     */
    default int errStatus() {
        return 0;
    }

    /**
     * Returns the response rate limit in bytes per second, 0 for none ({@code r->limit_rate}).
     *
     * @return {@code $limit_rate}
     */
    default long limitRate() {
        return 0;
    }

    /**
     * Tells whether the connection is TLS.
     *
     * @return true for {@code $https} {@code on} and {@code $scheme} {@code https}
     */
    default boolean ssl() {
        return false;
    }

    /**
     * Tells whether the request was pipelined (read from the buffer of the previous one).
     *
     * @return true for {@code $pipe} {@code p}
     */
    default boolean pipelined() {
        return false;
    }

    /**
     * Returns the {@code keepalive_timeout}'s header time of the request's location, in seconds, 0 for none
     * ({@code clcf->keepalive_header}).
     *
     * @return the time, for {@code $sent_http_keep_alive}
     */
    default long keepaliveHeader() {
        return 0;
    }

    /**
     * Returns a capture of the last regex the request matched ({@code $1} ... {@code $9}; 0 is the whole match),
     * or null when there is no such capture.
     *
     * @param n the capture's number
     * @return the captured text, or null
     */
    default String capture(int n) {
        return null;
    }
}
