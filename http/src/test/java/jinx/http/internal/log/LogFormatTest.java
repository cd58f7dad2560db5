package jinx.http.internal.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.variables.FakeRequest;
import jinx.http.internal.variables.TimeFormats;
import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogFormatTest {

    @TempDir
    Path prefix;

    /** Configures {@code log_format t <format...>; access_log logs/t.log t;} and logs one request. */
    private String line(FakeRequestSetup setup, String... format) throws ConfException, IOException {
        LogFixture fx = new LogFixture(prefix);
        String[] args = new String[format.length + 1];
        args[0] = "t";
        System.arraycopy(format, 0, args, 1, format.length);
        fx.logFormat(args);
        fx.accessLog(fx.http, "logs/t.log", "t");
        Files.createDirectories(prefix.resolve("logs"));
        fx.postconfiguration();
        FakeRequest r = fx.request(fx.http);
        setup.apply(r);
        fx.log(r);
        fx.logModule.close();
        return Files.readString(prefix.resolve("logs/t.log"), StandardCharsets.ISO_8859_1);
    }

    @FunctionalInterface
    private interface FakeRequestSetup {
        void apply(FakeRequest r);
    }

    private static void typical(FakeRequest r) {
        r.headersOut.status = 200;
        r.headersIn.referer = r.headersIn.headers.add("Referer", "http://example.org/start");
        r.headersIn.userAgent = r.headersIn.headers.add("User-Agent", "curl/8.5.0");
    }

    private String error(String... format) {
        LogFixture fx;
        try {
            fx = new LogFixture(prefix);
        } catch (ConfException e) {
            throw new AssertionError(e);
        }
        String[] args = new String[format.length + 1];
        args[0] = "t";
        System.arraycopy(format, 0, args, 1, format.length);
        return assertThrows(ConfException.class, () -> fx.logFormat(args)).getMessage();
    }

    @Test
    @Timeout(5)
    void combinedIsNginxsLineByteForByte() throws Exception {
        LogFixture fx = new LogFixture(prefix);
        fx.accessLog(fx.http, "logs/access.log");
        Files.createDirectories(prefix.resolve("logs"));
        fx.postconfiguration();
        FakeRequest r = fx.request(fx.http);
        typical(r);
        fx.log(r);
        fx.logModule.close();
        String time = new TimeFormats().local(r.wallMillis);
        assertEquals("192.0.2.7 - - [" + time + "] \"GET /index.html?a=1&b=two HTTP/1.1\" 200 612 "
            + "\"http://example.org/start\" \"curl/8.5.0\"\n",
            Files.readString(prefix.resolve("logs/access.log"), StandardCharsets.ISO_8859_1));
    }

    @Test
    @Timeout(5)
    void combinedWithAUserAndNoHeaders() throws Exception {
        String line = line(r -> {
            r.headersIn.authorization = r.headersIn.headers.add("Authorization", "Basic dXNlcjpwYXNz");
            r.headersOut.status = 404;
            r.bodyBytesSent = 0;
            r.requestLine = null;
        }, HttpLogModule.COMBINED_FORMAT);
        String time = new TimeFormats().local(1_700_000_000_123L);
        assertEquals("192.0.2.7 - user [" + time + "] \"-\" 404 0 \"-\" \"-\"\n", line);
    }

    @Test
    @Timeout(5)
    void defaultEscapingIsBackslashXHex() throws Exception {
        String line = line(r -> r.headersIn.headers.add("User-Agent", "a\"b\\c\u0001d\u007fe\u00e9f g~"),
            "\"$http_user_agent\" \"quote\"literal\\");
        assertEquals("\"a\\x22b\\x5Cc\\x01d\\x7Fe\\xE9f g~\" \"quote\"literal\\\n", line);
    }

    @Test
    @Timeout(5)
    void aVariableNotFoundIsADash() throws Exception {
        assertEquals("-|-|\n", line(r -> r.headersIn.headers.add("X-Empty", ""), "$http_referer|$cookie_x|",
            "$http_x_empty"));
    }

    @Test
    @Timeout(5)
    void jsonEscaping() throws Exception {
        String line = line(r -> r.headersIn.headers.add("User-Agent", "q\"b\\n\nr\rt\tb\bf\f\u0001\u001f\u00e9"),
            "escape=json", "{\"ua\":\"$http_user_agent\",\"ref\":\"$http_referer\"}");
        assertEquals("{\"ua\":\"q\\\"b\\\\n\\nr\\rt\\tb\\bf\\f\\u0001\\u001F\u00e9\",\"ref\":\"\"}\n", line);
    }

    @Test
    @Timeout(5)
    void noEscaping() throws Exception {
        String line = line(r -> r.headersIn.headers.add("User-Agent", "a\"b\\c\u0001"),
            "escape=none", "[$http_user_agent][$http_referer]");
        assertEquals("[a\"b\\c\u0001][]\n", line);
    }

    @Test
    @Timeout(5)
    void stringsJoinWithoutSeparator() throws Exception {
        assertEquals("GET/index.html-x\n", line(r -> { }, "$request_method", "$uri", "-x"));
    }

    @Test
    @Timeout(5)
    void bracketedNames() throws Exception {
        assertEquals("GETx/index.html\n", line(r -> { }, "${request_method}x${uri}"));
    }

    @Test
    @Timeout(5)
    void theDirectVariables() throws Exception {
        String line = line(r -> {
            r.headersOut.status = 304;
            r.pipelined = true;
        }, "$status $bytes_sent $body_bytes_sent $request_length $request_time $msec $pipe");
        assertEquals("304 850 612 120 1.500 1700000000.123 p\n", line);
    }

    @Test
    @Timeout(5)
    void timesInTheFormat() throws Exception {
        TimeFormats t = new TimeFormats();
        long ms = 1_700_000_000_123L;
        assertEquals(t.local(ms) + " " + t.iso8601(ms) + "\n", line(r -> { }, "$time_local $time_iso8601"));
    }

    @Test
    @Timeout(5)
    void formatErrorsAreNginxs() {
        assertEquals("unknown log format escaping \"xml\"", error("escape=xml", "$uri"));
        assertEquals("invalid parameter \"$\"", error("abc$"));
        assertEquals("invalid parameter \"${\"", error("abc${"));
        assertEquals("invalid parameter \"$-x\"", error("a$-x"));
        assertEquals("the closing bracket in \"uri\" variable is missing", error("${uri"));
    }

    @Test
    @Timeout(5)
    void aDuplicateNameIsRefused() throws ConfException {
        LogFixture fx = new LogFixture(prefix);
        fx.logFormat("main", "$uri");
        assertEquals("duplicate \"log_format\" name \"main\"",
            assertThrows(ConfException.class, () -> fx.logFormat("main", "$uri")).getMessage());
        assertEquals("duplicate \"log_format\" name \"combined\"",
            assertThrows(ConfException.class, () -> fx.logFormat("combined", "$uri")).getMessage());
    }

    @Test
    @Timeout(5)
    void anUnknownVariableIsRefusedWithItsPlace() throws ConfException {
        LogFixture fx = new LogFixture(prefix);
        fx.logFormat("ok", "$uri");
        fx.logFormat("bad", "$uri $nosuch_thing");
        ConfException e = assertThrows(ConfException.class, fx::postconfiguration);
        assertEquals("unknown \"nosuch_thing\" variable in " + LogFixture.CONF + ":2", e.getMessage());
        assertTrue(fx.vars().isKnown("uri"));
    }
}
