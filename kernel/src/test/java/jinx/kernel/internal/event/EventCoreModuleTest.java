package jinx.kernel.internal.event;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.testsuite.FakeEventModule;
import jinx.kernel.testsuite.TestListenModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code events} and {@code event_core} modules, nginx's {@code ngx_events_module} and
 * {@code ngx_event_core_module}: the block, its directives' defaults, values and errors (compared with nginx's
 * texts), and the choice of the event method among fake methods whose usability and priority the test sets. The
 * loop itself is built by {@code initProcess} over the fake method's table.
 */
class EventCoreModuleTest {

    @TempDir
    Path tmp;

    private Path conf;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final ErrorLog early = ErrorLog.early(stderr, null);
    private final List<KernelCycle> built = new ArrayList<>();
    /** The event methods of the next cycle; by default the one usable fake. */
    private List<FakeEventModule> methods = List.of(new FakeEventModule());

    @BeforeEach
    void prefix() {
        conf = tmp.resolve("conf/jinx.conf");
    }

    @AfterEach
    void close() {
        for (KernelCycle c : built) {
            c.log().close();
        }
        early.close();
    }

    /** The kernel's built-in modules, {@code events} and {@code event_core} among them, and the fake methods. */
    private List<JinxModule> modules() {
        List<JinxModule> list = new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule(),
            new IncludeConfModule(), new EventsCoreModule(), new EventCoreModule(), new TestListenModule()));
        for (FakeEventModule m : methods) {
            // fresh instances, as the kernel asks of the supplier
            list.add(new FakeEventModule(m.name(), m.methodName(), m.isUsable(), m.priority()));
        }
        return list;
    }

    private KernelCycle build(String text) throws ConfException, IOException {
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, text, StandardCharsets.ISO_8859_1);
        CycleOptions options = new CycleOptions(tmp, conf, null, "stderr", CycleOptions.Purpose.TEST, this::modules,
            BuiltinOrder.NAMES, stderr, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        built.add(cycle);
        return cycle;
    }

    private String fail(String text) {
        return assertThrows(ConfException.class, () -> build(text)).getMessage();
    }

    private String at(String message, int line) {
        return message + " in " + conf + ":" + line;
    }

    private static EventCoreConf events(KernelCycle cycle) {
        EventCoreConf c = cycle.conf(EventCoreModule.NAME, EventCoreConf.class);
        assertNotNull(c, "event_core's conf");
        return c;
    }

    // ---- the modules

    @Test
    @Timeout(10)
    void eventsIsACoreModuleAndEventCoreAnEventModule() throws Exception {
        KernelCycle cycle = build("events { }\n");
        assertEquals(ModuleType.CORE, cycle.module(EventsCoreModule.NAME).module().type());
        assertEquals(EventModule.EVENT, cycle.module(EventCoreModule.NAME).module().type());
        // event_core is the first EVENT module, so its initConf chooses before the methods' own run
        assertEquals(List.of(EventCoreModule.NAME, FakeEventModule.NAME),
            cycle.modules(EventModule.EVENT).stream().map(m -> m.name()).toList());
    }

    // ---- worker_connections

    @Test
    @Timeout(10)
    void workerConnectionsDefaultsTo512() throws Exception {
        assertEquals(512, events(build("events { }\n")).connections);
        assertEquals(64, events(build("events {\n    worker_connections 64;\n}\n")).connections);
    }

    @Test
    @Timeout(10)
    void workerConnectionsMustBeANumber() {
        assertEquals(at("invalid number \"x\"", 2), fail("events {\n    worker_connections x;\n}\n"));
        assertEquals(at("invalid number \"-1\"", 1), fail("events { worker_connections -1; }\n"));
        assertEquals(at("invalid number of arguments in \"worker_connections\" directive", 1),
            fail("events { worker_connections; }\n"));
        assertEquals(at("\"worker_connections\" directive is duplicate", 3),
            fail("events {\n    worker_connections 8;\n    worker_connections 16;\n}\n"));
    }

    /** nginx's ngx_event_init_conf(): a connection per listening socket and one for the channel (issue #36). */
    @Test
    @Timeout(10)
    void workerConnectionsMustCoverTheListeningSocketsAndTheChannel() throws Exception {
        String two = "test_listen 127.0.0.1:1;\ntest_listen 127.0.0.1:2;\n";
        assertEquals("0 worker_connections are not enough for 2 listening sockets",
            fail(two + "events { worker_connections 0; }\n"));
        assertEquals("2 worker_connections are not enough for 2 listening sockets",
            fail(two + "events { worker_connections 2; }\n"));
        assertEquals("0 worker_connections are not enough for 0 listening sockets",
            fail("events { worker_connections 0; }\n"));
        assertEquals(3, events(build(two + "events { worker_connections 3; }\n")).connections);
        assertEquals(1, events(build("events { worker_connections 1; }\n")).connections);
    }

    // ---- use, and the choice without it

    @Test
    @Timeout(10)
    void useOfAnUnknownMethod() {
        assertEquals(at("invalid event type \"x\"", 1), fail("events { use x; }\n"));
        // a module's name is not a method's name unless it says so
        methods = List.of(new FakeEventModule("fake_a", "alpha", true, 5));
        assertEquals(at("invalid event type \"fake_a\"", 1), fail("events { use fake_a; }\n"));
    }

    @Test
    @Timeout(10)
    void withoutUseTheUsableMethodWithTheLowestPriorityWins() throws Exception {
        methods = List.of(
            new FakeEventModule("fake_a", "alpha", true, 20),
            new FakeEventModule("fake_b", "beta", false, 1),
            new FakeEventModule("fake_c", "gamma", true, 5),
            new FakeEventModule("fake_d", "delta", true, 7));
        assertEquals("gamma", events(build("events { }\n")).use);

        // the order of the modules does not matter, only the priority
        methods = List.of(
            new FakeEventModule("fake_a", "alpha", true, 3),
            new FakeEventModule("fake_c", "gamma", true, 5));
        assertEquals("alpha", events(build("events { }\n")).use);
    }

    @Test
    @Timeout(10)
    void useNamesAMethod() throws Exception {
        methods = List.of(
            new FakeEventModule("fake_a", "alpha", true, 20),
            new FakeEventModule("fake_c", "gamma", true, 5));
        assertEquals("alpha", events(build("events { use alpha; }\n")).use);
        assertEquals("gamma", events(build("events { use gamma; }\n")).use);
        assertEquals(at("\"use\" directive is duplicate", 1), fail("events { use alpha; use gamma; }\n"));
    }

    @Test
    @Timeout(10)
    void useOfAnUnusableMethod() {
        methods = List.of(
            new FakeEventModule("fake_a", "alpha", true, 20),
            new FakeEventModule("fake_b", "beta", false, 1));
        assertEquals(at("event type \"beta\" is not usable on this system", 1), fail("events { use beta; }\n"));
    }

    @Test
    @Timeout(10)
    void noUsableMethod() {
        methods = List.of(new FakeEventModule("fake_b", "beta", false, 1));
        assertEquals(at("no usable event method: load an event module such as epoll or poll", 1),
            fail("events { }\n"));
        methods = List.of();
        assertEquals(at("no usable event method: load an event module such as epoll or poll", 3),
            fail("events {\n    worker_connections 8;\n}\n"));
    }

    // ---- multi_accept, accept_mutex, accept_mutex_delay

    @Test
    @Timeout(10)
    void acceptDefaults() throws Exception {
        EventCoreConf c = events(build("events { }\n"));
        assertEquals(0, c.multiAccept, "multi_accept off");
        assertEquals(0, c.acceptMutex, "accept_mutex off");
        assertEquals(500, c.acceptMutexDelay, "accept_mutex_delay 500ms");
        assertEquals(List.of(), c.debugConnection);
    }

    @Test
    @Timeout(10)
    void acceptValues() throws Exception {
        EventCoreConf c = events(build("""
            events {
                multi_accept on;
                accept_mutex on;
                accept_mutex_delay 1s;
            }
            """));
        assertEquals(1, c.multiAccept);
        assertEquals(1, c.acceptMutex);
        assertEquals(1000, c.acceptMutexDelay);

        c = events(build("events { multi_accept off; accept_mutex off; accept_mutex_delay 50ms; }\n"));
        assertEquals(0, c.multiAccept);
        assertEquals(0, c.acceptMutex);
        assertEquals(50, c.acceptMutexDelay);
    }

    @Test
    @Timeout(10)
    void acceptErrors() {
        assertEquals(at("invalid value \"yes\" in \"multi_accept\" directive, it must be \"on\" or \"off\"", 1),
            fail("events { multi_accept yes; }\n"));
        assertEquals(at("invalid value \"1\" in \"accept_mutex\" directive, it must be \"on\" or \"off\"", 1),
            fail("events { accept_mutex 1; }\n"));
        assertEquals(at("\"accept_mutex_delay\" directive invalid value", 1),
            fail("events { accept_mutex_delay soon; }\n"));
        assertEquals(at("\"multi_accept\" directive is duplicate", 1),
            fail("events { multi_accept on; multi_accept off; }\n"));
    }

    // ---- debug_connection

    @Test
    @Timeout(10)
    void debugConnectionTakesAddressesAndCidrBlocks() throws Exception {
        EventCoreConf c = events(build("""
            events {
                debug_connection 127.0.0.1;
                debug_connection 10.0.0.0/8;
                debug_connection ::1;
                debug_connection 2001:db8::/32;
                debug_connection unix:;
            }
            """));
        assertEquals(List.of("127.0.0.1", "10.0.0.0/8", "::1", "2001:db8::/32", "unix:"), c.debugConnection);
    }

    @Test
    @Timeout(10)
    void debugConnectionRefusesWhatIsNotAnAddress() {
        // nginx would resolve a host name; Jinx takes numeric addresses only
        for (String bad : List.of("localhost", "1.2.3.4/33", "256.0.0.1", "1.2.3", "2001:db8::/129", "unix:/x")) {
            assertEquals(at("invalid parameter \"" + bad + "\"", 1),
                fail("events { debug_connection " + bad + "; }\n"), bad);
        }
    }

    // ---- the block

    @Test
    @Timeout(10)
    void noEventsSection() {
        // not in the file: nginx's events module says so when its conf is initialised, with no place
        assertEquals("no \"events\" section in configuration", fail("worker_processes 1;\n"));
    }

    @Test
    @Timeout(10)
    void eventsIsDuplicate() {
        assertEquals(at("\"events\" directive is duplicate", 2), fail("events { }\nevents { }\n"));
    }

    @Test
    @Timeout(10)
    void eventsDirectivesOutsideTheBlock() {
        for (String d : List.of("worker_connections 8", "use fake", "multi_accept on", "accept_mutex on",
                                "accept_mutex_delay 1s", "debug_connection 127.0.0.1")) {
            String name = d.substring(0, d.indexOf(' '));
            assertEquals(at("\"" + name + "\" directive is not allowed here", 1), fail(d + ";\nevents { }\n"), d);
        }
        assertEquals(at("\"events\" directive is not allowed here", 1), fail("events { events { } }\n"));
    }

    @Test
    @Timeout(10)
    void eventsTakesNoArguments() {
        assertEquals(at("invalid number of arguments in \"events\" directive", 1), fail("events on { }\n"));
        assertEquals(at("directive \"events\" has no opening \"{\"", 1), fail("events;\n"));
    }

    // ---- initProcess: the loop

    @Test
    @Timeout(10)
    void initProcessBuildsTheLoopOverTheChosenMethod() throws Exception {
        methods = List.of(
            new FakeEventModule("fake_a", "alpha", true, 20),
            new FakeEventModule("fake_c", "gamma", true, 5));
        KernelCycle cycle = build("events { worker_connections 16; use alpha; }\n");
        JinxModule core = cycle.module(EventCoreModule.NAME).module();
        assertNull(cycle.eventLoop(), "no loop before the process starts");

        core.initProcess(cycle);
        EventLoop loop = cycle.eventLoop();
        assertNotNull(loop);
        assertSame(cycle, loop.cycle());
        assertEquals(16, loop.connectionCount());
        assertEquals(16, loop.freeConnectionCount());
        FakeEventModule.Actions actions = assertInstanceOf(FakeEventModule.Actions.class, loop.actions());
        assertEquals("alpha", actions.method());

        // a turn over the fake method: it waits, and the notified handler runs on the loop's thread
        boolean[] ran = {false};
        loop.notify(() -> ran[0] = true);
        loop.processEventsAndTimers();
        assertTrue(ran[0], "notified handler");

        core.exitProcess(cycle);
        assertTrue(actions.isDone(), "the method's table finished");
    }
}
