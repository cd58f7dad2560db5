package jinx.http.internal.log;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessLogTest {

    @TempDir
    Path prefix;

    private LogFixture fx;

    @BeforeEach
    void fixture() throws ConfException, IOException {
        fx = new LogFixture(prefix);
        fx.logFormat("uri", "$uri");
        Files.createDirectories(prefix.resolve("logs"));
    }

    private String read(String name) throws IOException {
        Path p = prefix.resolve(name);
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : null;
    }

    private FakeRequest request(LogLocConf conf, String uri) {
        FakeRequest r = fx.request(conf);
        r.uri = uri;
        return r;
    }

    private String error(String... args) {
        return assertThrows(ConfException.class, () -> fx.accessLog(fx.location(), args)).getMessage();
    }

    @Test
    @Timeout(5)
    void unbufferedLinesAreWrittenAtOnce() throws Exception {
        fx.accessLog(fx.http, "logs/a.log", "uri");
        fx.postconfiguration();
        assertEquals("", read("logs/a.log"), "opened, empty, at configuration");
        fx.log(request(fx.http, "/one"));
        assertEquals("/one\n", read("logs/a.log"));
        fx.log(request(fx.http, "/two"));
        assertEquals("/one\n/two\n", read("logs/a.log"));
    }

    @Test
    @Timeout(5)
    void severalLogsInOneContextEachWrite() throws Exception {
        fx.accessLog(fx.http, "logs/a.log", "uri");
        fx.accessLog(fx.http, "logs/b.log", "uri");
        fx.postconfiguration();
        fx.log(request(fx.http, "/x"));
        assertEquals("/x\n", read("logs/a.log"));
        assertEquals("/x\n", read("logs/b.log"));
    }

    @Test
    @Timeout(5)
    void aPathIsOpenedOncePerCycle() throws Exception {
        LogLocConf a = fx.location();
        LogLocConf b = fx.location();
        fx.accessLog(a, "logs/shared.log", "uri");
        fx.accessLog(b, prefix.resolve("logs/shared.log").toString(), "uri", "buffer=1k");
        assertEquals(1, fx.main.files().size());
        assertSame(a.logs.get(0).file(), b.logs.get(0).file());
        assertTrue(a.logs.get(0).file().isBuffered(), "the buffer belongs to the file, as nginx's");
    }

    @Test
    @Timeout(5)
    void aBufferHoldsLinesUntilTheNextDoesNotFit() throws Exception {
        fx.accessLog(fx.http, "logs/b.log", "uri", "buffer=16");
        fx.postconfiguration();
        fx.log(request(fx.http, "/aaaa"));
        fx.log(request(fx.http, "/bbbb"));
        assertEquals("", read("logs/b.log"), "12 of 16 bytes buffered");
        fx.log(request(fx.http, "/cccc"));
        assertEquals("/aaaa\n/bbbb\n", read("logs/b.log"));
        fx.logModule.flush();
        assertEquals("/aaaa\n/bbbb\n/cccc\n", read("logs/b.log"));
    }

    @Test
    @Timeout(5)
    void aLineLongerThanTheBufferGoesOutAlone() throws Exception {
        fx.accessLog(fx.http, "logs/b.log", "uri", "buffer=8");
        fx.postconfiguration();
        fx.log(request(fx.http, "/ab"));
        fx.log(request(fx.http, "/a-very-long-uri"));
        assertEquals("/ab\n/a-very-long-uri\n", read("logs/b.log"));
    }

    @Test
    @Timeout(5)
    void buffersAreFlushedAtExit() throws Exception {
        fx.accessLog(fx.http, "logs/b.log", "uri", "buffer=32k", "flush=5s");
        fx.postconfiguration();
        fx.log(request(fx.http, "/last"));
        assertEquals("", read("logs/b.log"));
        fx.logModule.exitProcess(null);
        assertEquals("/last\n", read("logs/b.log"));
    }

    @Test
    @Timeout(5)
    void gzipWritesGzipMembers() throws Exception {
        fx.accessLog(fx.http, "logs/g.log.gz", "uri", "gzip=9", "flush=1m");
        fx.postconfiguration();
        LogFile file = fx.http.logs.get(0).file();
        assertEquals(64 * 1024, file.bufferSize());
        assertEquals(9, file.gzip());
        fx.log(request(fx.http, "/one"));
        fx.logModule.flush();
        fx.log(request(fx.http, "/two"));
        fx.logModule.close();
        byte[] gz = Files.readAllBytes(prefix.resolve("logs/g.log.gz"));
        assertEquals("/one\n/two\n", gunzip(gz), "two members read as one stream");
    }

    private static String gunzip(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    @Timeout(5)
    void aBareGzipIsLevelOne() throws Exception {
        fx.accessLog(fx.http, "logs/g.gz", "uri", "buffer=4k", "gzip");
        LogFile file = fx.http.logs.get(0).file();
        assertEquals(4096, file.bufferSize());
        assertEquals(1, file.gzip());
    }

    @Test
    @Timeout(5)
    void ifSkipsEmptyAndZero() throws Exception {
        fx.accessLog(fx.http, "logs/if.log", "uri", "if=$arg_log");
        fx.postconfiguration();
        FakeRequest none = request(fx.http, "/none");
        none.args = "a=1";
        FakeRequest zero = request(fx.http, "/zero");
        zero.args = "log=0";
        FakeRequest empty = request(fx.http, "/empty");
        empty.args = "log=";
        FakeRequest yes = request(fx.http, "/yes");
        yes.args = "log=1";
        FakeRequest two = request(fx.http, "/zerozero");
        two.args = "log=00";
        for (FakeRequest r : new FakeRequest[] {none, zero, empty, yes, two}) {
            fx.log(r);
        }
        assertEquals("/yes\n/zerozero\n", read("logs/if.log"));
    }

    @Test
    @Timeout(5)
    void offLogsNothingAndIsInherited() throws Exception {
        fx.accessLog(fx.http, "logs/a.log", "uri");
        LogLocConf server = fx.location();
        fx.accessLog(server, "off");
        LogLocConf location = fx.location();
        fx.merge(fx.http, server);
        fx.merge(server, location);
        fx.postconfiguration();
        assertTrue(location.isOff());
        assertEquals(0, location.count());
        fx.log(request(location, "/quiet"));
        fx.log(request(fx.http, "/loud"));
        assertEquals("/loud\n", read("logs/a.log"));
    }

    @Test
    @Timeout(5)
    void aLocationsOwnLogsReplaceItsParents() throws Exception {
        fx.accessLog(fx.http, "logs/a.log", "uri");
        LogLocConf location = fx.location();
        fx.accessLog(location, "logs/b.log", "uri");
        fx.merge(fx.http, location);
        fx.postconfiguration();
        fx.log(request(location, "/here"));
        assertEquals("", read("logs/a.log"));
        assertEquals("/here\n", read("logs/b.log"));
    }

    @Test
    @Timeout(5)
    void withoutAccessLogTheDefaultIsLogsAccessLogCombined() throws Exception {
        LogLocConf server = fx.location();
        LogLocConf location = fx.location();
        fx.merge(fx.http, server);
        fx.merge(server, location);
        fx.postconfiguration();
        assertEquals(1, location.count());
        assertEquals("combined", location.logs.get(0).format().name());
        assertEquals(prefix.resolve("logs/access.log"), location.logs.get(0).file().path());
        FakeRequest r = request(location, "/index.html");
        r.headersOut.status = 200;
        fx.log(r);
        String line = read("logs/access.log");
        assertTrue(line.startsWith("192.0.2.7 - - ["), line);
        assertTrue(line.endsWith("] \"GET /index.html?a=1&b=two HTTP/1.1\" 200 612 \"-\" \"-\"\n"), line);
    }

    @Test
    @Timeout(5)
    void aPathWithVariablesIsOpenedPerRequest() throws Exception {
        fx.accessLog(fx.http, "logs/$arg_a.log", "uri");
        fx.postconfiguration();
        FakeRequest r = request(fx.http, "/v");
        fx.log(r);
        assertEquals("/v\n", read("logs/1.log"));
        r.args = "a=2";
        fx.log(r);
        assertEquals("/v\n", read("logs/2.log"));
    }

    @Test
    @Timeout(5)
    void aPathThatCannotBeOpenedFailsTheConfiguration() throws Exception {
        fx.accessLog(fx.http, "nodir/a.log", "uri");
        ConfException e = assertThrows(ConfException.class, fx::postconfiguration);
        // at the access_log line that named the file (issue #36), not where the files are opened
        assertEquals("open() \"" + prefix.resolve("nodir/a.log") + "\" failed (2: No such file or directory) in "
            + LogFixture.CONF + ":2", e.getMessage());
    }

    @Test
    @Timeout(5)
    void reopenStartsAFreshFileAfterRotation() throws Exception {
        fx.accessLog(fx.http, "logs/r.log", "uri", "buffer=1k");
        fx.postconfiguration();
        fx.log(request(fx.http, "/before"));
        Files.move(prefix.resolve("logs/r.log"), prefix.resolve("logs/r.log.1"));
        assertTrue(fx.logModule.reopen(fx.errorLog()));
        fx.log(request(fx.http, "/after"));
        fx.logModule.close();
        assertEquals("/before\n", read("logs/r.log.1"), "the buffer went to the old file before the switch");
        assertEquals("/after\n", read("logs/r.log"));
    }

    @Test
    @Timeout(5)
    void offTakesNoParameter() {
        assertEquals("invalid parameter \"x\"", error("off", "x"));
    }

    @Test
    @Timeout(5)
    void parameterErrorsAreNginxs() {
        assertEquals("unknown log format \"nosuch\"", error("logs/a.log", "nosuch"));
        assertEquals("invalid buffer size \"0\"", error("logs/a.log", "uri", "buffer=0"));
        assertEquals("invalid buffer size \"lots\"", error("logs/a.log", "uri", "buffer=lots"));
        assertEquals("invalid flush time \"soon\"", error("logs/a.log", "uri", "buffer=4k", "flush=soon"));
        assertEquals("invalid flush time \"0\"", error("logs/a.log", "uri", "buffer=4k", "flush=0"));
        assertEquals("invalid compression level \"10\"", error("logs/a.log", "uri", "gzip=10"));
        assertEquals("invalid compression level \"x\"", error("logs/a.log", "uri", "gzip=x"));
        assertEquals("invalid parameter \"gzipx\"", error("logs/a.log", "uri", "gzipx"));
        assertEquals("invalid parameter \"bogus=1\"", error("logs/a.log", "uri", "bogus=1"));
        assertEquals("no buffer is defined for access_log \"logs/a.log\"", error("logs/a.log", "uri", "flush=1s"));
        assertEquals("buffered logs cannot have variables in name", error("logs/$host.log", "uri", "buffer=4k"));
        assertEquals("invalid variable name", error("logs/a.log", "uri", "if=$"));
        assertTrue(error("syslog:server=127.0.0.1").contains("syslog"));
    }

    @Test
    @Timeout(5)
    void formatNamesIgnoreCase() throws ConfException {
        LogLocConf conf = fx.location();
        fx.accessLog(conf, "logs/a.log", "URI");
        fx.accessLog(conf, "logs/b.log", "COMBINED");
        assertEquals("uri", conf.logs.get(0).format().name());
        assertTrue(fx.main.combinedUsed);
    }

    @Test
    @Timeout(5)
    void conflictingBuffersForOnePathAreRefused() throws ConfException {
        fx.accessLog(fx.location(), "logs/a.log", "uri", "buffer=4k");
        fx.accessLog(fx.location(), "logs/a.log", "uri", "buffer=4k");
        assertEquals("access_log \"logs/a.log\" already defined with conflicting parameters",
            error("logs/a.log", "uri", "buffer=8k"));
        assertEquals("access_log \"logs/a.log\" already defined with conflicting parameters",
            error("logs/a.log", "uri", "buffer=4k", "flush=1s"));
    }

    @Test
    @Timeout(5)
    void combinedIsCompiledOnlyWhenUsed() throws ConfException {
        fx.accessLog(fx.http, "logs/a.log", "uri");
        fx.postconfiguration();
        assertTrue(fx.main.formats.get("combined").isEmpty());
        assertFalse(fx.vars().isKnown("nosuch"));
    }
}
