package jinx.http.internal.variables;

import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TimeFormatsTest {

    /** 2023-11-14T22:13:20.123Z. */
    private static final long T = 1_700_000_000_123L;

    @Test
    @Timeout(5)
    void localAndIso8601InUtc() {
        TimeFormats t = new TimeFormats(ZoneOffset.UTC);
        assertEquals("14/Nov/2023:22:13:20 +0000", t.local(T));
        assertEquals("2023-11-14T22:13:20+00:00", t.iso8601(T));
    }

    @Test
    @Timeout(5)
    void positiveAndNegativeOffsets() {
        TimeFormats india = new TimeFormats(ZoneId.of("Asia/Kolkata"));
        assertEquals("15/Nov/2023:03:43:20 +0530", india.local(T));
        assertEquals("2023-11-15T03:43:20+05:30", india.iso8601(T));
        TimeFormats la = new TimeFormats(ZoneId.of("America/Los_Angeles"));
        assertEquals("14/Nov/2023:14:13:20 -0800", la.local(T));
        assertEquals("2023-11-14T14:13:20-08:00", la.iso8601(T));
    }

    @Test
    @Timeout(5)
    void theCachedSecondChangesWithTime() {
        TimeFormats t = new TimeFormats(ZoneOffset.UTC);
        assertEquals("14/Nov/2023:22:13:20 +0000", t.local(T));
        assertEquals("14/Nov/2023:22:13:20 +0000", t.local(T + 800));
        assertEquals("14/Nov/2023:22:13:21 +0000", t.local(T + 877));
    }

    @Test
    @Timeout(5)
    void secondsWithMilliseconds() {
        assertEquals("1700000000.123", TimeFormats.msec(T));
        assertEquals("0.000", TimeFormats.seconds(0));
        assertEquals("0.005", TimeFormats.seconds(5));
        assertEquals("0.050", TimeFormats.seconds(50));
        assertEquals("12.345", TimeFormats.seconds(12_345));
    }

    @Test
    @Timeout(5)
    void httpDate() {
        assertEquals("Tue, 14 Nov 2023 22:13:20 GMT", TimeFormats.http(T / 1000));
        assertEquals("Mon, 28 Sep 1970 06:00:00 GMT", TimeFormats.http(23_349_600));
    }
}
