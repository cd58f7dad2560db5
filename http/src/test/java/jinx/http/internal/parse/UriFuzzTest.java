package jinx.http.internal.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.Rc;

/**
 * A coverage-guided fuzz target for the URI: nginx's {@code ngx_http_parse_complex_uri()} behind the request line
 * (issue #36), {@code merge_slashes} on and off. {@code mvn verify} replays the committed corpus
 * ({@code src/test/resources/.../UriFuzzTestInputs/}), {@code JAZZER_FUZZ=1} fuzzes ({@code bench/fuzz}). A URI
 * that is taken never escapes the root: its decoded, normalised path starts with {@code /} and has no {@code ..}
 * segment (nor {@code .}, nor, with {@code merge_slashes}, an empty one); that path, percent-encoded again and sent
 * again, is taken as the same path with the same arguments (normalising is idempotent).
 */
class UriFuzzTest {

    /** The state after the request line {@code GET <target> HTTP/1.0} and its URI processing, or null. */
    private static HttpParseState parse(byte[] target, boolean mergeSlashes) {
        byte[] line = new byte[target.length + 16];
        byte[] get = "GET ".getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(get, 0, line, 0, 4);
        System.arraycopy(target, 0, line, 4, target.length);
        byte[] end = " HTTP/1.0\r\n".getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(end, 0, line, 4 + target.length, end.length);
        ByteBuffer b = ByteBuffer.allocateDirect(line.length);
        b.put(line, 0, 4 + target.length + end.length).put((byte) 0).flip();
        HttpParseState r = new HttpParseState();
        if (HttpParser.parseRequestLine(r, b) != Rc.OK) {
            return null;
        }
        return HttpParser.processRequestUri(r, b, mergeSlashes) == Rc.OK ? r : null;
    }

    /** The path percent-encoded but for the characters that mean the same either way. */
    private static String encode(String path) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "/._-~".indexOf(c) >= 0) {
                s.append(c);
            } else {
                s.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return s.toString();
    }

    @FuzzTest(maxDuration = "15s")
    void uri(byte[] in) {
        for (boolean merge : new boolean[] {true, false}) {
            HttpParseState r = parse(in, merge);
            if (r == null || r.uri == null) {
                continue;
            }
            String sent = new String(in, StandardCharsets.ISO_8859_1);
            String path = r.uri;
            assertTrue(path.startsWith("/"), sent + " -> " + path);
            String[] segments = path.split("/", -1);
            for (int i = 1; i < segments.length; i++) {
                String seg = segments[i];
                assertFalse(seg.equals(".."), sent + " escapes: " + path);
                assertFalse(seg.equals(".") && i < segments.length - 1, sent + " keeps a dot segment: " + path);
                assertFalse(merge && seg.isEmpty() && i < segments.length - 1, sent + " keeps //: " + path);
            }
            String again = encode(path) + (r.args.isEmpty() && r.argsStart == HttpParseState.NONE ? "" : "?" + r.args);
            HttpParseState a = parse(again.getBytes(StandardCharsets.ISO_8859_1), merge);
            assertTrue(a != null, sent + " -> " + path + ", sent again as " + again + ", is refused");
            assertEquals(path, a.uri, sent + " sent again as " + again);
            assertEquals(r.args, a.args, sent + " sent again as " + again);
            assertEquals(r.exten, a.exten, sent + " sent again as " + again);
        }
    }
}
