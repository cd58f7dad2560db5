package jinx.event.epoll;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.ConfException;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module record: name, type, priority, the real probe, {@code epoll_events}, and discovery on the class
 * path.
 */
@EnabledOnOs(OS.LINUX)
class EpollEventModuleTest {

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void isUsableProbesAndClosesWhatItOpened() throws Exception {
        Map<String, String> baseline = Fds.baseline();
        EpollEventModule m = new EpollEventModule();
        for (int i = 0; i < 100; i++) {
            assertTrue(m.isUsable());
        }
        Fds.assertBackTo(baseline);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void recordAsNginx() {
        EpollEventModule m = new EpollEventModule();
        assertEquals("epoll", m.name());
        assertEquals("epoll", m.methodName());
        assertSame(EventModule.EVENT, m.type());
        assertSame(m, m.context());
        assertEquals(0, m.priority());
        Directive<?> d = m.directives().get(0);
        assertEquals("epoll_events", d.name());
        assertEquals(Arity.TAKE1, d.arity());
        assertEquals(Set.of(EventModule.EVENTS), d.contexts());
        assertEquals(1, m.directives().size());
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void epollEventsDefaultsTo512() throws Exception {
        EpollEventModule m = new EpollEventModule();
        EpollConf conf = (EpollConf) m.createConf(null);
        m.initConf(null, conf);
        assertEquals(512, conf.events);

        EpollConf set = (EpollConf) m.createConf(null);
        set.events = 64;
        m.initConf(null, set);
        assertEquals(64, set.events);

        EpollConf zero = (EpollConf) m.createConf(null);
        zero.events = 0;
        assertThrows(ConfException.class, () -> m.initConf(null, zero));

        assertInstanceOf(EpollEventActions.class, m.createActions(null, set));
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void foundByServiceLoaderOnTheClassPath() {
        boolean found = ServiceLoader.load(JinxModule.class).stream()
            .anyMatch(p -> p.type() == EpollEventModule.class);
        assertTrue(found, "META-INF/services names EpollEventModule");
    }
}
