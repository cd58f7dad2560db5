package jinx.kernel.internal.event;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.Cycle;
import jinx.kernel.EventLoop;
import jinx.kernel.LoadedModule;
import jinx.kernel.Listening;
import jinx.kernel.SharedAcceptMutex;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code event_core} module, nginx's {@code ngx_event_core_module}: the directives of {@code events {}},
 * the choice of the event method, and, in each serving process, the loop ({@code ngx_event_process_init()}).
 */
public final class EventCoreModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "event_core";

    private static final Set<Ctx> EVENTS = Set.of(EventModule.EVENTS);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("worker_connections", EVENTS, Arity.TAKE1, EventCoreConf.class,
            EventCoreModule::connections)
            .syntax("number").defaults("512").describe("Sets the maximum number of simultaneous connections that can "
                + "be opened by a worker process."),
        Directive.of("use", EVENTS, Arity.TAKE1, EventCoreConf.class, EventCoreModule::use)
            .syntax("method").describe("Specifies the connection processing method to use (epoll or poll); by "
                + "default the best usable one."),
        Directive.of("multi_accept", EVENTS, Arity.FLAG, EventCoreConf.class,
            Slots.flag((EventCoreConf c, boolean on) -> c.multiAccept = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("If disabled, a worker process will accept one new "
                + "connection at a time; otherwise, all new connections at a time."),
        Directive.of("accept_mutex", EVENTS, Arity.FLAG, EventCoreConf.class,
            Slots.flag((EventCoreConf c, boolean on) -> c.acceptMutex = on ? 1 : 0))
            .note("takes effect with several worker processes")
            .syntax("on | off").defaults("off").describe("If enabled, worker processes will accept new connections "
                + "by turn; otherwise all of them are notified."),
        Directive.of("accept_mutex_delay", EVENTS, Arity.TAKE1, EventCoreConf.class,
            Slots.msec((EventCoreConf c, long v) -> c.acceptMutexDelay = v))
            .syntax("time").defaults("500ms").describe("If accept_mutex is enabled, specifies the maximum time "
                + "during which a worker process will try to restart accepting new connections if another worker "
                + "process is currently accepting new connections."),
        Directive.of("debug_connection", EVENTS, Arity.TAKE1, EventCoreConf.class,
            EventCoreModule::debugConnection).multi()
            .note("parsed and checked; per-connection debug logging is not built yet")
            .syntax("address | CIDR | unix:").describe("Enables debugging log for selected client connections."));

    private EventLoop loop;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return EventModule.EVENT;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new EventCoreConf();
    }

    @Override
    public void initConf(Cycle cycle, Object conf) throws ConfException {
        EventCoreConf c = (EventCoreConf) conf;
        c.connections = Conf.init(c.connections, 512);
        c.multiAccept = Conf.init(c.multiAccept, 0);
        c.acceptMutex = Conf.init(c.acceptMutex, 0);
        c.acceptMutexDelay = Conf.init(c.acceptMutexDelay, 500);
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        if (c.acceptMutex == 1 && core != null && core.masterProcess != 0) {
            // nginx creates it in ngx_event_module_init() when a master runs several workers; a worker parses
            // before the master's resolved worker count is applied (its JVM sees one processor for "auto"), so
            // the zone, one page, is declared for any count and used only with several workers
            c.acceptMutexZone = SharedAcceptMutex.declare(cycle);
        }
        if (c.use != null) {
            return;
        }
        EventModule best = null;
        for (LoadedModule m : cycle.modules(EventModule.EVENT)) {
            if (m.module().context() instanceof EventModule em && em.isUsable()
                && (best == null || em.priority() < best.priority())) {
                best = em;
            }
        }
        if (best == null) {
            throw new ConfException("no usable event method: load an event module such as epoll or poll");
        }
        c.use = best.methodName();
    }

    private static void connections(ConfContext cf, EventCoreConf c) throws ConfException {
        c.connections = ConfValues.parseNumber(cf.arg(1));
        if (c.connections == -1) {
            throw new ConfException("invalid number \"" + cf.arg(1) + "\"");
        }
    }

    private static void use(ConfContext cf, EventCoreConf c) throws ConfException {
        String name = cf.arg(1);
        EventModule method = method(cf.cycle(), name);
        if (method == null) {
            throw new ConfException("invalid event type \"" + name + "\"");
        }
        if (!method.isUsable()) {
            throw new ConfException("event type \"" + name + "\" is not usable on this system");
        }
        c.use = name;
    }

    private static void debugConnection(ConfContext cf, EventCoreConf c) throws ConfException {
        String value = cf.arg(1);
        if (!value.equals("unix:") && !DebugAddresses.isAddressOrCidr(value)) {
            throw new ConfException("invalid parameter \"" + value + "\"");
        }
        c.debugConnection.add(value);
    }

    private static EventModule method(Cycle cycle, String name) {
        for (LoadedModule m : cycle.modules(EventModule.EVENT)) {
            if (m.module().context() instanceof EventModule em && em.methodName().equals(name)) {
                return em;
            }
        }
        return null;
    }

    /**
     * Builds this process's loop with the chosen method and registers the listening sockets, nginx's
     * {@code ngx_event_process_init()}.
     */
    @Override
    public void initProcess(Cycle cycle) throws IOException {
        EventCoreConf conf = cycle.conf(this, EventCoreConf.class);
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        LoadedModule chosen = null;
        for (LoadedModule m : cycle.modules(EventModule.EVENT)) {
            if (m.module().context() instanceof EventModule em && em.methodName().equals(conf.use)) {
                chosen = m;
            }
        }
        if (chosen == null) {
            throw new IOException("event method \"" + conf.use + "\" is not loaded");
        }
        EventModule method = (EventModule) chosen.module().context();
        EventActions actions = method.createActions(cycle, cycle.conf(chosen.module(), Object.class));
        boolean shared = core.masterProcess == 1 && core.workerProcesses > 1;
        // nginx's ngx_use_accept_mutex
        SharedAcceptMutex mutex = shared && conf.acceptMutexZone != null && conf.acceptMutexZone.isMapped()
            ? SharedAcceptMutex.of(conf.acceptMutexZone) : null;
        EventLoop.AcceptSettings accept = new EventLoop.AcceptSettings(conf.multiAccept == 1, mutex,
            conf.acceptMutexDelay, shared);
        loop = new EventLoop(cycle, actions, conf.connections, core.timerResolution, accept, cycle.log());
        ((KernelCycle) cycle).eventLoop(loop);
        try {
            for (Listening ls : cycle.listening()) {
                // a reuseport socket of another worker is not this one's (nginx: ls->worker != ngx_worker)
                if (ls.fd() != -1 && (ls.worker == -1 || ls.worker == ((KernelCycle) cycle).worker())) {
                    loop.listen(ls);
                }
            }
        } catch (IOException | RuntimeException e) {
            // nginx's worker exits here; a process that goes on (tests, an embedding) must not keep the loop's
            // descriptors, and its exitProcess is not called for a module whose initProcess failed
            exitProcess(cycle);
            ((KernelCycle) cycle).eventLoop(null);
            throw e;
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        if (loop != null) {
            loop.done();
            loop = null;
        }
    }
}
