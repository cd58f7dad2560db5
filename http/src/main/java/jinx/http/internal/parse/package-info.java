/**
 * The HTTP parsers: nginx's {@code src/http/ngx_http_parse.c} (request line, header lines, URIs, status lines,
 * chunked bodies, arguments and cookies) and {@code src/core/ngx_parse_time.c} (HTTP dates), ported state for
 * state.
 *
 * <p>Each parser reads bytes straight out of a {@link java.nio.ByteBuffer} between its position and its limit,
 * as nginx's parsers read between {@code b->pos} and {@code b->last}. Where nginx keeps pointers into the buffer
 * ({@code r->uri_start}, {@code r->header_name_start} ...), {@link jinx.http.internal.parse.HttpParseState} keeps
 * {@code int} positions into the same buffer, with {@link jinx.http.internal.parse.HttpParseState#NONE} for
 * {@code NULL}. A parser that runs out of bytes mid-line saves its state and answers
 * {@link jinx.kernel.Rc#AGAIN}; the caller reads more into the same buffer (or moves the line to a larger one and
 * shifts the positions, nginx's {@code ngx_http_alloc_large_header_buffer()}) and calls again.
 *
 * <p>One departure, for speed and not behaviour: before the request-line and header-line state machines, a
 * one-pass reader takes the plain line almost every client sends ({@code PlainRequestLine},
 * {@code PlainHeaderLine}) and leaves every other line, untouched, to the state machine; the two are compared byte
 * for byte by their tests.
 *
 * <p>The parsers allocate nothing while they scan; strings are made, one byte to one {@code char}
 * (ISO-8859-1), only for a piece that is complete. Their source is nginx's current one; where it differs from
 * older releases (such as Debian's 1.22), the class comments say so.
 */
package jinx.http.internal.parse;
