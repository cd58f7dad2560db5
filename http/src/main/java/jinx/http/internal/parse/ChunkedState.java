package jinx.http.internal.parse;

/**
 * A chunked body being parsed: nginx's {@code ngx_http_chunked_t}, kept across buffers by
 * {@link HttpParser#parseChunked}.
 */
public final class ChunkedState {

    /** The parser's state between calls; 0 at the start of a chunk. */
    public int state;
    /**
     * The bytes of chunk data left: after {@link jinx.kernel.Rc#OK}, the caller takes up to this many bytes from
     * the buffer's position, advances the position past them and subtracts them here, as nginx's request body
     * filter does.
     */
    public long size;
    /**
     * The fewest bytes still to come before the body can end (the chunk left, its CRLF and a last chunk), nginx's
     * {@code ctx->length}: the request body code reads at most this much ahead.
     */
    public long length;

    /**
     * Returns to the start of a chunked body.
     */
    public void reset() {
        state = 0;
        size = 0;
        length = 0;
    }
}
