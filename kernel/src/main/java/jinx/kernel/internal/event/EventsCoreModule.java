package jinx.kernel.internal.event;

import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.TypedBlock;
import jinx.kernel.spi.TypedConfs;

/**
 * The {@code events} module: the core module that owns {@code events {}} and so defines the EVENT module type,
 * nginx's {@code ngx_events_module}.
 */
public final class EventsCoreModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "events";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("events", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS, TypedConfs.class,
            TypedBlock.handler(EventModule.EVENT, EventModule.EVENTS))
            .syntax("{ ... }").describe("Provides the configuration file context in which the directives that affect "
                + "connection processing are specified."));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
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
        return new TypedConfs(EventModule.EVENT);
    }

    @Override
    public void initConf(Cycle cycle, Object conf) throws ConfException {
        if (!((TypedConfs) conf).isSet()) {
            throw new ConfException("no \"events\" section in configuration");
        }
        EventCoreConf ecf = cycle.conf(EventCoreModule.NAME, EventCoreConf.class);
        int listening = cycle.listening().size();
        // nginx's ngx_event_init_conf(): a connection for each listening socket plus one for the channel, or the
        // workers cannot start (they exited with code 2 while the master held the port)
        if (ecf != null && ecf.connections < listening + 1) {
            throw new ConfException(ecf.connections + " worker_connections are not enough for " + listening
                + " listening sockets");
        }
    }
}
