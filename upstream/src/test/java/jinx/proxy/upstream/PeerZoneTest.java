package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;
import jinx.kernel.SharedZone;

/**
 * The peers' state in a shared zone: two "workers" (two configurations of the same upstream bound to one zone)
 * see each other's connections, failures and figures; a reload keeps the state of an unchanged upstream and starts
 * a changed one afresh; the records left behind are freed two reloads later; a lock left by a dead holder is
 * taken back.
 */
class PeerZoneTest {

    private SharedZone shm;
    private long now = 1_000_000;

    @BeforeEach
    void zone() throws Exception {
        ErrorLog log = ErrorLog.early(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            null);
        shm = SharedZone.create("backend", 8 * SharedZone.PAGE_SIZE, PeerZone.HTTP_TAG, log);
    }

    @AfterEach
    void release() {
        shm.release();
    }

    private static Upstream upstream(String name, String... servers) throws ConfException {
        Upstream u = new Upstream(name, false, "test.conf", 1);
        for (String s : servers) {
            u.server(List.of(s.split(" ")));
        }
        return u;
    }

    /** The master's init, then a worker's attach, over a configuration of its own. */
    private Upstream worker(String name, String... servers) throws ConfException {
        Upstream u = upstream(name, servers);
        PeerZone z = new PeerZone(shm);
        z.add(u);
        z.attach();
        return u;
    }

    private void master(Upstream... ups) throws ConfException {
        PeerZone z = new PeerZone(shm);
        for (Upstream u : ups) {
            z.add(u);
        }
        z.init();
    }

    private PeerConnection take(Upstream u) {
        PeerConnection pc = new PeerConnection();
        RoundRobin rr = new RoundRobin(u.group(), () -> now);
        pc.source = rr;
        pc.data = rr;
        pc.tries = RoundRobin.tries(u.group());
        assertEquals(Rc.OK, rr.get(pc));
        return pc;
    }

    @Test
    @Timeout(10)
    void workersShareConnectionsFailuresAndFigures() throws Exception {
        master(upstream("backend", "127.0.0.1:8081", "127.0.0.1:8082 max_fails=2"));
        Upstream w1 = worker("backend", "127.0.0.1:8081", "127.0.0.1:8082 max_fails=2");
        Upstream w2 = worker("backend", "127.0.0.1:8081", "127.0.0.1:8082 max_fails=2");
        PeerConnection a = take(w1);
        PeerConnection b = take(w2);
        // smooth round robin over shared weights: the second worker's request goes to the other peer
        assertNotEquals(a.name, b.name);
        assertEquals(1, w2.group().peers[0].conns());
        assertEquals(1, w1.group().peers[1].conns());
        Upstream.responded(a, 200, 3000);
        Upstream.responded(b, 503, 5000);
        a.source.free(a, 0);
        b.source.free(b, PeerConnection.FAILED);
        assertEquals(0, w1.group().peers[0].conns());
        assertEquals(1, w1.group().peers[1].fails());

        List<UpstreamFigures> figures = PeerZone.figures(shm, now);
        assertEquals(1, figures.size());
        UpstreamFigures f = figures.get(0);
        assertEquals("backend", f.name());
        assertEquals("backend", f.zone());
        PeerFigures p1 = f.peers().get(0);
        PeerFigures p2 = f.peers().get(1);
        assertEquals("127.0.0.1:8081", p1.name());
        assertEquals(1, p1.requests());
        assertEquals(1, p1.responses()[1]);
        assertEquals(3, p1.headerTime());
        assertEquals("up", p1.state());
        assertEquals(1, p2.responses()[4]);
        assertEquals(1, p2.fails());
        assertEquals(0, p2.unavail());
        assertEquals("up", p2.state());
    }

    @Test
    @Timeout(10)
    void maxFailsCountAcrossWorkers() throws Exception {
        String[] servers = {"127.0.0.1:8081 max_fails=2", "127.0.0.1:8082"};
        master(upstream("backend", servers));
        Upstream w1 = worker("backend", servers);
        Upstream w2 = worker("backend", servers);
        Peer first = w1.group().peers[0];
        for (Upstream w : List.of(w1, w2)) {
            PeerConnection pc;
            do {
                pc = take(w);
                if (!pc.name.equals(first.name)) {
                    pc.source.free(pc, 0);
                }
            } while (!pc.name.equals(first.name));
            pc.source.free(pc, PeerConnection.FAILED);
        }
        // one failure in each worker: max_fails=2 reached for both
        assertEquals("unavail", PeerZone.figures(shm, now).get(0).peers().get(0).state());
        assertEquals(1, PeerZone.figures(shm, now).get(0).peers().get(0).unavail());
        for (int i = 0; i < 5; i++) {
            PeerConnection pc = take(w2);
            assertEquals("127.0.0.1:8082", pc.name);
            pc.source.free(pc, 0);
        }
    }

    @Test
    @Timeout(10)
    void reloadKeepsUnchangedUpstreamsAndFreesLeftRecords() throws Exception {
        master(upstream("a", "127.0.0.1:8081"), upstream("b", "127.0.0.1:8082"));
        Upstream a = worker("a", "127.0.0.1:8081");
        Upstream b = worker("b", "127.0.0.1:8082");
        take(a);
        take(b);
        long pages = shm.slab().freePages();

        // reload: a unchanged, b with another weight
        master(upstream("a", "127.0.0.1:8081"), upstream("b", "127.0.0.1:8082 weight=2"));
        Upstream a2 = worker("a", "127.0.0.1:8081");
        Upstream b2 = worker("b", "127.0.0.1:8082 weight=2");
        assertEquals(1, a2.group().peers[0].conns(), "a's state survives");
        assertEquals(0, b2.group().peers[0].conns(), "b starts afresh");
        assertEquals(List.of("a", "b"), PeerZone.figures(shm, now).stream().map(UpstreamFigures::name).toList());

        // the old b is still the old cycle's for one more reload, then freed; the records do not pile up
        for (int i = 0; i < 20; i++) {
            master(upstream("a", "127.0.0.1:8081"), upstream("b", "127.0.0.1:8082 weight=" + (3 + i % 2)));
        }
        assertTrue(shm.slab().freePages() >= pages - 1, "records freed: " + shm.slab().freePages() + " " + pages);
        assertEquals(2, PeerZone.figures(shm, now).size());
        assertEquals(1, worker("a", "127.0.0.1:8081").group().peers[0].conns());
    }

    @Test
    @Timeout(10)
    void aLockLeftByADeadWorkerIsTakenBack() throws Exception {
        master(upstream("backend", "127.0.0.1:8081", "127.0.0.1:8082"));
        Upstream w = worker("backend", "127.0.0.1:8081", "127.0.0.1:8082");
        // a process that cannot exist holds the upstream's lock
        long dead = Long.MAX_VALUE - 7;
        Peer p = w.group().peers[0];
        jinx.kernel.ZoneLock lock = lockOf(w);
        assertTrue(lock.tryLock());
        lock.unlock();
        shm.putLong(lock.offset(), dead);
        PeerConnection pc = take(w);
        assertFalse(pc.name.isEmpty());
        assertEquals(0, lock.owner());
        assertEquals(1, p.conns() + w.group().peers[1].conns());
    }

    private jinx.kernel.ZoneLock lockOf(Upstream u) {
        // the record's lock word is the one the group takes: found by taking it
        PeerGroup g = u.group();
        g.lock();
        try {
            for (long off = 8; off < shm.size(); off += 8) {
                if (shm.getLongVolatile(off) == ProcessHandle.current().pid()) {
                    return shm.lockAt(off);
                }
            }
        } finally {
            g.unlock();
        }
        throw new AssertionError("no lock word held");
    }
}
