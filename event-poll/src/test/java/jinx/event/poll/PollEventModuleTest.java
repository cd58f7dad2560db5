package jinx.event.poll;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module record: what the kernel sees of {@code poll} when it discovers and chooses event methods.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(10)
class PollEventModuleTest {

    @Test
    void isUsableMakesARealCall() {
        assertTrue(new PollEventModule().isUsable());
    }

    @Test
    void describesItselfAsAnEventMethod() {
        PollEventModule m = new PollEventModule();
        assertEquals("poll", m.name());
        assertEquals("poll", m.methodName());
        assertEquals(EventModule.EVENT, m.type());
        assertSame(m, m.context());
        assertEquals(10, m.priority());
        assertEquals(List.of(), m.directives());
        assertNull(m.createConf(null));
        assertEquals(ApiVersion.CURRENT, m.builtFor());
    }

    @Test
    void createsAFreshLevelTriggeredTableEachTime() {
        PollEventModule m = new PollEventModule();
        EventActions a = m.createActions(null, null);
        EventActions b = m.createActions(null, null);
        assertInstanceOf(PollEventActions.class, a);
        assertTrue(a != b);
        assertEquals(EventActions.USE_LEVEL_EVENT | EventActions.USE_FD_EVENT, a.flags());
    }

    @Test
    void serviceLoaderFindsIt() {
        List<String> names = new ArrayList<>();
        for (JinxModule m : ServiceLoader.load(JinxModule.class)) {
            names.add(m.name());
        }
        assertTrue(names.contains("poll"), names.toString());
    }
}
