package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntBiFunction;

import jinx.kernel.Rc;

/**
 * Buffers and feeding for the parser tests: direct buffers as the connection reads into them, fed whole or one
 * byte at a time into the same buffer (its limit growing, as {@code recv()} appends to {@code header_in}).
 */
final class ParseTesting {

    private ParseTesting() {
    }

    /** A direct buffer holding {@code s}, one byte per char, position 0, limit at the end. */
    static ByteBuffer direct(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }

    /** A heap buffer holding {@code s}, one byte per char. */
    static ByteBuffer heap(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The bytes {@code from..to} of a buffer as ISO-8859-1 text. */
    static String text(ByteBuffer b, int from, int to) {
        byte[] bytes = new byte[to - from];
        b.get(from, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code parser} over the whole buffer once. */
    static <S> int whole(S state, ByteBuffer b, ToIntBiFunction<S, ByteBuffer> parser) {
        return parser.applyAsInt(state, b);
    }

    /**
     * Feeds the buffer one byte at a time: the limit grows by one before each call that follows an
     * {@link Rc#AGAIN}. Stops at the first answer other than AGAIN, or when every byte was offered.
     */
    static <S> int byteByByte(S state, ByteBuffer b, ToIntBiFunction<S, ByteBuffer> parser) {
        int total = b.limit();
        int rc = Rc.AGAIN;
        for (int lim = b.position() + 1; lim <= total; lim++) {
            b.limit(lim);
            rc = parser.applyAsInt(state, b);
            if (rc != Rc.AGAIN) {
                break;
            }
        }
        b.limit(total);
        return rc;
    }

    /** Every field of a request-line state, for comparing two runs. */
    static String snapshot(HttpParseState r, int rc, ByteBuffer b) {
        return "rc=" + rc + " pos=" + b.position() + " state=" + r.state + " method=" + r.method
                + " req=" + r.requestStart + ".." + r.requestEnd + " methodEnd=" + r.methodEnd
                + " uri=" + r.uriStart + ".." + r.uriEnd + " ext=" + r.uriExt + " args=" + r.argsStart
                + " schema=" + r.schemaStart + ".." + r.schemaEnd + " host=" + r.hostStart + ".." + r.hostEnd
                + " port=" + r.portStart + ".." + r.portEnd + " proto=" + r.httpProtocolStart
                + " v=" + r.httpMajor + "." + r.httpMinor + "/" + r.httpVersion
                + " flags=" + r.complexUri + r.quotedUri + r.plusInUri + r.emptyPathInUri
                + " hdr=" + r.headerNameStart + ".." + r.headerNameEnd + ":" + r.headerStart + ".." + r.headerEnd
                + " hash=" + r.headerHash + " lc=" + r.lowcaseIndex + " invalid=" + r.invalidHeader;
    }
}
