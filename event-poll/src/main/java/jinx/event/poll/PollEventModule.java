package jinx.event.poll;

import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code poll} module, nginx's {@code ngx_poll_module}: an event method of type {@code EVENT} with no
 * directives and no configuration, chosen with {@code events { use poll; }} or where epoll is not usable.
 */
public final class PollEventModule implements JinxModule, EventModule {

    /** The module's name, which is also the method's ({@code use poll;}). */
    public static final String NAME = "poll";

    /** After epoll: the lower value wins when {@code use} names no method. */
    static final int PRIORITY = 10;

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
    public Object context() {
        return this;
    }

    @Override
    public String methodName() {
        return NAME;
    }

    /** A real {@code poll(NULL, 0, 0)}. */
    @Override
    public boolean isUsable() {
        return PollSyscalls.usable();
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public EventActions createActions(Cycle cycle, Object conf) {
        return new PollEventActions();
    }
}
