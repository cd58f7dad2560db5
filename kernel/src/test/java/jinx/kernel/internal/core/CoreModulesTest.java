package jinx.kernel.internal.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.module.ModuleJarLoader;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernel's core modules through whole cycles: {@code core} ({@link MainCoreModule}: the process
 * directives, {@code load_module}) and {@code errlog} ({@link ErrlogCoreModule}: {@code error_log}), with nginx's
 * defaults, values and words.
 */
class CoreModulesTest {

    private static final String WARN_MASKS = "the number of \"worker_processes\" is not equal to the number of "
        + "\"worker_cpu_affinity\" masks, using last mask for remaining worker processes";

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<ErrorLog> opened = new ArrayList<>();
    private String errorLog = "stderr";

    @AfterEach
    void closeLogs() {
        opened.forEach(ErrorLog::close);
        early.close();
    }

    private Path confFile() {
        return tmp.resolve("conf/jinx.conf");
    }

    private KernelCycle build(String conf) throws ConfException, IOException {
        Files.createDirectories(confFile().getParent());
        Files.writeString(confFile(), conf, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(tmp, confFile(), null, errorLog, CycleOptions.Purpose.TEST,
            () -> List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule()), BuiltinOrder.NAMES,
            stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        opened.add(cycle.log());
        return cycle;
    }

    private CoreConf core(String conf) throws ConfException, IOException {
        return build(conf).conf(MainCoreModule.NAME, CoreConf.class);
    }

    private String fail(String conf) {
        return assertThrows(ConfException.class, () -> build(conf)).getMessage();
    }

    private String at(String text, int line) {
        return text + " in " + confFile() + ":" + line;
    }

    private String stderrText() {
        return errBytes.toString(StandardCharsets.ISO_8859_1);
    }

    private static BitSet cpus(int... cpus) {
        BitSet set = new BitSet();
        for (int cpu : cpus) {
            set.set(cpu);
        }
        return set;
    }

    // ---- core

    @Test
    @Timeout(10)
    void defaultsAreNginxs() throws Exception {
        CoreConf c = core("");

        assertEquals(1, c.daemon);
        assertEquals(1, c.masterProcess);
        assertEquals(0, c.timerResolution);
        assertEquals(0, c.shutdownTimeout);
        assertEquals(1, c.workerProcesses);
        assertFalse(c.workerProcessesAuto);
        assertFalse(c.prioritySet);
        assertEquals(-1, c.rlimitNofile);
        assertEquals(-1, c.rlimitCore);
        assertEquals(List.of(), c.cpuAffinity);
        assertEquals(tmp.resolve("logs/jinx.pid"), c.pid);
        assertNull(c.workingDirectory);
        assertEquals(List.of(), c.env);
    }

    @Test
    @Timeout(10)
    void valuesAreSet() throws Exception {
        CoreConf c = core("daemon off;\nmaster_process OFF;\ntimer_resolution 100ms;\nworker_shutdown_timeout 1m;\n"
            + "worker_rlimit_nofile 65535;\nworker_rlimit_core 1g;\nworking_directory /var/tmp;\n");

        assertEquals(0, c.daemon);
        assertEquals(0, c.masterProcess);
        assertEquals(100, c.timerResolution);
        assertEquals(60_000, c.shutdownTimeout);
        assertEquals(65535, c.rlimitNofile);
        assertEquals(1L << 30, c.rlimitCore);
        assertEquals(Path.of("/var/tmp"), c.workingDirectory);
    }

    @Test
    @Timeout(10)
    void workerWarmupIsOffUnlessGivenATime() throws Exception {
        assertEquals(0, core("daemon off;\n").warmUp);
        assertEquals(0, core("worker_warmup off;\n").warmUp);
        assertEquals(2500, core("worker_warmup 2500ms;\n").warmUp);
        assertEquals(3000, core("worker_warmup 3;\n").warmUp);
    }

    @Test
    @Timeout(10)
    void workerProcessesNumberOrAuto() throws Exception {
        assertEquals(4, core("worker_processes 4;").workerProcesses);

        CoreConf auto = core("worker_processes auto;");
        assertEquals(Runtime.getRuntime().availableProcessors(), auto.workerProcesses);
        assertTrue(auto.workerProcessesAuto);
    }

    @Test
    @Timeout(10)
    void workerCpuAffinityMasks() throws Exception {
        CoreConf c = core("worker_processes 4;\nworker_cpu_affinity 0001 0010 0100 1000;\n");

        assertEquals(List.of(cpus(0), cpus(1), cpus(2), cpus(3)), c.cpuAffinity);
        assertFalse(c.cpuAffinityAuto);
        assertFalse(stderrText().contains(WARN_MASKS), stderrText());
    }

    @Test
    @Timeout(10)
    void workerCpuAffinitySkipsSpacesInAMask() throws Exception {
        // ngx_set_cpu_affinity(): a space is no position; "0101 0101" is CPUs 0, 2, 4 and 6
        CoreConf c = core("worker_cpu_affinity \"0101 0101\" \"1 0\";\n");

        assertEquals(List.of(cpus(0, 2, 4, 6), cpus(1)), c.cpuAffinity);
    }

    @Test
    @Timeout(10)
    void workerCpuAffinityAutoIsEveryCpuOrTheMaskGiven() throws Exception {
        int ncpu = Runtime.getRuntime().availableProcessors();
        BitSet all = new BitSet();
        all.set(0, ncpu);

        CoreConf auto = core("worker_processes 4;\nworker_cpu_affinity auto;\n");
        assertTrue(auto.cpuAffinityAuto);
        assertEquals(List.of(all), auto.cpuAffinity, "nginx sets min(ncpu, CPU_SETSIZE) CPUs");

        CoreConf limited = core("worker_processes 4;\nworker_cpu_affinity auto 1010;\n");
        assertTrue(limited.cpuAffinityAuto);
        assertEquals(List.of(all, cpus(1, 3)), limited.cpuAffinity);
        assertFalse(stderrText().contains(WARN_MASKS), "nginx does not warn for auto: " + stderrText());
    }

    @Test
    @Timeout(10)
    void workerCpuAffinityWithFewerMasksThanWorkersWarns() throws Exception {
        CoreConf c = core("worker_processes 4;\nworker_cpu_affinity 01 10;\n");

        assertEquals(List.of(cpus(0), cpus(1)), c.cpuAffinity);
        // nginx logs it from init_conf, without a place
        assertTrue(stderrText().contains(WARN_MASKS + "\n"), stderrText());

        errBytes.reset();
        core("worker_processes 4;\nworker_cpu_affinity 01;\n");
        assertFalse(stderrText().contains(WARN_MASKS), "one mask serves every worker: " + stderrText());
    }

    @Test
    @Timeout(10)
    void workerPrioritySigned() throws Exception {
        CoreConf minus = core("worker_priority -5;");
        assertEquals(-5, minus.priority);
        assertTrue(minus.prioritySet);

        assertEquals(3, core("worker_priority +3;").priority);
        assertEquals(10, core("worker_priority 10;").priority);
    }

    @Test
    @Timeout(10)
    void envKeepsEveryVariableInOrder() throws Exception {
        assertEquals(List.of("TZ", "FOO=bar baz", "PATH"), core("env TZ;\nenv \"FOO=bar baz\";\nenv PATH;\n").env);
    }

    @Test
    @Timeout(10)
    void pidIsRelativeToThePrefix() throws Exception {
        assertEquals(tmp.resolve("run/x.pid"), core("pid run/x.pid;").pid);
        assertEquals(Path.of("/var/run/jinx.pid"), core("pid /var/run/jinx.pid;").pid);
    }

    @Test
    @Timeout(10)
    void userAsRootSetsTheIds() throws Exception {
        assumeTrue(Syscalls.geteuid() == 0, "needs root");
        CoreConf c = core("user nobody nogroup;");

        assertEquals("nobody", c.user);
        assertEquals("nogroup", c.group);
        assertEquals(Syscalls.getpwnam("nobody"), c.uid);
        assertEquals(Syscalls.getgrnam("nogroup"), c.gid);

        assertEquals(at("getpwnam(\"no_such_user_jinx\") failed", 1), fail("user no_such_user_jinx;"));
        assertEquals(at("getgrnam(\"no_such_group_jinx\") failed", 1), fail("user nobody no_such_group_jinx;"));
    }

    @Test
    @Timeout(10)
    void rootWithoutUserRunsWorkersAsNobody() throws Exception {
        assumeTrue(Syscalls.geteuid() == 0, "needs root");
        CoreConf c = core("");

        assertEquals("nobody", c.user);
        assertEquals(Syscalls.getpwnam("nobody"), c.uid);
        assertEquals(Syscalls.getgrnam(c.group), c.gid);
    }

    @Test
    @Timeout(10)
    void userIsIgnoredWithAWarningUnlessRoot() throws Exception {
        assumeTrue(Syscalls.geteuid() != 0, "needs a user other than root");
        CoreConf c = core("user nobody;");

        assertNull(c.user);
        assertEquals(-1, c.uid);
        assertTrue(stderrText().contains(at("the \"user\" directive makes sense only if the master process runs "
            + "with super-user privileges, ignored", 1)), stderrText());
    }

    @Test
    @Timeout(10)
    void loadModuleOnTheClassPathIsRefused() {
        assumeTrue(ModuleJarLoader.kernelLayer() == null, "the tests run on the class path");

        assertEquals(at(ModuleJarLoader.NEEDS_MODULE_PATH, 2), fail("daemon off;\nload_module modules/x.jar;\n"));
    }

    // ---- errlog

    @Test
    @Timeout(10)
    void errorLogTargetsWithTheirLevels() throws Exception {
        Files.createDirectories(tmp.resolve("logs"));
        KernelCycle cycle = build("error_log logs/a.log warn;\nerror_log stderr notice;\n"
            + "error_log logs/b.log debug_http;\nerror_log /dev/null;\nerror_log logs/c.log debug_core debug_http;\n");

        assertEquals(List.of(
            new ErrorLog.Target(tmp.resolve("logs/a.log"), LogLevel.WARN),
            new ErrorLog.Target(null, LogLevel.NOTICE),
            new ErrorLog.Target(tmp.resolve("logs/b.log"), LogLevel.DEBUG),
            new ErrorLog.Target(Path.of("/dev/null"), LogLevel.ERROR),
            new ErrorLog.Target(tmp.resolve("logs/c.log"), LogLevel.DEBUG)), cycle.log().targets());
        assertTrue(Files.exists(tmp.resolve("logs/a.log")), "the cycle opened its files");
    }

    @Test
    @Timeout(10)
    void errorLogLevelAndDebugSublevelDoNotMix() {
        // ngx_log_set_levels(): a level after a debug sublevel is a duplicate, a sublevel after a level invalid
        assertEquals(at("duplicate log level \"warn\"", 1), fail("error_log stderr debug_http warn;"));
        assertEquals(at("invalid log level \"debug_http\"", 1), fail("error_log stderr warn debug_http;"));
        assertEquals(at("invalid log level \"debug_http\"", 1), fail("error_log stderr debug debug_http;"));
    }

    @Test
    @Timeout(10)
    void withoutErrorLogTheCycleUsesMinusE() throws Exception {
        Files.createDirectories(tmp.resolve("logs"));
        errorLog = "logs/e.log";

        KernelCycle cycle = build("");

        assertEquals(List.of(new ErrorLog.Target(tmp.resolve("logs/e.log"), LogLevel.ERROR)), cycle.log().targets());
    }

    @Test
    @Timeout(10)
    void unopenableErrorLogFailsTheCycleWithOpensWords() {
        Path missing = tmp.resolve("nodir/error.log");

        assertEquals("open() \"" + missing + "\" failed (2: No such file or directory)",
            fail("error_log nodir/error.log;"));
    }
}
