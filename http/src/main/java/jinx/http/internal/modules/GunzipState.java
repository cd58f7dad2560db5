package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.BodyFilter;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * One response's decompression: nginx's {@code ngx_http_gunzip_ctx_t} with zlib's gzip wrapper
 * ({@code inflateInit2(MAX_WBITS + 16)}) written out: the member's header is parsed here, the deflate data goes
 * through a raw {@link Inflater}, the trailer's CRC-32 and length are checked, and a member that ends with input left
 * starts the next one, as nginx's {@code inflateReset()}.
 *
 * <p>The output is bounded as nginx's: at most {@code gunzip_buffers} (number × size) bytes are made before they
 * go down; when the connection does not take them ({@link Rc#AGAIN}) the rest of the input waits here, the request's
 * {@link #GUNZIP_BUFFERED} bit set, and inflating goes on only when the writer pushes again. A compression bomb
 * therefore costs its buffers and the client's reading speed, never memory.
 */
final class GunzipState implements BodyFilter.Next, Runnable {

    /** The request's {@code buffered} bit while input waits here. */
    static final int GUNZIP_BUFFERED = 0x40;

    private static final int Z_NO_FLUSH = 0;
    private static final int Z_FINISH = 4;
    private static final int Z_DATA_ERROR = -3;

    private enum Stage { HEADER, DATA, TRAILER, END }

    private final int bufsNum;
    private final int bufsSize;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final FileCopy copy = new FileCopy();
    private BodyFilter.Next next;

    /** The input not yet inflated, copied (its maker may reuse its buffers). */
    private byte[] in = new byte[0];
    private int inPos;
    private boolean inLast;
    private Stage stage = Stage.HEADER;
    private long size;
    private boolean done;

    GunzipState(int bufsNum, int bufsSize) {
        this.bufsNum = bufsNum;
        this.bufsSize = bufsSize;
    }

    @Override
    public void run() {
        inflater.end();
        copy.release();
    }

    boolean done() {
        return done && !copy.busy();
    }

    int filter(HttpRequest r, BufChain chain, BodyFilter.Next next) {
        this.next = next;
        if (copy.busy() || chain != null && FileCopy.hasFile(chain)) {
            return copy.filter(r, chain, this);
        }
        return filter(r, chain);
    }

    /** nginx's {@code ngx_http_gunzip_body_filter()} on memory buffers. */
    @Override
    public int filter(HttpRequest r, BufChain chain) {
        for (BufChain cl = chain; cl != null; cl = cl.next) {
            add(cl.buf);
        }
        int rc = Rc.OK;
        while (!done) {
            BufChain out;
            try {
                out = inflate(r);
            } catch (DataFormatException e) {
                CoreOutput.log(r, LogLevel.ALERT, 0, "inflate() failed: " + (inLast ? Z_FINISH : Z_NO_FLUSH) + ", "
                    + Z_DATA_ERROR);
                done = true;
                buffered(r, false);
                return Rc.ERROR;
            }
            if (out == null) {
                break;
            }
            rc = next.filter(r, out);
            if (rc == Rc.ERROR) {
                done = true;
                return rc;
            }
            if (rc == Rc.AGAIN && !done) {
                buffered(r, true);
                return Rc.AGAIN;
            }
        }
        buffered(r, false);
        return rc;
    }

    private void add(Buf b) {
        inLast |= b.last || b.lastInChain;
        ByteBuffer mem = b.mem;
        if (mem == null || b.inFile || !mem.hasRemaining()) {
            return;
        }
        int n = mem.remaining();
        byte[] joined = new byte[in.length - inPos + n];
        System.arraycopy(in, inPos, joined, 0, in.length - inPos);
        mem.get(joined, in.length - inPos, n);
        in = joined;
        inPos = 0;
    }

    /**
     * Inflates up to {@code number × size} bytes: nginx's inner loop of {@code ngx_http_gunzip_filter_add_data},
     * {@code _get_buf} and {@code _inflate}.
     *
     * @return the buffers made, the last one marked at the end; null when nothing is to go down
     */
    private BufChain inflate(HttpRequest r) throws DataFormatException {
        BufChain out = null;
        BufChain tail = null;
        int bufs = 0;
        byte[] block = new byte[bufsSize];
        int filled = 0;
        while (bufs < bufsNum) {
            if (stage == Stage.END && inPos < in.length) {
                // another member follows, as nginx's inflateReset()
                stage = Stage.HEADER;
            }
            boolean progress = switch (stage) {
                case HEADER -> header();
                case DATA -> {
                    inflater.setInput(in, inPos, in.length - inPos);
                    int n = inflater.inflate(block, filled, bufsSize - filled);
                    inPos = in.length - inflater.getRemaining();
                    crc.update(block, filled, n);
                    size += n;
                    filled += n;
                    if (inflater.finished()) {
                        inflater.reset();
                        stage = Stage.TRAILER;
                        yield true;
                    }
                    yield n > 0;
                }
                case TRAILER -> trailer();
                default -> false;
            };
            boolean end = !progress && inLast && inPos >= in.length;
            if (filled == bufsSize || !progress) {
                if (filled > 0 || end) {
                    Buf b = OutBufs.temp(Math.max(1, filled));
                    b.mem.put(block, 0, filled).flip();
                    if (end) {
                        b.last = r.main() == r;
                        b.lastInChain = true;
                        b.sync = filled == 0;
                        done = true;
                    }
                    BufChain link = new BufChain(b, null);
                    if (tail == null) {
                        out = link;
                    } else {
                        tail.next = link;
                    }
                    tail = link;
                    bufs++;
                    filled = 0;
                }
                if (!progress) {
                    break;
                }
            }
        }
        return out;
    }

    /** The member's header, RFC 1952; false while it is not all here. */
    private boolean header() throws DataFormatException {
        int p = inPos;
        int avail = in.length - p;
        if (avail < 10) {
            return false;
        }
        if ((in[p] & 0xff) != 0x1f || (in[p + 1] & 0xff) != 0x8b || in[p + 2] != 8) {
            throw new DataFormatException("incorrect header check");
        }
        int flags = in[p + 3] & 0xff;
        int at = p + 10;
        if ((flags & 4) != 0) {
            if (in.length - at < 2) {
                return false;
            }
            at += 2 + ((in[at] & 0xff) | (in[at + 1] & 0xff) << 8);
        }
        for (int bit : new int[] {8, 16}) {
            if ((flags & bit) != 0) {
                while (at < in.length && in[at] != 0) {
                    at++;
                }
                at++;
            }
        }
        if ((flags & 2) != 0) {
            at += 2;
        }
        if (at > in.length) {
            return false;
        }
        inPos = at;
        crc.reset();
        size = 0;
        stage = Stage.DATA;
        return true;
    }

    /** The member's trailer: CRC-32 and length modulo 2^32, little-endian; false while it is not all here. */
    private boolean trailer() throws DataFormatException {
        if (in.length - inPos < 8) {
            return false;
        }
        long sum = le32(inPos);
        long len = le32(inPos + 4);
        if (sum != crc.getValue() || len != (size & 0xffffffffL)) {
            throw new DataFormatException("incorrect data check");
        }
        inPos += 8;
        stage = Stage.END;
        return true;
    }

    private long le32(int at) {
        return (in[at] & 0xffL) | (in[at + 1] & 0xffL) << 8 | (in[at + 2] & 0xffL) << 16 | (in[at + 3] & 0xffL) << 24;
    }

    private static void buffered(HttpRequest r, boolean on) {
        if (r instanceof CoreRequest cr) {
            cr.buffered = on ? cr.buffered | GUNZIP_BUFFERED : cr.buffered & ~GUNZIP_BUFFERED;
        }
    }
}
