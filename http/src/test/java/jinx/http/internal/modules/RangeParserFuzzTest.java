package jinx.http.internal.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.Rc;

/**
 * A coverage-guided fuzz target for the {@code Range} header (nginx's {@code ngx_http_range_parse()}, issue #36).
 * An input is {@code <content length> <max_ranges> <value after "bytes=">}, or, when it does not start so, the
 * value alone against 10,000 bytes and one range. {@code mvn verify} replays the committed corpus
 * ({@code src/test/resources/.../RangeParserFuzzTestInputs/}), {@code JAZZER_FUZZ=1} fuzzes ({@code bench/fuzz}).
 * Any value gives 200 (declined), 206 or 416; the ranges of a 206 lie in the content, no more than
 * {@code max_ranges} of them and no more bytes than the content has; written again as {@code bytes=a-b,...} they
 * are the same ranges.
 */
class RangeParserFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void ranges(byte[] in) {
        String text = new String(in, StandardCharsets.ISO_8859_1);
        long length = 10_000;
        int max = 1;
        String value = text;
        String[] parts = text.split(" ", 3);
        if (parts.length == 3 && parts[0].matches("[0-9]{1,18}") && parts[1].matches("[0-9]{1,5}")) {
            length = Long.parseLong(parts[0]);
            max = Integer.parseInt(parts[1]);
            value = parts[2];
        }
        RangeParser.Result r = RangeParser.parse("bytes=" + value, length, max);
        assertTrue(r.rc() == Rc.OK || r.rc() == Rc.DECLINED || r.rc() == CoreOutput.RANGE_NOT_SATISFIABLE,
            text + ": " + r.rc());
        if (r.rc() != Rc.OK) {
            return;
        }
        assertTrue(!r.ranges().isEmpty() && r.ranges().size() <= max, text + ": " + r.ranges().size() + " ranges");
        long size = 0;
        for (long[] range : r.ranges()) {
            assertTrue(0 <= range[0] && range[0] < range[1] && range[1] <= length,
                text + ": " + range[0] + "-" + range[1] + " of " + length);
            size = Math.addExact(size, range[1] - range[0]);
        }
        assertTrue(size <= length, text + ": " + size + " bytes of " + length);
        String again = "bytes=" + r.ranges().stream().map(x -> x[0] + "-" + (x[1] - 1))
            .collect(Collectors.joining(","));
        RangeParser.Result a = RangeParser.parse(again, length, max);
        assertEquals(Rc.OK, a.rc(), again);
        assertEquals(show(r), show(a), text + " sent again as " + again);
    }

    private static String show(RangeParser.Result r) {
        return r.rc() + " " + r.ranges().stream().map(x -> x[0] + "-" + x[1]).collect(Collectors.joining(","));
    }
}
