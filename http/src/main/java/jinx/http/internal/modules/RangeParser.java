package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.Rc;

/**
 * nginx's {@code ngx_http_range_parse()}: the byte ranges of a {@code Range: bytes=...} value against a response
 * of known length.
 */
final class RangeParser {

    private static final long CUTOFF = Long.MAX_VALUE / 10;
    private static final long CUTLIM = Long.MAX_VALUE % 10;

    /**
     * What parsing found.
     *
     * @param rc {@link Rc#OK}, {@link Rc#DECLINED} (send the whole response) or 416
     * @param ranges the satisfiable ranges, {@code {start, end}} with {@code end} exclusive
     */
    record Result(int rc, List<long[]> ranges) {
    }

    private RangeParser() {
    }

    /**
     * Parses the ranges, in one loop as nginx's, so that the two can be read side by side.
     *
     * @param value the header's value, {@code bytes=} included
     * @param contentLength the response's length
     * @param maxRanges how many ranges are allowed ({@code max_ranges}; 1 for a single-range response)
     * @return the result
     */
    static Result parse(String value, long contentLength, int maxRanges) {
        List<long[]> ranges = new ArrayList<>();
        int left = maxRanges;
        long size = 0;
        int p = 6;
        for (;;) {
            long start = 0;
            long end = 0;
            boolean suffix = false;
            p = spaces(value, p);
            if (at(value, p) != '-') {
                if (!digit(at(value, p))) {
                    return notSatisfiable();
                }
                while (digit(at(value, p))) {
                    int d = value.charAt(p++) - '0';
                    if (start >= CUTOFF && (start > CUTOFF || d > CUTLIM)) {
                        return notSatisfiable();
                    }
                    start = start * 10 + d;
                }
                p = spaces(value, p);
                if (at(value, p++) != '-') {
                    return notSatisfiable();
                }
                p = spaces(value, p);
                if (at(value, p) == ',' || at(value, p) == '\0') {
                    end = contentLength;
                    if (start < end) {
                        ranges.add(new long[] {start, end});
                        if (size > Long.MAX_VALUE - (end - start)) {
                            return notSatisfiable();
                        }
                        size += end - start;
                        if (left-- == 0) {
                            return new Result(Rc.DECLINED, ranges);
                        }
                    }
                    if (at(value, p++) != ',') {
                        break;
                    }
                    continue;
                }
            } else {
                suffix = true;
                p++;
            }
            if (!digit(at(value, p))) {
                return notSatisfiable();
            }
            while (digit(at(value, p))) {
                int d = value.charAt(p++) - '0';
                if (end >= CUTOFF && (end > CUTOFF || d > CUTLIM)) {
                    return notSatisfiable();
                }
                end = end * 10 + d;
            }
            p = spaces(value, p);
            if (at(value, p) != ',' && at(value, p) != '\0') {
                return notSatisfiable();
            }
            if (suffix) {
                start = end < contentLength ? contentLength - end : 0;
                end = contentLength - 1;
            }
            end = end >= contentLength ? contentLength : end + 1;
            if (start < end) {
                ranges.add(new long[] {start, end});
                // the sum of the ranges must not wrap round into a size that passes (current nginx; issue #36)
                if (size > Long.MAX_VALUE - (end - start)) {
                    return notSatisfiable();
                }
                size += end - start;
                if (left-- == 0) {
                    return new Result(Rc.DECLINED, ranges);
                }
            }
            if (at(value, p++) != ',') {
                break;
            }
        }
        if (ranges.isEmpty()) {
            return notSatisfiable();
        }
        if (size > contentLength) {
            return new Result(Rc.DECLINED, ranges);
        }
        return new Result(Rc.OK, ranges);
    }

    private static Result notSatisfiable() {
        return new Result(CoreOutput.RANGE_NOT_SATISFIABLE, List.of());
    }

    /** The character at {@code p}, or NUL past the end (nginx's strings end with one). */
    private static char at(String s, int p) {
        return p < s.length() ? s.charAt(p) : '\0';
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int spaces(String s, int p) {
        while (at(s, p) == ' ') {
            p++;
        }
        return p;
    }
}
