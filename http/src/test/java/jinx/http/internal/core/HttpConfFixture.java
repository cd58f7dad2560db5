package jinx.http.internal.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jinx.http.internal.variables.HttpVariablesModule;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.Rc;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Builds cycles in-process, without sockets, with the kernel's core modules, {@code http}, {@code http_core},
 * {@code http_variables} and
 * two test HTTP modules: {@code http_test_a}, whose main, server and location confs have directives at every
 * level and which registers a phase handler and filters, and {@code http_test_b}, which registers a filter and a
 * phase handler too, so that orders can be checked.
 */
final class HttpConfFixture implements AutoCloseable, AfterEachCallback {

    /** The main conf of {@code http_test_a}. */
    static final class TestMain {
        String value;
        boolean initialised;
    }

    /** The server conf of {@code http_test_a}. */
    static final class TestSrv {
        String value;
    }

    /** The location conf of {@code http_test_a}. */
    static final class TestLoc {
        String value;
        long size = Conf.UNSET_LONG;
    }

    /** The location confs of the {@code test_if} blocks, in order. */
    final List<HttpCoreLocConf> ifBlocks = new ArrayList<>();

    /** What the test modules' hooks did, in order. */
    final List<String> journal = new ArrayList<>();

    /** {@code http_test_a}: confs at every level, a REWRITE and a CONTENT handler, a header and a body filter. */
    final class ModuleA implements JinxModule, HttpModule {
        private final List<Directive<?>> directives = List.of(
            Directive.of("test_main", Set.of(HttpCtx.MAIN), Arity.TAKE1, TestMain.class,
                Slots.str((TestMain c, String v) -> c.value = v)),
            Directive.of("test_srv", Set.of(HttpCtx.MAIN, HttpCtx.SRV), Arity.TAKE1, TestSrv.class,
                Slots.str((TestSrv c, String v) -> c.value = v)),
            Directive.of("test_loc", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LMT), Arity.TAKE1,
                TestLoc.class, Slots.str((TestLoc c, String v) -> c.value = v)),
            Directive.of("test_size", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC), Arity.TAKE1, TestLoc.class,
                Slots.size((TestLoc c, long v) -> c.size = v)),
            Directive.of("test_redirect", Set.of(HttpCtx.LOC), Arity.NOARGS,
                (cf, unused) -> HttpCoreModule.locConf(HttpScope.of(cf).confs()).autoRedirect = true),
            Directive.of("test_if", Set.of(HttpCtx.SRV, HttpCtx.LOC), Arity.BLOCK | Arity.NOARGS, (cf, unused) -> {
                HttpConfCtx ctx = HttpCoreModule.nonameLocation(cf);
                ifBlocks.add(HttpCoreModule.locConf(ctx));
                cf.parseBlock(HttpScope.of(cf).nested(
                    HttpScope.of(cf).ctx().equals(HttpCtx.SRV) ? HttpCtx.SIF : HttpCtx.LIF, ctx));
            }).multi());

        @Override
        public String name() {
            return "http_test_a";
        }

        @Override
        public ModuleType type() {
            return HttpCtx.HTTP;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
        }

        @Override
        public List<Directive<?>> directives() {
            return directives;
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public void preconfiguration(HttpConfig cf) {
            journal.add("preconfiguration a");
        }

        @Override
        public void postconfiguration(HttpConfig cf) throws ConfException {
            journal.add("postconfiguration a");
            cf.addPhaseHandler(Phase.REWRITE, r -> Rc.DECLINED);
            cf.addPhaseHandler(Phase.CONTENT, r -> Rc.DECLINED);
            cf.addHeaderFilter((r, next) -> {
                journal.add("header a");
                return next.filter(r);
            });
            cf.addBodyFilter((r, in, next) -> {
                journal.add("body a");
                return next.filter(r, in);
            });
        }

        @Override
        public Object createMainConf() {
            return new TestMain();
        }

        @Override
        public void initMainConf(Object conf) {
            ((TestMain) conf).initialised = true;
        }

        @Override
        public Object createSrvConf() {
            return new TestSrv();
        }

        @Override
        public void mergeSrvConf(Object parent, Object child) {
            TestSrv c = (TestSrv) child;
            c.value = Conf.merge(c.value, ((TestSrv) parent).value, "srv-default");
        }

        @Override
        public Object createLocConf() {
            return new TestLoc();
        }

        @Override
        public void mergeLocConf(Object parent, Object child) {
            TestLoc c = (TestLoc) child;
            TestLoc p = (TestLoc) parent;
            c.value = Conf.merge(c.value, p.value, "loc-default");
            c.size = Conf.merge(c.size, p.size, 4096L);
        }
    }

    /** {@code http_test_b}: a header filter and a CONTENT and an ACCESS handler. */
    final class ModuleB implements JinxModule, HttpModule {
        @Override
        public String name() {
            return "http_test_b";
        }

        @Override
        public ModuleType type() {
            return HttpCtx.HTTP;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
        }

        @Override
        public List<String> after() {
            return List.of("http_test_a");
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public void preconfiguration(HttpConfig cf) {
            journal.add("preconfiguration b");
        }

        @Override
        public void postconfiguration(HttpConfig cf) throws ConfException {
            journal.add("postconfiguration b");
            cf.addPhaseHandler(Phase.CONTENT, r -> Rc.DECLINED);
            cf.addPhaseHandler(Phase.ACCESS, r -> Rc.DECLINED);
            cf.addPhaseHandler(Phase.LOG, r -> Rc.OK);
            cf.addHeaderFilter((r, next) -> {
                journal.add("header b");
                return next.filter(r);
            });
        }
    }

    final Path prefix;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<ErrorLog> opened = new ArrayList<>();

    /** Whether {@link #inTempDir()} made the prefix, to be deleted after the test. */
    private boolean ownsPrefix;

    /**
     * A fixture in a temporary directory of its own, for {@code @RegisterExtension}: closed and the directory
     * deleted after each test.
     *
     * @return the fixture
     */
    static HttpConfFixture inTempDir() {
        try {
            HttpConfFixture fx = new HttpConfFixture(Files.createTempDirectory("jinx-http-conf-"));
            fx.ownsPrefix = true;
            return fx;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        close();
        if (!ownsPrefix) {
            return;
        }
        try (Stream<Path> paths = Files.walk(prefix)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    HttpConfFixture(Path prefix) {
        this.prefix = prefix.toAbsolutePath();
    }

    Supplier<List<JinxModule>> modules() {
        return () -> new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule(),
            new HttpBlockModule(), new HttpCoreModule(), new HttpVariablesModule(), new ModuleA(), new ModuleB()));
    }

    Path write(String name, String text) throws IOException {
        Path file = prefix.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        return file;
    }

    Path confFile() {
        return prefix.resolve("conf/jinx.conf");
    }

    /** Builds a cycle of {@code conf}, the whole main configuration. */
    KernelCycle build(String conf) throws ConfException, IOException {
        write("conf/jinx.conf", conf);
        CycleOptions options = new CycleOptions(prefix, confFile(), null, "stderr", CycleOptions.Purpose.TEST,
            modules(), BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        opened.add(cycle.log());
        return cycle;
    }

    /** Builds a cycle of {@code http { <http> }} and returns its block. */
    HttpBlockConf http(String http) throws ConfException, IOException {
        return block(build("http {\n" + http + "\n}\n"));
    }

    /** The error of a configuration that must fail. */
    ConfException fail(String conf) throws IOException {
        write("conf/jinx.conf", conf);
        return assertThrows(ConfException.class, () -> build(conf));
    }

    static HttpBlockConf block(KernelCycle cycle) {
        return cycle.conf(HttpBlockModule.NAME, HttpBlockConf.class);
    }

    /** {@code text in <conf>:line}. */
    String at(String text, int line) {
        return text + " in " + confFile() + ":" + line;
    }

    String stderrText() {
        return errBytes.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        for (ErrorLog log : opened) {
            log.close();
        }
        early.close();
    }
}
