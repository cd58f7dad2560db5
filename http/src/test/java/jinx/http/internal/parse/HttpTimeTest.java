package jinx.http.internal.parse;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class HttpTimeTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        // the three formats of RFC 9110 5.6.7
        "Sun, 06 Nov 1994 08:49:37 GMT|784111777",
        "Sunday, 06-Nov-94 08:49:37 GMT|784111777",
        "Sun Nov  6 08:49:37 1994|784111777",
        "Sun Nov 6 08:49:37 1994|784111777",
        "Sun Nov 06 08:49:37 1994|784111777",
        // nginx reads no zone and skips the weekday unread
        "Sun, 06 Nov 1994 08:49:37|784111777",
        "Xyz, 06 Nov 1994 08:49:37 PST|784111777",
        "Sun,   06 Nov 1994 08:49:37 GMT|784111777",
        ", 06 Nov 1994 08:49:37 GMT|784111777",
        "Thu, 01 Jan 1970 00:00:00 GMT|0",
        "Thu, 01 Jan 1970 00:00:01 GMT|1",
        "Tue, 19 Jan 2038 03:14:08 GMT|2147483648",
        "Fri, 31 Dec 9999 23:59:59 GMT|253402300799",
        "Tue, 29 Feb 2000 00:00:00 GMT|951782400",
        "Sat, 29 Feb 2020 12:00:00 GMT|1582977600",
        "Thursday, 01-Jan-70 00:00:00 GMT|0",
        "Tuesday, 31-Dec-69 00:00:00 GMT|3155673600",
    })
    void parsesAsNginx(String date, String expected) {
        assertEquals(Long.parseLong(expected), HttpTime.parse(date), date);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "''",
        "garbage",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Xov 1994 08:49:37 GMT",
        "Sun, 06-Nov-1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:3",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 23:60:00 GMT",
        "Sun, 06 Nov 1994 23:59:60 GMT",
        "Sun, 32 Jan 1994 00:00:00 GMT",
        "Sun, 31 Apr 1994 00:00:00 GMT",
        "Sun, 30 Feb 2000 00:00:00 GMT",
        "Sun, 29 Feb 1900 00:00:00 GMT",
        "Sun, 29 Feb 2019 00:00:00 GMT",
        "Sun, 06 Nov 1994 08-49-37 GMT",
        "Sun Nov  6 08:49:37",
        "Sun Nov  6 08:49:37 94",
        "Sun Nov x6 08:49:37 1994",
        "1994-11-06T08:49:37Z",
    })
    void refusesAsNginx(String date) {
        assertEquals(-1, HttpTime.parse(date), date);
    }

    @Test
    void monthsAreToldApartByAsFewLettersAsNginxNeeds() {
        String[][] pairs = {{"Jzz", "Jul"}, {"Jaz", "Jan"}, {"Jzn", "Jun"}, {"Mzr", "Mar"}, {"Mzz", "May"},
            {"Apz", "Apr"}, {"Azz", "Aug"}, {"Fzz", "Feb"}, {"Szz", "Sep"}, {"Ozz", "Oct"}, {"Nzz", "Nov"},
            {"Dzz", "Dec"}};
        for (String[] p : pairs) {
            long expected = HttpTime.parse("Sun, 06 " + p[1] + " 1994 08:49:37 GMT");
            assertEquals(expected, HttpTime.parse("Sun, 06 " + p[0] + " 1994 08:49:37 GMT"), p[0]);
        }
    }

    @Test
    void agreesWithJavaTimeOverTheYears() {
        DateTimeFormatter rfc1123 = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
                .withZone(ZoneOffset.UTC);
        DateTimeFormatter rfc850 = DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US)
                .withZone(ZoneOffset.UTC);
        DateTimeFormatter asctime = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US)
                .withZone(ZoneOffset.UTC);
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long t = random.nextLong() & 0xffffffffL; // 1970 .. 2106
            Instant at = Instant.ofEpochSecond(t);
            assertEquals(t, HttpTime.parse(rfc1123.format(at)), rfc1123.format(at));
            assertEquals(t, HttpTime.parse(asctime.format(at)), asctime.format(at));
            int year = at.atZone(ZoneOffset.UTC).getYear();
            if (year >= 1970 && year < 2070) {
                assertEquals(t, HttpTime.parse(rfc850.format(at)), rfc850.format(at));
            }
        }
    }
}
