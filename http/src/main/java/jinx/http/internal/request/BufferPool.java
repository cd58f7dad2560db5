package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

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

    private static final ThreadLocal<BufferPool> POOLS = ThreadLocal.withInitial(BufferPool::new);

    /** nginx's {@code NGX_HTTP_LINGERING_BUFFER_SIZE}: what lingering close reads into, and drops. */
    static final int SCRATCH_SIZE = 4096;

    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
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
        ArrayDeque<ByteBuffer> list = free.get(size);
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
        ArrayDeque<ByteBuffer> list = free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>());
        if (list.size() < MAX_IDLE) {
            list.addFirst(b);
        }
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
