package jinx.event.epoll;

import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code epoll} module, nginx's {@code ngx_epoll_module}: an event method of type
 * {@link EventModule#EVENT}, usable where {@code epoll_create1()} works, preferred over every other method
 * (priority 0), with the {@code epoll_events} directive of {@code events {}}.
 */
public final class EpollEventModule implements JinxModule, EventModule {

    /** The module's name, and the method's name as {@code use} names it. */
    public static final String NAME = "epoll";

    /** {@code epoll_events}' default, nginx's. */
    static final int DEFAULT_EVENTS = 512;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("epoll_events", Set.of(EventModule.EVENTS), Arity.TAKE1, EpollConf.class,
            Slots.number((EpollConf c, int n) -> c.events = n))
            .syntax("number").defaults("512").describe("Sets the number of events one epoll_wait() call can return."));

    /** A module instance, as {@code ServiceLoader} makes it. */
    public EpollEventModule() {
    }

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
    public String methodName() {
        return NAME;
    }

    /**
     * Probes the kernel: {@code epoll_create1(EPOLL_CLOEXEC)}, then close. False where the library or the symbol
     * is missing, or the call fails.
     */
    @Override
    public boolean isUsable() {
        try {
            int ep = EpollSyscalls.create1(Platform.EPOLL_CLOEXEC);
            Syscalls.close(ep);
            return true;
        } catch (NativeIoException | LinkageError e) {
            // LinkageError: libc without epoll (UnsatisfiedLinkError), or a platform table without epoll's values
            return false;
        }
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new EpollConf();
    }

    @Override
    public void initConf(Cycle cycle, Object conf) throws ConfException {
        EpollConf c = (EpollConf) conf;
        c.events = Conf.init(c.events, DEFAULT_EVENTS);
        // nginx takes 0 and then fails every epoll_wait() with EINVAL; refuse it here instead
        if (c.events == 0) {
            throw new ConfException("\"epoll_events\" directive invalid value");
        }
    }

    @Override
    public EventActions createActions(Cycle cycle, Object conf) {
        int events = conf instanceof EpollConf c && c.events > 0 ? c.events : DEFAULT_EVENTS;
        return new EpollEventActions(events);
    }
}
