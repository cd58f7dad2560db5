package jinx.event.poll;

import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.testsuite.EventActionsContract;

/**
 * The event-method contract on poll: level-triggered, an fd-indexed pollfd array compacted on delete, notify
 * through an eventfd in the set.
 */
@EnabledOnOs(OS.LINUX)
class PollContractTest extends EventActionsContract {

    @Override
    protected EventActions newActions() {
        EventModule module = (EventModule) new PollEventModule().context();
        return module.createActions(null, null);
    }

    @Override
    protected String methodName() {
        return PollEventModule.NAME;
    }
}
