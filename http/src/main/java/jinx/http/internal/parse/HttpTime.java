package jinx.http.internal.parse;

/**
 * HTTP dates: nginx's {@code ngx_parse_http_time()} of {@code src/core/ngx_parse_time.c} (formerly
 * {@code ngx_http_parse_time()} of {@code src/http/ngx_http_parse_time.c}), for {@code If-Modified-Since},
 * {@code If-Unmodified-Since}, {@code If-Range} and upstreams' {@code Expires} and {@code Last-Modified}.
 *
 * <p>It reads the three formats of RFC 9110 section 5.6.7, as loosely as nginx does: the weekday is skipped
 * unread, the zone is not read at all, and a day beyond the month's length (but the 29th of February in a leap
 * year) is refused.
 * <ul>
 *   <li>RFC 1123 (nginx's {@code rfc822}): {@code Sun, 06 Nov 1994 08:49:37 GMT}</li>
 *   <li>RFC 850: {@code Sunday, 06-Nov-94 08:49:37 GMT} (a two-digit year below 70 is in the 2000s)</li>
 *   <li>asctime (nginx's {@code isoc}): {@code Sun Nov  6 08:49:37 1994}</li>
 * </ul>
 */
public final class HttpTime {

    private static final int[] MDAY = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private static final int NO = 0;
    private static final int RFC822 = 1;
    private static final int RFC850 = 2;
    private static final int ISOC = 3;

    private HttpTime() {
    }

    /**
     * Parses an HTTP date, nginx's {@code ngx_parse_http_time()}.
     *
     * @param value the header's value
     * @return the time in seconds since the epoch, or -1 (nginx's {@code NGX_ERROR}) when it is not a date
     */
    public static long parse(String value) {
        String v = value;
        int fmt = NO;
        int p;
        int end = value.length();

        for (p = 0; p < end; p++) {
            char ch = value.charAt(p);
            if (ch == ',') {
                break;
            }
            if (ch == ' ') {
                fmt = ISOC;
                break;
            }
        }
        for (p++; p < end; p++) {
            if (value.charAt(p) != ' ') {
                break;
            }
        }
        if (end - p < 18) {
            return -1;
        }

        int day = 32;
        if (fmt != ISOC) {
            day = digits(v, p, 2);
            if (day < 0) {
                return -1;
            }
            p += 2;
            if (at(v, p) == ' ') {
                if (end - p < 18) {
                    return -1;
                }
                fmt = RFC822;
            } else if (at(v, p) == '-') {
                fmt = RFC850;
            } else {
                return -1;
            }
            p++;
        }

        int month = month(v, p);
        if (month < 0) {
            return -1;
        }
        p += 3;
        if ((fmt == RFC822 && at(v, p) != ' ') || (fmt == RFC850 && at(v, p) != '-')) {
            return -1;
        }
        p++;

        int year = 2038;
        if (fmt == RFC822) {
            year = digits(v, p, 4);
            if (year < 0) {
                return -1;
            }
            p += 4;
        } else if (fmt == RFC850) {
            year = digits(v, p, 2);
            if (year < 0) {
                return -1;
            }
            year += year < 70 ? 2000 : 1900;
            p += 2;
        }

        if (fmt == ISOC) {
            if (at(v, p) == ' ') {
                p++;
            }
            if (!digit(at(v, p))) {
                return -1;
            }
            day = at(v, p++) - '0';
            if (at(v, p) != ' ') {
                if (!digit(at(v, p))) {
                    return -1;
                }
                day = day * 10 + (at(v, p++) - '0');
            }
            if (end - p < 14) {
                return -1;
            }
        }

        if (at(v, p++) != ' ') {
            return -1;
        }
        int hour = digits(v, p, 2);
        p += 2;
        if (hour < 0 || at(v, p++) != ':') {
            return -1;
        }
        int min = digits(v, p, 2);
        p += 2;
        if (min < 0 || at(v, p++) != ':') {
            return -1;
        }
        int sec = digits(v, p, 2);
        if (sec < 0) {
            return -1;
        }

        if (fmt == ISOC) {
            p += 2;
            if (at(v, p++) != ' ') {
                return -1;
            }
            year = digits(v, p, 4);
            if (year < 0) {
                return -1;
            }
        }

        return time(year, month, day, hour, min, sec);
    }

    /** The checks and Gauss's formula of nginx's tail. */
    private static long time(long year, int month, int day, int hour, int min, int sec) {
        if (hour > 23 || min > 59 || sec > 59) {
            return -1;
        }
        if (day == 29 && month == 1) {
            if ((year & 3) != 0 || (year % 100 == 0 && year % 400 != 0)) {
                return -1;
            }
        } else if (day > MDAY[month]) {
            return -1;
        }

        // shift new year to March 1 and start months from 1 (not 0), as Gauss's formula needs
        if (--month <= 0) {
            month += 12;
            year -= 1;
        }

        // Gregorian days since March 1, 1 BC; 719527 days were between March 1, 1 BC and March 1, 1970,
        // 31 and 28 days were in January and February 1970
        long days = 365 * year + year / 4 - year / 100 + year / 400
                + 367 * month / 12 - 30
                + day - 1
                - 719527 + 31 + 28;
        return days * 86400 + hour * 3600L + min * 60L + sec;
    }

    /** nginx's month switch: only as many letters are looked at as tell the months apart. */
    private static int month(String v, int p) {
        switch (at(v, p)) {
        case 'J':
            return at(v, p + 1) == 'a' ? 0 : at(v, p + 2) == 'n' ? 5 : 6;
        case 'F':
            return 1;
        case 'M':
            return at(v, p + 2) == 'r' ? 2 : 4;
        case 'A':
            return at(v, p + 1) == 'p' ? 3 : 7;
        case 'S':
            return 8;
        case 'O':
            return 9;
        case 'N':
            return 10;
        case 'D':
            return 11;
        default:
            return -1;
        }
    }

    /** The byte at {@code i}, or 0 past the end (nginx reads whatever follows; its length checks keep it in). */
    private static int at(String s, int i) {
        return i < s.length() ? s.charAt(i) : 0;
    }

    private static boolean digit(int c) {
        return c >= '0' && c <= '9';
    }

    /** The number of {@code n} digits at {@code i}, or -1 if one is not a digit. */
    private static int digits(String s, int i, int n) {
        int r = 0;
        for (int k = 0; k < n; k++) {
            int c = at(s, i + k);
            if (!digit(c)) {
                return -1;
            }
            r = r * 10 + (c - '0');
        }
        return r;
    }
}
