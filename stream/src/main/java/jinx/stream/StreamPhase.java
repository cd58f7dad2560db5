package jinx.stream;

/**
 * The phases a stream session runs through, in nginx's order ({@code ngx_stream_phases}): a handler of a phase
 * answers {@code Rc.OK} (on to the next phase), {@code Rc.DECLINED} (on to the next handler of the phase),
 * {@code Rc.AGAIN} or {@code Rc.DONE} (it resumes the session itself), {@code Rc.ERROR} (status 500) or a status
 * ({@link StreamSession#STATUS_FORBIDDEN} ...), which ends the session.
 */
public enum StreamPhase {
    /** After the accept: {@code realip}. */
    POST_ACCEPT,
    /** Before access: {@code limit_conn}. */
    PREACCESS,
    /** {@code allow}/{@code deny}. */
    ACCESS,
    /** The TLS handshake (a hook until the TLS module exists). */
    SSL,
    /** Reading the client's first bytes into the preread buffer while a handler wants more. */
    PREREAD,
    /** The server's content handler: {@code proxy_pass}, {@code return}. */
    CONTENT,
    /** When the session ends: the access log. */
    LOG
}
