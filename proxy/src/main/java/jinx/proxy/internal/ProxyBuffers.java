package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import jinx.http.ResponseParser;
import jinx.kernel.LoopLocal;

/**
 * The loop's free proxy buffers by size, and its response parsers ({@code proxy_buffer_size}, {@code proxy_buffers}): direct memory taken
 * for a request and given back when the request is freed, so a steady proxy allocates no buffer per request.
 * At most {@link #KEEP} buffers of a size are kept idle.
 */
final class ProxyBuffers {

    private static final int KEEP = 1024;
    private static final LoopLocal<Map<Integer, ArrayDeque<ByteBuffer>>> FREE = new LoopLocal<>(HashMap::new);

    private static final LoopLocal<ArrayDeque<ResponseParser>> PARSERS = new LoopLocal<>(ArrayDeque::new);

    private ProxyBuffers() {
    }

    /** A response parser of the loop's, reset: its parse state is a few hundred bytes a request need not make. */
    static ResponseParser parser() {
        ResponseParser p = PARSERS.get().pollFirst();
        if (p == null) {
            return new ResponseParser();
        }
        p.reset();
        return p;
    }

    static void put(ResponseParser p) {
        ArrayDeque<ResponseParser> q = PARSERS.get();
        if (q.size() < KEEP) {
            q.addFirst(p);
        }
    }

    static ByteBuffer get(int size) {
        ArrayDeque<ByteBuffer> q = FREE.get().get(size);
        ByteBuffer b = q == null ? null : q.pollFirst();
        if (b == null) {
            b = ByteBuffer.allocateDirect(size);
        }
        return b.clear();
    }

    static void put(ByteBuffer b) {
        ArrayDeque<ByteBuffer> q = FREE.get().computeIfAbsent(b.capacity(), k -> new ArrayDeque<>());
        if (q.size() < KEEP) {
            q.addFirst(b);
        }
    }
}
