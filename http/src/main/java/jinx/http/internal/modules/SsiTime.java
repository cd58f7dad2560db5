package jinx.http.internal.modules;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * SSI's {@code $date_local} and {@code $date_gmt}, nginx's {@code ngx_http_ssi_date_gmt_local_variable()}: the time
 * in the document's {@code config timefmt}, formatted as C's {@code strftime()} in the C locale does
 * ({@code %s} alone is the seconds since the epoch).
 */
final class SsiTime {

    /** nginx's default {@code timefmt}. */
    static final String DEFAULT_FORMAT = "%A, %d-%b-%Y %H:%M:%S %Z";

    private SsiTime() {
    }

    /**
     * The variable's value.
     *
     * @param ctx the request's SSI state, or null outside SSI (the default format)
     * @param gmt true for {@code $date_gmt}
     * @return the date
     */
    static String date(Object ctx, boolean gmt) {
        String format = ctx instanceof SsiFilter f ? f.timefmt : DEFAULT_FORMAT;
        long now = System.currentTimeMillis() / 1000;
        if (format.equals("%s")) {
            return Long.toString(now);
        }
        ZoneId zone = gmt ? ZoneOffset.UTC : ZoneId.systemDefault();
        return strftime(format, ZonedDateTime.ofInstant(Instant.ofEpochSecond(now), zone), gmt);
    }

    /**
     * C's {@code strftime()} in the C locale, for the conversions nginx's users write; an unknown conversion is
     * copied as it stands, as glibc does.
     *
     * @param format the format
     * @param t the time
     * @param gmt true when {@code %Z} is {@code GMT}, as glibc names the zone of {@code gmtime()}
     * @return the text
     */
    static String strftime(String format, ZonedDateTime t, boolean gmt) {
        StringBuilder b = new StringBuilder(format.length() + 16);
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                b.append(c);
                continue;
            }
            char f = format.charAt(++i);
            switch (f) {
                case 'a' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.US));
                case 'A' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.US));
                case 'b', 'h' -> b.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.US));
                case 'B' -> b.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.US));
                case 'c' -> b.append(strftime("%a %b %e %H:%M:%S %Y", t, gmt));
                case 'C' -> pad(b, t.getYear() / 100, 2, '0');
                case 'd' -> pad(b, t.getDayOfMonth(), 2, '0');
                case 'D', 'x' -> b.append(strftime("%m/%d/%y", t, gmt));
                case 'e' -> pad(b, t.getDayOfMonth(), 2, ' ');
                case 'F' -> b.append(strftime("%Y-%m-%d", t, gmt));
                case 'H' -> pad(b, t.getHour(), 2, '0');
                case 'I' -> pad(b, (t.getHour() + 11) % 12 + 1, 2, '0');
                case 'j' -> pad(b, t.getDayOfYear(), 3, '0');
                case 'k' -> pad(b, t.getHour(), 2, ' ');
                case 'l' -> pad(b, (t.getHour() + 11) % 12 + 1, 2, ' ');
                case 'm' -> pad(b, t.getMonthValue(), 2, '0');
                case 'M' -> pad(b, t.getMinute(), 2, '0');
                case 'n' -> b.append('\n');
                case 'p' -> b.append(t.getHour() < 12 ? "AM" : "PM");
                case 'r' -> b.append(strftime("%I:%M:%S %p", t, gmt));
                case 'R' -> b.append(strftime("%H:%M", t, gmt));
                case 's' -> b.append(t.toEpochSecond());
                case 'S' -> pad(b, t.getSecond(), 2, '0');
                case 't' -> b.append('\t');
                case 'T', 'X' -> b.append(strftime("%H:%M:%S", t, gmt));
                case 'u' -> b.append(t.getDayOfWeek().getValue());
                case 'w' -> b.append(t.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : t.getDayOfWeek().getValue());
                case 'y' -> pad(b, t.getYear() % 100, 2, '0');
                case 'Y' -> b.append(t.getYear());
                case 'z' -> zoneOffset(b, t.getOffset().getTotalSeconds());
                case 'Z' -> b.append(gmt ? "GMT" : zoneName(t));
                case '%' -> b.append('%');
                default -> b.append('%').append(f);
            }
        }
        return b.toString();
    }

    private static String zoneName(ZonedDateTime t) {
        boolean dst = t.getZone().getRules().isDaylightSavings(t.toInstant());
        return java.util.TimeZone.getTimeZone(t.getZone()).getDisplayName(dst, java.util.TimeZone.SHORT, Locale.US);
    }

    private static void zoneOffset(StringBuilder b, int seconds) {
        b.append(seconds < 0 ? '-' : '+');
        int m = Math.abs(seconds) / 60;
        pad(b, m / 60, 2, '0');
        pad(b, m % 60, 2, '0');
    }

    private static void pad(StringBuilder b, int n, int width, char fill) {
        String s = Integer.toString(n);
        for (int i = s.length(); i < width; i++) {
            b.append(fill);
        }
        b.append(s);
    }
}
