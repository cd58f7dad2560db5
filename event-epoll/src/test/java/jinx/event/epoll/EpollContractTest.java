package jinx.event.epoll;

import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.testsuite.EventActionsContract;

/**
 * The event-method contract on epoll: edge-triggered connections ({@code EPOLLET|EPOLLRDHUP}), level-triggered
 * listeners, stale events skipped by the instance bit.
 */
@EnabledOnOs(OS.LINUX)
class EpollContractTest extends EventActionsContract {

    @Override
    protected EventActions newActions() {
        EventModule module = (EventModule) new EpollEventModule().context();
        return module.createActions(null, null);
    }

    @Override
    protected String methodName() {
        return EpollEventModule.NAME;
    }
}
