package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import jinx.kernel.ConfException;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * {@code random two peak_ewma}: a slow peer gets a small share, a peer that slows down loses its share at once
 * (the peak) and wins it back as its samples decay; the directive's words.
 */
class PeakEwmaTest {

    private long now = 100_000;

    private Upstream upstream() throws ConfException {
        Upstream u = new Upstream("backend", false, "test.conf", 1);
        u.server(List.of("127.0.0.1:8081"));
        u.server(List.of("127.0.0.1:8082"));
        u.server(List.of("127.0.0.1:8083"));
        u.method = u.randomMethod(List.of("random", "two", "peak_ewma"));
        return u;
    }

    /** A request: chosen, answered after the peer's latency, freed. */
    private String request(Upstream u, long[] latency) {
        RandomPick r = new RandomPick(u.group(), () -> now, true, u.ewmaDecay);
        PeerConnection pc = new PeerConnection();
        pc.tries = 3;
        assertEquals(Rc.OK, r.get(pc));
        int i = indexOf(u, pc.name);
        r.responded(200, latency[i]);
        r.free(pc, 0);
        now += 1;
        return pc.name;
    }

    private static int indexOf(Upstream u, String name) {
        Peer[] peers = u.group().peers;
        for (int i = 0; i < peers.length; i++) {
            if (peers[i].name.equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void theSlowPeerGetsLittle() throws Exception {
        Upstream u = upstream();
        assertEquals(Upstream.Method.RANDOM_TWO_PEAK_EWMA, u.method);
        long[] latency = {1_000, 1_000, 50_000};
        int[] count = new int[3];
        for (int i = 0; i < 3000; i++) {
            count[indexOf(u, request(u, latency))]++;
        }
        // two choices: the slow peer serves only when drawn twice, which two distinct draws never are
        assertTrue(count[2] < 100, "slow peer: " + count[2]);
        assertTrue(count[0] > 1000 && count[1] > 1000, count[0] + " " + count[1]);
    }

    @Test
    void aPeakIsTakenAtOnceAndDecays() throws Exception {
        Upstream u = upstream();
        Peer p = u.group().peers[0];
        PeakEwma.observe(p, 1_000, now, u.ewmaDecay);
        PeakEwma.observe(p, 80_000, now, u.ewmaDecay);
        assertEquals(80_000, PeakEwma.latency(p, now, u.ewmaDecay), 1);
        // one decay later the peak weighs 1/e
        assertEquals(80_000 / Math.E, PeakEwma.latency(p, now + u.ewmaDecay, u.ewmaDecay), 1);
        PeakEwma.observe(p, 1_000, now + 100, u.ewmaDecay);
        assertTrue(PeakEwma.latency(p, now + 100, u.ewmaDecay) > 70_000, "a fast sample right after moves little");
    }

    @Test
    void directiveWords() throws Exception {
        Upstream u = new Upstream("u", false, "f", 1);
        assertEquals(Upstream.Method.RANDOM_TWO_PEAK_EWMA, u.randomMethod(List.of("random", "two", "peak_ewma",
            "decay=30s")));
        assertEquals(30_000, u.ewmaDecay);
        assertEquals(Upstream.Method.RANDOM_TWO, u.randomMethod(List.of("random", "two", "least_conn")));
        assertEquals(Upstream.Method.RANDOM, u.randomMethod(List.of("random")));
        assertEquals("invalid parameter \"decay=1s\"", assertThrows(ConfException.class,
            () -> u.randomMethod(List.of("random", "two", "least_conn", "decay=1s"))).getMessage());
        assertEquals("invalid parameter \"fastest\"", assertThrows(ConfException.class,
            () -> u.randomMethod(List.of("random", "two", "fastest"))).getMessage());
    }
}
