package jinx.kernel.internal.cycle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;
import jinx.kernel.spi.TypedBlock;
import jinx.kernel.spi.TypedConfs;

import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Builds cycles in-process for the cycle tests, from files in a temporary prefix, with the kernel's three
 * built-in modules and test modules written here: a core module {@code testblock} owning a block
 * {@code testblock { ... }} of its own module type {@code TEST}, modules of that type with one directive of each
 * common kind, and a plain core module. Every module writes its lifecycle calls to a shared {@link Journal}.
 */
final class CycleFixture implements AutoCloseable {

    /** The module type the {@code testblock} block defines. */
    static final ModuleType TEST = ModuleType.of("TEST");

    /** The context of the inside of {@code testblock { ... }}. */
    static final Ctx TESTBLOCK = Ctx.of("testblock");

    /** The lifecycle calls of the test modules, as "call module", in the order they happened. */
    static final class Journal {
        final List<String> calls = new ArrayList<>();
        /** The cycle the last {@code initModule} call received. */
        Cycle initModuleCycle;

        void add(String call, JinxModule module) {
            calls.add(call + " " + module.name());
        }
    }

    /** Makes a fresh test module for every cycle. */
    @FunctionalInterface
    interface Maker {
        JinxModule make(Journal journal);
    }

    /** A value of an enum directive. */
    enum Mode {
        OFF, ON_DEMAND, ALWAYS
    }

    /** The conf object of a {@code TEST} module or of {@code tcore}: one field of each kind. */
    static final class TestConf {
        int flag = Conf.UNSET;
        long size = Conf.UNSET_LONG;
        long msec = Conf.UNSET_LONG;
        int number = Conf.UNSET;
        String str;
        Mode mode;
        final List<String> list = new ArrayList<>();
        boolean initialised;

        void fillDefaults() {
            flag = Conf.init(flag, 1);
            size = Conf.init(size, 8192L);
            msec = Conf.init(msec, 60_000L);
            number = Conf.init(number, 1);
            str = Conf.merge(str, null, "default");
            mode = Conf.merge(mode, null, Mode.OFF);
            initialised = true;
        }
    }

    /** Shared by the test modules: name, version, lifecycle recorded in the journal. */
    abstract static class RecordingModule implements JinxModule, CoreModule {
        final String name;
        final Journal journal;

        RecordingModule(String name, Journal journal) {
            this.name = name;
            this.journal = journal;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public void initModule(Cycle cycle) throws Exception {
            journal.add("initModule", this);
            journal.initModuleCycle = cycle;
        }
    }

    /** The core module owning {@code testblock { ... }}, nginx's {@code ngx_events_module} in miniature. */
    static final class TestBlockModule extends RecordingModule {
        private final List<Directive<?>> directives = List.of(
            Directive.of("testblock", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS, TypedConfs.class,
                TypedBlock.handler(TEST, TESTBLOCK)));

        TestBlockModule(Journal journal) {
            super("testblock", journal);
        }

        @Override
        public ModuleType type() {
            return ModuleType.CORE;
        }

        @Override
        public List<Directive<?>> directives() {
            return directives;
        }

        @Override
        public Object createConf(Cycle cycle) {
            journal.add("createConf", this);
            return new TypedConfs(TEST);
        }

        @Override
        public void initConf(Cycle cycle, Object conf) {
            journal.add("initConf", this);
        }
    }

    /**
     * A module of type {@code TEST} (or of {@code CORE}, standing in the main context) whose directives are the
     * prefix followed by {@code _flag}, {@code _size}, {@code _msec}, {@code _number}, {@code _str}, {@code _mode}
     * and {@code _list} (the only one allowed more than once).
     */
    static final class TestTypeModule extends RecordingModule {
        private final ModuleType type;
        private final List<String> after;
        private final Exception failure;
        private final List<Directive<?>> directives;

        TestTypeModule(String name, String prefix, ModuleType type, List<String> after, Exception failure,
                       Journal journal) {
            super(name, journal);
            this.type = type;
            this.after = after;
            this.failure = failure;
            Set<Ctx> where = Set.of(type.equals(ModuleType.CORE) ? Ctx.MAIN : TESTBLOCK);
            this.directives = List.of(
                Directive.of(prefix + "_flag", where, Arity.FLAG, TestConf.class,
                    Slots.flag((TestConf c, boolean on) -> c.flag = on ? 1 : 0)),
                Directive.of(prefix + "_size", where, Arity.TAKE1, TestConf.class,
                    Slots.size((TestConf c, long v) -> c.size = v)),
                Directive.of(prefix + "_msec", where, Arity.TAKE1, TestConf.class,
                    Slots.msec((TestConf c, long v) -> c.msec = v)),
                Directive.of(prefix + "_number", where, Arity.TAKE1, TestConf.class,
                    Slots.number((TestConf c, int v) -> c.number = v)),
                Directive.of(prefix + "_str", where, Arity.TAKE1, TestConf.class,
                    Slots.str((TestConf c, String v) -> c.str = v)),
                Directive.of(prefix + "_mode", where, Arity.TAKE1, TestConf.class,
                    Slots.enumOf(Mode.class, (TestConf c, Mode m) -> c.mode = m)),
                Directive.of(prefix + "_list", where, Arity.TAKE1, TestConf.class,
                    Slots.strArray((TestConf c, String v) -> c.list.add(v))).multi());
        }

        @Override
        public ModuleType type() {
            return type;
        }

        @Override
        public List<String> after() {
            return after;
        }

        @Override
        public List<Directive<?>> directives() {
            return directives;
        }

        @Override
        public Object createConf(Cycle cycle) {
            journal.add("createConf", this);
            return new TestConf();
        }

        @Override
        public void initConf(Cycle cycle, Object conf) {
            journal.add("initConf", this);
            ((TestConf) conf).fillDefaults();
        }

        @Override
        public void initModule(Cycle cycle) throws Exception {
            super.initModule(cycle);
            if (failure != null) {
                // proves the log the builder closes afterwards was open and was this cycle's
                cycle.log().error("module \"" + name + "\" is about to fail");
                throw failure;
            }
        }
    }

    static Maker block() {
        return TestBlockModule::new;
    }

    /** A {@code TEST} module whose directives start with {@code prefix}, standing after the modules named. */
    static Maker typed(String name, String prefix, String... after) {
        return j -> new TestTypeModule(name, prefix, TEST, List.of(after), null, j);
    }

    /** A {@code CORE} module whose directives start with {@code prefix}. */
    static Maker core(String name, String prefix) {
        return j -> new TestTypeModule(name, prefix, ModuleType.CORE, List.of(), null, j);
    }

    /** A {@code CORE} module whose {@code initModule} throws {@code failure}. */
    static Maker failing(String name, Exception failure) {
        return j -> new TestTypeModule(name, name, ModuleType.CORE, List.of(), failure, j);
    }

    final Path prefix;
    final Journal journal = new Journal();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<ErrorLog> opened = new ArrayList<>();
    /** The {@code -g} directives, or null. */
    String params;
    /** The {@code -e} error log; stderr, so that a cycle opens no file unless its configuration says so. */
    String errorLog = "stderr";

    CycleFixture(Path prefix) {
        this.prefix = prefix.toAbsolutePath();
    }

    /**
     * The built-in modules, {@code testblock}, the {@code TEST} modules {@code tmod_a} and {@code tmod_b}, and the
     * core module {@code tcore}.
     */
    Supplier<List<JinxModule>> standard() {
        return modules(block(), typed("tmod_a", "a"), typed("tmod_b", "b"), core("tcore", "c"));
    }

    /** The built-in modules and fresh test modules, made anew on every call as the kernel asks. */
    Supplier<List<JinxModule>> modules(Maker... makers) {
        return () -> {
            List<JinxModule> list = new ArrayList<>(List.of(
                new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule()));
            for (Maker m : makers) {
                list.add(m.make(journal));
            }
            return list;
        };
    }

    /** Writes a file under the prefix, creating its directories; returns its absolute path. */
    Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    Path write(String name, byte[] content) throws IOException {
        Path file = prefix.resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        return file;
    }

    /** The main configuration file, {@code conf/jinx.conf} under the prefix. */
    Path confFile() {
        return prefix.resolve("conf/jinx.conf");
    }

    /** Writes the main configuration and builds a first cycle with the standard modules. */
    KernelCycle build(String conf) throws ConfException, IOException {
        write("conf/jinx.conf", conf);
        return build(confFile(), standard(), null);
    }

    KernelCycle build(Path conf, Supplier<List<JinxModule>> modules, KernelCycle old) throws ConfException {
        CycleOptions options = new CycleOptions(prefix, conf, params, errorLog, CycleOptions.Purpose.TEST,
            modules, BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, old);
        opened.add(cycle.log());
        return cycle;
    }

    /** Writes the main configuration, builds it with the standard modules and returns the error. */
    ConfException fail(String conf) throws IOException {
        write("conf/jinx.conf", conf);
        return fail(confFile(), standard(), null);
    }

    ConfException fail(Path conf, Supplier<List<JinxModule>> modules, KernelCycle old) {
        return assertThrows(ConfException.class, () -> build(conf, modules, old));
    }

    /** What was written to the stream standing for stderr. */
    String stderrText() {
        return errBytes.toString(StandardCharsets.ISO_8859_1);
    }

    /** {@code text in <main conf>:line}, the full message of an error in the main configuration file. */
    String at(String text, int line) {
        return text + " in " + confFile() + ":" + line;
    }

    @Override
    public void close() {
        for (ErrorLog log : opened) {
            log.close();
        }
        early.close();
    }
}
