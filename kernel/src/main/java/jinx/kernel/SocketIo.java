package jinx.kernel;

import java.nio.ByteBuffer;

import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * A connection's socket I/O, one object per loop, the {@link ConnectionIo} of every connection that has not another
 * one: nginx's {@code ngx_unix_recv()} ({@code ngx_recv.c}),
 * {@code ngx_unix_send()} ({@code ngx_send.c}), {@code ngx_writev()} and {@code ngx_output_chain_to_iovec()}
 * ({@code ngx_writev_chain.c}) and {@code ngx_linux_sendfile_chain()} ({@code ngx_linux_sendfile_chain.c}). It
 * owns the native scratch those calls need — an array of {@link #IOV_MAX} {@code struct iovec} and an
 * {@code off_t} — allocated once and freed by {@link #close()}, so a call allocates nothing, on the heap or off
 * it.
 *
 * <p>The calls keep the connection's event flags as nginx does: a short read clears {@code read.ready} (unless
 * the method is greedy), end of file sets {@code read.eof}, would-block clears {@code ready}, a failure sets
 * {@code error}, logs it at nginx's level ({@link #connectionError}) and answers {@link Rc#ERROR} (or
 * {@link #CHAIN_ERROR}). Buffers are direct: the bytes between position and limit; a call moves the position by
 * what it read or wrote.
 *
 * <p>{@code tcp_nopush} (TCP_CORK before a header that precedes a file) is left to the caller, which keeps the
 * state nginx keeps in {@code c->tcp_nopush} ({@link Connection} has no such field): HTTP's write filter corks with
 * {@link #tcpNopush} before such a chain and the engine uncorks with {@link #tcpPush} at keep-alive. Error lines
 * carry the protocol's context when the connection's {@link Connection#data} is a {@link LogContext}.
 *
 * <p>Thread contract: the loop's thread only.
 */
public final class SocketIo implements ConnectionIo, AutoCloseable {

    /** The error marker {@link #sendChain} returns: {@link ConnectionIo#CHAIN_ERROR}. */
    public static final BufChain CHAIN_ERROR = ConnectionIo.CHAIN_ERROR;

    /** How many {@code struct iovec} one {@code writev} takes at most (Linux's {@code IOV_MAX}). */
    public static final int IOV_MAX = 1024;

    /*
     * On Linux up to 2.6.16 sendfile() does not allow to pass the count parameter more than 2G-1 bytes even on
     * 64-bit platforms (nginx's NGX_SENDFILE_MAXSIZE); a chain call sends at most that less a page.
     */
    static final long SENDFILE_MAXSIZE = 2147483647L;
    static final long PAGE_SIZE = 4096;
    static final long MAX_LIMIT = SENDFILE_MAXSIZE - PAGE_SIZE;

    private static final int SIZEOF_IOVEC = Platform.SIZEOF_IOVEC;
    private static final int IOV_BASE = Platform.OFFSETOF_IOV_BASE;
    private static final int IOV_LEN = Platform.OFFSETOF_IOV_LEN;
    private static final int SIZEOF_OFF_T = Platform.SIZEOF_OFF_T;

    private final NativeMemory memory = new NativeMemory();
    private final long iovs;
    private final long offset;
    private final long optval;
    private final boolean epollRdhup;
    private final boolean greedy;

    /* what the last toIovec() gathered: nginx's ngx_iovec_t count and size */
    private int iovCount;
    private long iovSize;

    /**
     * Socket I/O for a loop whose event method has {@code methodFlags}.
     *
     * @param methodFlags {@link EventActions#flags()}: {@link EventActions#USE_EPOLL_EVENT} turns on the
     *     EPOLLRDHUP rule of {@link #recv}, {@link EventActions#USE_GREEDY_EVENT} keeps {@code ready} after a
     *     short read otherwise
     */
    public SocketIo(int methodFlags) {
        this.epollRdhup = (methodFlags & EventActions.USE_EPOLL_EVENT) != 0;
        this.greedy = (methodFlags & EventActions.USE_GREEDY_EVENT) != 0;
        this.iovs = memory.allocate((long) IOV_MAX * SIZEOF_IOVEC);
        // a file's offset and, for sendvFile, its count (two off_t), then setsockopt's value
        long scratch = memory.allocate(2L * SIZEOF_OFF_T + 8);
        this.offset = scratch;
        this.optval = scratch + 2L * SIZEOF_OFF_T;
    }

    /**
     * Socket I/O for {@code loop}'s event method.
     *
     * @param loop the loop
     */
    public SocketIo(EventLoop loop) {
        this(loop.methodFlags());
    }

    /**
     * Returns the loop's socket I/O, made on first use; the loop frees it when it is done.
     *
     * @param loop the loop
     * @return its socket I/O
     */
    public static SocketIo of(EventLoop loop) {
        return loop.socketIo();
    }

    /**
     * Frees the loop's socket I/O now, if it made one (the loop's {@code done()} does it otherwise).
     *
     * @param loop the loop
     */
    public static void release(EventLoop loop) {
        loop.releaseSocketIo();
    }

    /**
     * Frees the native scratch. Idempotent; the object is unusable afterwards.
     */
    @Override
    public void close() {
        memory.close();
    }

    /* ---- recv: ngx_unix_recv() ---- */

    /**
     * Reads into {@code buf}'s remaining space and moves its position by what came: nginx's
     * {@code ngx_unix_recv()}. With epoll a read is not even tried when the last one drained the socket
     * ({@code available == 0} and no pending EOF); a short read means drained ({@code available = 0}, and
     * {@code ready} cleared unless the peer's EOF is pending).
     *
     * @param c the connection
     * @param buf a direct buffer with room
     * @return bytes read, 0 at end of file ({@code read.eof} set), {@link Rc#AGAIN} ({@code read.ready}
     *     cleared), {@link Rc#ERROR} ({@code read.error} set, logged)
     */
    @Override
    public int recv(Connection c, ByteBuffer buf) {
        Event rev = c.read;
        if (rev.preread) {
            return takePreread(c, rev, buf);
        }
        if (epollRdhup && rev.available == 0 && !rev.pendingEof) {
            rev.ready = false;
            return Rc.AGAIN;
        }
        int size = buf.remaining();
        int n;
        try {
            n = Sockets.recv(c.fd(), NativeMemory.address(buf) + buf.position(), size);
        } catch (NativeIoException e) {
            return recvFailed(c, rev, e);
        }
        if (n > 0) {
            buf.position(buf.position() + n);
        }
        return received(rev, n, size);
    }

    /**
     * Reads one datagram of a UDP connection ({@link PeerConnection#datagram}): nginx's {@code ngx_udp_unix_recv()}.
     * A datagram shorter than the buffer says nothing of what else is queued, so {@code ready} stays set until a
     * read would block: the caller reads until {@link Rc#AGAIN}. A datagram longer than the buffer is cut to it.
     * Added in SPI 1.5.
     *
     * @param c the connection
     * @param buf a direct buffer with room
     * @return the datagram's length as read, {@link Rc#AGAIN} ({@code read.ready} cleared), {@link Rc#ERROR}
     *     ({@code read.error} set, logged: {@code recv() failed (111: Connection refused)} after the peer's ICMP)
     */
    public int recvDatagram(Connection c, ByteBuffer buf) {
        Event rev = c.read;
        int n;
        try {
            n = Sockets.recv(c.fd(), NativeMemory.address(buf) + buf.position(), buf.remaining());
        } catch (NativeIoException e) {
            return recvFailed(c, rev, e);
        }
        if (n == Rc.AGAIN) {
            rev.ready = false;
            return Rc.AGAIN;
        }
        buf.position(buf.position() + n);
        return n;
    }

    /**
     * The flags a read of {@code size} bytes sets by what it got: would-block clears {@code ready}, end of file sets
     * {@code eof}, and a short read drained the socket ({@code available = 0}, {@code ready} cleared unless the
     * peer's EOF is pending; without epoll's RDHUP, cleared unless the method is greedy).
     */
    private int received(Event rev, int n, int size) {
        if (n == Rc.AGAIN) {
            rev.ready = false;
            return Rc.AGAIN;
        }
        if (n == 0) {
            rev.ready = false;
            rev.eof = true;
            return 0;
        }
        if (n < size) {
            if (epollRdhup) {
                if (!rev.pendingEof) {
                    rev.ready = false;
                }
                rev.available = 0;
            } else if (!greedy) {
                rev.ready = false;
            }
        }
        return n;
    }

    private int recvFailed(Connection c, Event rev, NativeIoException e) {
        rev.ready = false;
        rev.error = true;
        return connectionError(c, e);
    }

    /**
     * {@link #recv} of what the event method read ahead in its wait ({@link Event#preread}), with the flags the read
     * itself would have set.
     */
    private int takePreread(Connection c, Event rev, ByteBuffer buf) {
        int n = rev.prereadCount;
        if (n <= 0) {
            rev.preread = false;
            if (n < 0) {
                int errno = -n;
                if (errno != Errors.EAGAIN && errno != Errors.EWOULDBLOCK) {
                    return recvFailed(c, rev, new NativeIoException("recv()", errno, Errors.text(errno)));
                }
                n = Rc.AGAIN;
            }
            return received(rev, n, rev.prereadSize);
        }
        int take = Math.min(n, buf.remaining());
        NativeMemory.copy(rev.prereadAddress, NativeMemory.address(buf) + buf.position(), take);
        buf.position(buf.position() + take);
        if (take < n) {
            // the rest for the next receive; size less the same, so that count < size still tells a short read
            rev.prereadAddress += take;
            rev.prereadCount = n - take;
            rev.prereadSize -= take;
            return take;
        }
        rev.preread = false;
        return received(rev, n, rev.prereadSize);
    }

    /* ---- send: ngx_unix_send() ---- */

    /**
     * Writes {@code buf}'s remaining bytes and moves its position by what went: nginx's {@code ngx_unix_send()}.
     * Counts {@link Connection#sent}.
     *
     * @param c the connection
     * @param buf a direct buffer
     * @return bytes written ({@code write.ready} cleared when fewer than offered), {@link Rc#AGAIN}
     *     ({@code write.ready} cleared), {@link Rc#ERROR} ({@code write.error} set, logged)
     */
    @Override
    public int send(Connection c, ByteBuffer buf) {
        Event wev = c.write;
        int size = buf.remaining();
        int n;
        try {
            n = Sockets.send(c.fd(), NativeMemory.address(buf) + buf.position(), size);
        } catch (NativeIoException e) {
            wev.error = true;
            return connectionError(c, e);
        }
        if (n == Rc.AGAIN) {
            wev.ready = false;
            return Rc.AGAIN;
        }
        if (n == 0 && size > 0) {
            log(c, LogLevel.ALERT, "send() returned zero");
        }
        if (n < size) {
            wev.ready = false;
        }
        buf.position(buf.position() + n);
        c.sent += n;
        return n;
    }

    /* ---- send_chain: ngx_linux_sendfile_chain() ---- */

    /**
     * Sends a chain: neighbouring memory buffers gathered into one {@code writev} of up to {@link #IOV_MAX}
     * pieces, file buffers (neighbouring parts of one file coalesced) with {@code sendfile}, in turn, until all is
     * sent, {@code limit} is reached or the socket is full. nginx's {@code ngx_linux_sendfile_chain()}. Sent
     * buffers are consumed (their position, or {@code filePos}, moved to the end); buffers with flags only are
     * skipped. Counts {@link Connection#sent}.
     *
     * @param c the connection
     * @param in the chain
     * @param limit bytes to send at most, 0 for no limit (either way no more than 2G-1 less a page)
     * @return the first link not fully sent, null when everything was sent, or {@link #CHAIN_ERROR} (logged,
     *     {@code write.error} set for socket errors); {@code write.ready} is cleared when the socket took less
     *     than offered
     */
    @Override
    public BufChain sendChain(Connection c, BufChain in, long limit) {
        Event wev = c.write;
        if (!wev.ready) {
            return in;
        }
        if (limit <= 0 || limit > MAX_LIMIT) {
            limit = MAX_LIMIT;
        }
        long send = 0;
        for (;;) {
            long prevSend = send;
            BufChain cl = toIovec(c, in, limit - send);
            if (cl == CHAIN_ERROR) {
                return CHAIN_ERROR;
            }
            send += iovSize;
            long n;
            long fileSize = 0;
            if (cl != null && cl.buf.inFile && send < limit) {
                fileSize = coalescedFileSize(cl, limit - send);
                if (fileSize == 0) {
                    log(c, LogLevel.ALERT, "zero size file buf in output chain \"" + cl.buf.fileName + "\"");
                    return CHAIN_ERROR;
                }
            }
            if (fileSize == 0) {
                n = writev(c, false);
            } else if (iovCount == 0) {
                send += fileSize;
                n = sendfile(c, cl.buf, fileSize);
            } else {
                // a header before a file, in one call: one TCP segment with the file's first bytes, not one of
                // its own; when the file's bytes did not go, sendfile by itself says why in the next turn
                n = writevFile(c, cl.buf, fileSize);
                if (n > iovSize) {
                    send += fileSize;
                }
            }
            if (n == Rc.ERROR) {
                return CHAIN_ERROR;
            }
            long sent = n == Rc.AGAIN ? 0 : n;
            c.sent += sent;
            in = updateSent(in, sent);
            if (send - prevSend != sent) {
                wev.ready = false;
                return in;
            }
            if (send >= limit || in == null) {
                return in;
            }
        }
    }

    /**
     * Gathers the memory buffers at the head of {@code in} into the iovec array, neighbouring ones coalesced, up
     * to {@code limit} bytes: nginx's {@code ngx_output_chain_to_iovec()}.
     *
     * @return the first link not gathered (a file buffer, or where the array or the limit ran out), or
     *     {@link #CHAIN_ERROR} for a buffer that is neither in memory nor in a file
     */
    private BufChain toIovec(Connection c, BufChain in, long limit) {
        long total = 0;
        int n = 0;
        long prev = 0;
        long iov = iovs - SIZEOF_IOVEC;
        for (; in != null && total < limit; in = in.next) {
            Buf b = in.buf;
            if (b.isSpecial()) {
                continue;
            }
            if (b.inFile) {
                break;
            }
            if (b.mem == null || !b.mem.isDirect()) {
                log(c, LogLevel.ALERT, "bad buf in output chain t:" + (b.temporary ? 1 : 0) + " f:"
                    + (b.inFile ? 1 : 0) + " " + (b.mem == null ? "no memory" : "heap memory") + " "
                    + b.filePos + "-" + b.fileLast);
                return CHAIN_ERROR;
            }
            long size = Math.min(b.mem.remaining(), limit - total);
            long pos = NativeMemory.address(b.mem) + b.mem.position();
            if (n > 0 && prev == pos) {
                NativeMemory.putLong(iov + IOV_LEN, NativeMemory.getLong(iov + IOV_LEN) + size);
            } else {
                if (n == IOV_MAX) {
                    break;
                }
                n++;
                iov += SIZEOF_IOVEC;
                NativeMemory.putLong(iov + IOV_BASE, pos);
                NativeMemory.putLong(iov + IOV_LEN, size);
            }
            prev = pos + size;
            total += size;
        }
        iovCount = n;
        iovSize = total;
        return in;
    }

    /**
     * nginx's {@code ngx_writev()}: the gathered array, or nothing when it is empty, as a socket send
     * ({@link Syscalls#sendv}: no VFS write path, a small array gathered into one buffer). With {@code more} (a file
     * follows: a header before its body) the array goes with {@code MSG_MORE}, and TCP sends it in one segment
     * with the file's first bytes: nginx, without {@code tcp_nopush}, sends the header in a segment of its own,
     * which costs a loopback client and server a third more CPU per small file.
     */
    private long writev(Connection c, boolean more) {
        if (iovCount == 0) {
            return 0;
        }
        try {
            return Syscalls.sendv(c.fd(), iovs, iovCount, more);
        } catch (NativeIoException e) {
            c.write.error = true;
            return connectionError(c, e);
        }
    }

    /**
     * The gathered array with {@code MSG_MORE}, then {@code file}'s bytes from its position, at most {@code size},
     * in one native call ({@link Syscalls#sendvFile}): the bytes of both sent, the array's alone when the file's
     * did not go, or {@link Rc#AGAIN}.
     */
    private long writevFile(Connection c, Buf file, long size) {
        NativeMemory.putUnsigned(offset, SIZEOF_OFF_T, file.filePos);
        NativeMemory.putUnsigned(offset + SIZEOF_OFF_T, SIZEOF_OFF_T, size);
        try {
            return Syscalls.sendvFile(c.fd(), iovs, iovCount, file.fileFd, offset);
        } catch (NativeIoException e) {
            c.write.error = true;
            return connectionError(c, e);
        }
    }

    /**
     * Sums the neighbouring parts of one file from {@code cl} on, up to {@code limit}, the last part rounded to a
     * page end when it is cut: nginx's {@code ngx_chain_coalesce_file()}.
     */
    private static long coalescedFileSize(BufChain cl, long limit) {
        long total = 0;
        int fd = cl.buf.fileFd;
        long fprev;
        do {
            Buf b = cl.buf;
            long size = b.fileLast - b.filePos;
            if (size > limit - total) {
                size = limit - total;
                long aligned = (b.filePos + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
                if (aligned <= b.fileLast) {
                    size = aligned - b.filePos;
                }
                return total + size;
            }
            total += size;
            fprev = b.filePos + size;
            cl = cl.next;
        } while (cl != null && cl.buf.inFile && total < limit && cl.buf.fileFd == fd && cl.buf.filePos == fprev);
        return total;
    }

    /** nginx's {@code ngx_linux_sendfile()}: from {@code file}'s position, {@code size} bytes at most. */
    private long sendfile(Connection c, Buf file, long size) {
        NativeMemory.putUnsigned(offset, SIZEOF_OFF_T, file.filePos);
        long n;
        try {
            n = Syscalls.sendfile(c.fd(), file.fileFd, offset, size);
        } catch (NativeIoException e) {
            c.write.error = true;
            return connectionError(c, e);
        }
        if (n == 0 && size > 0) {
            // someone has truncated the file, so the offset became beyond the end of the file (nginx)
            log(c, LogLevel.ALERT, "sendfile() reported that \"" + file.fileName + "\" was truncated at "
                + file.filePos);
            return Rc.ERROR;
        }
        return n;
    }

    /**
     * Consumes {@code sent} bytes from the head of a chain, skipping buffers with flags only: nginx's
     * {@code ngx_chain_update_sent()}.
     *
     * @param in the chain
     * @param sent bytes sent
     * @return the first link with data left, or null
     */
    public static BufChain updateSent(BufChain in, long sent) {
        for (; in != null; in = in.next) {
            Buf b = in.buf;
            if (b.isSpecial()) {
                continue;
            }
            if (sent == 0) {
                break;
            }
            long size = b.size();
            if (sent >= size) {
                sent -= size;
                consume(b, size);
                continue;
            }
            consume(b, sent);
            break;
        }
        return in;
    }

    private static void consume(Buf b, long n) {
        if (b.inFile) {
            b.filePos += n;
        } else if (b.mem != null) {
            b.mem.position(b.mem.position() + (int) n);
        }
    }

    /* ---- shutdown ---- */

    /**
     * Shuts the socket's writing side: nginx's {@code ngx_shutdown_socket(c->fd, NGX_WRITE_SHUTDOWN)}.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged, {@code shutdown() failed (...)})
     */
    @Override
    public int shutdownWrite(Connection c) {
        try {
            Sockets.shutdown(c.fd(), Platform.SHUT_WR);
            return Rc.OK;
        } catch (NativeIoException e) {
            return connectionError(c, e);
        }
    }

    /* ---- TCP_CORK ---- */

    /**
     * Sets {@code TCP_CORK}: nginx's {@code ngx_tcp_nopush()}.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged as nginx does, {@code setsockopt(TCP_CORK) failed})
     */
    public int tcpNopush(Connection c) {
        return cork(c, 1);
    }

    /**
     * Clears {@code TCP_CORK}, pushing what the kernel held back: nginx's {@code ngx_tcp_push()}.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged)
     */
    public int tcpPush(Connection c) {
        return cork(c, 0);
    }

    /**
     * Sets {@code TCP_NODELAY}: nginx's {@code ngx_tcp_nodelay()}, which the stream module calls on the client's
     * and the upstream's connections. Added in SPI 1.4.
     *
     * @param c the connection
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (logged as nginx does, {@code setsockopt(TCP_NODELAY) failed})
     */
    public int tcpNodelay(Connection c) {
        try {
            Sockets.setsockopt(c.fd(), Platform.IPPROTO_TCP, Platform.TCP_NODELAY, 1, optval);
            return Rc.OK;
        } catch (NativeIoException e) {
            return connectionError(c, e);
        }
    }

    private int cork(Connection c, int on) {
        try {
            Sockets.setsockopt(c.fd(), Platform.IPPROTO_TCP, Platform.TCP_CORK, on, optval);
            return Rc.OK;
        } catch (NativeIoException e) {
            return connectionError(c, e);
        }
    }

    /* ---- errors: ngx_connection_error() ---- */

    /**
     * Logs a failed call on a connection at nginx's level and answers {@link Rc#ERROR}: nginx's
     * {@code ngx_connection_error()}. A peer's doing (ECONNRESET, EPIPE, ENOTCONN, ETIMEDOUT, ECONNREFUSED,
     * ENETUNREACH, EHOSTUNREACH) is {@code info} on a client connection (an accepted one: nginx's
     * {@code NGX_ERROR_INFO} of HTTP and stream) and {@code error} on others (upstream); anything else is
     * {@code alert}. A reset is not logged at all while {@link Connection#ignoreReset} is set.
     *
     * @param c the connection
     * @param e the failure, worded {@code recv() failed (104: Connection reset by peer)}
     * @return {@link Rc#ERROR}
     */
    public static int connectionError(Connection c, NativeIoException e) {
        int err = e.errno();
        if (err == Errors.ECONNRESET && c.ignoreReset) {
            return Rc.ERROR;
        }
        LogLevel level;
        if (err == Errors.ECONNRESET || err == Errors.EPIPE || err == Errors.ENOTCONN || err == Errors.ETIMEDOUT
            || err == Errors.ECONNREFUSED || err == Errors.ENETUNREACH || err == Errors.EHOSTUNREACH) {
            level = c.listening != null ? LogLevel.INFO : LogLevel.ERROR;
        } else {
            level = LogLevel.ALERT;
        }
        log(c, level, e.getMessage());
        return Rc.ERROR;
    }

    /**
     * Logs a line about a connection with the context its protocol adds ({@link LogContext}).
     *
     * @param c the connection
     * @param level the level
     * @param message the message
     */
    static void log(Connection c, LogLevel level, String message) {
        ErrorLog l = c.log;
        if (l == null || !l.isEnabled(level)) {
            return;
        }
        if (c.data instanceof LogContext ctx) {
            StringBuilder sb = new StringBuilder(message.length() + 128).append(message);
            ctx.appendLogContext(sb);
            message = sb.toString();
        }
        l.log(level, c.number, message);
    }

    /**
     * What a protocol adds to the error lines about its connections, nginx's {@code log->handler}
     * ({@code ngx_http_log_error()}: {@code , client: 127.0.0.1, server: localhost, request: "GET / HTTP/1.1"}).
     * {@link SocketIo} calls it when the connection's {@link Connection#data} implements it.
     */
    @FunctionalInterface
    public interface LogContext {

        /**
         * Appends the context to a message.
         *
         * @param message the message so far
         */
        void appendLogContext(StringBuilder message);
    }
}
