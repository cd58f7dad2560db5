package jinx.http.internal.parse;

import static jinx.http.internal.parse.ParseTesting.byteByByte;
import static jinx.http.internal.parse.ParseTesting.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.Rc;

/**
 * Coverage-guided fuzz targets for the request line, header line and chunked parsers (issue #36). A plain
 * {@code mvn verify} replays the committed corpus ({@code src/test/resources/.../HttpParsersFuzzTestInputs/}); with
 * {@code JAZZER_FUZZ=1} Jazzer fuzzes each target ({@code bench/fuzz}). The invariants are about framing, not only
 * "no exception": the same bytes give the same parse whole, one byte at a time and (headers) from a heap buffer,
 * where the direct buffer's one-pass fast paths do not run; and what a parser reports, serialised again, parses to
 * the same method, target, version, header or body, and leaves the same bytes after it.
 */
class HttpParsersFuzzTest {

    private static ByteBuffer direct(byte[] in) {
        ByteBuffer b = ByteBuffer.allocateDirect(in.length);
        b.put(in).flip();
        return b;
    }

    private static String text(byte[] in) {
        return new String(in, StandardCharsets.ISO_8859_1);
    }

    @FuzzTest(maxDuration = "15s")
    void requestLine(byte[] in) {
        ByteBuffer whole = direct(in);
        HttpParseState a = new HttpParseState();
        int rc = HttpParser.parseRequestLine(a, whole);
        ByteBuffer heap = ByteBuffer.wrap(in.clone());
        HttpParseState h = new HttpParseState();
        int heapRc = HttpParser.parseRequestLine(h, heap);
        ByteBuffer split = direct(in);
        HttpParseState s = new HttpParseState();
        int splitRc = byteByByte(s, split, HttpParser::parseRequestLine);
        // the one-pass parser of a direct buffer, the state machine, and the state machine resumed at every byte
        // agree; after an error only the answer counts (nginx finalizes the request, the state is dropped)
        assertSame(a, rc, whole, h, heapRc, heap, in);
        assertSame(a, rc, whole, s, splitRc, split, in);
        if (rc != Rc.OK) {
            return;
        }
        assertTrue(a.requestStart <= a.requestEnd && a.requestEnd <= whole.position(), snapshot(a, rc, whole));
        if (a.httpVersion < 1000) {
            return;
        }
        // written again as "METHOD target HTTP/x.y": the same method, target, version and URI flags
        String method = HttpParser.methodName(a, whole);
        String target = target(a, whole);
        String again = method + " " + target + " HTTP/" + a.httpMajor + "." + a.httpMinor + "\r\n";
        ByteBuffer b = direct(again.getBytes(StandardCharsets.ISO_8859_1));
        HttpParseState r = new HttpParseState();
        assertEquals(Rc.OK, HttpParser.parseRequestLine(r, b), again);
        assertEquals(method, HttpParser.methodName(r, b), again);
        assertEquals(a.method, r.method, again);
        assertEquals(target, target(r, b), again);
        assertEquals(a.httpVersion, r.httpVersion, again);
        assertEquals(a.complexUri + " " + a.quotedUri + " " + a.plusInUri + " " + a.emptyPathInUri,
            r.complexUri + " " + r.quotedUri + " " + r.plusInUri + " " + r.emptyPathInUri, again);
    }

    /** The request target as sent: absolute form from its scheme, authority form (CONNECT), or the URI. */
    private static String target(HttpParseState r, ByteBuffer b) {
        if (r.schemaStart != HttpParseState.NONE) {
            // without a path nginx points the URI at the '/' of "://": the target ends with the authority
            int authorityEnd = r.portEnd != HttpParseState.NONE ? r.portEnd : r.hostEnd;
            return HttpParser.string(b, r.schemaStart, r.uriStart < r.hostStart ? authorityEnd : r.uriEnd);
        }
        if (r.method == jinx.http.HttpRequest.CONNECT) {
            return HttpParser.string(b, r.hostStart, r.portEnd != HttpParseState.NONE ? r.portEnd : r.hostEnd);
        }
        return HttpParser.string(b, r.uriStart, r.uriEnd);
    }

    private static boolean failed(int rc) {
        return rc != Rc.OK && rc != Rc.AGAIN && rc != HttpParser.PARSE_HEADER_DONE;
    }

    private static void assertSame(HttpParseState a, int rc, ByteBuffer ab, HttpParseState b, int brc, ByteBuffer bb,
                                   byte[] in) {
        if (failed(rc) || failed(brc)) {
            assertEquals(rc, brc, text(in));
        } else {
            assertEquals(snapshot(a, rc, ab), snapshot(b, brc, bb), text(in));
        }
    }

    @FuzzTest(maxDuration = "15s")
    void headerLine(byte[] in) {
        for (boolean underscores : new boolean[] {false, true}) {
            ByteBuffer whole = direct(in);
            HttpParseState a = new HttpParseState();
            int rc = HttpParser.parseHeaderLine(a, whole, underscores);
            ByteBuffer heap = ByteBuffer.wrap(in.clone());
            HttpParseState h = new HttpParseState();
            int heapRc = HttpParser.parseHeaderLine(h, heap, underscores);
            ByteBuffer split = direct(in);
            HttpParseState s = new HttpParseState();
            int splitRc = byteByByte(s, split, (st, buf) -> HttpParser.parseHeaderLine(st, buf, underscores));
            assertSame(a, rc, whole, h, heapRc, heap, in);
            assertSame(a, rc, whole, s, splitRc, split, in);
            if (rc != Rc.OK) {
                continue;
            }
            // a header line's name and value, written again as "name: value", are the same name and value: a
            // value never starts or ends with a space and holds no CR, LF or NUL
            String name = HttpParser.string(whole, a.headerNameStart, a.headerNameEnd);
            String value = HttpParser.string(whole, a.headerStart, a.headerEnd);
            assertTrue(value.isEmpty() || value.charAt(0) != ' ' && value.charAt(value.length() - 1) != ' '
                && value.indexOf('\r') < 0 && value.indexOf('\n') < 0 && value.indexOf('\0') < 0, value);
            String again = name + ": " + value + "\r\n";
            ByteBuffer b = direct(again.getBytes(StandardCharsets.ISO_8859_1));
            HttpParseState r = new HttpParseState();
            assertEquals(Rc.OK, HttpParser.parseHeaderLine(r, b, underscores), again);
            assertEquals(name, HttpParser.string(b, r.headerNameStart, r.headerNameEnd), again);
            assertEquals(value, HttpParser.string(b, r.headerStart, r.headerEnd), again);
            assertEquals(a.invalidHeader, r.invalidHeader, again);
            assertEquals(a.headerHash, r.headerHash, again);
        }
    }

    @FuzzTest(maxDuration = "15s")
    void chunked(byte[] in) {
        String body = text(in);
        // the pieces in heap buffers: the parser reads both kinds, and a direct buffer per byte holds memory
        // until the next collection (4 GB of RSS while fuzzing)
        List<ByteBuffer> one = new ArrayList<>();
        for (byte x : in) {
            one.add(ByteBuffer.wrap(new byte[] {x}));
        }
        ChunkedTest.Decoded whole = ChunkedTest.decoded(List.of(direct(in)), false);
        // the same body in one buffer, one byte per buffer, and cut in two: the same data, the same end
        assertEquals(whole, ChunkedTest.decoded(one, false), body);
        int cut = in.length / 3;
        List<ByteBuffer> two = List.of(ByteBuffer.wrap(Arrays.copyOfRange(in, 0, cut)),
            ByteBuffer.wrap(Arrays.copyOfRange(in, cut, in.length)));
        assertEquals(whole, ChunkedTest.decoded(two, false), body);
        if (!whole.outcome().equals("DONE")) {
            return;
        }
        assertTrue(body.endsWith(whole.rest()), body);
        // the data as one chunk, then the bytes that followed the body: the same data and the same rest
        String data = whole.data();
        String again = (data.isEmpty() ? "" : Integer.toHexString(data.length()) + "\r\n" + data + "\r\n")
            + "0\r\n\r\n" + whole.rest();
        assertEquals(whole, ChunkedTest.decoded(List.of(direct(again.getBytes(StandardCharsets.ISO_8859_1))), false),
            again);
    }
}
