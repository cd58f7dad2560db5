package jinx.kernel.os;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import jnr.constants.platform.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Platform}: the probe's values and jnr-constants agree with the C headers of this machine.
 */
@Timeout(10)
@EnabledOnOs(OS.LINUX)
class PlatformTest {

    @Test
    void linuxValues() {
        assertEquals(1, Platform.EPOLLIN);
        assertEquals(4, Platform.EPOLLOUT);
        assertEquals(Integer.MIN_VALUE, Platform.EPOLLET);
        assertEquals(1, Platform.POLLIN);
        assertEquals(8, Platform.SIZEOF_POLLFD);
        assertEquals(0, Platform.OFFSETOF_EPOLL_EVENT_EVENTS);
        assertEquals(1, Platform.EPOLL_CTL_ADD);
        assertEquals(16, Platform.SIZEOF_IOVEC);
        assertEquals(8, Platform.SIZEOF_OFF_T);
        assertEquals(-1L, Platform.RLIM_INFINITY);
    }

    @Test
    @EnabledIfSystemProperty(named = "os.arch", matches = "amd64|x86_64")
    void epollEventIsPackedOnX8664() {
        assertEquals(12, Platform.SIZEOF_EPOLL_EVENT);
        assertEquals(4, Platform.OFFSETOF_EPOLL_EVENT_DATA);
    }

    @Test
    @EnabledIfSystemProperty(named = "os.arch", matches = "aarch64")
    void epollEventIsAlignedOnAarch64() {
        assertEquals(16, Platform.SIZEOF_EPOLL_EVENT);
        assertEquals(8, Platform.OFFSETOF_EPOLL_EVENT_DATA);
    }

    /** Every constant Platform takes from jnr-constants equals what the probe read from the headers. */
    @Test
    void jnrConstantsAgreeWithTheHeaders() throws IllegalAccessException {
        int checked = 0;
        for (Field f : Platform.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && Platform.has(f.getName())) {
                long probed = Platform.get(f.getName());
                long value = ((Number) f.get(null)).longValue();
                assertEquals(f.getType() == int.class ? (int) probed : probed, value, f.getName());
                checked++;
            }
        }
        assertTrue(checked > 60, "checked " + checked);
        assertEquals(Platform.get("EAGAIN"), Errno.EAGAIN.intValue());
        assertEquals(Platform.get("EADDRINUSE"), Errors.EADDRINUSE);
        assertEquals(Platform.get("EINPROGRESS"), Errors.EINPROGRESS);
    }

    @Test
    void unknownNameIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Platform.get("NO_SUCH_CONSTANT"));
    }
}
