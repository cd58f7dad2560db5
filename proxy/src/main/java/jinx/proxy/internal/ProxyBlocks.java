package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;

/**
 * The memory a response's body is received into: nginx's event pipe's raw buffers ({@code p->bufs}, the free ones
 * and the busy ones). Block 0 is the header's buffer ({@code proxy_buffer_size}), holding the body's first bytes;
 * with buffering, {@code proxy_buffers} more of their size, taken from the loop's pool when first needed. The body's
 * bytes are passed on as buffers over a block's memory ({@link #own}), and a block is received into again only once
 * every buffer over it is empty ({@link #free}): sent to the client, or written to the temporary file.
 */
final class ProxyBlocks {

    private final ByteBuffer[] blocks;
    /** The buffers made over each block, in order; {@code outCount} of them are in use. */
    private final Buf[][] out;
    private final int[] outCount;
    private final int size;
    private final Object tag;

    /**
     * The blocks.
     *
     * @param header the header's buffer, block 0
     * @param count how many blocks (1 without buffering: the header's alone)
     * @param size the size of the others
     * @param tag what the buffers made are tagged with
     */
    ProxyBlocks(ByteBuffer header, int count, int size, Object tag) {
        blocks = new ByteBuffer[count];
        out = new Buf[count][];
        outCount = new int[count];
        blocks[0] = header;
        this.size = size;
        this.tag = tag;
    }

    int count() {
        return blocks.length;
    }

    /** Block {@code b}, or null before it was first used (or after block 0 went back to the pool). */
    ByteBuffer block(int b) {
        return blocks[b];
    }

    /** Free block {@code b}, cleared for receiving; taken from the pool the first time. */
    ByteBuffer receive(int b) {
        ByteBuffer block = blocks[b];
        if (block == null) {
            block = ProxyBuffers.get(size);
            blocks[b] = block;
        }
        return block.clear();
    }

    /** A buffer over bytes [from, to) of block {@code b}, counted as the block's until it is empty. */
    BufChain own(int b, int from, int to) {
        Buf buf = Buf.of(blocks[b].duplicate().position(from).limit(to));
        buf.tag = tag;
        Buf[] list = out[b];
        if (list == null) {
            list = new Buf[4];
            out[b] = list;
        } else if (outCount[b] == list.length) {
            list = Arrays.copyOf(list, list.length * 2);
            out[b] = list;
        }
        list[outCount[b]++] = buf;
        return BufChain.of(buf);
    }

    /**
     * A block whose buffers are all empty (or that has none), or -1. With buffering the header's block goes back to
     * the pool once free: the body's blocks are {@code proxy_buffers}' size.
     */
    int free() {
        for (int i = 0; i < blocks.length; i++) {
            if (i == 0 && blocks[0] == null) {
                continue;
            }
            if (busy(i, outCount[i])) {
                continue;
            }
            outCount[i] = 0;
            if (i == 0 && blocks.length > 1) {
                ProxyBuffers.put(blocks[0]);
                blocks[0] = null;
                continue;
            }
            return i;
        }
        return -1;
    }

    /**
     * Whether one of the first {@code passed} buffers over block {@code i} still has data: passed to the client
     * and not sent yet, when the others are queued ({@link ProxySpool}).
     */
    boolean busy(int i, int passed) {
        if (blocks[i] == null) {
            return false;
        }
        Buf[] list = out[i];
        for (int k = 0; k < passed; k++) {
            if (list[k].size() > 0) {
                return true;
            }
        }
        return false;
    }

    /** The buffers made over block {@code i} and in use. */
    int made(int i) {
        return outCount[i];
    }

    /** The request is freed: the blocks go back to the pool. */
    void release() {
        for (int i = 0; i < blocks.length; i++) {
            if (blocks[i] != null) {
                ProxyBuffers.put(blocks[i]);
                blocks[i] = null;
            }
        }
    }
}
