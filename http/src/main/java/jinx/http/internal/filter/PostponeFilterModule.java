package jinx.http.internal.filter;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.http.internal.request.Postponed;
import jinx.http.internal.request.Subrequests;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_postpone_filter} module, nginx's {@code ngx_http_postpone_filter_module.c}: the body filter that
 * puts the output of a request and its subrequests in order. Only the connection's
 * {@link HttpConnection#active() active} request passes output on, as the main request, to the filters after this
 * one (gzip, chunked, the writer); any other request's output waits in its {@link CoreRequest#postponed} list, and
 * when the active request has sent what came before a subrequest, that subrequest becomes active and is posted. An
 * in-memory subrequest's output goes to one buffer of {@code subrequest_output_buffer_size} instead.
 *
 * <p>A request without subrequests passes through untouched. Where nginx's producers mark a subrequest's last buffer
 * {@code sync} and {@code last_in_chain} rather than {@code last_buf}, this filter does it for them, on a copy of
 * the buffer: the response ends only with the main request's last buffer.
 */
public final class PostponeFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_postpone_filter";

    /** The module, as {@code ServiceLoader} makes it. */
    public PostponeFilterModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        cf.addBodyFilter(PostponeFilterModule::filter);
    }

    /**
     * nginx's {@code ngx_http_postpone_filter()}.
     *
     * @param hr the request
     * @param in the buffers, or null
     * @param next the rest of the body filters
     * @return what they answer
     */
    static int filter(HttpRequest hr, BufChain in, BodyFilter.Next next) {
        if (!(hr instanceof CoreRequest r)) {
            return next.filter(hr, in);
        }
        HttpConnection hc = r.httpConnection();
        if (r.main == r && r.postponed == null && hc.active() == r) {
            // no subrequests: as before there was this filter
            return next.filter(r, in);
        }
        if (r.subrequestInMemory) {
            return inMemory(r, in);
        }
        if (r != r.main && r.headerOnly) {
            // a header-only subrequest (auth_request, mirror) has no body to place; what a producer passes anyway
            // is consumed, so that it neither waits in the list nor holds the producer's buffers
            consume(in);
            return Rc.OK;
        }
        if (r != hc.active()) {
            if (in != null) {
                add(r, in);
            }
            return Rc.OK;
        }
        if (r.postponed == null) {
            if (in != null || hc.buffered != 0) {
                return next.filter(r.main, r == r.main ? in : notLast(in));
            }
            return Rc.OK;
        }
        if (in != null) {
            add(r, in);
        }
        do {
            Postponed pr = r.postponed;
            if (pr.request != null) {
                r.postponed = pr.next;
                hc.setActive(pr.request);
                Subrequests.post(pr.request);
                return Rc.OK;
            }
            if (pr.out == null) {
                Logs.log(r, LogLevel.ALERT, "http postpone filter NULL output");
            } else if (next.filter(r.main, pr.out) == Rc.ERROR) {
                return Rc.ERROR;
            }
            r.postponed = pr.next;
        } while (r.postponed != null);
        return Rc.OK;
    }

    private static void consume(BufChain in) {
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.mem != null) {
                b.mem.position(b.mem.limit());
            }
            if (b.inFile) {
                b.filePos = b.fileLast;
            }
        }
    }

    /** nginx's {@code ngx_http_postpone_filter_add()}: the output waits at the end of the request's list. */
    private static void add(CoreRequest r, BufChain in) {
        Postponed pr;
        if (r.postponed == null) {
            pr = new Postponed(null);
            r.postponed = pr;
        } else {
            Postponed p = r.postponed;
            while (p.next != null) {
                p = p.next;
            }
            if (p.request == null) {
                pr = p;
            } else {
                pr = new Postponed(null);
                p.next = pr;
            }
        }
        // ngx_chain_add_copy(): new links, the same buffers
        for (BufChain cl = r == r.main ? in : notLast(in); cl != null; cl = cl.next) {
            BufChain link = new BufChain(cl.buf, null);
            if (pr.outTail == null) {
                pr.out = link;
            } else {
                pr.outTail.next = link;
            }
            pr.outTail = link;
        }
    }

    /**
     * A subrequest's output with its {@code last} buffers made {@code sync} and {@code last_in_chain}, as nginx's
     * {@code ngx_http_send_special()} and the static module make them for a subrequest: copies of those buffers in
     * new links, since a producer may pass one buffer to every request.
     *
     * @param in the output
     * @return {@code in} itself when it has no {@code last} buffer, else the new chain
     */
    public static BufChain notLast(BufChain in) {
        boolean any = false;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            any |= cl.buf.last;
        }
        if (!any) {
            return in;
        }
        BufChain out = null;
        BufChain tail = null;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.last) {
                b = copy(b);
                b.last = false;
                b.sync = true;
                b.lastInChain = true;
            }
            BufChain link = new BufChain(b, null);
            if (tail == null) {
                out = link;
            } else {
                tail.next = link;
            }
            tail = link;
        }
        return out;
    }

    /** A new buffer over the same memory or file region (the memory's position is shared with the producer). */
    private static Buf copy(Buf b) {
        Buf c = new Buf();
        c.mem = b.mem;
        c.fileFd = b.fileFd;
        c.fileName = b.fileName;
        c.filePos = b.filePos;
        c.fileLast = b.fileLast;
        c.inFile = b.inFile;
        c.last = b.last;
        c.lastInChain = b.lastInChain;
        c.flush = b.flush;
        c.sync = b.sync;
        c.temporary = b.temporary;
        c.tag = b.tag;
        return c;
    }

    /**
     * nginx's {@code ngx_http_postpone_filter_in_memory()}: the body is copied into one buffer of
     * {@code subrequest_output_buffer_size} bytes (or the response's {@code Content-Length}), and the buffers given
     * are consumed.
     */
    private static int inMemory(CoreRequest r, BufChain in) {
        if (r.out == null) {
            long size = r.clcf().subrequestOutputBufferSize;
            long len = r.headersOut.contentLengthN;
            if (len != -1) {
                if (len > size) {
                    Logs.log(r, LogLevel.ERROR, "too big subrequest response: " + len);
                    return Rc.ERROR;
                }
            } else {
                len = size;
            }
            Buf b = Buf.of(ByteBuffer.allocateDirect((int) len).limit(0));
            b.last = true;
            r.out = b;
        }
        ByteBuffer m = r.out.mem;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.isSpecial()) {
                continue;
            }
            long len = b.size();
            if (len > m.capacity() - m.limit()) {
                Logs.log(r, LogLevel.ERROR, "too big subrequest response");
                return Rc.ERROR;
            }
            if (b.inFile) {
                if (!read(r, b, m)) {
                    return Rc.ERROR;
                }
                continue;
            }
            int at = m.limit();
            m.limit(at + (int) len);
            ByteBuffer src = b.mem.duplicate();
            m.duplicate().position(at).put(src);
            b.mem.position(b.mem.limit());
        }
        return Rc.OK;
    }

    /** A file buffer's bytes read into the in-memory buffer (nginx's copy filter does it for such a request). */
    private static boolean read(CoreRequest r, Buf file, ByteBuffer m) {
        int size = (int) (file.fileLast - file.filePos);
        int at = m.limit();
        long address = NativeMemory.address(m) + at;
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
            r.log(LogLevel.CRIT, e.errno(), "pread() \"" + file.fileName + "\" failed");
            return false;
        }
        if (got != size) {
            r.log(LogLevel.ALERT, 0, "read only " + got + " of " + size + " from \"" + file.fileName + "\"");
            return false;
        }
        m.limit(at + size);
        file.filePos = file.fileLast;
        return true;
    }
}
