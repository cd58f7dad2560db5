package jinx.kernel.internal.cycle;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleFixture.TestConf;
import jinx.kernel.internal.event.EventCoreConf;
import jinx.kernel.internal.event.EventCoreModule;
import jinx.kernel.internal.event.EventsCoreModule;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.testsuite.FakeEventModule;
import jinx.kernel.testsuite.OpenFds;
import jinx.kernel.testsuite.TestListenModule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The master's {@link ConfSnapshot} and the worker's attach build ({@link CycleBuilder#attach}), in one process:
 * a cycle built to serve, with includes, a glob, a {@code mime.types}-like file, {@code -g} and two listening
 * sockets, is sealed, written, read back and rebuilt after its files were deleted or broken on disk; the rebuilt
 * cycle has the same modules, files and conf values, takes the master's descriptors and runs no
 * {@code initModule}. Mismatches between snapshot and configuration fail with a clear text. The {@code load_module}
 * part is in {@link ModuleCacheTest} (the cache, on the class path) and {@link AttachModulePathTest} (end to end,
 * on the module path).
 */
@EnabledOnOs(OS.LINUX)
class ConfSnapshotTest {

    @TempDir
    Path tmp;

    private Path prefix;
    private Path conf;
    private Map<String, String> fdBaseline;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final ErrorLog early = ErrorLog.early(stderr, null);
    private final CycleFixture.Journal journal = new CycleFixture.Journal();
    private final List<KernelCycle> masters = new ArrayList<>();
    private final List<KernelCycle> workers = new ArrayList<>();
    private final List<Integer> files = new ArrayList<>();
    private int port;

    @BeforeEach
    void prefix() throws IOException {
        fdBaseline = OpenFds.baseline();
        prefix = tmp.toAbsolutePath().normalize();
        Files.createDirectories(prefix.resolve("logs"));
        conf = prefix.resolve("conf/jinx.conf");
        port = freePort();
    }

    @AfterEach
    void closeEverything() throws Exception {
        // a worker's sockets are its master's descriptors here: closed once, with the master's
        for (KernelCycle c : workers) {
            c.log().close();
        }
        for (KernelCycle c : masters) {
            ListeningSockets.closeAll(c);
            c.log().close();
        }
        for (int fd : files) {
            Syscalls.close(fd);
        }
        early.close();
        OpenFds.assertBackTo(fdBaseline);
    }

    private List<JinxModule> modules() {
        return new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule(),
            new EventsCoreModule(), new EventCoreModule(), new FakeEventModule(), new TestListenModule(),
            CycleFixture.core("tcore", "c").make(journal)));
    }

    private Path write(String name, String text) throws IOException {
        Path file = prefix.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        return file;
    }

    /** A site: -g, a glob of two files (and a hidden one it skips), a types file, an include in a block. */
    private void site() throws IOException {
        write("conf/jinx.conf", """
            worker_processes 3;
            timer_resolution 100ms;
            include conf.d/*.conf;
            include mime.types;
            c_str main;
            events {
                worker_connections 64;
                include events.conf;
            }
            test_listen 127.0.0.1:%d;
            test_listen 127.0.0.1:0 backlog=8;
            """.formatted(port));
        write("conf/conf.d/a.conf", "env A;\n");
        write("conf/conf.d/b.conf", "env B;\nc_list from_b;\n");
        write("conf/conf.d/.hidden.conf", "not_a_directive;\n");
        write("conf/mime.types", "env TYPES;\n");
        write("conf/events.conf", "multi_accept on;\n");
    }

    private KernelCycle master(String params) throws ConfException {
        CycleOptions options = new CycleOptions(prefix, conf, params, "stderr", CycleOptions.Purpose.RUN,
            this::modules, BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        masters.add(cycle);
        return cycle;
    }

    private KernelCycle attach(ConfSnapshot snapshot, int[] fds) throws ConfException {
        KernelCycle cycle = CycleBuilder.attach(
            snapshot.workerOptions(this::modules, BuiltinOrder.NAMES, stderr, early), fds);
        workers.add(cycle);
        return cycle;
    }

    private ConfException attachFails(ConfSnapshot snapshot, int[] fds) {
        return assertThrows(ConfException.class, () -> attach(snapshot, fds));
    }

    private static int[] fds(KernelCycle cycle) {
        return cycle.listening().stream().mapToInt(Listening::fd).toArray();
    }

    private static ConfSnapshot roundTrip(ConfSnapshot s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.write(out);
        return ConfSnapshot.read(new ByteArrayInputStream(out.toByteArray()));
    }

    private static List<String> names(KernelCycle cycle) {
        return cycle.modules().stream().map(LoadedModule::name).toList();
    }

    private static List<Path> paths(List<KernelCycle.ConfFile> files) {
        return files.stream().map(KernelCycle.ConfFile::path).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static ConfSnapshot withFiles(ConfSnapshot s, List<KernelCycle.ConfFile> files) {
        return new ConfSnapshot(s.jinxVersion(), s.prefix(), s.confFile(), s.params(), s.errorLog(), files,
            s.globs(), s.jars(), s.listening(), s.resolved());
    }

    private static ConfSnapshot withListening(ConfSnapshot s, List<ConfSnapshot.ListenSocket> listening) {
        return new ConfSnapshot(s.jinxVersion(), s.prefix(), s.confFile(), s.params(), s.errorLog(), s.files(),
            s.globs(), s.jars(), listening, s.resolved());
    }

    // ---- the same cycle, without the disk

    @Test
    @Timeout(20)
    void attachBuildsTheMastersCycleFromTheSnapshotAlone() throws Exception {
        site();
        KernelCycle master = master("pid logs/other.pid;");
        ConfSnapshot sealed = master.snapshot();
        Path confDir = conf.getParent();
        List<Path> read = List.of(conf, confDir.resolve("conf.d/a.conf"), confDir.resolve("conf.d/b.conf"),
            confDir.resolve("mime.types"), confDir.resolve("events.conf"));
        assertEquals(read, paths(sealed.files()), "every file, in the order read");
        assertEquals(List.of(new ConfSnapshot.Glob(confDir.resolve("conf.d/*.conf"),
            List.of(confDir.resolve("conf.d/a.conf"), confDir.resolve("conf.d/b.conf")))), sealed.globs());
        assertEquals("pid logs/other.pid;", sealed.params());
        assertEquals("stderr", sealed.errorLog());
        assertEquals(List.of(), sealed.jars());
        assertEquals(2, sealed.listening().size());
        assertEquals("127.0.0.1:" + port, sealed.listening().get(0).bound());
        assertEquals("127.0.0.1:0", sealed.listening().get(1).address());
        assertFalse(sealed.listening().get(1).bound().endsWith(":0"), "the port the kernel picked");
        ConfSnapshot snapshot = roundTrip(sealed);

        // the disk changes under the workers: they must not notice
        deleteTree(confDir.resolve("conf.d"));
        Files.delete(confDir.resolve("mime.types"));
        Files.delete(confDir.resolve("events.conf"));
        write("conf/jinx.conf", "this is { not a configuration\n");
        KernelCycle worker = attach(snapshot, fds(master));

        assertEquals(names(master), names(worker));
        assertEquals(paths(master.files()), paths(worker.files()));
        for (int i = 0; i < master.files().size(); i++) {
            assertArrayEquals(master.files().get(i).content(), worker.files().get(i).content());
        }
        assertEquals(master.prefix(), worker.prefix());
        assertEquals(master.confFile(), worker.confFile());
        assertFalse(worker.isTest());
        assertNull(worker.snapshot(), "a worker seals nothing");

        CoreConf core = worker.conf(MainCoreModule.NAME, CoreConf.class);
        assertEquals(3, core.workerProcesses);
        assertEquals(100, core.timerResolution);
        assertEquals(prefix.resolve("logs/other.pid"), core.pid, "-g came along");
        assertEquals(List.of("A", "B", "TYPES"), core.env);
        EventCoreConf events = worker.conf(EventCoreModule.NAME, EventCoreConf.class);
        assertEquals(64, events.connections);
        assertEquals(1, events.multiAccept);
        assertEquals(FakeEventModule.METHOD, events.use);
        TestConf tcore = worker.conf("tcore", TestConf.class);
        assertEquals("main", tcore.str);
        assertEquals(List.of("from_b"), tcore.list);
        assertTrue(tcore.initialised, "initConf ran");

        for (int i = 0; i < 2; i++) {
            Listening ls = worker.listening().get(i);
            assertEquals(master.listening().get(i).fd(), ls.fd());
            assertTrue(ls.inherited());
            assertEquals(master.listening().get(i).addrText(), ls.addrText());
        }
        assertEquals(8, worker.listening().get(1).backlog);
        assertEquals(1, journal.calls.stream().filter("initModule tcore"::equals).count(),
            "initModule is the master's alone: " + journal.calls);
        assertEquals(2, journal.calls.stream().filter("initConf tcore"::equals).count());

        // and the disk really is broken: the next master build reads it
        ConfException e = assertThrows(ConfException.class, () -> master(null));
        assertTrue(e.getMessage().startsWith("unknown directive \"this\""), e.getMessage());
    }

    @Test
    @Timeout(20)
    void theWorkerTakesTheValuesTheMasterResolved() throws Exception {
        write("conf/jinx.conf", "worker_processes auto;\nworker_cpu_affinity auto;\nevents { }\n");
        ConfSnapshot sealed = master(null).snapshot();
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(cpus, sealed.resolved().workerProcesses());
        assertEquals(cpus, sealed.resolved().cpuAffinity().get(0).cardinality());

        // a worker JVM sees one processor: what the master saw wins
        BitSet mask = new BitSet();
        mask.set(0);
        mask.set(5);
        ConfSnapshot.Resolved master = new ConfSnapshot.Resolved(7, "www", "www", 4321, 8765, List.of(mask));
        ConfSnapshot changed = new ConfSnapshot(sealed.jinxVersion(), sealed.prefix(), sealed.confFile(),
            sealed.params(), sealed.errorLog(), sealed.files(), sealed.globs(), sealed.jars(), sealed.listening(),
            master);
        CoreConf core = attach(roundTrip(changed), new int[0]).conf(MainCoreModule.NAME, CoreConf.class);
        assertEquals(7, core.workerProcesses);
        assertTrue(core.workerProcessesAuto);
        assertEquals(List.of(mask), core.cpuAffinity);
        assertEquals("www", core.user);
        assertEquals(4321, core.uid);
        assertEquals(8765, core.gid);
    }

    @Test
    @Timeout(20)
    void onlyACycleBuiltToServeHasASnapshot() throws Exception {
        site();
        CycleOptions test = new CycleOptions(prefix, conf, null, "stderr", CycleOptions.Purpose.TEST,
            this::modules, BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(test, null);
        workers.add(cycle);
        assertNull(cycle.snapshot());
        assertTrue(cycle.isTest());
        assertFalse(Files.exists(prefix.resolve("cache")), "nothing cached for -t");

        ConfSnapshot snapshot = master(null).snapshot();
        CycleOptions worker = snapshot.workerOptions(this::modules, BuiltinOrder.NAMES, stderr, early);
        assertThrows(IllegalArgumentException.class, () -> CycleBuilder.build(worker, null));
        assertThrows(IllegalArgumentException.class, () -> CycleBuilder.attach(test, new int[0]));
        assertThrows(IllegalArgumentException.class, () -> new CycleOptions(prefix, conf, null, null,
            CycleOptions.Purpose.RUN, this::modules, BuiltinOrder.NAMES, stderr, early, null, snapshot));
    }

    // ---- listening sockets

    @Test
    @Timeout(20)
    void aWorkerMayLackASocket() throws Exception {
        site();
        KernelCycle master = master(null);
        KernelCycle worker = attach(master.snapshot(), new int[] {master.listening().get(0).fd(), -1});
        assertEquals(master.listening().get(0).fd(), worker.listening().get(0).fd());
        assertEquals(-1, worker.listening().get(1).fd());
    }

    @Test
    @Timeout(20)
    void listeningMismatchesFailClearly() throws Exception {
        site();
        KernelCycle master = master(null);
        ConfSnapshot s = master.snapshot();
        int[] fds = fds(master);
        String first = "127.0.0.1:" + port;
        String second = master.snapshot().listening().get(1).bound();

        assertEquals("configuration snapshot mismatch: 1 listening descriptors given for 2 listening sockets",
            attachFails(s, new int[] {fds[0]}).getMessage());

        List<ConfSnapshot.ListenSocket> other = new ArrayList<>(s.listening());
        other.set(0, new ConfSnapshot.ListenSocket("127.0.0.1:1", "127.0.0.1:1", false, -1));
        assertEquals("configuration snapshot mismatch: listening socket 0 is \"" + first + "\" in the configuration "
            + "but \"127.0.0.1:1\" in the snapshot", attachFails(withListening(s, other), fds).getMessage());

        other = new ArrayList<>(s.listening());
        ConfSnapshot.ListenSocket r = other.get(1);
        other.set(1, new ConfSnapshot.ListenSocket(r.address(), r.bound(), true, 2));
        assertEquals("configuration snapshot mismatch: listening socket 1 is \"127.0.0.1:0\" in the configuration "
            + "but \"127.0.0.1:0\" reuseport of worker 2 in the snapshot",
            attachFails(withListening(s, other), fds).getMessage());

        assertEquals("configuration snapshot mismatch: the configuration has 2 listening sockets, the snapshot 1",
            attachFails(withListening(s, s.listening().subList(0, 1)), new int[] {fds[0]}).getMessage());

        assertEquals("configuration snapshot mismatch: inherited descriptor " + fds[1] + " for listening socket \""
            + first + "\" is bound to " + second + ", not " + first,
            attachFails(s, new int[] {fds[1], fds[0]}).getMessage());

        int file = jinx.kernel.os.Files.open(conf.toString(), Platform.O_RDONLY | Platform.O_CLOEXEC, 0);
        files.add(file);
        String text = attachFails(s, new int[] {fds[0], file}).getMessage();
        assertTrue(text.startsWith("listening socket \"127.0.0.1:0\": inherited descriptor " + file
            + ": getsockname() failed ("), text);

        // nothing above took a descriptor: the master's sockets are as they were
        assertEquals(fds[0], master.listening().get(0).fd());
        assertFalse(master.listening().get(0).inherited());
    }

    // ---- the snapshot and the configuration it is replayed into

    @Test
    @Timeout(20)
    void aSnapshotThatIsNotTheConfigurationsFails() throws Exception {
        write("conf/jinx.conf", "events { }\ninclude inc.conf;\n");
        write("conf/inc.conf", "env A;\n");
        ConfSnapshot s = master(null).snapshot();
        Path inc = conf.getParent().resolve("inc.conf");

        // the main file's bytes name a file the snapshot does not hold next
        List<KernelCycle.ConfFile> files = new ArrayList<>(s.files());
        files.set(0, new KernelCycle.ConfFile(conf, "events { }\ninclude other.conf;\n".getBytes()));
        Path otherConf = conf.getParent().resolve("other.conf");
        write("conf/other.conf", "env B;\n");
        assertEquals("configuration snapshot mismatch: file \"" + otherConf + "\" is not the next one it holds in "
            + conf + ":2", attachFails(withFiles(s, files), new int[0]).getMessage());

        files = new ArrayList<>(s.files());
        files.add(new KernelCycle.ConfFile(inc, "env C;\n".getBytes()));
        assertEquals("configuration snapshot mismatch: 1 files, 0 patterns and 0 modules in it were not used",
            attachFails(withFiles(s, files), new int[0]).getMessage());

        ConfSnapshot old = new ConfSnapshot("0.0.1", s.prefix(), s.confFile(), s.params(), s.errorLog(), s.files(),
            s.globs(), s.jars(), s.listening(), s.resolved());
        assertEquals("configuration snapshot of jinx/0.0.1 in jinx/" + Versions.JINX,
            attachFails(old, new int[0]).getMessage());
    }

    @Test
    @Timeout(20)
    void aPatternIsReplayedAsItWasExpanded() throws Exception {
        write("conf/jinx.conf", "events { }\ninclude conf.d/*.conf;\n");
        write("conf/conf.d/a.conf", "env A;\n");
        ConfSnapshot s = master(null).snapshot();
        // a file appears on disk after the master expanded the pattern: the worker does not include it
        write("conf/conf.d/b.conf", "env B;\n");
        KernelCycle worker = attach(roundTrip(s), new int[0]);
        assertEquals(List.of("A"), worker.conf(MainCoreModule.NAME, CoreConf.class).env);
        assertEquals(2, worker.files().size());

        ConfSnapshot noGlob = new ConfSnapshot(s.jinxVersion(), s.prefix(), s.confFile(), s.params(), s.errorLog(),
            s.files(), List.of(), s.jars(), s.listening(), s.resolved());
        assertEquals("configuration snapshot mismatch: pattern \"" + conf.getParent().resolve("conf.d/*.conf")
            + "\" is not the next one it holds in " + conf + ":2",
            attachFails(noGlob, new int[0]).getMessage());
    }

    @Test
    @Timeout(20)
    void aConfigurationErrorInTheSnapshotIsReportedAsOnDisk() throws Exception {
        write("conf/jinx.conf", "events { }\n");
        ConfSnapshot s = master(null).snapshot();
        List<KernelCycle.ConfFile> files = List.of(new KernelCycle.ConfFile(conf, "events { }\nbogus;\n".getBytes()));
        assertEquals("unknown directive \"bogus\" in " + conf + ":2",
            attachFails(withFiles(s, files), new int[0]).getMessage());
    }
}
