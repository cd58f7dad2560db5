package jinx.kernel;

import java.nio.ByteBuffer;

/**
 * How a connection reads and writes: nginx's per-connection function pointers {@code c->recv}, {@code c->send} and
 * {@code c->send_chain} (src/core/ngx_connection.h), which let one protocol engine run over a socket
 * ({@link SocketIo}, nginx's {@code ngx_io}) or over something else — an {@link MemoryConnection in-memory
 * connection} for the socketless request path, as nginx's HTTP/2 streams run over {@code ngx_http_v2_send_chain}.
 * A connection's {@link Connection#io()} is the loop's {@link SocketIo} unless another was set.
 *
 * <p>Every implementation keeps the event flags as {@link SocketIo} does, since protocol code reads them after each
 * call: a read that drained the input clears {@code read.ready}, end of file sets {@code read.eof}, would-block
 * clears {@code ready}, a failure sets {@code error}, is logged (nginx's {@code ngx_connection_error()}) and
 * answers {@link Rc#ERROR} or {@link #CHAIN_ERROR}; a call moves the buffer's position (or a file buffer's
 * {@code filePos}) by what it read or wrote and counts what it wrote in {@link Connection#sent}. Memory buffers
 * are direct, as sockets need them.
 *
 * <p>Thread contract: the loop's thread only.
 */
public interface ConnectionIo {

    /** The error marker {@link #sendChain} returns: nginx's {@code NGX_CHAIN_ERROR}. Never send or change it. */
    BufChain CHAIN_ERROR = new BufChain(null, null);

    /**
     * Reads into {@code buf}'s remaining space: nginx's {@code c->recv}.
     *
     * @param c the connection
     * @param buf a buffer with room; its position moves by what came
     * @return bytes read, 0 at end of file ({@code read.eof} set), {@link Rc#AGAIN} ({@code read.ready}
     *     cleared), {@link Rc#ERROR} ({@code read.error} set, logged)
     */
    int recv(Connection c, ByteBuffer buf);

    /**
     * Writes {@code buf}'s remaining bytes: nginx's {@code c->send}.
     *
     * @param c the connection
     * @param buf a direct buffer; its position moves by what went
     * @return bytes written ({@code write.ready} cleared when fewer than offered), {@link Rc#AGAIN}
     *     ({@code write.ready} cleared), {@link Rc#ERROR} ({@code write.error} set, logged)
     */
    int send(Connection c, ByteBuffer buf);

    /**
     * Sends a chain of memory and file buffers: nginx's {@code c->send_chain}. Sent buffers are consumed; buffers
     * with flags only are skipped.
     *
     * @param c the connection
     * @param in the chain
     * @param limit bytes to send at most, 0 for no limit
     * @return the first link not fully sent, null when everything was sent, or {@link #CHAIN_ERROR} (logged);
     *     {@code write.ready} is cleared when the peer took less than offered
     */
    BufChain sendChain(Connection c, BufChain in, long limit);

    /**
     * Ends the connection's output while it still reads: nginx's
     * {@code ngx_shutdown_socket(c->fd, NGX_WRITE_SHUTDOWN)}, as lingering close does. The peer reads the end of
     * the stream once it has read everything sent before.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged)
     */
    int shutdownWrite(Connection c);

    /**
     * Frees what this I/O holds for the connection, which is closing: nginx's {@code ngx_ssl_shutdown()} before
     * {@code ngx_close_connection()}. The loop calls it for the I/O set on the slot ({@link Connection#io(ConnectionIo)})
     * while the descriptor is still open, whoever closes the connection. Added in SPI 1.4.
     *
     * @param c the connection
     */
    default void release(Connection c) {
    }
}
