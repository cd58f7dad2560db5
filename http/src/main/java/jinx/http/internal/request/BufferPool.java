package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.LoopLocal;

/**
 * Direct buffers for request headers, reused: one pool per loop thread (a loop is one thread, so the pool needs no
 * lock). nginx allocates {@code c->buffer} and the large header buffers from the connection's pool and frees them
 * while a connection is idle; here a buffer goes back to its free list at request or connection end, and a
 * steady stream of requests allocates no new memory.
 *
 * <p>A buffer follows nginx's {@code ngx_buf_t}: its position is {@code pos} (the next byte to parse), its limit
 * {@code last} (the end of the data received), its capacity {@code end}. {@link #get(int)} returns it empty,
 * position and limit 0.
 */
public final class BufferPool {

    /** Idle buffers kept per size; more go to the garbage collector, as nginx frees them. */
    static final int MAX_IDLE = 1024;

    /** The loops' pools: found without a {@code ThreadLocal} lookup at the places a request takes memory. */
    private static final LoopLocal<BufferPool> POOLS = new LoopLocal<>(BufferPool::new);

    /** nginx's {@code NGX_HTTP_LINGERING_BUFFER_SIZE}: what lingering close reads into, and drops. */
    static final int SCRATCH_SIZE = 4096;
    /** How many freed requests a loop keeps for reuse. */
    static final int MAX_REQUESTS = 64;
    /** How many closed connections' HTTP state a loop keeps for reuse. */
    static final int MAX_CONNECTIONS = 1024;

    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<ByteBuffer>[] bySize = new ArrayDeque[32];
    /** Freed requests: a loop serves one request at a time per connection, so a few cover its connections. */
    private final ArrayDeque<CoreRequest> requests = new ArrayDeque<>();
    /** Closed connections' HTTP state: a connection's accept after another's close allocates nothing. */
    private final ArrayDeque<HttpConnection> connections = new ArrayDeque<>();
    private final ArrayDeque<BufChain> links = new ArrayDeque<>();
    private final ArrayDeque<Buf> bufs = new ArrayDeque<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(SCRATCH_SIZE);
    private final long scratchAddress = jinx.kernel.os.NativeMemory.address(scratch);
    private long allocated;
    private int out;

    /**
     * Returns the pool of the calling loop thread.
     *
     * @return the pool
     */
    public static BufferPool current() {
        return POOLS.get();
    }

    /**
     * Takes a buffer of {@code size} bytes, empty.
     *
     * @param size the capacity
     * @return the buffer
     */
    public ByteBuffer get(int size) {
        ArrayDeque<ByteBuffer> list = list(size);
        ByteBuffer b = list == null ? null : list.pollFirst();
        if (b == null) {
            b = ByteBuffer.allocateDirect(size);
            allocated++;
        }
        out++;
        b.clear().limit(0);
        return b;
    }

    /**
     * Gives a buffer back; null is ignored.
     *
     * @param b a buffer {@link #get(int)} returned, not used afterwards
     */
    public void release(ByteBuffer b) {
        if (b == null) {
            return;
        }
        out--;
        ArrayDeque<ByteBuffer> list = list(b.capacity());
        if (list == null) {
            list = new ArrayDeque<>();
            free.put(b.capacity(), list);
            if (Integer.bitCount(b.capacity()) == 1) {
                bySize[Integer.numberOfTrailingZeros(b.capacity())] = list;
            }
        }
        if (list.size() < MAX_IDLE) {
            list.addFirst(b);
        }
    }

    /** The free list of a size: power-of-two sizes, the output and header buffers, without boxing the size. */
    private ArrayDeque<ByteBuffer> list(int size) {
        if (Integer.bitCount(size) == 1) {
            return bySize[Integer.numberOfTrailingZeros(size)];
        }
        return free.get(size);
    }

    /**
     * The HTTP state of an accepted connection: a closed connection's kept by {@link #recycle(HttpConnection)},
     * attached to {@code c}, or a new one.
     *
     * @param c the accepted connection
     * @return its HTTP state
     */
    HttpConnection connection(Connection c) {
        HttpConnection hc = connections.pollFirst();
        return hc != null ? hc.attach(c) : new HttpConnection(c, this);
    }

    /**
     * Keeps a closed connection's HTTP state for a later {@link #connection}: once its buffers are back, nothing
     * else refers to it but the code that closed it, which returns before the loop accepts again.
     *
     * @param hc the closed connection's state
     */
    void recycle(HttpConnection hc) {
        if (!hc.pooled && hc.pool == this && hc.busy.isEmpty() && hc.free.isEmpty()
            && connections.size() < MAX_CONNECTIONS) {
            hc.pooled = true;
            connections.addFirst(hc);
        }
    }

    /**
     * A request for {@code hc}: a freed one kept by {@link #recycle}, made new again, or a new one.
     *
     * @param hc the connection
     * @return the request
     */
    CoreRequest request(HttpConnection hc) {
        CoreRequest r = requests.pollFirst();
        if (r != null && r.fits(hc)) {
            return r.reuse(hc);
        }
        return new CoreRequest(hc);
    }

    /**
     * Keeps a freed request for reuse by a later {@link #request}. Called once nothing will make a request of the
     * connection before the loop's next event: the code that freed the request may still read it until it returns.
     *
     * @param r the freed request
     */
    void recycle(CoreRequest r) {
        if (r.fits(r.hc) && requests.size() < MAX_REQUESTS && !requests.contains(r)) {
            requests.addFirst(r);
        }
    }

    /**
     * A chain link holding {@code b}, from this loop's free links: the write filter's links live until sent.
     *
     * @param b the buffer
     * @return the link, its {@code next} null
     */
    public BufChain link(Buf b) {
        BufChain cl = links.pollFirst();
        if (cl == null) {
            return new BufChain(b, null);
        }
        cl.buf = b;
        return cl;
    }

    /**
     * Gives a link back; nobody may hold it.
     *
     * @param cl the link
     */
    public void free(BufChain cl) {
        cl.buf = null;
        cl.next = null;
        if (links.size() < MAX_IDLE) {
            links.addFirst(cl);
        }
    }

    /**
     * An empty buffer descriptor from this loop's free ones, as {@code new Buf()} makes it.
     *
     * @return the descriptor
     */
    public Buf buf() {
        Buf b = bufs.pollFirst();
        return b == null ? new Buf() : b;
    }

    /**
     * Gives a buffer descriptor back, made empty; nobody may hold it.
     *
     * @param b the descriptor
     */
    public void free(Buf b) {
        b.mem = null;
        b.fileFd = -1;
        b.fileName = null;
        b.filePos = 0;
        b.fileLast = 0;
        b.inFile = false;
        b.last = false;
        b.lastInChain = false;
        b.flush = false;
        b.sync = false;
        b.temporary = false;
        b.tag = null;
        if (bufs.size() < MAX_IDLE) {
            bufs.addFirst(b);
        }
    }

    /** How many freed requests wait for reuse (for tests). */
    int spareRequests() {
        return requests.size();
    }

    /**
     * Returns the loop's scratch buffer: bytes read only to be dropped (lingering close, a peek), never kept
     * across calls.
     *
     * @return the buffer, cleared
     */
    public ByteBuffer scratch() {
        return scratch.clear();
    }

    /**
     * Returns the native address of {@link #scratch()}.
     *
     * @return the address
     */
    public long scratchAddress() {
        return scratchAddress;
    }

    /**
     * Returns how many buffers were ever allocated (tests check that steady serving allocates none).
     *
     * @return the count
     */
    public long allocated() {
        return allocated;
    }

    /**
     * Returns how many buffers are taken and not given back (tests check that nothing leaks).
     *
     * @return the count
     */
    public int outstanding() {
        return out;
    }
}
