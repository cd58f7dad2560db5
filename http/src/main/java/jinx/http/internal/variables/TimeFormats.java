package jinx.http.internal.variables;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The times of the access log, as nginx's {@code ngx_times.c} caches them once a second:
 * {@code $time_local} ({@code 30/Nov/2026:15:38:18 +0100}), {@code $time_iso8601}
 * ({@code 2026-11-30T15:38:18+01:00}), {@code $msec} ({@code 1796049498.123}) and the HTTP date of
 * {@code Last-Modified}. The strings of the last second asked for are kept; an instance belongs to one thread.
 */
public final class TimeFormats {

    private static final String[] WEEK = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private final ZoneId zone;
    private long sec = Long.MIN_VALUE;
    private String local;
    private String iso8601;

    /**
     * Formats in the system's time zone, as nginx uses the process's local time.
     */
    public TimeFormats() {
        this(ZoneId.systemDefault());
    }

    /**
     * Formats in a given time zone.
     *
     * @param zone the zone
     */
    public TimeFormats(ZoneId zone) {
        this.zone = zone;
    }

    /**
     * Returns the time as {@code $time_local}: {@code "%02d/%s/%d:%02d:%02d:%02d %c%02i%02i"}.
     *
     * @param millis ms since the epoch
     * @return the text
     */
    public String local(long millis) {
        update(millis);
        return local;
    }

    /**
     * Returns the time as {@code $time_iso8601}: {@code "%4d-%02d-%02dT%02d:%02d:%02d%c%02i:%02i"}.
     *
     * @param millis ms since the epoch
     * @return the text
     */
    public String iso8601(long millis) {
        update(millis);
        return iso8601;
    }

    /**
     * Returns the time as {@code $msec}: seconds with the milliseconds ({@code "%T.%03M"}).
     *
     * @param millis ms since the epoch
     * @return the text
     */
    public static String msec(long millis) {
        return seconds(millis);
    }

    /**
     * Returns a duration in ms as seconds with three decimals ({@code "%T.%03M"}), as {@code $request_time}.
     *
     * @param ms the duration
     * @return the text
     */
    public static String seconds(long ms) {
        long s = Math.floorDiv(ms, 1000L);
        int m = (int) Math.floorMod(ms, 1000L);
        StringBuilder b = new StringBuilder(16).append(s).append('.');
        if (m < 100) {
            b.append('0');
        }
        if (m < 10) {
            b.append('0');
        }
        return b.append(m).toString();
    }

    /**
     * Returns a time as an HTTP date ({@code Mon, 28 Sep 1970 06:00:00 GMT}), nginx's {@code ngx_http_time()}.
     *
     * @param epochSeconds seconds since the epoch
     * @return the text
     */
    public static String http(long epochSeconds) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSeconds, 0, ZoneOffset.UTC);
        StringBuilder b = new StringBuilder(29);
        b.append(WEEK[t.getDayOfWeek().ordinal()]).append(", ");
        pad2(b, t.getDayOfMonth()).append(' ').append(MONTHS[t.getMonthValue() - 1]).append(' ');
        pad4(b, t.getYear()).append(' ');
        return clock(b, t).append(" GMT").toString();
    }

    private void update(long millis) {
        long now = Math.floorDiv(millis, 1000L);
        if (now == sec) {
            return;
        }
        sec = now;
        int gmtoff = zone.getRules().getOffset(Instant.ofEpochSecond(now)).getTotalSeconds() / 60;
        LocalDateTime tm = LocalDateTime.ofEpochSecond(now, 0, ZoneOffset.ofTotalSeconds(gmtoff * 60));

        StringBuilder b = new StringBuilder(32);
        pad2(b, tm.getDayOfMonth()).append('/').append(MONTHS[tm.getMonthValue() - 1]).append('/')
            .append(tm.getYear()).append(':');
        clock(b, tm).append(' ');
        local = offset(b, gmtoff, "").toString();

        b.setLength(0);
        pad4(b, tm.getYear()).append('-');
        pad2(b, tm.getMonthValue()).append('-');
        pad2(b, tm.getDayOfMonth()).append('T');
        clock(b, tm);
        iso8601 = offset(b, gmtoff, ":").toString();
    }

    private static StringBuilder offset(StringBuilder b, int gmtoff, String separator) {
        // nginx: tp->gmtoff < 0 ? '-' : '+', ngx_abs(tp->gmtoff / 60), ngx_abs(tp->gmtoff % 60)
        b.append(gmtoff < 0 ? '-' : '+');
        pad2(b, Math.abs(gmtoff / 60)).append(separator);
        return pad2(b, Math.abs(gmtoff % 60));
    }

    private static StringBuilder clock(StringBuilder b, LocalDateTime t) {
        pad2(b, t.getHour()).append(':');
        pad2(b, t.getMinute()).append(':');
        return pad2(b, t.getSecond());
    }

    private static StringBuilder pad2(StringBuilder b, int n) {
        if (n < 10) {
            b.append('0');
        }
        return b.append(n);
    }

    private static StringBuilder pad4(StringBuilder b, int n) {
        for (int d = 1000; d > 1 && n < d; d /= 10) {
            b.append(' ');
        }
        return b.append(n);
    }
}
