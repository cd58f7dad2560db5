package jinx.kernel.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ConfValues} against the behaviour of nginx's {@code ngx_parse.c} and {@code ngx_atoi()}.
 */
class ConfValuesTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "007, 7", "1024, 1024", "2147483647, 2147483647"})
    void numbers(String text, int expected) {
        assertEquals(expected, ConfValues.parseNumber(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "+1", " 1", "1 ", "1k", "0x10", "1.5", "2147483648", "99999999999999999999"})
    void badNumbers(String text) {
        assertEquals(-1, ConfValues.parseNumber(text));
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "512, 512",
        "10k, 10240",
        "10K, 10240",
        "1m, 1048576",
        "1M, 1048576",
        "0k, 0",
        "9223372036854775807, 9223372036854775807",
        "9007199254740991k, 9223372036854774784",
        "8796093022207m, 9223372036853727232",
    })
    void sizes(String text, long expected) {
        assertEquals(expected, ConfValues.parseSize(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "m", "1g", "1G", "-1", "+1", "1kb", "1kk", "1.5k", " 1k", "1 k", "10x",
                            "9223372036854775808", "99999999999999999999", "9007199254740992k", "8796093022208m"})
    void badSizes(String text) {
        assertEquals(-1, ConfValues.parseSize(text));
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "10k, 10240",
        "1m, 1048576",
        "1g, 1073741824",
        "1G, 1073741824",
        "8589934591g, 9223372035781033984",
        "9223372036854775807, 9223372036854775807",
    })
    void offsets(String text, long expected) {
        assertEquals(expected, ConfValues.parseOffset(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "g", "1t", "-1g", "1gb", "8589934592g", "99999999999999999999"})
    void badOffsets(String text) {
        assertEquals(-1, ConfValues.parseOffset(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|0",
        "30|30",
        "30s|30",
        "5m|300",
        "1h30m|5400",
        "1h 30m|5400",
        "1h  30m  |5400",
        "1d|86400",
        "1w|604800",
        "2M|5184000",
        "1y|31536000",
        "1y2M3w4d5h6m7s|38898367",
        // A last number without a unit is seconds, whatever came before.
        "1h30|3630",
        "1s30|31",
        // A space right after a number ends a part in seconds.
        "1 2|3",
        "1m 30|90",
        "1hm|3600",
        "9223372036854775807|9223372036854775807",
    })
    void seconds(String text, long expected) {
        assertEquals(expected, ConfValues.parseTime(text, true));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|0",
        "500ms|500",
        "30|30000",
        "30s|30000",
        "1s500ms|1500",
        "1m|60000",
        "1h30m|5400000",
        "1h 30m|5400000",
        "1w|604800000",
        "1h30|3630000",
        "1ms|1",
        "1s 2|3000",
        "9223372036854775807ms|9223372036854775807",
        "9223372036854775s|9223372036854775000",
    })
    void milliseconds(String text, long expected) {
        assertEquals(expected, ConfValues.parseTime(text, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "s", "h", "-1s", "+1s", "1.5s", "1x", "10S", "1H",
        "500ms", "1s500ms",
        "30m1h", "1s1m", "1m1m", "1y1y", "1M1y", "1d1w",
        "1s 30 ", "1 s", "1 2 3", " 30s",
        "99999999999999999999", "292471208678y", "9223372036854775807s 1",
    })
    void badSeconds(String text) {
        assertEquals(-1, ConfValues.parseTime(text, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "ms", "1y", "2M", "1ms1s", "1ms1ms", "500 ms",
        "9223372036854775808ms", "9223372036854776s", "9223372036854776",
    })
    void badMilliseconds(String text) {
        assertEquals(-1, ConfValues.parseTime(text, false));
    }

    @Test
    void yearsAndMonthsAreSecondsOnly() {
        assertEquals(31536000, ConfValues.parseTime("1y", true));
        assertEquals(-1, ConfValues.parseTime("1y", false));
        assertEquals(5184000, ConfValues.parseTime("2M", true));
        assertEquals(-1, ConfValues.parseTime("2M", false));
    }
}
