package jinx.event.epoll;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.event.epoll.EpollFixture.Pair;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stale event, provoked: two connections ready in one {@code epoll_wait} batch; the handler of whichever
 * comes first closes the other and, in one case, lends its slot to a new descriptor that is registered at once
 * (nginx's accept of a new client into the slot just freed). The other's queued event must be skipped, counted,
 * and logged; no handler of the old or the new owner runs for it.
 */
@EnabledOnOs(OS.LINUX)
class EpollStaleEventTest {

    private Map<String, String> baseline;
    private EpollFixture f;

    @BeforeEach
    void setUp() throws Exception {
        baseline = Fds.baseline();
        f = new EpollFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.close();
        Fds.assertBackTo(baseline);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void slotClosedAndLentAgainInTheSameBatchIsSkipped() throws Exception {
        List<String> ran = new ArrayList<>();
        Pair a = f.pair();
        Pair x = f.pair();
        int[] fresh = new int[2];
        Connection[] reused = new Connection[1];
        Object[] victim = new Object[1];
        for (Pair p : List.of(a, x)) {
            Connection self = p.c();
            Connection other = self == a.c() ? x.c() : a.c();
            String name = self == a.c() ? "A" : "X";
            self.write.handler = ev -> ran.add(name + " write");
            self.read.handler = ev -> {
                ran.add(name + " read");
                if (victim[0] != null) {
                    return;
                }
                victim[0] = other == a.c() ? "A" : "X";
                try {
                    reuse(other, fresh, reused, ran);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            };
        }
        f.actions.addConnection(a.c());
        f.actions.addConnection(x.c());
        f.send(a.peer(), 1);
        f.send(x.peer(), 1);

        f.actions.processEvents(1000, 0);

        String first = victim[0].equals("A") ? "X" : "A";
        assertEquals(List.of(first + " read", ran.get(1), first + " write"), ran, "only the first one's handlers");
        assertEquals(1, f.loop.staleEvents());
        assertTrue(f.logText().contains("epoll: stale event " + reused[0].slot()), f.logText());

        // the new owner's own registration is reported in the next batch, with the new instance bit
        f.actions.processEvents(1000, 0);
        assertTrue(ran.contains("new write"), ran.toString());
        assertEquals(1, f.loop.staleEvents());

        reused[0].close();
        Sockets.shutdown(fresh[1], Platform.SHUT_RDWR);
        Syscalls.close(fresh[1]);
    }

    /** Closes {@code other} and lends its slot to a new descriptor, registered at once. */
    private void reuse(Connection other, int[] fresh, Connection[] reused, List<String> ran) throws IOException {
        int oldFd = other.fd();
        boolean oldInstance = other.read.instance;
        other.close();
        // a new client takes the slot just freed, and is registered at once
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK
                                                        | Platform.SOCK_CLOEXEC);
        fresh[0] = sv[0];
        fresh[1] = sv[1];
        Connection c = f.loop.getConnection(sv[0], f.log);
        reused[0] = c;
        c.read.handler = e -> ran.add("new read");
        c.write.handler = e -> ran.add("new write");
        assertSame(other, c, "the free list lends the slot just returned");
        assertNotEquals(oldInstance, c.read.instance, "the instance bit flips on every lend");
        ran.add("closed fd " + oldFd + ", lent to fd " + sv[0]);
        f.actions.addConnection(c);
    }

    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void slotClosedInTheSameBatchIsSkipped() throws Exception {
        List<String> ran = new ArrayList<>();
        Pair a = f.pair();
        Pair x = f.pair();
        Event[] firstEvent = new Event[1];
        for (Pair p : List.of(a, x)) {
            Connection self = p.c();
            Connection other = self == a.c() ? x.c() : a.c();
            self.write.handler = ev -> ran.add("write " + self.slot());
            self.read.handler = ev -> {
                ran.add("read " + self.slot());
                if (firstEvent[0] == null) {
                    firstEvent[0] = ev;
                    other.close();
                }
            };
        }
        f.actions.addConnection(a.c());
        f.actions.addConnection(x.c());
        f.send(a.peer(), 1);
        f.send(x.peer(), 1);

        f.actions.processEvents(1000, 0);

        int slot = firstEvent[0].connection().slot();
        assertEquals(List.of("read " + slot, "write " + slot), ran);
        assertEquals(1, f.loop.staleEvents());
    }
}
