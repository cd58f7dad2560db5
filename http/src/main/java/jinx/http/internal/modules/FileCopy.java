package jinx.http.internal.modules;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
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
 * buffers into memory when the connection may not use {@code sendfile} ({@code sendfile off}): 32k at a time, two
 * buffers per turn (nginx's default {@code output_buffers 2 32k}), more only once the socket took them. What is left
 * waits here, the request's {@link #COPY_BUFFERED} bit set, until the writer pushes again.
 */
final class FileCopy {

    /** The request's {@code buffered} bit while file data waits here: nginx's {@code NGX_HTTP_COPY_BUFFERED}. */
    static final int COPY_BUFFERED = 0x04;

    /** nginx's default {@code output_buffers 2 32k}. */
    static final int BUFFER_SIZE = 32 * 1024;
    private static final int BUFFERS = 2;

    /** The buffers not yet read, in order. */
    private BufChain pending;
    private BufChain pendingTail;

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
        for (BufChain cl = in; cl != null; cl = cl.next) {
            if (cl.buf.inFile) {
                return true;
            }
        }
        return false;
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
        for (BufChain cl = in; cl != null; cl = cl.next) {
            BufChain link = new BufChain(cl.buf, null);
            if (pendingTail == null) {
                pending = link;
            } else {
                pendingTail.next = link;
            }
            pendingTail = link;
        }
        int rc = Rc.OK;
        while (pending != null) {
            BufChain out = take(r);
            if (out == null) {
                return Rc.ERROR;
            }
            rc = next.filter(r, out);
            if (rc == Rc.ERROR) {
                return rc;
            }
            if (pending != null && rc == Rc.AGAIN) {
                buffered(r, true);
                return Rc.AGAIN;
            }
        }
        buffered(r, false);
        return in == null && rc == Rc.OK ? next.filter(r, null) : rc;
    }

    /** Takes the next buffers: memory and flag buffers as they are, file data read into at most two buffers. */
    private BufChain take(HttpRequest r) {
        BufChain out = null;
        BufChain tail = null;
        int read = 0;
        while (pending != null && read < BUFFERS) {
            Buf b = pending.buf;
            Buf copy;
            if (!b.inFile) {
                copy = b;
                pop();
            } else {
                copy = read(r, b);
                if (copy == null) {
                    return null;
                }
                read++;
                if (b.filePos == b.fileLast) {
                    copy.last = b.last;
                    copy.lastInChain = b.lastInChain;
                    copy.flush = b.flush;
                    pop();
                }
            }
            BufChain link = new BufChain(copy, null);
            if (tail == null) {
                out = link;
            } else {
                tail.next = link;
            }
            tail = link;
        }
        return out;
    }

    private void pop() {
        pending = pending.next;
        if (pending == null) {
            pendingTail = null;
        }
    }

    /** nginx's {@code ngx_read_file()} of one buffer's worth; the file buffer's position moves on. */
    private static Buf read(HttpRequest r, Buf file) {
        int size = (int) Math.min(BUFFER_SIZE, file.fileLast - file.filePos);
        ByteBuffer mem = ByteBuffer.allocateDirect(size);
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
            return null;
        }
        if (got != size) {
            CoreOutput.log(r, LogLevel.ALERT, 0, "read only " + got + " of " + size + " from \"" + file.fileName
                + "\"");
            return null;
        }
        file.filePos += size;
        mem.limit(size);
        Buf b = Buf.of(mem);
        b.temporary = true;
        return b;
    }

    private static void buffered(HttpRequest r, boolean on) {
        if (r instanceof CoreRequest cr) {
            cr.buffered = on ? cr.buffered | COPY_BUFFERED : cr.buffered & ~COPY_BUFFERED;
        }
    }
}
