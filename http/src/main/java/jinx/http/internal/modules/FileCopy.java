package jinx.http.internal.modules;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.http.spi.BodyFilter;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;

/**
 * The part of nginx's {@code ngx_http_copy_filter_module.c} and {@code ngx_output_chain()} that reads file
 * buffers into memory when the connection may not use {@code sendfile} ({@code sendfile off}), into nginx's default
 * {@code output_buffers 2 32k}. As nginx's {@code ctx->free} and {@code ctx->busy}, the two buffers are taken once
 * per request, from the loop's {@link BufferPool} rather than the request's pool, and each is read into again once
 * the socket has taken its data; they go back to the pool with {@link #release} when the request is freed, however
 * it ends. What is left of the file waits here, the request's {@link #COPY_BUFFERED} bit set, until the writer
 * pushes again. The state itself is reused, request after request ({@link RangeFilterModule}).
 */
final class FileCopy {

    /** The request's {@code buffered} bit while file data waits here: nginx's {@code NGX_HTTP_COPY_BUFFERED}. */
    static final int COPY_BUFFERED = 0x04;

    /** nginx's default {@code output_buffers 2 32k}. */
    static final int BUFFER_SIZE = 32 * 1024;
    private static final int BUFFERS = 2;

    /** The tag of the read buffers: the write filter leaves them to their maker, as nginx's {@code ctx->tag}. */
    private static final Object TAG = new Object();
    /** What {@link #take} returns when a read failed. */
    private static final BufChain FAILED = new BufChain(null, null);

    /** The buffers not yet read, in order; the links are the loop's. */
    private BufChain pending;
    private BufChain pendingTail;
    /** The read buffers taken so far: each is free again once its data is gone ({@code ngx_chain_update_chains}). */
    private final Buf[] buffers = new Buf[BUFFERS];
    private int allocated;

    /**
     * Tells whether a chain needs copying on this request's connection: it holds file data and sendfile is off.
     *
     * @param r the request
     * @param in the chain
     * @return true to copy
     */
    static boolean needed(HttpRequest r, BufChain in) {
        if (r.connection().data instanceof HttpConnection hc && hc.sendfile) {
            return false;
        }
        return hasFile(in);
    }

    /**
     * Tells whether a chain holds file data: a filter that needs the body in memory copies it then
     * (nginx's {@code r->main_filter_need_in_memory}).
     *
     * @param in the chain
     * @return true when it does
     */
    static boolean hasFile(BufChain in) {
        for (BufChain cl = in; cl != null; cl = cl.next) {
            if (cl.buf.inFile) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tells whether a buffer is one of the read buffers, which nginx marks {@code recycled}: a filter that holds
     * data back lets go of what it can when it sees one, as nginx's sub filter does.
     *
     * @param b the buffer
     * @return true for a read buffer
     */
    static boolean recycled(Buf b) {
        return b.tag == TAG;
    }

    /**
     * Tells whether file data waits here.
     *
     * @return true when some does
     */
    boolean busy() {
        return pending != null;
    }

    /**
     * Adds {@code in} to what waits, reads as much as the next filters take and passes it on.
     *
     * @param r the request
     * @param in new buffers, or null to push what waits
     * @param next the rest of the body filters
     * @return {@link Rc#OK} when everything went down, {@link Rc#AGAIN} when some waits, {@link Rc#ERROR}
     */
    int filter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        BufferPool pool = BufferPool.current();
        for (BufChain cl = in; cl != null; cl = cl.next) {
            BufChain link = pool.link(cl.buf);
            if (pendingTail == null) {
                pending = link;
            } else {
                pendingTail.next = link;
            }
            pendingTail = link;
        }
        int rc = Rc.OK;
        boolean pushed = false;
        while (pending != null) {
            BufChain out = take(r, pool);
            if (out == FAILED) {
                return Rc.ERROR;
            }
            if (out == null) {
                // both buffers are still below: the write filter may hold them back for postpone_output, so they
                // are pushed once; if the socket does not take them, the writer comes back when it has
                if (pushed) {
                    buffered(r, true);
                    return Rc.AGAIN;
                }
                pushed = true;
                rc = next.filter(r, null);
                if (rc == Rc.ERROR) {
                    return rc;
                }
                continue;
            }
            pushed = false;
            rc = next.filter(r, out);
            // the write filter keeps links of its own: these go back at once
            freeLinks(pool, out);
            if (rc == Rc.ERROR) {
                return rc;
            }
            if (pending != null && rc == Rc.AGAIN) {
                buffered(r, true);
                return Rc.AGAIN;
            }
        }
        buffered(r, false);
        // what the last pass answered, as ngx_output_chain() returns "last": another push with nothing below would
        // be the write filter's "the http output chain is empty"
        return rc;
    }

    /**
     * Takes the next buffers: memory and flag buffers as they are, file data read into the free read buffers.
     *
     * @return the chain, null when file data waits and no read buffer is free, or {@link #FAILED}
     */
    private BufChain take(HttpRequest r, BufferPool pool) {
        BufChain out = null;
        BufChain tail = null;
        int used = 0;
        while (pending != null) {
            Buf b = pending.buf;
            Buf copy;
            if (!b.inFile) {
                copy = b;
                pop(pool, false);
            } else {
                int i = freeBuffer(pool, used, out == null);
                if (i < 0) {
                    break;
                }
                used |= 1 << i;
                copy = buffers[i];
                if (!read(r, b, copy.mem)) {
                    freeLinks(pool, out);
                    return FAILED;
                }
                boolean done = b.filePos == b.fileLast;
                copy.last = done && b.last;
                copy.lastInChain = done && b.lastInChain;
                copy.flush = done && b.flush;
                if (done) {
                    pop(pool, true);
                }
            }
            BufChain link = pool.link(copy);
            if (tail == null) {
                out = link;
            } else {
                tail.next = link;
            }
            tail = link;
        }
        return out;
    }

    /**
     * A read buffer not passed on this turn whose data the socket has taken, or a new one while fewer than two are
     * taken and nothing is read yet on this turn: nginx's {@code ctx->free}, then {@code out == NULL &&
     * ctx->allocated < ctx->bufs.num} (so the first buffers go down one at a time, as nginx passes them).
     *
     * @return its index, or -1 when both are busy
     */
    private int freeBuffer(BufferPool pool, int used, boolean nothingYet) {
        for (int i = 0; i < allocated; i++) {
            if ((used & 1 << i) == 0 && buffers[i].size() == 0) {
                return i;
            }
        }
        if (allocated == BUFFERS || !nothingYet) {
            return -1;
        }
        Buf b = pool.buf();
        b.mem = pool.get(BUFFER_SIZE);
        b.temporary = true;
        b.tag = TAG;
        buffers[allocated] = b;
        return allocated++;
    }

    /**
     * Drops the first waiting link; a file buffer read to its end goes back to the pool too when the static module
     * made it, as the write filter gives it back under sendfile (this step is its last holder).
     */
    private void pop(BufferPool pool, boolean read) {
        BufChain cl = pending;
        pending = cl.next;
        if (pending == null) {
            pendingTail = null;
        }
        if (read) {
            OutBufs.free(pool, cl.buf);
        }
        pool.free(cl);
    }

    private static void freeLinks(BufferPool pool, BufChain out) {
        BufChain next;
        for (BufChain cl = out; cl != null; cl = next) {
            next = cl.next;
            pool.free(cl);
        }
    }

    /**
     * Gives the read buffers and what waits back to the loop's pool: the request is freed, so nothing sends them
     * any more, even when it ended with data still below (the client went away, an error).
     */
    void release() {
        BufferPool pool = BufferPool.current();
        while (pending != null) {
            pop(pool, true);
        }
        for (int i = 0; i < allocated; i++) {
            Buf b = buffers[i];
            buffers[i] = null;
            pool.release(b.mem);
            pool.free(b);
        }
        allocated = 0;
    }

    /** nginx's {@code ngx_read_file()} of one buffer's worth into {@code mem}; the file buffer's position moves on. */
    private static boolean read(HttpRequest r, Buf file, ByteBuffer mem) {
        int size = (int) Math.min(BUFFER_SIZE, file.fileLast - file.filePos);
        long address = NativeMemory.address(mem);
        int got = 0;
        try {
            while (got < size) {
                int n = Syscalls.pread(file.fileFd, address + got, size - got, file.filePos + got);
                if (n == 0) {
                    break;
                }
                got += n;
            }
        } catch (NativeIoException e) {
            CoreOutput.log(r, LogLevel.CRIT, e.errno(), "pread() \"" + file.fileName + "\" failed");
            return false;
        }
        if (got != size) {
            CoreOutput.log(r, LogLevel.ALERT, 0, "read only " + got + " of " + size + " from \"" + file.fileName
                + "\"");
            return false;
        }
        file.filePos += size;
        mem.clear().limit(size);
        return true;
    }

    private static void buffered(HttpRequest r, boolean on) {
        if (r instanceof CoreRequest cr) {
            cr.buffered = on ? cr.buffered | COPY_BUFFERED : cr.buffered & ~COPY_BUFFERED;
        }
    }
}
