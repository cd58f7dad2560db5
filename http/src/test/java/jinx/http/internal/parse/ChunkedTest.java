package jinx.http.internal.parse;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.ParseTesting.direct;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class ChunkedTest {

    /** The outcome of decoding a body split into buffers: DONE, ERROR or AGAIN, the data, and what followed. */
    record Decoded(String outcome, String data, String rest) {

        /** "DONE:data:rest", "ERROR" or "AGAIN:data". */
        @Override
        public String toString() {
            return switch (outcome) {
                case "DONE" -> "DONE:" + data + ":" + rest;
                case "ERROR" -> "ERROR";
                default -> "AGAIN:" + data;
            };
        }
    }

    /** The outcome of decoding a body split into buffers: "DONE:data:rest", "ERROR" or "AGAIN:data". */
    static String decode(List<ByteBuffer> buffers, boolean keepTrailers) {
        return decoded(buffers, keepTrailers).toString();
    }

    /** Decodes a body split into buffers, as nginx's {@code ngx_http_request_body_chunked_filter()} takes it. */
    static Decoded decoded(List<ByteBuffer> buffers, boolean keepTrailers) {
        ChunkedState ctx = new ChunkedState();
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (int k = 0; k < buffers.size(); k++) {
            ByteBuffer b = buffers.get(k);
            for (;;) {
                int rc = HttpParser.parseChunked(ctx, b, keepTrailers);
                if (rc == Rc.OK) {
                    // as nginx's ngx_http_request_body_chunked_filter(): take what there is of the chunk
                    int n = (int) Math.min(b.remaining(), ctx.size);
                    for (int i = 0; i < n; i++) {
                        data.write(b.get());
                    }
                    ctx.size -= n;
                    continue;
                }
                if (rc == Rc.DONE) {
                    StringBuilder rest = new StringBuilder();
                    for (ByteBuffer r = b; r != null; r = ++k < buffers.size() ? buffers.get(k) : null) {
                        while (r.hasRemaining()) {
                            rest.append((char) (r.get() & 0xff));
                        }
                    }
                    return new Decoded("DONE", data.toString(StandardCharsets.ISO_8859_1), rest.toString());
                }
                if (rc == Rc.ERROR) {
                    return new Decoded("ERROR", "", "");
                }
                assertEquals(Rc.AGAIN, rc);
                assertEquals(0, b.remaining(), "AGAIN uses the buffer up");
                break;
            }
        }
        return new Decoded("AGAIN", data.toString(StandardCharsets.ISO_8859_1), "");
    }

    private static String whole(String body) {
        return decode(List.of(direct(body)), false);
    }

    /** Each byte in a buffer of its own, as if every read returned one byte. */
    private static String oneBytePerBuffer(String body, boolean keepTrailers) {
        List<ByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < body.length(); i++) {
            buffers.add(direct(body.substring(i, i + 1)));
        }
        return decode(buffers, keepTrailers);
    }

    /** A body and what decoding it gives: "DONE:data:rest", "AGAIN:data" or "ERROR". */
    private static final String[][] BODIES = {
        {"5\r\nhello\r\n0\r\n\r\n", "DONE:hello:"},
        {"5\r\nhello\r\n0\r\n\r\nNEXT", "DONE:hello:NEXT"},
        {"0\r\n\r\n", "DONE::"},
        {"A\r\n0123456789\r\n0\r\n\r\n", "DONE:0123456789:"},
        {"a\r\n0123456789\r\n0\r\n\r\n", "DONE:0123456789:"},
        {"1F\r\n0123456789012345678901234567890\r\n0\r\n\r\n", "DONE:0123456789012345678901234567890:"},
        {"3\r\nabc\r\n2\r\nde\r\n1\r\nf\r\n0\r\n\r\n", "DONE:abcdef:"},
        {"0005\r\nhello\r\n000\r\n\r\n", "DONE:hello:"},
        {"000000000000000000000000000005\r\nhello\r\n0\r\n\r\n", "DONE:hello:"},
        {"5;name=value\r\nhello\r\n0;last\r\n\r\n", "DONE:hello:"},
        {"5 ; a=b\r\nhello\r\n0\t\r\n\r\n", "DONE:hello:"},
        {"5\t\r\nhello\r\n0 \r\n\r\n", "DONE:hello:"},
        {"0\r\nX-Trailer: 1\r\nY: 2\r\n\r\n", "DONE::"},
        {"2\r\n\r\n\r\n0\r\n\r\n", "DONE:\r\n:"},
        {"5\r\nhel", "AGAIN:hel"},
        {"5\r\nhello\r\n0\r\n", "AGAIN:hello"},
        {"5\r\nhello", "AGAIN:hello"},
        {"ffffffffffffffffff\r\n", "ERROR"},
        {"ffffffffffffffff\r\n", "ERROR"},
        {"8000000000000000\r\n", "ERROR"},
        {"7fffffffffffffff\r\n", "ERROR"},
        {"800000000000000\r\n", "ERROR"},
        {"g\r\n", "ERROR"},
        {"-1\r\n", "ERROR"},
        {"+1\r\n", "ERROR"},
        {" 5\r\nhello\r\n0\r\n\r\n", "ERROR"},
        {"\r\n5\r\nhello\r\n0\r\n\r\n", "ERROR"},
        {"0x5\r\nhello\r\n0\r\n\r\n", "ERROR"},
        {"5\nhello\r\n0\r\n\r\n", "ERROR"},
        {"5\rhello", "ERROR"},
        {"5\r\nhelloX\r\n0\r\n\r\n", "ERROR"},
        {"5\r\nhello\n0\r\n\r\n", "ERROR"},
        {"5\r\nhello\rX", "ERROR"},
        {"5;ext\nhello", "ERROR"},
        {"0\n\n", "ERROR"},
        {"0\r\n\n", "ERROR"},
        {"0;x\n", "ERROR"},
        {"0\r\nX: 1\n\r\n", "ERROR"},
        {"0\r\nX: 1\r\r\n", "ERROR"},
        {"0\r\n\rX", "ERROR"},
    };

    static Stream<Arguments> bodies() {
        return Arrays.stream(BODIES).map(c -> Arguments.of(c[0], c[1]));
    }

    @ParameterizedTest(name = "{index}")
    @MethodSource("bodies")
    void decodesAsNginx(String body, String expected) {
        assertEquals(expected, whole(body), body);
        assertEquals(expected, oneBytePerBuffer(body, false), "one byte per buffer: " + body);
    }

    @Test
    void largestSizeThatFitsAnOffT() {
        // nginx refuses a size digit once the size is above NGX_MAX_OFF_T_VALUE / 16: 15 hex digits at most
        ChunkedState ctx = new ChunkedState();
        ByteBuffer b = direct("7ffffffffffffff\r\n");
        assertEquals(Rc.AGAIN, HttpParser.parseChunked(ctx, b));
        assertEquals(0x7ffffffffffffffL, ctx.size);
        assertEquals(0x7ffffffffffffffL + 7, ctx.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "5;x", "5\r", "5\r\n", "5\r\nhe", "5\r\nhello", "5\r\nhello\r",
        "5\r\nhello\r\n", "0", "0;x", "0\r", "0\r\n", "0\r\nX", "0\r\nX\r", "0\r\n\r"})
    void lengthIsWhatMustStillCome(String prefix) {
        ChunkedState ctx = new ChunkedState();
        ByteBuffer b = direct(prefix);
        int rc;
        do {
            rc = HttpParser.parseChunked(ctx, b);
            if (rc == Rc.OK) {
                int n = (int) Math.min(b.remaining(), ctx.size);
                b.position(b.position() + n);
                ctx.size -= n;
            }
        } while (rc == Rc.OK);
        assertEquals(Rc.AGAIN, rc, prefix);
        // the shortest completion: the chunk's remaining data, then CRLF "0" CRLF CRLF as needed
        int expected = shortestRest(prefix);
        assertEquals(expected, ctx.length, prefix);
    }

    /** Bytes nginx counts as still needed after a prefix; from the states of ngx_http_parse_chunked(). */
    private static int shortestRest(String prefix) {
        switch (prefix) {
        case "":
            return 5;
        case "5":
            return 2 + 5 + 7;
        case "5;x":
            return 2 + 5 + 7;
        case "5\r":
            return 1 + 5 + 7;
        case "5\r\n":
            return 5 + 7;
        case "5\r\nhe":
            return 3 + 7;
        case "5\r\nhello":
            return 7;
        case "5\r\nhello\r":
            return 6;
        case "5\r\nhello\r\n":
            return 5;
        case "0":
            return 4;
        case "0;x":
            return 4;
        case "0\r":
            return 3;
        case "0\r\n":
            return 2;
        case "0\r\nX":
            return 4;
        case "0\r\nX\r":
            return 3;
        case "0\r\n\r":
            return 1;
        default:
            throw new IllegalArgumentException(prefix);
        }
    }

    @Test
    void keptTrailersAreLeftForTheHeaderParser() {
        String body = "3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n";
        assertEquals("DONE:abc:X-T: 1\r\n\r\n", decode(List.of(direct(body)), true));
        assertEquals("DONE:abc:X-T: 1\r\n\r\n", oneBytePerBuffer(body, true));
    }

    @Test
    void stateIsResetAfterDone() {
        ChunkedState ctx = new ChunkedState();
        ByteBuffer b = direct("0\r\n\r\n0\r\n\r\n");
        assertEquals(Rc.DONE, HttpParser.parseChunked(ctx, b));
        assertEquals(0, ctx.state);
        assertEquals(5, b.position());
        assertEquals(Rc.DONE, HttpParser.parseChunked(ctx, b));
    }

    @Test
    void errorLeavesThePosition() {
        ChunkedState ctx = new ChunkedState();
        ByteBuffer b = direct("5\r\nhelloZ");
        assertEquals(Rc.OK, HttpParser.parseChunked(ctx, b));
        b.position(b.position() + 5);
        ctx.size = 0;
        int at = b.position();
        assertEquals(Rc.ERROR, HttpParser.parseChunked(ctx, b));
        assertEquals(at, b.position());
    }
}
