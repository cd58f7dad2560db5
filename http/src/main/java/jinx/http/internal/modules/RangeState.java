package jinx.http.internal.modules;

import java.util.ArrayDeque;
import java.util.List;

import jinx.kernel.LoopLocal;

/**
 * The request's state: nginx's {@code ngx_http_range_filter_ctx_t}, and the copy step's. One is taken from the
 * loop's spare states with the request's cleanup, which gives it back when the request is freed: a response
 * read into memory ({@code sendfile off}) adds no object.
 */
final class RangeState implements Runnable {
    /** Idle states kept per loop thread; a loop has at most one per request it serves at a time. */
    private static final int MAX_SPARE = 1024;
    private static final LoopLocal<ArrayDeque<RangeState>> SPARE = new LoopLocal<>(ArrayDeque::new);


    /** The ranges, each {@code {start, end}} with {@code end} exclusive; null without ranges. */
    List<long[]> ranges;
    /** The offset in the response of the next body byte. */
    long offset;
    /** {@code CRLF "--" boundary CRLF ["Content-Type: " type CRLF] "Content-Range: bytes "}. */
    String boundaryHeader;
    /** {@code "S-E/T" CRLF CRLF} of each range, for multipart. */
    String[] contentRanges;
    /** The copy step, used once file data is to be read into memory. */
    final FileCopy copy = new FileCopy();

    /** Returns a spare state of the calling loop, or a new one. */
    static RangeState take() {
        RangeState s = SPARE.get().pollFirst();
        return s != null ? s : new RangeState();
    }

    /** The request's cleanup: the read buffers go back to the loop's pool, the state to the spare ones. */
    @Override
    public void run() {
        copy.release();
        ranges = null;
        offset = 0;
        boundaryHeader = null;
        contentRanges = null;
        ArrayDeque<RangeState> spare = SPARE.get();
        if (spare.size() < MAX_SPARE) {
            spare.addFirst(this);
        }
    }
}
