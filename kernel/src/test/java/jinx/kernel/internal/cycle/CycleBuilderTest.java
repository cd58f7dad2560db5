package jinx.kernel.internal.cycle;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.cycle.CycleFixture.Mode;
import jinx.kernel.internal.cycle.CycleFixture.TestConf;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.TypedConfs;

import static jinx.kernel.internal.cycle.CycleFixture.block;
import static jinx.kernel.internal.cycle.CycleFixture.core;
import static jinx.kernel.internal.cycle.CycleFixture.failing;
import static jinx.kernel.internal.cycle.CycleFixture.typed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CycleBuilder}: a block defining its own module type, module indexes kept across cycles, a failed cycle
 * leaving the old one as it was, {@code initModule} failures, and the order of the lifecycle calls.
 */
class CycleBuilderTest {

    @TempDir
    Path tmp;

    private CycleFixture fx;

    @BeforeEach
    void fixture() {
        fx = new CycleFixture(tmp);
    }

    @AfterEach
    void closeLogs() {
        fx.close();
    }

    private static TestConf conf(KernelCycle cycle, String module) {
        return cycle.conf(cycle.module(module).module(), TestConf.class);
    }

    // ---- a block of its own module type

    @Test
    @Timeout(10)
    void typeModulesDirectivesSetTheirConfsInsideTheBlock() throws Exception {
        KernelCycle cycle = fx.build("""
            c_str main;
            testblock {
                a_flag off;
                a_size 16k;
                a_msec 1m30s;
                a_number 42;
                a_str hello;
                a_mode On_Demand;
                a_list one;
                a_list two;
                b_str only_b;
            }
            """);

        TestConf a = conf(cycle, "tmod_a");
        assertEquals(0, a.flag);
        assertEquals(16 * 1024, a.size);
        assertEquals(90_000, a.msec);
        assertEquals(42, a.number);
        assertEquals("hello", a.str);
        assertEquals(Mode.ON_DEMAND, a.mode);
        assertEquals(List.of("one", "two"), a.list);
        assertTrue(a.initialised);

        TestConf b = cycle.conf("tmod_b", TestConf.class);
        assertEquals("only_b", b.str);
        assertEquals(1, b.flag, "initConf filled the defaults of what the block left unset");
        assertEquals(8192, b.size);
        assertEquals(60_000, b.msec);
        assertEquals(1, b.number);
        assertEquals(Mode.OFF, b.mode);
        assertEquals(List.of(), b.list);
        assertTrue(b.initialised);

        assertEquals("main", conf(cycle, "tcore").str, "a core module's conf is reachable the same way");
        assertNull(cycle.conf("tmod_a", String.class), "a conf of another type is null");
        assertNull(cycle.conf("no_such_module", TestConf.class));

        TypedConfs confs = cycle.conf("testblock", TypedConfs.class);
        assertTrue(confs.isSet());
        assertSame(a, confs.get(cycle.module("tmod_a").typeIndex()));
        assertSame(b, confs.get(cycle.module("tmod_b").typeIndex()));
    }

    @Test
    @Timeout(10)
    void typeModulesHaveNoConfWithoutTheBlock() throws Exception {
        KernelCycle cycle = fx.build("c_flag on;\n");

        assertNull(cycle.conf("tmod_a", TestConf.class));
        assertFalse(cycle.conf("testblock", TypedConfs.class).isSet());
        assertFalse(fx.journal.calls.contains("createConf tmod_a"));
    }

    @Test
    @Timeout(10)
    void typeModulesTakeTheirTypeIndexesInModuleOrder() throws Exception {
        KernelCycle cycle = fx.build("testblock { }\n");

        assertEquals(0, cycle.module("tmod_a").typeIndex());
        assertEquals(1, cycle.module("tmod_b").typeIndex());
        List<String> test = new ArrayList<>();
        for (LoadedModule m : cycle.modules(CycleFixture.TEST)) {
            test.add(m.name());
        }
        assertEquals(List.of("tmod_a", "tmod_b"), test);
    }

    @Test
    @Timeout(10)
    void typeModuleDirectiveIsRefusedOutsideTheBlock() throws Exception {
        assertEquals(fx.at("\"a_flag\" directive is not allowed here", 2),
            fx.fail("testblock { }\na_flag on;\n").getMessage());
    }

    @Test
    @Timeout(10)
    void coreDirectiveIsRefusedInsideTheBlock() throws Exception {
        assertEquals(fx.at("\"c_str\" directive is not allowed here", 2),
            fx.fail("testblock {\n    c_str x;\n}\n").getMessage());
    }

    @Test
    @Timeout(10)
    void secondBlockIsDuplicate() throws Exception {
        assertEquals(fx.at("\"testblock\" directive is duplicate", 3),
            fx.fail("testblock {\n}\ntestblock {\n}\n").getMessage());
    }

    @Test
    @Timeout(10)
    void includeInsideTheBlockParsesInTheBlock() throws Exception {
        fx.write("conf/block.conf", "a_str included;\nb_list x;\n");
        KernelCycle cycle = fx.build("testblock {\n    include block.conf;\n    b_list y;\n}\n");

        assertEquals("included", conf(cycle, "tmod_a").str);
        assertEquals(List.of("x", "y"), conf(cycle, "tmod_b").list);
    }

    // ---- indexes across cycles

    @Test
    @Timeout(10)
    void survivingModulesKeepTheirIndexesWhenTheModuleListChanges() throws Exception {
        Path confA = fx.write("a.conf", "testblock {\n    a_str in_a;\n    b_str b_in_a;\n}\n");
        KernelCycle a = fx.build(confA, fx.modules(block(), typed("tmod_a", "a"), typed("tmod_b", "b")), null);

        Path confB = fx.write("b.conf", "testblock {\n    b_str b_in_b;\n    c_str c_in_b;\n}\n");
        // tmod_a removed, tmod_c added, and handed over before tmod_b
        KernelCycle b = fx.build(confB, fx.modules(block(), typed("tmod_c", "c"), typed("tmod_b", "b")), a);

        assertNull(b.module("tmod_a"));
        for (String name : List.of("core", "errlog", "conf", "testblock", "tmod_b")) {
            assertEquals(a.module(name).index(), b.module(name).index(), name);
            assertEquals(a.module(name).typeIndex(), b.module(name).typeIndex(), name);
        }
        LoadedModule c = b.module("tmod_c");
        for (LoadedModule m : a.modules()) {
            assertNotEquals(m.index(), c.index(), "a new module takes no index of the old cycle: " + m.name());
        }
        assertEquals(2, c.typeIndex(), "neither tmod_a's 0 nor tmod_b's 1");

        assertEquals("b_in_b", conf(b, "tmod_b").str);
        assertEquals("c_in_b", conf(b, "tmod_c").str);
        assertEquals("b_in_a", conf(a, "tmod_b").str, "the old cycle's confs are its own");

        // a module back after a cycle without it gets its old indexes again
        KernelCycle d = fx.build(confA, fx.modules(block(), typed("tmod_a", "a"), typed("tmod_b", "b")), b);
        assertEquals(a.module("tmod_a").index(), d.module("tmod_a").index());
        assertEquals(a.module("tmod_a").typeIndex(), d.module("tmod_a").typeIndex());
        assertEquals("in_a", conf(d, "tmod_a").str);
    }

    @Test
    @Timeout(10)
    void failedCycleLeavesTheOldOneAsItWas() throws Exception {
        Files.createDirectories(tmp.resolve("logs"));
        Path logB = tmp.resolve("logs/b.log");
        Supplier<List<JinxModule>> modulesB = fx.modules(block(), typed("tmod_b", "b"), typed("tmod_c", "c"));
        Path confB = fx.write("b.conf", "error_log logs/b.log info;\ntestblock {\n    b_str kept;\n}\n");
        KernelCycle b = fx.build(confB, modulesB, null);
        List<LoadedModule> modulesBefore = b.modules();
        ErrorLog logBefore = b.log();
        TestConf confBefore = conf(b, "tmod_b");
        int filesBefore = b.files().size();

        // C: new modules, a new log file, then an error while parsing
        Supplier<List<JinxModule>> modulesC = fx.modules(block(), typed("tmod_b", "b"), typed("tmod_d", "d"));
        Path confC = fx.write("c.conf",
            "error_log logs/c.log;\ntestblock {\n    b_str changed;\n    d_str x;\n    b_list y;\n}\nnope;\n");
        assertEquals("unknown directive \"nope\" in " + confC + ":7", fx.fail(confC, modulesC, b).getMessage());

        // C': parsed, its log opened on B's file, then initModule fails
        Path confC2 = fx.write("c2.conf", "error_log logs/b.log info;\ntestblock { b_str changed; }\n");
        fx.fail(confC2, fx.modules(block(), typed("tmod_b", "b"), failing("tfail", new IllegalStateException())), b);

        assertEquals(modulesBefore, b.modules());
        assertSame(logBefore, b.log());
        assertEquals(List.of(new ErrorLog.Target(logB, LogLevel.INFO)), b.log().targets());
        assertSame(confBefore, conf(b, "tmod_b"));
        assertEquals("kept", confBefore.str);
        assertEquals(List.of(), confBefore.list);
        assertEquals(filesBefore, b.files().size());
        assertFalse(Files.exists(tmp.resolve("logs/c.log")), "a cycle failing in its configuration opens no log");
        b.log().log(LogLevel.INFO, "B still logs");
        assertTrue(Files.readString(logB, StandardCharsets.ISO_8859_1).contains("B still logs"),
            "closing the failed cycle's log did not close the old one's file");

        // B's indexes did not learn C's module: the next new module gets the index tmod_d had
        KernelCycle e = fx.build(confB, fx.modules(block(), typed("tmod_b", "b"), typed("tmod_e", "e")), b);
        int next = 0;
        for (LoadedModule m : b.modules()) {
            next = Math.max(next, m.index() + 1);
        }
        assertEquals(next, e.module("tmod_e").index());
        assertEquals(2, e.module("tmod_e").typeIndex());
    }

    // ---- initModule

    @Test
    @Timeout(10)
    void initModuleThrowingFailsTheCycleNamingTheModuleAndClosesItsLog() throws Exception {
        Files.createDirectories(tmp.resolve("logs"));
        fx.write("conf/jinx.conf", "error_log logs/new.log info;\ntestblock { }\n");
        Supplier<List<JinxModule>> modules = fx.modules(block(), typed("tmod_a", "a"), core("tcore", "c"),
            failing("tfail", new IllegalStateException("boom")));

        ConfException e = fx.fail(fx.confFile(), modules, null);

        assertEquals("module \"tfail\" failed to initialise (java.lang.IllegalStateException: boom)", e.getMessage());
        assertEquals(IllegalStateException.class, e.getCause().getClass());
        // order: tcore, testblock, tfail, tmod_a: those after the failing module are not initialised
        List<String> inits = new ArrayList<>();
        for (String call : fx.journal.calls) {
            if (call.startsWith("initModule")) {
                inits.add(call);
            }
        }
        assertEquals(List.of("initModule tcore", "initModule testblock", "initModule tfail"), inits);

        Path log = tmp.resolve("logs/new.log");
        fx.journal.initModuleCycle.log().error("written after the failure");
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("module \"tfail\" is about to fail"), text);
        assertFalse(text.contains("written after the failure"), "the failed cycle's log file is closed");
    }

    @Test
    @Timeout(10)
    void initModuleThrowingConfExceptionKeepsItsText() throws Exception {
        fx.write("conf/jinx.conf", "");
        ConfException e = fx.fail(fx.confFile(),
            fx.modules(failing("tfail", new ConfException("shared zone \"z\" is too small"))), null);

        assertEquals("shared zone \"z\" is too small", e.getMessage());
    }

    // ---- lifecycle order

    @Test
    @Timeout(10)
    void lifecycleCallsFollowTheModuleOrder() throws Exception {
        fx.write("conf/jinx.conf", "c_str x;\ntestblock {\n    a_str y;\n    b_str z;\n}\n");
        // handed over out of order; tmod_a stands after tmod_b
        Supplier<List<JinxModule>> modules = fx.modules(typed("tmod_a", "a", "tmod_b"), block(),
            typed("tmod_b", "b"), core("tcore", "c"));

        KernelCycle cycle = fx.build(fx.confFile(), modules, null);

        List<String> order = new ArrayList<>();
        for (LoadedModule m : cycle.modules()) {
            order.add(m.name());
        }
        assertEquals(List.of("core", "errlog", "conf", "tcore", "testblock", "tmod_b", "tmod_a"), order);
        assertEquals(List.of(
            // the core modules' confs, before parsing
            "createConf tcore", "createConf testblock",
            // the block: its modules' confs, the block parsed, then their initConf
            "createConf tmod_b", "createConf tmod_a", "initConf tmod_b", "initConf tmod_a",
            // the core modules' initConf after parsing
            "initConf tcore", "initConf testblock",
            // initModule of every module
            "initModule tcore", "initModule testblock", "initModule tmod_b", "initModule tmod_a"),
            fx.journal.calls);
        assertSame(cycle, fx.journal.initModuleCycle);
        assertNotNull(cycle.conf("tmod_a", TestConf.class));
    }
}
