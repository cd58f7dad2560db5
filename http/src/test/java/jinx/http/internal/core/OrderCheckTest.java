package jinx.http.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.HttpOrder;
import jinx.http.spi.Phase;
import jinx.kernel.Rc;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * {@code jinx -t} warns, naming the module, about a CONTENT handler placed after {@code http_static} and about
 * header and body filters placed after the filters that write the response; a module ordered with
 * {@link HttpOrder} gets no warning. {@code -m} names a module that adds two filters in a row once.
 */
class OrderCheckTest {

    @TempDir
    Path prefix;

    /** A module with a header filter, a body filter and maybe a content handler, placed by {@code before}. */
    private static final class Greet implements JinxModule, HttpModule {
        private final String name;
        private final List<String> before;
        private final boolean content;

        Greet(String name, List<String> before, boolean content) {
            this.name = name;
            this.before = before;
            this.content = content;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public ModuleType type() {
            return HttpCtx.HTTP;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.CURRENT;
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public List<String> before() {
            return before;
        }

        @Override
        public void postconfiguration(HttpConfig cf) throws jinx.kernel.ConfException {
            if (content) {
                cf.addPhaseHandler(Phase.CONTENT, r -> Rc.DECLINED);
            }
            cf.addHeaderFilter((r, next) -> next.filter(r));
            cf.addBodyFilter((r, in, next) -> next.filter(r, in));
        }
    }

    private record Result(int exit, String out, String err) {
    }

    private Result jinx(List<JinxModule> extra, String... args) throws IOException {
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("conf"));
        Files.writeString(prefix.resolve("conf/jinx.conf"), "error_log stderr;\nevents {}\n"
            + "http {\n    access_log off;\n    server {\n        listen 127.0.0.1:0;\n    }\n}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("-p", prefix.toString()));
        all.addAll(List.of(args));
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, () -> {
                List<JinxModule> modules = new ArrayList<>(Main.discover());
                modules.addAll(extra);
                return modules;
            }).run(all.toArray(new String[0]));
        }
        return new Result(exit, out.toString(StandardCharsets.ISO_8859_1), err.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aModuleLeftLastIsWarnedAboutByName() throws IOException {
        Result r = jinx(List.of(new Greet("late_greet", List.of(), true)), "-t");
        assertEquals(0, r.exit(), r.err());
        String conf = prefix.resolve("conf/jinx.conf").toString();
        assertTrue(r.err().contains("[warn] the CONTENT handler of module \"late_greet\" runs after \"http_static\", "
            + "which answers every request whose URI does not end in \"/\": order the module before(\"http_index\") "
            + "(HttpOrder.CONTENT_HANDLERS) in " + conf + ":"), r.err());
        assertTrue(r.err().contains("[warn] the header filter of module \"late_greet\" never runs: it is placed after "
            + "\"http_header_filter\", which writes the header and ends the chain: order the module "
            + "before(\"http_header_filter\") (HttpOrder.HEADER_WRITER) in " + conf + ":"), r.err());
        assertTrue(r.err().contains("[warn] the body filter of module \"late_greet\" never runs: it is placed after "
            + "\"http_write_filter\", which writes the body and ends the chain: order the module "
            + "before(\"http_write_filter\") (HttpOrder.BODY_WRITER) in " + conf + ":"), r.err());
        assertTrue(r.err().endsWith("test is successful\n"), r.err());
    }

    @Test
    void aModuleOrderedInAuthorTermsIsNotWarnedAbout() throws IOException {
        Result r = jinx(List.of(new Greet("good_greet", List.of(HttpOrder.CONTENT_HANDLERS), true),
            new Greet("filters_only", List.of(HttpOrder.HEADER_WRITER), false)), "-t");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.err().contains("[warn]"), r.err());
        // between the header writer and the body writer: only the header filter is lost, and said so
        Result between = jinx(List.of(new Greet("between", List.of(HttpOrder.BODY_WRITER), false)), "-t");
        assertTrue(between.err().contains("the header filter of module \"between\" never runs"), between.err());
        assertFalse(between.err().contains("CONTENT handler") || between.err().contains("body filter"),
            between.err());
    }

    @Test
    void dashMNamesAModuleWithTwoFiltersInARowOnce() throws IOException {
        Result r = jinx(List.of(), "-m");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\nbody filters: http_headers_filter -> http_gunzip_filter -> "
            + "http_addition_filter -> http_sub_filter -> http_charset_filter -> http_ssi_filter -> "
            + "http_postpone_filter -> http_gzip_filter -> http_range_filter (2 filters) -> "
            + "http_chunked_filter -> http_write_filter\n"), r.out());
        assertEquals("a -> b (3 filters) -> a", HttpBlockModule.chain(List.of("a", "b", "b", "b", "a")));
    }
}
