package jinx.http.internal.io;

import java.nio.ByteBuffer;

import jinx.http.internal.parse.ChunkedState;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.TempFile;

/**
 * A request body being read or discarded: nginx's {@code ngx_http_request_body_t}, kept in
 * {@code CoreRequest.requestBody}. Once read, {@link #bufs} is the body: memory buffers (the part read with the
 * header, then the parts read into {@link #buf}), or one file buffer when the body went to a temporary file.
 */
public final class RequestBody {

    /** The body as read, or null (no body, or not read yet). */
    BufChain bufs;
    /** The last link of {@link #bufs}. */
    BufChain bufsTail;
    /** The buffer the body is received into (nginx's {@code rb->buf}), or null; from its owner's pool. */
    ByteBuffer buf;
    /** The first byte of {@link #buf} the body filters have not seen (nginx's {@code rb->buf->pos}). */
    int bufPos;
    /** The end of the data in {@link #buf} (nginx's {@code rb->buf->last}). */
    int bufLast;
    /** The end of {@link #buf}'s room (nginx's {@code rb->buf->end}); the pool's buffer may be larger. */
    int bufEnd;
    /**
     * Bytes still to read: for a length, what is left of it; chunked, the fewest bytes before the body can end;
     * -1 before the first filter call (nginx's {@code rb->rest}).
     */
    long rest = -1;
    /** The chunked parser's state, or null. */
    ChunkedState chunked;
    /** The temporary file, or null. */
    TempFile tempFile;
    /** The last part went through the save filter (nginx's {@code rb->last_saved}). */
    boolean lastSaved;
    /** What to run when the body is read. */
    Runnable postHandler;
    /** The body is passed on unbuffered: kept in memory only, taken piece by piece. */
    boolean noBuffering;
    /** Pieces over {@link #buf} taken and not all consumed yet (nginx's {@code rb->busy}). */
    BufChain busy;

    /** An empty body: the body reader fills it; a subrequest given one reads none (nginx's fake body). */
    public RequestBody() {
    }

    /**
     * Returns the body as read: memory buffers, or one buffer of the temporary file.
     *
     * @return the chain, or null when there is no body
     */
    public BufChain bufs() {
        return bufs;
    }

    /**
     * Tells whether the body went to a temporary file.
     *
     * @return true when {@link #bufs()} is a file buffer
     */
    public boolean inFile() {
        return tempFile != null;
    }

    /**
     * Returns the temporary file's name, or null.
     *
     * @return the path
     */
    public String tempFileName() {
        return tempFile == null ? null : tempFile.name();
    }

    /**
     * Returns the body's size: the bytes in memory, or the file's.
     *
     * @return bytes
     */
    public long size() {
        return bufs == null ? 0 : bufs.size();
    }

    /**
     * Returns the body in memory as text, one char per byte, nginx's {@code $request_body}.
     *
     * @return the text, or null when the body is in a file or there is none
     */
    public String text() {
        if (bufs == null || tempFile != null) {
            return null;
        }
        StringBuilder sb = new StringBuilder((int) Math.min(Integer.MAX_VALUE, bufs.size()));
        for (BufChain cl = bufs; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (!b.inMemory()) {
                continue;
            }
            ByteBuffer m = b.mem;
            for (int i = m.position(); i < m.limit(); i++) {
                sb.append((char) (m.get(i) & 0xff));
            }
        }
        return sb.toString();
    }

    void append(Buf b) {
        BufChain cl = new BufChain(b, null);
        if (bufsTail == null) {
            bufs = cl;
        } else {
            bufsTail.next = cl;
        }
        bufsTail = cl;
    }

    void clearBufs() {
        bufs = null;
        bufsTail = null;
    }
}
