package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import jinx.kernel.LoopLocal;

/**
 * The loop's idle direct buffers by size ({@code proxy_buffer_size}, {@code preread_buffer_size}): a session takes
 * its buffers here and gives them back when it ends, so steady proxying allocates no buffer per session. At most
 * {@link #KEEP} idle buffers of one size are kept.
 */
final class StreamBuffers {

    private static final int KEEP = 512;
    private static final LoopLocal<Map<Integer, ArrayDeque<ByteBuffer>>> IDLE = new LoopLocal<>(HashMap::new);

    private StreamBuffers() {
    }

    static ByteBuffer take(int size) {
        ArrayDeque<ByteBuffer> idle = IDLE.get().get(size);
        ByteBuffer b = idle == null ? null : idle.pollLast();
        return (b == null ? ByteBuffer.allocateDirect(size) : b).clear();
    }

    static void give(ByteBuffer b) {
        if (b == null || !b.isDirect()) {
            return;
        }
        ArrayDeque<ByteBuffer> idle = IDLE.get().computeIfAbsent(b.capacity(), k -> new ArrayDeque<>());
        if (idle.size() < KEEP) {
            idle.addLast(b);
        }
    }
}
