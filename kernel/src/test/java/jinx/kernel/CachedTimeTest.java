package jinx.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cached time, nginx's {@code ngx_times.c}: the monotonic milliseconds and the preformatted strings, on fake
 * clocks.
 */
class CachedTimeTest {

    /** 2026-11-30T15:38:18Z, a Monday. */
    private static final long NOV_30 = 1_796_053_098_000L;

    private long nanos;
    private long wall;

    private CachedTime time(ZoneId zone) {
        return new CachedTime(() -> nanos, () -> wall, zone);
    }

    @Test
    @Timeout(5)
    void formatsAsNginxInUtc() {
        wall = NOV_30 + 250;
        CachedTime time = time(ZoneOffset.UTC);
        assertEquals("2026/11/30 15:38:18", time.logTime());
        assertEquals("Mon, 30 Nov 2026 15:38:18 GMT", time.httpTime());
        assertEquals("2026-11-30T15:38:18+00:00", time.iso8601Time());
        assertEquals("30/Nov/2026:15:38:18 +0000", time.httpLogTime());
        assertEquals(0, time.utcOffsetMinutes());
        assertEquals(NOV_30 + 250, time.wallMillis());
        assertEquals(NOV_30 / 1000, time.sec());
    }

    @Test
    @Timeout(5)
    void formatsLocalTimesWithTheirOffset() {
        wall = NOV_30;
        CachedTime east = time(ZoneId.of("Asia/Kolkata"));
        assertEquals("2026/11/30 21:08:18", east.logTime());
        assertEquals("Mon, 30 Nov 2026 15:38:18 GMT", east.httpTime());
        assertEquals("2026-11-30T21:08:18+05:30", east.iso8601Time());
        assertEquals("30/Nov/2026:21:08:18 +0530", east.httpLogTime());
        assertEquals(330, east.utcOffsetMinutes());

        CachedTime west = time(ZoneId.of("America/St_Johns"));
        assertEquals("2026/11/30 12:08:18", west.logTime());
        assertEquals("Mon, 30 Nov 2026 15:38:18 GMT", west.httpTime());
        assertEquals("2026-11-30T12:08:18-03:30", west.iso8601Time());
        assertEquals("30/Nov/2026:12:08:18 -0330", west.httpLogTime());
        assertEquals(-210, west.utcOffsetMinutes());
    }

    @Test
    @Timeout(5)
    void padsSingleDigitsAndEarlyYears() {
        wall = -62_104_060_800_000L + 3_723_000L; // 0002-01-01T01:02:03Z, a Tuesday (proleptic Gregorian)
        CachedTime time = time(ZoneOffset.UTC);
        assertEquals("   2/01/01 01:02:03", time.logTime());
        assertEquals("Tue, 01 Jan    2 01:02:03 GMT", time.httpTime());
    }

    @Test
    @Timeout(5)
    void rebuildsTheStringsOnlyWhenTheSecondChanges() {
        wall = NOV_30 + 1;
        nanos = 7_000_000_000L;
        CachedTime time = time(ZoneOffset.UTC);
        String log = time.logTime();
        String http = time.httpTime();
        String iso = time.iso8601Time();
        String httpLog = time.httpLogTime();
        assertEquals(7000, time.msec());

        wall = NOV_30 + 998;
        nanos += 997_000_000L;
        time.update();
        assertEquals(7997, time.msec(), "msec moves within the second");
        assertEquals(NOV_30 + 998, time.wallMillis());
        assertSame(log, time.logTime());
        assertSame(http, time.httpTime());
        assertSame(iso, time.iso8601Time());
        assertSame(httpLog, time.httpLogTime());

        wall = NOV_30 + 1000;
        nanos += 2_000_000L;
        time.update();
        assertEquals(7999, time.msec());
        assertNotSame(log, time.logTime());
        assertEquals("2026/11/30 15:38:19", time.logTime());
        assertEquals("Mon, 30 Nov 2026 15:38:19 GMT", time.httpTime());
        assertEquals("2026-11-30T15:38:19+00:00", time.iso8601Time());

        // a wall clock set back is a new second too
        wall = NOV_30 - 60_000;
        time.update();
        assertEquals("2026/11/30 15:37:18", time.logTime());
    }

    @Test
    @Timeout(5)
    void msecWrapsAt32BitsFromAnyOrigin() {
        nanos = ((1L << 32) + 5) * 1_000_000L + 999_999L;
        CachedTime time = time(ZoneOffset.UTC);
        assertEquals(5, time.msec());

        nanos = ((1L << 32) - 1) * 1_000_000L;
        time.update();
        assertEquals(-1, time.msec(), "2^32 - 1 as a signed int");

        // nanoTime may be negative: the millisecond clock keeps ticking upwards through zero
        nanos = -1;
        time.update();
        int before = time.msec();
        nanos = 1;
        time.update();
        assertEquals(-1, before);
        assertEquals(1, time.msec() - before);
    }

    @Test
    @Timeout(5)
    void showsTheDaylightSavingChangeAtOnce() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        wall = 1_774_745_999_000L; // 2026-03-29T00:59:59Z, the last second of CET
        CachedTime time = time(berlin);
        assertEquals("2026/03/29 01:59:59", time.logTime());
        assertEquals("2026-03-29T01:59:59+01:00", time.iso8601Time());
        assertEquals(60, time.utcOffsetMinutes());

        wall += 1000;
        time.update();
        assertEquals("2026/03/29 03:00:00", time.logTime());
        assertEquals("2026-03-29T03:00:00+02:00", time.iso8601Time());
        assertEquals("29/Mar/2026:03:00:00 +0200", time.httpLogTime());
        assertEquals("Sun, 29 Mar 2026 01:00:00 GMT", time.httpTime());
        assertEquals(120, time.utcOffsetMinutes());

        wall = 1_792_889_999_000L; // 2026-10-25T00:59:59Z, the last second of CEST
        time.update();
        assertEquals("2026-10-25T02:59:59+02:00", time.iso8601Time());
        wall += 1000;
        time.update();
        assertEquals("2026-10-25T02:00:00+01:00", time.iso8601Time());
        assertEquals(60, time.utcOffsetMinutes());
    }

    @Test
    @Timeout(5)
    void readsTheSystemClocksByDefault() {
        long before = System.currentTimeMillis();
        CachedTime time = new CachedTime();
        assertTrue(time.wallMillis() >= before);
        assertTrue(time.logTime().matches("\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d"), time.logTime());
        assertTrue(time.httpTime().matches("[A-Z][a-z]{2}, \\d\\d [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d GMT"),
            time.httpTime());
        int msec = time.msec();
        time.update();
        assertTrue(time.msec() - msec >= 0);
        assertNotEquals(null, time.iso8601Time());
    }
}
