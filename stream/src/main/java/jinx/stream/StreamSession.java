package jinx.stream;

import jinx.kernel.Connection;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.JinxModule;

/**
 * A client's session on a stream server: nginx's {@code ngx_stream_session_t}. It lives from the accept to the
 * close of the client's connection, on the loop thread only.
 */
public interface StreamSession {

    /** nginx's {@code NGX_STREAM_OK}. */
    int STATUS_OK = 200;
    /** nginx's {@code NGX_STREAM_BAD_REQUEST}. */
    int STATUS_BAD_REQUEST = 400;
    /** nginx's {@code NGX_STREAM_FORBIDDEN}. */
    int STATUS_FORBIDDEN = 403;
    /** nginx's {@code NGX_STREAM_INTERNAL_SERVER_ERROR}. */
    int STATUS_INTERNAL_SERVER_ERROR = 500;
    /** nginx's {@code NGX_STREAM_BAD_GATEWAY}. */
    int STATUS_BAD_GATEWAY = 502;
    /** nginx's {@code NGX_STREAM_SERVICE_UNAVAILABLE}. */
    int STATUS_SERVICE_UNAVAILABLE = 503;

    /**
     * Returns the client's connection.
     *
     * @return the connection
     */
    Connection connection();

    /**
     * Returns the client's address as text, without the port ({@code $remote_addr}).
     *
     * @return the address
     */
    String remoteAddr();

    /**
     * Returns the bytes received from the client ({@code $bytes_received}).
     *
     * @return the count
     */
    long received();

    /**
     * Counts bytes received from the client.
     *
     * @param n the bytes
     */
    void addReceived(long n);

    /**
     * Returns the value of a variable ({@code remote_addr}, {@code upstream_addr}, a {@code set} one ...).
     *
     * @param name the name without {@code $}
     * @return the value, or null when the variable is unknown or has no value
     */
    String variable(String name);

    /**
     * Sets what the log says the session is doing ({@code ... while proxying connection}), or null.
     *
     * @param action the action
     */
    void logAction(String action);

    /**
     * Logs a line about the session with nginx's context ({@code while ..., client: ..., server: ...}).
     *
     * @param level the level
     * @param err an errno to print as {@code (111: Connection refused)}, or 0
     * @param message the message
     */
    void log(LogLevel level, int err, String message);

    /**
     * Ends the session with a status: the log phase runs and the connection is closed (nginx's
     * {@code ngx_stream_finalize_session()}).
     *
     * @param status the status ({@link #STATUS_OK} ...)
     */
    void finalizeSession(int status);

    /**
     * Returns whether the {@code listen} this session came through named a parameter a module registered with
     * {@link jinx.stream.spi.StreamConfig#addListenParameter} (nginx's {@code s->ssl} for {@code listen ... ssl}).
     * Added in SPI 1.6.
     *
     * @param name the parameter ({@code ssl})
     * @return whether it was named
     */
    boolean listenParameter(String name);

    /**
     * Returns a module's conf of the session's server (nginx's {@code ngx_stream_get_module_srv_conf()}).
     * Added in SPI 1.6.
     *
     * @param module the module, as the kernel instantiated it for this configuration
     * @param type the conf's class
     * @param <T> the conf's class
     * @return the conf
     */
    <T> T srvConf(JinxModule module, Class<T> type);

    /**
     * Runs the phases again from the handler that answered {@code Rc.AGAIN} (nginx's
     * {@code ngx_stream_core_run_phases()}), for a handler that waited on something of its own, e.g. the TLS
     * handshake. Added in SPI 1.6.
     */
    void runPhases();
}
