/**
 * The stream module's API: a client's session ({@link jinx.stream.StreamSession}, nginx's
 * {@code ngx_stream_session_t}) and the phases it runs through ({@link jinx.stream.StreamPhase}).
 *
 * <p>Follows nginx's src/stream/ngx_stream.h and ngx_stream_handler.c.
 */
package jinx.stream;
