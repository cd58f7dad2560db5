package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.BufferPool;
import jinx.http.spi.BodyFilter;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;

/**
 * The request's gzip state, nginx's {@code ngx_http_gzip_ctx_t}: a raw deflate stream from the loop's pool of
 * {@link Deflater}s (one pool per level; a deflater is reset and goes back as soon as the stream ends, as nginx
 * frees its zlib memory at {@code deflateEnd}), the CRC32 of the input, and the gzip header and trailer written
 * here as nginx writes them ({@code 1f 8b 08 00 00000000 00 03}, then CRC32 and ISIZE little-endian). Output goes
 * into buffers of {@code gzip_buffers}' size, passed on when full, on a flush and at the end, as nginx's default
 * {@code gzip_no_buffer off} does. File data is read into memory first by {@link FileCopy}, nginx's copy filter
 * under {@code r->main_filter_need_in_memory}; it reads no further while the client does not keep up.
 *
 * <p>zlib's {@code windowBits} and {@code memLevel} are not Deflater's to choose (it always uses 15 and 8), where
 * nginx lowers both for a short response of known length: the compressed bytes may differ from nginx's, the
 * decompressed ones never.
 */
final class GzipState implements Runnable, BodyFilter.Next {

    private static final int MAX_SPARE = 1024;
    private static final int MAX_DEFLATERS = 64;
    private static final LoopLocal<ArrayDeque<GzipState>> SPARE = new LoopLocal<>(ArrayDeque::new);
    @SuppressWarnings("unchecked")
    private static final LoopLocal<ArrayDeque<Deflater>[]> DEFLATERS = new LoopLocal<>(() -> {
        ArrayDeque<Deflater>[] pools = new ArrayDeque[10];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new ArrayDeque<>();
        }
        return pools;
    });
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    private static final int TRAILER = 8;

    final FileCopy copy = new FileCopy();
    private final CRC32 crc = new CRC32();
    private Deflater deflater;
    private int level;
    private int bufSize;
    private Buf out;
    private BufChain chain;
    private BufChain chainTail;
    private BodyFilter.Next next;
    private boolean header;
    /** The stream ended or failed: what comes passes through (nginx's {@code ctx->done}). */
    boolean done;
    /** Bytes in and out, header and trailer counted: nginx's {@code ctx->zin}, {@code ctx->zout}. */
    long zin;
    long zout;

    /** Returns a spare state of the calling loop, or a new one. */
    static GzipState take(int level, int bufSize) {
        GzipState s = SPARE.get().pollFirst();
        if (s == null) {
            s = new GzipState();
        }
        s.level = level;
        s.bufSize = bufSize;
        return s;
    }

    /**
     * The body filter's work: file data read into memory first, then deflated.
     *
     * @param r the request
     * @param in the buffers
     * @param next the rest of the body filters
     * @return what they answer, or {@link Rc#ERROR}
     */
    int filter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        this.next = next;
        if (copy.busy() || in != null && FileCopy.hasFile(in)) {
            return copy.filter(r, in, this);
        }
        return filter(r, in);
    }

    /** The deflate step, below the copy step. */
    @Override
    public int filter(HttpRequest r, BufChain in) {
        if (done) {
            return next.filter(r, in);
        }
        if (deflater == null) {
            deflater = takeDeflater(level);
            crc.reset();
        }
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (b.mem != null && b.mem.hasRemaining()) {
                ByteBuffer data = b.mem;
                zin += data.remaining();
                crc.update(data.duplicate());
                deflater.setInput(data);
                while (!deflater.needsInput()) {
                    deflate(Deflater.NO_FLUSH);
                }
            }
            if (b.last) {
                finish();
                break;
            }
            if (b.flush) {
                // a full buffer was passed on: zlib may have more of the flush to give
                do {
                    deflate(Deflater.SYNC_FLUSH);
                } while (out == null);
                out.flush = true;
                emit();
            }
        }
        BufChain pass = chain;
        chain = null;
        chainTail = null;
        if (pass == null) {
            return in == null ? next.filter(r, null) : Rc.OK;
        }
        int rc = next.filter(r, pass);
        freeLinks(pass);
        return rc;
    }

    /** One deflate call into the current output buffer, a new one taken and the full one passed on as needed. */
    private void deflate(int flush) {
        if (out == null) {
            out = OutBufs.temp(bufSize);
            out.mem.limit(bufSize);
            if (!header) {
                header = true;
                out.mem.put(HEADER);
            }
        }
        deflater.deflate(out.mem, flush);
        if (!out.mem.hasRemaining()) {
            emit();
        }
    }

    /** The end of the stream: the rest of deflate's output and the trailer. */
    private void finish() {
        deflater.finish();
        while (!deflater.finished()) {
            deflate(Deflater.NO_FLUSH);
        }
        zout = 10 + deflater.getBytesWritten() + TRAILER;
        int isize = (int) deflater.getBytesRead();
        // deflate's last block was written above, and the header with the first of it
        if (out == null || out.mem.remaining() < TRAILER) {
            if (out != null) {
                emit();
            }
            out = OutBufs.temp(TRAILER);
            out.mem.limit(TRAILER);
        }
        out.mem.order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).putInt(isize)
            .order(ByteOrder.BIG_ENDIAN);
        out.last = true;
        emit();
        giveBack();
        done = true;
    }

    private void emit() {
        Buf b = out;
        out = null;
        b.mem.flip();
        BufChain link = BufferPool.current().link(b);
        if (chainTail == null) {
            chain = link;
        } else {
            chainTail.next = link;
        }
        chainTail = link;
    }

    private static void freeLinks(BufChain pass) {
        BufferPool pool = BufferPool.current();
        BufChain n;
        for (BufChain cl = pass; cl != null; cl = n) {
            n = cl.next;
            pool.free(cl);
        }
    }

    private void giveBack() {
        if (deflater != null) {
            deflater.reset();
            ArrayDeque<Deflater> pool = DEFLATERS.get()[level];
            if (pool.size() < MAX_DEFLATERS) {
                pool.addFirst(deflater);
            } else {
                deflater.end();
            }
            deflater = null;
        }
    }

    private static Deflater takeDeflater(int level) {
        Deflater d = DEFLATERS.get()[level].pollFirst();
        return d != null ? d : new Deflater(level, true);
    }

    /** The request's cleanup: buffers and the deflater back to the loop, the state to the spare ones. */
    @Override
    public void run() {
        copy.release();
        giveBack();
        if (out != null) {
            OutBufs.free(BufferPool.current(), out);
            out = null;
        }
        if (chain != null) {
            freeLinks(chain);
            chain = null;
            chainTail = null;
        }
        next = null;
        header = false;
        done = false;
        zin = 0;
        zout = 0;
        ArrayDeque<GzipState> spare = SPARE.get();
        if (spare.size() < MAX_SPARE) {
            spare.addFirst(this);
        }
    }
}
