package jinx.http.spi;

/**
 * The phases a request goes through, in order: nginx's {@code ngx_http_phases}.
 */
public enum Phase {
    /** Right after the headers are read (realip). */
    POST_READ,
    /** The server's rewrite directives. */
    SERVER_REWRITE,
    /** The location is chosen (the core's own; modules cannot add handlers here). */
    FIND_CONFIG,
    /** The location's rewrite directives. */
    REWRITE,
    /** A rewritten URI goes back to FIND_CONFIG (the core's own). */
    POST_REWRITE,
    /** Before access checks (limit_req, limit_conn). */
    PREACCESS,
    /** Access checks (allow/deny, auth_basic). */
    ACCESS,
    /** The outcome of ACCESS under {@code satisfy} (the core's own). */
    POST_ACCESS,
    /** Before content (try_files, mirror). */
    PRECONTENT,
    /** The content handlers (static, index, proxy). */
    CONTENT,
    /** After the response (access_log). */
    LOG
}
