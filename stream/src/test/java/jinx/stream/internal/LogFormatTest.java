package jinx.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** nginx's escaping of log values and its {@code %T.%03M} times. */
class LogFormatTest {

    private static String esc(String v) {
        StringBuilder sb = new StringBuilder();
        LogFormat.escapeDefault(sb, v);
        return sb.toString();
    }

    private static String json(String v) {
        StringBuilder sb = new StringBuilder();
        LogFormat.escapeJson(sb, v);
        return sb.toString();
    }

    @Test
    void defaultEscapingIsNginxs() {
        assertEquals("plain text: ok", esc("plain text: ok"));
        assertEquals("\\x22q\\x22 \\x5C \\x0A \\x7F \\xE9", esc("\"q\" \\ \n \u007f \u00e9"));
    }

    @Test
    void jsonEscapingIsNginxs() {
        assertEquals("\\\"q\\\" \\\\ \\n \\u0001 \u00e9", json("\"q\" \\ \n \u0001 \u00e9"));
    }

    @Test
    void timesAreSecondsAndMilliseconds() {
        assertEquals("0.000", StreamVariables.msec(0));
        assertEquals("0.007", StreamVariables.msec(7));
        assertEquals("0.070", StreamVariables.msec(70));
        assertEquals("12.345", StreamVariables.msec(12_345));
        assertEquals("0.000", StreamVariables.msec(-5));
    }
}
