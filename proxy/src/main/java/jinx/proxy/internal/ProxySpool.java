package jinx.proxy.internal;

import java.io.IOException;
import java.util.ArrayDeque;

import jinx.http.HttpRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TempFile;

/**
 * The part of a buffered response's body not yet passed to the client, and the temporary file it overflows to:
 * nginx's event pipe's {@code p->in} and {@code p->out} chains with {@code ngx_event_pipe_write_chain_to_temp_file()}.
 * The relay ({@link ProxyRelay}) queues what it read here ({@link #add}); what the client can take goes on
 * ({@link #take}); when every block holds data the client has not taken and the client is not keeping up, the oldest
 * of it is written to a file in {@code proxy_temp_path} ({@link #write}), at most {@code proxy_temp_file_write_size}
 * at a time and {@code proxy_max_temp_file_size} in all, which frees its blocks for reading on: so the upstream is
 * read whole at its own pace and released early, and the client is sent the file (by {@code sendfile} where the
 * output uses it). The file is unlinked as it is made, and closed when the request is freed.
 */
final class ProxySpool {

    private final ProxyRequest p;
    private final HttpRequest r;
    private final ProxyBlocks blocks;
    private final Object tag;
    private final long maxSize;
    private final long writeSize;
    /** The queued buffers ({@code p->in}), each with its block. */
    private final ArrayDeque<Buf> in = new ArrayDeque<>();
    private final ArrayDeque<Integer> inBlocks = new ArrayDeque<>();
    /** Per block: how many of its buffers are queued. */
    private final int[] queued;
    /** The file's buffers not yet passed ({@code p->out}), before everything queued. */
    private BufChain out;
    private BufChain outTail;
    private TempFile file;
    /** While {@link #room} answers: the busy bound's bytes left, and the block counted last. */
    private long roomLeft;
    private int roomBlock;

    ProxySpool(ProxyRequest p, ProxyBlocks blocks, Object tag) {
        this.p = p;
        this.r = p.r;
        this.blocks = blocks;
        this.tag = tag;
        this.maxSize = p.plcf.maxTempFileSize;
        this.writeSize = p.plcf.tempFileWriteSize;
        this.queued = new int[blocks.count()];
    }

    /** Queues the buffers of a chain over block {@code b}. */
    void add(int b, BufChain chain) {
        for (BufChain cl = chain; cl != null; cl = cl.next) {
            in.addLast(cl.buf);
            inBlocks.addLast(b);
            queued[b]++;
        }
    }

    /** Whether anything waits to be passed. */
    boolean pending() {
        return out != null || !in.isEmpty();
    }

    /** Whether {@link #write} could take some of the queue: something is queued and the file has room. */
    boolean writable() {
        return !in.isEmpty() && (file == null || file.offset() < maxSize);
    }

    /**
     * nginx's {@code ngx_event_pipe_write_chain_to_temp_file()}: writes the oldest queued buffers to the file, as
     * many as {@code proxy_temp_file_write_size} and the room left allow, and queues a file buffer over them.
     *
     * @return {@link Rc#OK} when something was written (blocks were freed), {@link Rc#BUSY} when nothing fits,
     *     {@link Rc#ERROR} when the file could not be made or written (logged at crit, as nginx does)
     */
    int write() {
        long offset = file == null ? 0 : file.offset();
        long size = 0;
        int count = 0;
        for (Buf b : in) {
            long bsize = b.size();
            if (size + bsize > writeSize || offset + size + bsize > maxSize) {
                break;
            }
            size += bsize;
            count++;
        }
        if (count == 0) {
            return Rc.BUSY;
        }
        if (file == null) {
            try {
                file = TempFile.create(p.plcf.tempPath, false, false);
            } catch (IOException e) {
                r.log(LogLevel.CRIT, 0, e.getMessage());
                return Rc.ERROR;
            }
            r.log(LogLevel.WARN, 0, "an upstream response is buffered to a temporary file " + file.name());
        }
        BufChain chain = null;
        BufChain last = null;
        for (int i = 0; i < count; i++) {
            BufChain cl = BufChain.of(in.pollFirst());
            queued[inBlocks.pollFirst()]--;
            if (chain == null) {
                chain = cl;
            } else {
                last.next = cl;
            }
            last = cl;
        }
        try {
            file.write(chain);
        } catch (IOException e) {
            r.log(LogLevel.CRIT, 0, e.getMessage());
            return Rc.ERROR;
        }
        if (outTail != null && outTail.buf.fileLast == offset) {
            outTail.buf.fileLast = file.offset();
            return Rc.OK;
        }
        Buf b = new Buf();
        b.inFile = true;
        b.fileFd = file.fd();
        b.fileName = file.name();
        b.filePos = offset;
        b.fileLast = file.offset();
        b.tag = tag;
        BufChain cl = BufChain.of(b);
        if (out == null) {
            out = cl;
        } else {
            outTail.next = cl;
        }
        outTail = cl;
        return Rc.OK;
    }

    /**
     * Takes what goes to the client now: the file's buffers, then the queued ones, all of them once the upstream is
     * done, else while the blocks with data the client has not taken stay within {@code proxy_busy_buffers_size}
     * (nginx's {@code p->busy_size} in {@code ngx_event_pipe_write_to_downstream()}).
     *
     * @param all the upstream is done
     * @return the chain, or null for nothing
     */
    BufChain take(boolean all) {
        BufChain chain = out;
        BufChain last = outTail;
        out = null;
        outTail = null;
        if (!all) {
            roomLeft = p.plcf.busyBuffersSize;
            for (int i = 0; i < queued.length; i++) {
                if (passedBusy(i)) {
                    roomLeft -= blocks.block(i).capacity();
                }
            }
            roomBlock = -1;
        }
        while (!in.isEmpty() && (all || room(inBlocks.peekFirst()))) {
            BufChain cl = BufChain.of(in.pollFirst());
            queued[inBlocks.pollFirst()]--;
            if (chain == null) {
                chain = cl;
            } else {
                last.next = cl;
            }
            last = cl;
        }
        return chain;
    }

    /** Whether queued buffers of block {@code b} may go: its block is busy already, or fits in what is left. */
    private boolean room(int b) {
        if (b == roomBlock || passedBusy(b)) {
            return true;
        }
        long size = blocks.block(b).capacity();
        if (size > roomLeft) {
            return false;
        }
        roomLeft -= size;
        roomBlock = b;
        return true;
    }

    /** Whether block {@code i} has data passed to the client and not sent yet. */
    private boolean passedBusy(int i) {
        return blocks.busy(i, blocks.made(i) - queued[i]);
    }

    /** The request is freed: the file is closed (it was unlinked when made). */
    void release() {
        if (file != null) {
            file.close();
            file = null;
        }
    }
}
