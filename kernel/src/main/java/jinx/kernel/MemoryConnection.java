package jinx.kernel;

import java.nio.ByteBuffer;
import java.util.Arrays;

import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;

/**
 * A connection that is no socket: a slot of the loop lent with {@link Connection#NO_DESCRIPTOR}, whose
 * {@link ConnectionIo} reads from an input queue the client (a test) fills and writes into an output buffer the
 * client takes from, in the spirit of Netty's {@code EmbeddedChannel} and Jetty's {@code LocalConnector}. A
 * protocol runs over it unchanged, through its reader, phases, filters and {@link Connection#io()}, and no
 * descriptor is opened: the socketless request path, for protocol tests and the module test kit.
 *
 * <p>Readiness is posted, not polled: the event method never sees the connection ({@link EventLoop} registers
 * nothing for it and closes no descriptor), both its events count as registered edge-triggered from the start, as
 * {@code ngx_epoll_add_connection()} registers an accepted socket, and whenever the client writes or shuts its
 * side the read event is made ready and posted to the loop's next turn ({@link EventLoop#postNext}), which then
 * does not sleep. The output has no bound, so the write event is always ready and a send takes everything:
 * partial writes and {@code send_timeout} need a real socket. File buffers are read from their descriptor into
 * the output, as {@code sendfile()} would send them.
 *
 * <p>The ends: {@link #write} and {@link #shutdownOutput()} are the client's sending side (the server reads the
 * bytes, then the end of the stream, {@code rev->pending_eof} set as with {@code EPOLLRDHUP}); {@link #read()} takes
 * what the server sent; {@link #eof()} tells that the server ended its output ({@link #shutdownWrite} — lingering
 * close — or closing the connection) and all of it was read; {@link #closed()} that the server closed the
 * connection, which frees the slot and closes no descriptor; {@link #close()} is the client going away.
 *
 * <p>Thread contract: the loop's thread only (a test usually drives the loop itself); another thread goes through
 * {@link EventLoop#notify(Runnable)}.
 */
public final class MemoryConnection implements ConnectionIo {

    private static final int INITIAL = 4096;
    private static final int FILE_CHUNK = 64 * 1024;

    private final EventLoop loop;
    private final Connection c;

    /* the client's bytes the server has not read: in[inStart, inEnd) */
    private byte[] in = new byte[INITIAL];
    private int inStart;
    private int inEnd;
    /* the client shut its sending side (or went away): the server reads the end of the stream after the bytes */
    private boolean inEof;

    /* what the server sent that the client has not taken: out[0, outEnd) */
    private byte[] out = new byte[INITIAL];
    private int outEnd;
    /* the server shut its writing side */
    private boolean outShut;
    /* the client went away: the server's writes fail with EPIPE */
    private boolean gone;

    /* where file buffers are read before they are appended to the output, made on first use */
    private ByteBuffer fileScratch;

    private MemoryConnection(EventLoop loop, Connection c) {
        this.loop = loop;
        this.c = c;
    }

    /**
     * Lends a slot of {@code loop} to a new in-memory connection, registered and writable, with no handler yet.
     *
     * @param loop the loop, called on its thread
     * @param log the connection's log, or null for the loop's
     * @return the connection, or null when no slot is free (logged: {@code N worker_connections are not enough})
     */
    public static MemoryConnection open(EventLoop loop, ErrorLog log) {
        Connection c = loop.getConnection(Connection.NO_DESCRIPTOR, log != null ? log : loop.log());
        if (c == null) {
            return null;
        }
        MemoryConnection mc = new MemoryConnection(loop, c);
        c.io(mc);
        // registered for both directions from the start, edge-triggered: this class posts what an event method
        // would report
        c.read.active = true;
        c.write.active = true;
        // the output has no bound: always writable (nginx's ngx_event_accept() sets wev->ready for a new socket)
        c.write.ready = true;
        return mc;
    }

    /**
     * Opens an in-memory connection and hands it to {@code ls}'s handler as if it had been accepted there
     * (nginx's {@code ngx_event_accept()} without a socket): its listening socket, number and address are set
     * first. The listening socket's descriptor need not be open.
     *
     * @param loop the loop, called on its thread
     * @param ls the listening socket whose protocol serves the connection
     * @param addrText the client's address as the log prints it ({@code unix:}, {@code 127.0.0.1:50000})
     * @return the connection, or null when no slot is free (logged)
     */
    public static MemoryConnection accept(EventLoop loop, Listening ls, String addrText) {
        MemoryConnection mc = open(loop, ls.log);
        if (mc == null) {
            return null;
        }
        Connection c = mc.c;
        c.listening = ls;
        c.number = loop.nextConnectionNumber();
        c.addrText(addrText);
        if (c.log.isEnabled(LogLevel.DEBUG)) {
            c.log.log(LogLevel.DEBUG, c.number, "accept: " + addrText + " in memory");
        }
        ls.handler.accept(c);
        return mc;
    }

    /**
     * Returns the server's end: the connection the protocol serves. Once {@link #closed()} the slot may serve
     * another connection.
     *
     * @return the connection
     */
    public Connection connection() {
        return c;
    }

    /* ---- the client's side ---- */

    /**
     * The client sends: the bytes are queued for the server, the read event made ready and posted.
     *
     * @param bytes the bytes
     * @throws NativeIoException {@code send() failed (32: Broken pipe)} once the client shut its side or the
     *     server closed the connection
     */
    public void write(byte[] bytes) throws NativeIoException {
        write(bytes, 0, bytes.length);
    }

    /**
     * The client sends part of an array.
     *
     * @param bytes the array
     * @param off where the bytes start
     * @param len how many
     * @throws NativeIoException {@code send() failed (32: Broken pipe)} once the client shut its side or the
     *     server closed the connection
     */
    public void write(byte[] bytes, int off, int len) throws NativeIoException {
        if (inEof || closed()) {
            throw brokenPipe("send()");
        }
        if (in.length - inEnd < len) {
            makeRoom(len);
        }
        System.arraycopy(bytes, off, in, inEnd, len);
        inEnd += len;
        readable();
    }

    /**
     * The client shuts its sending side: the server reads the end of the stream once it has read the rest.
     * Idempotent.
     */
    public void shutdownOutput() {
        if (inEof) {
            return;
        }
        inEof = true;
        if (!closed()) {
            c.read.pendingEof = true;
            readable();
        }
    }

    /**
     * Takes what the server sent since the last call.
     *
     * @return the bytes, possibly none
     */
    public byte[] read() {
        byte[] bytes = Arrays.copyOf(out, outEnd);
        outEnd = 0;
        return bytes;
    }

    /**
     * Takes what the server sent into {@code dst}, as much as it has room for, without allocating.
     *
     * @param dst where the bytes go; its position moves by what was taken
     * @return how many bytes were taken
     */
    public int read(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), outEnd);
        dst.put(out, 0, n);
        System.arraycopy(out, n, out, 0, outEnd - n);
        outEnd -= n;
        return n;
    }

    /**
     * Returns how many bytes the server sent that the client has not read.
     *
     * @return the count
     */
    public int available() {
        return outEnd;
    }

    /**
     * Returns how many of the client's bytes the server has not read yet.
     *
     * @return the count
     */
    public int unread() {
        return inEnd - inStart;
    }

    /**
     * Tells whether the client reads the end of the stream: the server shut its writing side or closed the
     * connection, and everything it sent was read.
     *
     * @return true at the end of the server's output
     */
    public boolean eof() {
        return outEnd == 0 && (outShut || closed());
    }

    /**
     * Tells whether the server closed the connection: its slot is free, or serves another connection now.
     *
     * @return true once closed
     */
    public boolean closed() {
        return c.fd == -1 || !c.ownedBy(this);
    }

    /**
     * The client goes away: the server reads the end of the stream, its writes fail with {@code EPIPE}, and what
     * it sent and the client did not read is dropped. The server closes the connection when it learns of it, as
     * it closes a socket. Idempotent.
     */
    public void close() {
        if (gone) {
            return;
        }
        gone = true;
        outEnd = 0;
        shutdownOutput();
    }

    /** The read event as an edge-triggered method reports new data: ready, and posted if anyone listens. */
    private void readable() {
        Event rev = c.read;
        rev.ready = true;
        rev.available = inEnd - inStart;
        if (rev.active && rev.handler != null) {
            loop.postNext(rev);
        }
    }

    private void makeRoom(int len) {
        int unread = inEnd - inStart;
        if (in.length - unread >= len && inStart > 0) {
            System.arraycopy(in, inStart, in, 0, unread);
        } else {
            byte[] bigger = new byte[Math.max(in.length * 2, unread + len)];
            System.arraycopy(in, inStart, bigger, 0, unread);
            in = bigger;
        }
        inStart = 0;
        inEnd = unread;
    }

    /* ---- the server's side: ConnectionIo ---- */

    /**
     * Reads what the client sent. The read event stays ready while bytes or the client's end of stream remain.
     */
    @Override
    public int recv(Connection conn, ByteBuffer buf) {
        Event rev = conn.read;
        if (inStart < inEnd) {
            int n = Math.min(buf.remaining(), inEnd - inStart);
            buf.put(in, inStart, n);
            inStart += n;
            if (inStart == inEnd) {
                inStart = 0;
                inEnd = 0;
                if (!inEof) {
                    rev.ready = false;
                }
            }
            rev.available = inEnd - inStart;
            return n;
        }
        rev.ready = false;
        if (inEof) {
            rev.eof = true;
            return 0;
        }
        return Rc.AGAIN;
    }

    /** Appends everything to the output: never partial. */
    @Override
    public int send(Connection conn, ByteBuffer buf) {
        if (outShut || gone) {
            conn.write.error = true;
            return SocketIo.connectionError(conn, brokenPipe("send()"));
        }
        int size = buf.remaining();
        append(buf, size);
        buf.position(buf.position() + size);
        conn.sent += size;
        return size;
    }

    /**
     * Appends the chain to the output, up to {@code limit}: memory buffers as they are, file buffers read from
     * their descriptor. Buffers are refused as {@link SocketIo#sendChain} refuses them (heap memory, a file part of
     * size 0), so a test sees what a socket would do.
     */
    @Override
    public BufChain sendChain(Connection conn, BufChain in, long limit) {
        Event wev = conn.write;
        if (!wev.ready) {
            return in;
        }
        if (outShut || gone) {
            wev.error = true;
            SocketIo.connectionError(conn, brokenPipe("writev()"));
            return CHAIN_ERROR;
        }
        if (limit <= 0 || limit > SocketIo.MAX_LIMIT) {
            limit = SocketIo.MAX_LIMIT;
        }
        long sent = 0;
        for (BufChain cl = in; cl != null && sent < limit; cl = cl.next) {
            Buf b = cl.buf;
            if (b.isSpecial()) {
                continue;
            }
            if (b.inFile) {
                long size = Math.min(b.fileLast - b.filePos, limit - sent);
                if (size <= 0) {
                    log(conn, LogLevel.ALERT, "zero size file buf in output chain \"" + b.fileName + "\"");
                    return CHAIN_ERROR;
                }
                if (appendFile(conn, b, size) != Rc.OK) {
                    return CHAIN_ERROR;
                }
                sent += size;
                continue;
            }
            if (b.mem == null || !b.mem.isDirect()) {
                log(conn, LogLevel.ALERT, "bad buf in output chain t:" + (b.temporary ? 1 : 0) + " f:0 "
                    + (b.mem == null ? "no memory" : "heap memory") + " " + b.filePos + "-" + b.fileLast);
                return CHAIN_ERROR;
            }
            int size = (int) Math.min(b.mem.remaining(), limit - sent);
            append(b.mem, size);
            sent += size;
        }
        conn.sent += sent;
        return SocketIo.updateSent(in, sent);
    }

    /** Ends the server's output: the client reads the end of the stream after what was sent. */
    @Override
    public int shutdownWrite(Connection conn) {
        outShut = true;
        return Rc.OK;
    }

    /** Appends {@code size} bytes from {@code src}'s position, which does not move. */
    private void append(ByteBuffer src, int size) {
        ensureOut(size);
        src.get(src.position(), out, outEnd, size);
        outEnd += size;
    }

    /** Appends {@code size} bytes of a file buffer from its {@code filePos}, which does not move. */
    private int appendFile(Connection conn, Buf b, long size) {
        if (fileScratch == null) {
            fileScratch = ByteBuffer.allocateDirect(FILE_CHUNK);
        }
        long address = NativeMemory.address(fileScratch);
        long pos = b.filePos;
        for (long left = size; left > 0;) {
            int len = (int) Math.min(left, FILE_CHUNK);
            int n;
            try {
                n = Syscalls.pread(b.fileFd, address, len, pos);
            } catch (NativeIoException e) {
                conn.write.error = true;
                return SocketIo.connectionError(conn, e);
            }
            if (n <= 0) {
                // someone has truncated the file (nginx), as sendfile() would report it
                log(conn, LogLevel.ALERT, "sendfile() reported that \"" + b.fileName + "\" was truncated at " + pos);
                return Rc.ERROR;
            }
            ensureOut(n);
            fileScratch.get(0, out, outEnd, n);
            outEnd += n;
            pos += n;
            left -= n;
        }
        return Rc.OK;
    }

    private void ensureOut(long size) {
        if (out.length - outEnd >= size) {
            return;
        }
        long need = outEnd + size;
        if (need > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than 2 GB unread in memory");
        }
        out = Arrays.copyOf(out, (int) Math.max(need, Math.min((long) out.length * 2, Integer.MAX_VALUE - 8)));
    }

    private static NativeIoException brokenPipe(String call) {
        return new NativeIoException(call, Errors.EPIPE, Errors.text(Errors.EPIPE));
    }

    private static void log(Connection conn, LogLevel level, String message) {
        ErrorLog l = conn.log;
        if (l == null || !l.isEnabled(level)) {
            return;
        }
        if (conn.data instanceof SocketIo.LogContext ctx) {
            StringBuilder sb = new StringBuilder(message.length() + 128).append(message);
            ctx.appendLogContext(sb);
            message = sb.toString();
        }
        l.log(level, conn.number, message);
    }
}
