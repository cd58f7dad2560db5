package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import jinx.kernel.ConfException;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * Health results on fake peers: {@code fails} failures in a row make a peer unhealthy and the balancers skip it;
 * {@code passes} passes in a row bring it back; {@code mandatory} peers start unhealthy ("checking"); slow_start
 * ramps a recovered peer's share up; the directive's parameters and nginx's texts for bad ones.
 */
class HealthCheckTest {

    private static final HealthCheck.Probe TCP = new HealthCheck.Probe() {
        @Override
        public byte[] request(Peer peer) {
            return null;
        }

        @Override
        public int judge(ByteBuffer answer, boolean eof) {
            return HealthCheck.PASS;
        }
    };

    private static Upstream upstream(String... servers) throws ConfException {
        Upstream u = new Upstream("backend", false, "test.conf", 1);
        for (String s : servers) {
            u.server(List.of(s.split(" ")));
        }
        return u;
    }

    private static HealthCheck check(Upstream u, String... params) throws ConfException {
        return new HealthCheck(u, HealthCheck.Settings.parse(List.of(params), true), TCP, "health check");
    }

    private static String pick(Upstream u, long now) {
        RoundRobin rr = new RoundRobin(u.group(), () -> now);
        PeerConnection pc = new PeerConnection();
        pc.tries = RoundRobin.tries(u.group());
        int rc = rr.get(pc);
        if (rc != Rc.OK) {
            return null;
        }
        rr.free(pc, 0);
        return pc.name;
    }

    @Test
    void failsInARowMakeUnhealthyAndPassesBringBack() throws Exception {
        Upstream u = upstream("127.0.0.1:8081", "127.0.0.1:8082");
        HealthCheck hc = check(u, "fails=2", "passes=3");
        Peer a = u.group().peers[0];
        hc.result(a, false, "connecting");
        assertFalse(a.unhealthy(), "one failure of two");
        hc.result(a, true, null);
        hc.result(a, false, "connecting");
        assertFalse(a.unhealthy(), "a pass in between starts the count again");
        hc.result(a, false, "connecting");
        assertTrue(a.unhealthy());
        assertEquals("unhealthy", a.figures(0).state());
        for (int i = 0; i < 10; i++) {
            assertEquals("127.0.0.1:8082", pick(u, 0));
        }
        hc.result(a, true, null);
        hc.result(a, true, null);
        assertTrue(a.unhealthy(), "two passes of three");
        hc.result(a, true, null);
        assertFalse(a.unhealthy());
        PeerFigures f = a.figures(0);
        assertEquals(7, f.checks());
        assertEquals(3, f.checkFails());
        assertEquals(1, f.unhealthy());
        assertEquals(1, f.lastCheck());
        assertEquals("up", f.state());
    }

    @Test
    void aLoneUnhealthyPeerMeansNoLiveUpstreams() throws Exception {
        Upstream u = upstream("127.0.0.1:8081");
        HealthCheck hc = check(u);
        hc.result(u.group().peers[0], false, "connecting");
        assertEquals(null, pick(u, 0));
    }

    @Test
    void mandatoryPeersStartChecking() throws Exception {
        Upstream u = upstream("127.0.0.1:8081");
        check(u, "mandatory");
        assertTrue(u.mandatory);
        // what PeerZone writes into a new record for a mandatory upstream
        Peer p = u.group().peers[0];
        p.set(Peer.HEALTH, Peer.UNHEALTHY);
        assertEquals("checking", p.figures(0).state());
        check(u).result(p, true, null);
        assertEquals("up", p.figures(0).state());
    }

    @Test
    void slowStartRampsARecoveredPeer() throws Exception {
        Upstream u = upstream("127.0.0.1:8081 slow_start=10s", "127.0.0.1:8082");
        Peer a = u.group().peers[0];
        a.set(Peer.RECOVERED, 1_000);
        // a tenth of the way through: a's share is about 1 in 11
        int onA = 0;
        for (int i = 0; i < 1100; i++) {
            onA += "127.0.0.1:8081".equals(pick(u, 2_000)) ? 1 : 0;
        }
        assertTrue(onA > 60 && onA < 140, "a got " + onA);
        // once the time is over the ramp ends
        assertEquals(1000, a.ramp(11_001));
        assertEquals(0, a.get(Peer.RECOVERED));
    }

    @Test
    void parametersAndTheirErrors() throws Exception {
        HealthCheck.Settings s = HealthCheck.Settings.parse(List.of("interval=2s", "fails=3", "passes=2",
            "uri=/health", "port=8080", "match=ok", "mandatory"), true);
        assertEquals(2000, s.interval);
        assertEquals(3, s.fails);
        assertEquals(2, s.passes);
        assertEquals("/health", s.uri);
        assertEquals(8080, s.port);
        assertEquals("ok", s.match);
        assertTrue(s.mandatory);
        HealthCheck.Settings d = HealthCheck.Settings.parse(List.of(), false);
        assertEquals(5000, d.interval);
        assertEquals(1, d.fails);
        assertEquals(1, d.passes);
        assertEquals("invalid parameter \"fails=0\"",
            assertThrows(ConfException.class, () -> HealthCheck.Settings.parse(List.of("fails=0"), true))
                .getMessage());
        assertEquals("invalid parameter \"uri=/\"",
            assertThrows(ConfException.class, () -> HealthCheck.Settings.parse(List.of("uri=/"), false))
                .getMessage());
        assertEquals("balancing method does not support parameter \"slow_start\"",
            assertThrows(ConfException.class, () -> {
                Upstream u = new Upstream("u", false, "f", 1);
                u.method = Upstream.Method.HASH;
                u.server(List.of("127.0.0.1:1", "slow_start=1s"));
            }).getMessage());
    }
}
