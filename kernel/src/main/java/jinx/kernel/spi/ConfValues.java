package jinx.kernel.spi;

/**
 * Parsers of nginx's value syntax: numbers, sizes ({@code 10k}), offsets ({@code 1g}) and times ({@code 1h30m}),
 * as {@code src/core/ngx_parse.c} and {@code ngx_atoi()} of {@code src/core/ngx_string.c} read them on a 64-bit
 * platform. Every parser returns -1 for an invalid value, overflow included, as nginx returns
 * {@code NGX_ERROR}; a valid value is never negative.
 */
public final class ConfValues {

    private static final long KILO = 1024;
    private static final long MEGA = 1024 * 1024;
    private static final long GIGA = 1024 * 1024 * 1024;

    /** The steps of a time, in the order its units must come: nginx's {@code st_start} ... {@code st_last}. */
    private enum Step {
        START, YEAR, MONTH, WEEK, DAY, HOUR, MIN, SEC, MSEC, LAST
    }

    /**
     * What one unit of a time does.
     *
     * @param step the step the unit moves to
     * @param refusedFrom the unit is refused once the time has reached this step
     * @param scale the unit in seconds (in milliseconds for {@code ms})
     */
    private record Unit(Step step, Step refusedFrom, long scale) {
    }

    private static final Unit YEAR = new Unit(Step.YEAR, Step.YEAR, 60 * 60 * 24 * 365);
    private static final Unit MONTH = new Unit(Step.MONTH, Step.MONTH, 60 * 60 * 24 * 30);
    private static final Unit WEEK = new Unit(Step.WEEK, Step.WEEK, 60 * 60 * 24 * 7);
    private static final Unit DAY = new Unit(Step.DAY, Step.DAY, 60 * 60 * 24);
    private static final Unit HOUR = new Unit(Step.HOUR, Step.HOUR, 60 * 60);
    private static final Unit MIN = new Unit(Step.MIN, Step.MIN, 60);
    private static final Unit SEC = new Unit(Step.SEC, Step.SEC, 1);
    private static final Unit MSEC = new Unit(Step.MSEC, Step.MSEC, 1);
    // A space right after digits ends a part in the default unit (seconds), which is refused after seconds or
    // milliseconds were given and makes every later unit refused: ngx_parse_time()'s "case ' '".
    private static final Unit SPACE = new Unit(Step.LAST, Step.SEC, 1);

    private ConfValues() {
    }

    /**
     * Parses a non-negative decimal number, as {@code ngx_atoi()}: digits only, no sign, no spaces.
     *
     * <p>Unlike nginx on a 64-bit platform, which reads an {@code ngx_int_t}, a value above
     * {@link Integer#MAX_VALUE} is refused.
     *
     * @param line the text
     * @return the number, or -1 when the text is empty, not all digits, or too large
     */
    public static int parseNumber(String line) {
        return (int) atoi(line, line.length(), Integer.MAX_VALUE);
    }

    /**
     * Parses a size in bytes, as {@code ngx_parse_size()}: digits with an optional {@code k}/{@code K} (KiB) or
     * {@code m}/{@code M} (MiB) suffix.
     *
     * @param line the text
     * @return the size in bytes, or -1 when invalid or above {@link Long#MAX_VALUE}
     */
    public static long parseSize(String line) {
        return parseScaled(line, false);
    }

    /**
     * Parses a file offset in bytes, as {@code ngx_parse_offset()}: digits with an optional {@code k}/{@code K},
     * {@code m}/{@code M} or {@code g}/{@code G} suffix.
     *
     * @param line the text
     * @return the offset in bytes, or -1 when invalid or above {@link Long#MAX_VALUE}
     */
    public static long parseOffset(String line) {
        return parseScaled(line, true);
    }

    /**
     * Parses a time, as {@code ngx_parse_time()}. A time is parts such as {@code 1h30m} or {@code 1h 30m}, each a
     * number and a unit: {@code y} (365 days), {@code M} (30 days), {@code w}, {@code d}, {@code h}, {@code m},
     * {@code s}, {@code ms}; the units must come from the largest to the smallest; a last number without unit
     * is seconds. Spaces may follow a unit; a space right after a number ends a part in seconds.
     *
     * <p>For seconds, {@code ms} is refused; for milliseconds, {@code y} and {@code M} are refused, as in nginx.
     *
     * @param line the text
     * @param seconds true for a result in seconds ({@code ngx_conf_set_sec_slot}), false for milliseconds
     *     ({@code ngx_conf_set_msec_slot})
     * @return the time in seconds or milliseconds, or -1 when invalid or above {@link Long#MAX_VALUE}
     */
    public static long parseTime(String line, boolean seconds) {
        boolean valid = false;
        long value = 0;
        long total = 0;
        Step step = seconds ? Step.START : Step.MONTH;
        int p = 0;
        int last = line.length();

        while (p < last) {
            char c = line.charAt(p++);
            if (c >= '0' && c <= '9') {
                value = appendDigit(value, c, Long.MAX_VALUE);
                if (value < 0) {
                    return -1;
                }
                valid = true;
                continue;
            }

            Unit unit = unit(c, p < last && line.charAt(p) == 's');
            if (unit == null || step.compareTo(unit.refusedFrom()) >= 0 || unit == MSEC && seconds) {
                return -1;
            }
            if (unit == MSEC) {
                p++;
            }
            step = unit.step();

            long scale = unit.scale();
            long max = Long.MAX_VALUE / scale;
            if (unit != MSEC && !seconds) {
                scale *= 1000;
                max /= 1000;
            }
            if (value > max) {
                return -1;
            }
            value *= scale;
            if (total > Long.MAX_VALUE - value) {
                return -1;
            }
            total += value;
            value = 0;

            while (p < last && line.charAt(p) == ' ') {
                p++;
            }
        }

        if (!valid) {
            return -1;
        }
        // The last number without a unit is seconds.
        if (!seconds) {
            if (value > Long.MAX_VALUE / 1000) {
                return -1;
            }
            value *= 1000;
        }
        return total > Long.MAX_VALUE - value ? -1 : total + value;
    }

    /**
     * Returns the unit a character of a time starts, or null for anything else.
     *
     * @param c the character
     * @param sFollows whether an {@code s} follows it, which makes {@code m} the {@code ms} unit
     * @return the unit, or null
     */
    private static Unit unit(char c, boolean sFollows) {
        switch (c) {
            case 'y':
                return YEAR;
            case 'M':
                return MONTH;
            case 'w':
                return WEEK;
            case 'd':
                return DAY;
            case 'h':
                return HOUR;
            case 'm':
                return sFollows ? MSEC : MIN;
            case 's':
                return SEC;
            case ' ':
                return SPACE;
            default:
                return null;
        }
    }

    private static long parseScaled(String line, boolean giga) {
        int len = line.length();
        if (len == 0) {
            return -1;
        }
        long scale;
        switch (line.charAt(len - 1)) {
            case 'K':
            case 'k':
                scale = KILO;
                break;
            case 'M':
            case 'm':
                scale = MEGA;
                break;
            case 'G':
            case 'g':
                scale = giga ? GIGA : 1;
                break;
            default:
                scale = 1;
        }
        if (scale != 1) {
            len--;
        }
        // ngx_parse_size() checks the number against NGX_MAX_SIZE_T_VALUE / scale before multiplying.
        long size = atoi(line, len, Long.MAX_VALUE);
        if (size == -1 || size > Long.MAX_VALUE / scale) {
            return -1;
        }
        return size * scale;
    }

    /**
     * Reads the first {@code len} characters as a decimal number, as {@code ngx_atoi()}, {@code ngx_atosz()} and
     * {@code ngx_atoof()} do with their own maximum.
     *
     * @param line the text
     * @param len how many characters to read
     * @param max the largest value allowed
     * @return the number, or -1
     */
    private static long atoi(String line, int len, long max) {
        if (len == 0) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < len; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = appendDigit(value, c, max);
            if (value < 0) {
                return -1;
            }
        }
        return value;
    }

    /**
     * Returns {@code value * 10 + digit}, or -1 when that exceeds {@code max}: nginx's cutoff/cutlim test,
     * which refuses before overflowing.
     *
     * @param value the number so far
     * @param digit the next digit character
     * @param max the largest value allowed
     * @return the new number, or -1
     */
    private static long appendDigit(long value, char digit, long max) {
        long cutoff = max / 10;
        long cutlim = max % 10;
        int d = digit - '0';
        if (value >= cutoff && (value > cutoff || d > cutlim)) {
            return -1;
        }
        return value * 10 + d;
    }
}
