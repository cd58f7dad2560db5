package jinx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.Rc;

/**
 * A coverage-guided fuzz target for an upstream's response as {@link ResponseParser} reads it (issue #36): status
 * line, header lines, and a chunked body when the header says so. {@code mvn verify} replays the committed corpus
 * ({@code src/test/resources/.../ResponseParserFuzzTestInputs/}), {@code JAZZER_FUZZ=1} fuzzes
 * ({@code bench/fuzz}). The framing is the same whether the bytes arrive at once, one at a time or seven at a time
 * (status, headers, body data, where the response ends); and what was read, written again as a plain response
 * (the status line, {@code name: value} lines, the body as one chunk, then the bytes that followed), reads the same.
 */
class ResponseParserFuzzTest {

    /** What a parser read from the bytes, arriving {@code step} at a time: one line per fact. */
    static List<String> read(byte[] in, int step) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(in.length, 1));
        b.put(in, 0, in.length).flip();
        b.limit(Math.min(step, in.length));
        ResponseParser p = new ResponseParser();
        List<String> out = new ArrayList<>();
        int rc;
        while ((rc = p.parseStatusLine(b)) == Rc.AGAIN) {
            if (!more(b, in.length, step)) {
                out.add("incomplete status line");
                return out;
            }
        }
        if (rc != Rc.OK) {
            out.add("no status line " + rc);
            return out;
        }
        // the line from the code's first digit, as nginx's status->start: past the three characters that hold the
        // code (nginx skips spaces among its digits, so "2 00 OK" is a 200 whose text starts at " 00") the reason
        out.add("status " + p.httpVersion() + " " + p.status() + " [" + p.statusLine().substring(3) + "]");
        boolean chunked = false;
        for (;;) {
            rc = p.parseHeaderLine(b);
            if (rc == Rc.AGAIN) {
                if (!more(b, in.length, step)) {
                    out.add("incomplete header");
                    return out;
                }
                continue;
            }
            if (rc != Rc.OK) {
                break;
            }
            out.add("header [" + p.name() + "] [" + p.value() + "]");
            chunked |= p.name().equalsIgnoreCase("Transfer-Encoding") && p.value().equalsIgnoreCase("chunked");
        }
        if (rc != ResponseParser.HEADER_DONE) {
            out.add("invalid header " + rc);
            return out;
        }
        if (chunked) {
            StringBuilder data = new StringBuilder();
            for (;;) {
                rc = p.parseChunked(b);
                if (rc == Rc.OK) {
                    int take = (int) Math.min(p.chunkSize(), b.remaining());
                    for (int i = 0; i < take; i++) {
                        data.append((char) (b.get() & 0xff));
                    }
                    p.consumed(take);
                    if (p.chunkSize() > 0 && !b.hasRemaining() && !more(b, in.length, step)) {
                        out.add("body " + data + " incomplete");
                        return out;
                    }
                    continue;
                }
                if (rc == Rc.AGAIN) {
                    if (!more(b, in.length, step)) {
                        out.add("body " + data + " incomplete");
                        return out;
                    }
                    continue;
                }
                out.add("body " + data + (rc == Rc.DONE ? " done" : " error " + rc));
                if (rc != Rc.DONE) {
                    return out;
                }
                break;
            }
        }
        b.limit(in.length);
        out.add("rest " + StandardCharsets.ISO_8859_1.decode(b));
        return out;
    }

    /** Lets {@code step} more bytes arrive; false when there are none. */
    private static boolean more(ByteBuffer b, int length, int step) {
        if (b.limit() == length) {
            return false;
        }
        b.limit(Math.min(length, b.limit() + step));
        return true;
    }

    @FuzzTest(maxDuration = "15s")
    void response(byte[] in) {
        List<String> whole = read(in, in.length + 1);
        String text = new String(in, StandardCharsets.ISO_8859_1);
        assertEquals(whole, read(in, 1), text);
        assertEquals(whole, read(in, 7), text);
        String last = whole.get(whole.size() - 1);
        if (!last.startsWith("rest ")) {
            return;
        }
        // written again: the status line, the headers, the body as one chunk, the rest
        StringBuilder again = new StringBuilder();
        boolean body = false;
        for (String fact : whole) {
            if (fact.startsWith("status ")) {
                int version = Integer.parseInt(fact.split(" ")[1]);
                // three digits, as they came: nginx's parser takes "000" (the upstream judges the code later)
                String code = String.format("%03d", Integer.parseInt(fact.split(" ")[2]));
                String reason = fact.substring(fact.indexOf('[') + 1, fact.length() - 1);
                again.append("HTTP/").append(version / 1000).append('.').append(version % 1000).append(' ')
                    .append(code).append(reason).append("\r\n");
            } else if (fact.startsWith("header ")) {
                int mid = fact.indexOf("] [");
                again.append(fact, 8, mid).append(": ").append(fact, mid + 3, fact.length() - 1).append("\r\n");
            } else if (fact.startsWith("body ")) {
                String data = fact.substring(5, fact.length() - " done".length());
                again.append("\r\n");
                if (!data.isEmpty()) {
                    again.append(Integer.toHexString(data.length())).append("\r\n").append(data).append("\r\n");
                }
                again.append("0\r\n\r\n");
                body = true;
            } else {
                if (!body) {
                    again.append("\r\n");
                }
                again.append(fact, 5, fact.length());
            }
        }
        byte[] bytes = again.toString().getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(bytes.length <= 3 * in.length + 64, "grew: " + again);
        assertEquals(whole, read(bytes, bytes.length + 1), text + " written again as " + again);
    }
}
