package jinx.kernel;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * The cached time: nginx's {@code src/core/ngx_times.c}. The loop reads the clocks once per turn, right after the
 * event method's wait ({@link #update()}, nginx's {@code ngx_time_update()}), and every handler of that turn sees
 * the same "now" without asking the OS again.
 *
 * <ul>
 *   <li>{@link #msec()}, nginx's {@code ngx_current_msec}, comes from the monotonic clock and keys the timers;</li>
 *   <li>the wall clock gives {@link #wallMillis()} and the preformatted strings of the error log, of HTTP's
 *       {@code Date} header and of ISO 8601, rebuilt only when the wall clock's second changes, as nginx does;
 *       at each rebuild the zone's UTC offset is looked up anew, so a change to or from daylight saving time
 *       shows at once (nginx calls {@code ngx_gettimezone()} or reads {@code tm_gmtoff} at each rebuild).</li>
 * </ul>
 *
 * nginx keeps 64 slots of these values so that a signal handler may update them under a reader; Jinx has no
 * signal handlers on the loop thread, and a cached time is its loop thread's alone, so one set of fields does.
 */
final class CachedTime {

    private static final String[] WEEK = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final LongSupplier nanoClock;
    private final LongSupplier wallClock;
    private final ZoneId zone;

    private int msec;
    private long wallMillis;
    private long sec = Long.MIN_VALUE;
    private int gmtoff;
    private String logTime;
    private String httpTime;
    private String httpLogTime;
    private String iso8601Time;

    /**
     * A cached time on the system's clocks ({@link System#nanoTime()}, {@link System#currentTimeMillis()}) in the
     * JVM's default zone, read once now.
     */
    CachedTime() {
        this(System::nanoTime, System::currentTimeMillis, ZoneId.systemDefault());
    }

    /**
     * A cached time on the given clocks, read once now.
     *
     * @param nanoClock the monotonic clock in nanoseconds, from any origin
     * @param wallMillis the wall clock in milliseconds since the epoch
     * @param zone the local zone, for the log and ISO 8601 times
     */
    CachedTime(LongSupplier nanoClock, LongSupplier wallMillis, ZoneId zone) {
        this.nanoClock = nanoClock;
        this.wallClock = wallMillis;
        this.zone = zone;
        update();
    }

    /**
     * Reads each clock once and, when the wall clock's second changed, rebuilds the strings: nginx's
     * {@code ngx_time_update()}. Within one second it allocates nothing.
     */
    void update() {
        // ngx_monotonic_time(): the origin of nanoTime is arbitrary, and so is that of msec; only differences
        // between two readings mean anything, and those survive the truncation to 32 bits. floorDiv keeps the
        // clock steady should nanoTime cross zero.
        msec = (int) Math.floorDiv(nanoClock.getAsLong(), NANOS_PER_MILLI);
        wallMillis = wallClock.getAsLong();
        long now = Math.floorDiv(wallMillis, 1000L);
        if (now == sec) {
            return;
        }
        sec = now;
        rebuild();
    }

    private void rebuild() {
        gmtoff = zone.getRules().getOffset(Instant.ofEpochSecond(sec)).getTotalSeconds() / 60;

        LocalDateTime gmt = LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.UTC);
        StringBuilder b = new StringBuilder(32);
        // "%s, %02d %s %4d %02d:%02d:%02d GMT", ngx_times.c
        b.append(WEEK[gmt.getDayOfWeek().ordinal()]).append(", ");
        pad2(b, gmt.getDayOfMonth()).append(' ').append(MONTHS[gmt.getMonthValue() - 1]).append(' ');
        pad4(b, gmt.getYear()).append(' ');
        clock(b, gmt).append(" GMT");
        httpTime = b.toString();

        LocalDateTime tm = LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.ofTotalSeconds(gmtoff * 60));
        // "%4d/%02d/%02d %02d:%02d:%02d"
        b.setLength(0);
        pad4(b, tm.getYear()).append('/');
        pad2(b, tm.getMonthValue()).append('/');
        pad2(b, tm.getDayOfMonth()).append(' ');
        logTime = clock(b, tm).toString();

        // "%02d/%s/%d:%02d:%02d:%02d %c%02i%02i"
        b.setLength(0);
        pad2(b, tm.getDayOfMonth()).append('/').append(MONTHS[tm.getMonthValue() - 1]).append('/')
            .append(tm.getYear()).append(':');
        clock(b, tm).append(' ');
        httpLogTime = offset(b, "").toString();

        // "%4d-%02d-%02dT%02d:%02d:%02d%c%02i:%02i"
        b.setLength(0);
        pad4(b, tm.getYear()).append('-');
        pad2(b, tm.getMonthValue()).append('-');
        pad2(b, tm.getDayOfMonth()).append('T');
        clock(b, tm);
        iso8601Time = offset(b, ":").toString();
    }

    private static StringBuilder clock(StringBuilder b, LocalDateTime t) {
        pad2(b, t.getHour()).append(':');
        pad2(b, t.getMinute()).append(':');
        return pad2(b, t.getSecond());
    }

    private StringBuilder offset(StringBuilder b, String separator) {
        // nginx: tp->gmtoff < 0 ? '-' : '+', ngx_abs(tp->gmtoff / 60), ngx_abs(tp->gmtoff % 60)
        b.append(gmtoff < 0 ? '-' : '+');
        pad2(b, Math.abs(gmtoff / 60)).append(separator);
        return pad2(b, Math.abs(gmtoff % 60));
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

    /**
     * Returns the monotonic time in wrapping 32-bit milliseconds, nginx's {@code ngx_current_msec}: from an
     * arbitrary origin, to be compared only by the sign of a difference ({@code (a - b) < 0}).
     *
     * @return the time at the last update
     */
    int msec() {
        return msec;
    }

    /**
     * Returns the wall-clock time in milliseconds since the epoch.
     *
     * @return the time at the last update
     */
    long wallMillis() {
        return wallMillis;
    }

    /**
     * Returns the wall-clock time in seconds since the epoch, nginx's {@code ngx_time()}.
     *
     * @return the time at the last update
     */
    long sec() {
        return sec;
    }

    /**
     * Returns the local time for the error log, nginx's {@code ngx_cached_err_log_time}:
     * {@code 2026/11/30 15:38:18}.
     *
     * @return the time at the last update; the same instance until the second changes
     */
    String logTime() {
        return logTime;
    }

    /**
     * Returns the time for HTTP headers, nginx's {@code ngx_cached_http_time}: RFC 7231's IMF-fixdate,
     * {@code Mon, 30 Nov 2026 15:38:18 GMT}.
     *
     * @return the time at the last update; the same instance until the second changes
     */
    String httpTime() {
        return httpTime;
    }

    /**
     * Returns the local time for the access log ({@code $time_local}), nginx's {@code ngx_cached_http_log_time}:
     * {@code 30/Nov/2026:15:38:18 +0000}.
     *
     * @return the time at the last update; the same instance until the second changes
     */
    String httpLogTime() {
        return httpLogTime;
    }

    /**
     * Returns the local time in ISO 8601 ({@code $time_iso8601}), nginx's {@code ngx_cached_http_log_iso8601}:
     * {@code 2026-11-30T15:38:18+00:00}.
     *
     * @return the time at the last update; the same instance until the second changes
     */
    String iso8601Time() {
        return iso8601Time;
    }

    /**
     * Returns the local zone's offset from UTC, nginx's {@code tp->gmtoff}.
     *
     * @return the offset in minutes, east positive, as of the last rebuild
     */
    int utcOffsetMinutes() {
        return gmtoff;
    }
}
