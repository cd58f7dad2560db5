package jinx.kernel.spi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link Slots}: each handler's value and its error text, word for word nginx's.
 */
class SlotsTest {

    /** A conf object with a field of each kind. */
    static final class TestConf {
        Boolean flag;
        String str;
        final List<String> strs = new ArrayList<>();
        final Map<String, String> pairs = new LinkedHashMap<>();
        int number = Conf.UNSET;
        long value = Conf.UNSET_LONG;
        Object choice;
        int bits = Conf.UNSET;
        Path path;
    }

    enum Mode {
        OFF, ON_DEMAND, ALWAYS
    }

    /** A parser at a directive: only its words, the prefix and the log are real. */
    static final class FakeContext implements ConfContext {
        final List<String> args;
        final List<String> logged = new ArrayList<>();

        FakeContext(String... words) {
            this.args = List.of(words);
        }

        @Override
        public List<String> args() {
            return args;
        }

        @Override
        public Cycle cycle() {
            return null;
        }

        @Override
        public ConfScope scope() {
            return null;
        }

        @Override
        public void parseBlock(ConfScope scope) {
            throw new AssertionError("no block");
        }

        @Override
        public void parseFile(Path file) {
            throw new AssertionError("no include");
        }

        @Override
        public Path resolve(String path) {
            return Path.of("/prefix").resolve(path);
        }

        @Override
        public Path resolveConf(String path) {
            return Path.of("/prefix/conf").resolve(path);
        }

        @Override
        public String file() {
            return "/prefix/conf/jinx.conf";
        }

        @Override
        public int line() {
            return 1;
        }

        @Override
        public void log(LogLevel level, String message) {
            logged.add(level.label() + ": " + message);
        }
    }

    private static TestConf apply(DirectiveHandler<TestConf> handler, String... words) throws ConfException {
        TestConf conf = new TestConf();
        handler.set(new FakeContext(words), conf);
        return conf;
    }

    private static String error(DirectiveHandler<TestConf> handler, String... words) {
        return assertThrows(ConfException.class, () -> apply(handler, words)).getMessage();
    }

    @ParameterizedTest
    @CsvSource({"on, true", "off, false", "ON, true", "Off, false", "oN, true"})
    void flag(String word, boolean expected) throws ConfException {
        assertEquals(expected, apply(Slots.flag((c, on) -> c.flag = on), "sendfile", word).flag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "", "onn", "o", "true"})
    void badFlag(String word) {
        assertEquals("invalid value \"" + word + "\" in \"sendfile\" directive, it must be \"on\" or \"off\"",
                     error(Slots.flag((c, on) -> c.flag = on), "sendfile", word));
    }

    @Test
    void str() throws ConfException {
        assertEquals("/var/run/jinx.pid", apply(Slots.str((c, s) -> c.str = s), "pid", "/var/run/jinx.pid").str);
        assertEquals("", apply(Slots.str((c, s) -> c.str = s), "pid", "").str);
    }

    @Test
    void strArrayCollectsEachDirective() throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.strArray((c, s) -> c.strs.add(s));
        TestConf conf = new TestConf();
        handler.set(new FakeContext("env", "A"), conf);
        handler.set(new FakeContext("env", "B=1"), conf);
        assertEquals(List.of("A", "B=1"), conf.strs);
    }

    @Test
    void keyval() throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.keyval((c, k, v) -> c.pairs.put(k, v));
        TestConf conf = new TestConf();
        handler.set(new FakeContext("proxy_set_header", "Host", "$host"), conf);
        handler.set(new FakeContext("proxy_set_header", "X-Empty", ""), conf);
        assertEquals(Map.of("Host", "$host", "X-Empty", ""), conf.pairs);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1024, 1024", "2147483647, 2147483647"})
    void number(String word, int expected) throws ConfException {
        assertEquals(expected, apply(Slots.number((c, n) -> c.number = n), "worker_connections", word).number);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "+1", "1k", "", "x", "99999999999999999999"})
    void badNumber(String word) {
        assertEquals("\"worker_connections\" directive invalid number",
                     error(Slots.number((c, n) -> c.number = n), "worker_connections", word));
    }

    @ParameterizedTest
    @CsvSource({"10k, 10240", "1m, 1048576", "512, 512", "0, 0"})
    void size(String word, long expected) throws ConfException {
        assertEquals(expected, apply(Slots.size((c, v) -> c.value = v), "client_body_buffer_size", word).value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1g", "99999999999999999999", "-1", "", "1kb"})
    void badSize(String word) {
        assertEquals("\"client_body_buffer_size\" directive invalid value",
                     error(Slots.size((c, v) -> c.value = v), "client_body_buffer_size", word));
    }

    @ParameterizedTest
    @CsvSource({"1g, 1073741824", "10k, 10240", "1m, 1048576", "7, 7"})
    void offset(String word, long expected) throws ConfException {
        assertEquals(expected, apply(Slots.offset((c, v) -> c.value = v), "directio", word).value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1t", "99999999999999999999", "-1g"})
    void badOffset(String word) {
        assertEquals("\"directio\" directive invalid value",
                     error(Slots.offset((c, v) -> c.value = v), "directio", word));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"500ms|500", "30s|30000", "60|60000", "1h30m|5400000", "1h 30m|5400000"})
    void msec(String word, long expected) throws ConfException {
        assertEquals(expected, apply(Slots.msec((c, v) -> c.value = v), "keepalive_timeout", word).value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1y", "2M", "30m1h", "", "soon", "-1"})
    void badMsec(String word) {
        assertEquals("\"keepalive_timeout\" directive invalid value",
                     error(Slots.msec((c, v) -> c.value = v), "keepalive_timeout", word));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"30s|30", "30|30", "1h30m|5400", "1h 30m|5400", "2M|5184000", "1y|31536000"})
    void sec(String word, long expected) throws ConfException {
        assertEquals(expected, apply(Slots.sec((c, v) -> c.value = v), "ssl_session_timeout", word).value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"500ms", "30m1h", "", "1x", "99999999999999999999"})
    void badSec(String word) {
        assertEquals("\"ssl_session_timeout\" directive invalid value",
                     error(Slots.sec((c, v) -> c.value = v), "ssl_session_timeout", word));
    }

    @ParameterizedTest
    @CsvSource({"debug, 7", "DEBUG, 7", "Info, 6"})
    void oneOf(String word, int expected) throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.oneOf(Map.of("debug", 7, "info", 6), (c, v) -> c.choice = v);
        assertEquals(expected, apply(handler, "level", word).choice);
    }

    @Test
    void oneOfRefusesOthers() {
        DirectiveHandler<TestConf> handler = Slots.oneOf(Map.of("debug", 7), (c, v) -> c.choice = v);
        assertEquals("invalid value \"verbose\"", error(handler, "level", "verbose"));
        assertEquals("invalid value \"debu\"", error(handler, "level", "debu"));
    }

    @Test
    void oneOfRefusesNamesDifferingOnlyByCase() {
        assertThrows(IllegalArgumentException.class,
                     () -> Slots.oneOf(Map.of("a", 1, "A", 2), (TestConf c, Integer v) -> c.choice = v));
    }

    @ParameterizedTest
    @CsvSource({"off, OFF", "on_demand, ON_DEMAND", "Always, ALWAYS"})
    void enumOf(String word, Mode expected) throws ConfException {
        assertEquals(expected, apply(Slots.enumOf(Mode.class, (c, m) -> c.choice = m), "mode", word).choice);
    }

    @Test
    void enumOfRefusesOthers() {
        assertEquals("invalid value \"on-demand\"",
                     error(Slots.enumOf(Mode.class, (c, m) -> c.choice = m), "mode", "on-demand"));
    }

    private static final Map<String, Integer> PROTOCOLS = Map.of("TLSv1.2", 0x4, "TLSv1.3", 0x8, "modern", 0xc);

    @Test
    void bitmaskOrsEveryWord() throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.bitmask(PROTOCOLS, (c, b) -> c.bits = b);
        assertEquals(0xc, apply(handler, "ssl_protocols", "TLSv1.2", "tlsv1.3").bits);
        assertEquals(0x4, apply(handler, "ssl_protocols", "TLSv1.2").bits);
    }

    @Test
    void bitmaskWarnsOnBitsAlreadySet() throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.bitmask(PROTOCOLS, (c, b) -> c.bits = b);
        FakeContext cf = new FakeContext("ssl_protocols", "TLSv1.2", "TLSv1.2", "modern");
        TestConf conf = new TestConf();
        handler.set(cf, conf);
        // "modern" overlaps TLSv1.2, so as in nginx its TLSv1.3 bit is not added either.
        assertEquals(0x4, conf.bits);
        assertEquals(List.of("warn: duplicate value \"TLSv1.2\"", "warn: duplicate value \"modern\""), cf.logged);
    }

    @Test
    void bitmaskRefusesUnknownWords() {
        DirectiveHandler<TestConf> handler = Slots.bitmask(PROTOCOLS, (c, b) -> c.bits = b);
        assertEquals("invalid value \"SSLv3\"", error(handler, "ssl_protocols", "TLSv1.2", "SSLv3"));
    }

    @Test
    void pathIsResolvedAgainstThePrefix() throws ConfException {
        DirectiveHandler<TestConf> handler = Slots.path((c, p) -> c.path = p);
        assertEquals(Path.of("/prefix/logs/error.log"), apply(handler, "error_log", "logs/error.log").path);
        assertEquals(Path.of("/var/log/error.log"), apply(handler, "error_log", "/var/log/error.log").path);
    }

    @Test
    void pathIsReadAsUtf8() throws ConfException {
        // "café" as its UTF-8 bytes read one char per byte, as the configuration reader decodes them.
        String latin1 = "caf\u00c3\u00a9";
        TestConf conf = apply(Slots.path((c, p) -> c.path = p), "root", latin1);
        assertEquals(Path.of("/prefix/caf\u00e9"), conf.path);
    }

    @Test
    void pathRefusedByTheFileSystem() {
        assertEquals("\"root\" directive invalid value",
                     error(Slots.path((c, p) -> c.path = p), "root", "a\u0000b"));
    }

    @Test
    void slotsFitDirectiveTables() throws ConfException {
        // The setter's conf type is inferred from the directive's conf class, as module tables write them.
        Directive<TestConf> d = Directive.of("worker_connections", Set.of(Ctx.MAIN), Arity.TAKE1, TestConf.class,
                                             Slots.number((c, n) -> c.number = n));
        TestConf conf = new TestConf();
        d.handler().set(new FakeContext("worker_connections", "512"), conf);
        assertEquals(512, conf.number);
    }
}
