package jinx.event.epoll;

import java.lang.management.ManagementFactory;
import java.util.Map;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.event.epoll.EpollFixture.Pair;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Sockets;

import static jinx.kernel.spi.EventActions.CLEAR_EVENT;
import static jinx.kernel.spi.EventActions.READ_EVENT;
import static jinx.kernel.spi.EventActions.WRITE_EVENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loop thread's side allocates nothing on the Java heap: waiting, handing out events, and re-registering, with
 * the log below debug.
 */
@EnabledOnOs(OS.LINUX)
class EpollHotPathTest {

    private static final int ROUNDS = 20_000;

    /** Reads what arrived, as a handler on the real loop would. */
    private static final class Drain implements EventHandler {
        final EpollFixture f;
        long bytes;

        Drain(EpollFixture f) {
            this.f = f;
        }

        @Override
        public void handle(Event ev) {
            try {
                int n = Sockets.recv(ev.connection().fd(), f.buf, 4096);
                if (n > 0) {
                    bytes += n;
                }
            } catch (NativeIoException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    @Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
    void processEventsAddAndDelAllocateNothing() throws Exception {
        Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof ThreadMXBean,
            "no per-thread allocation counter");
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(),
            "no per-thread allocation counter");
        long id = Thread.currentThread().getId();

        Map<String, String> baseline = Fds.baseline();
        try (EpollFixture f = new EpollFixture(LogLevel.NOTICE, 512)) {
            Pair p = f.pair();
            Pair q = f.pair();
            Connection c = p.c();
            Connection d = q.c();
            Drain drain = new Drain(f);
            c.read.handler = drain;
            d.read.handler = drain;
            EventHandler ignore = ev -> { };
            c.write.handler = ignore;
            d.write.handler = ignore;
            f.actions.addConnection(c);
            f.actions.add(d.read, READ_EVENT, CLEAR_EVENT);

            long sent = 0;
            long bytes = Long.MAX_VALUE;
            // the first passes warm up (class loading, jnr's invokers, the JIT's escape analysis, which removes
            // ErrorLog.isEnabled's iterator); a later pass is measured
            for (int pass = 0; pass < 6 && bytes >= 4096; pass++) {
                long before = mx.getThreadAllocatedBytes(id);
                for (int i = 0; i < ROUNDS; i++) {
                    sent += f.send(p.peer(), 1) + f.send(q.peer(), 1);
                    f.actions.processEvents(1000, 0);
                    f.actions.add(d.write, WRITE_EVENT, CLEAR_EVENT);
                    f.actions.del(d.write, WRITE_EVENT, CLEAR_EVENT);
                }
                bytes = pass == 0 ? Long.MAX_VALUE : mx.getThreadAllocatedBytes(id) - before;
            }
            // anything allocated per round would show ROUNDS times over
            assertTrue(bytes < 4096, bytes + " bytes allocated in " + ROUNDS + " rounds");
            assertEquals(sent, drain.bytes);
        }
        Fds.assertBackTo(baseline);
    }
}
