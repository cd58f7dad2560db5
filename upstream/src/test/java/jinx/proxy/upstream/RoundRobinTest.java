package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import jinx.kernel.ConfException;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * Smooth weighted round robin, least connections, failures, backups and {@code server} lines, as nginx's
 * ngx_http_upstream_round_robin.c and ngx_http_upstream_server() behave.
 */
class RoundRobinTest {

    private long now = 1_000_000;

    private static Peer peer(String name, int weight, int maxFails, long failTimeout, int maxConns, boolean down) {
        InetSocketAddress a = new InetSocketAddress(InetAddress.getLoopbackAddress(), 8000 + name.charAt(0));
        return new Peer(a, name, name, weight, maxFails, failTimeout, maxConns, down);
    }

    private static Peer peer(String name, int weight) {
        return peer(name, weight, 1, 10_000, 0, false);
    }

    /** One request's try after another, each freed with {@code state}: the names chosen. */
    private List<String> picks(PeerGroup g, int n, int state) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RoundRobin rr = new RoundRobin(g, () -> now);
            PeerConnection pc = new PeerConnection();
            pc.tries = RoundRobin.tries(g);
            int rc = rr.get(pc);
            out.add(rc == Rc.OK ? pc.name : "BUSY");
            rr.free(pc, state);
        }
        return out;
    }

    @Test
    void weightsAreSpreadAsNginxSpreadsThem() {
        PeerGroup g = new PeerGroup("u", List.of(peer("a", 5), peer("b", 1), peer("c", 1)), null);
        // nginx's own example in ngx_http_upstream_round_robin.c's commit message: a a b a c a a
        assertEquals(List.of("a", "a", "b", "a", "c", "a", "a", "a", "a", "b", "a", "c", "a", "a"),
            picks(g, 14, 0));
    }

    @Test
    void equalWeightsTakeTurns() {
        PeerGroup g = new PeerGroup("u", List.of(peer("a", 1), peer("b", 1), peer("c", 1)), null);
        assertEquals(List.of("a", "b", "c", "a", "b", "c"), picks(g, 6, 0));
    }

    @Test
    void aRequestNeverTriesAPeerTwice() {
        PeerGroup g = new PeerGroup("u", List.of(peer("a", 1), peer("b", 1)), null);
        RoundRobin rr = new RoundRobin(g, () -> now);
        PeerConnection pc = new PeerConnection();
        pc.tries = 2;
        assertEquals(Rc.OK, rr.get(pc));
        String first = pc.name;
        rr.free(pc, PeerConnection.FAILED);
        assertEquals(1, pc.tries);
        assertEquals(Rc.OK, rr.get(pc));
        assertTrue(!pc.name.equals(first), "second try on the other peer");
        rr.free(pc, PeerConnection.FAILED);
        assertEquals(0, pc.tries);
    }

    @Test
    void aFailedPeerRestsForFailTimeoutThenComesBack() {
        Peer a = peer("a", 1, 1, 10_000, 0, false);
        Peer b = peer("b", 1);
        PeerGroup g = new PeerGroup("u", List.of(a, b), null);
        RoundRobin rr = new RoundRobin(g, () -> now);
        PeerConnection pc = new PeerConnection();
        pc.tries = 2;
        rr.get(pc);
        assertEquals("a", pc.name);
        rr.free(pc, PeerConnection.FAILED);
        assertEquals(1, a.fails());
        assertEquals(List.of("b", "b", "b"), picks(g, 3, 0));
        now += 10_001;
        // its effective weight fell to 0 with the failure and climbs back one per choice, as nginx's does
        assertTrue(picks(g, 4, 0).contains("a"), "back after fail_timeout");
    }

    @Test
    void backupsServeOnlyWhenThePrimariesCannot() {
        Peer a = peer("a", 1, 1, 10_000, 0, true);
        PeerGroup backup = new PeerGroup("u", List.of(peer("z", 1)), null);
        PeerGroup g = new PeerGroup("u", List.of(a, peer("b", 1, 1, 10_000, 0, true)), backup);
        assertEquals(List.of("z", "z"), picks(g, 2, 0));
    }

    @Test
    void noLivePeerIsBusyAndForgetsTheFailures() {
        Peer a = peer("a", 1, 1, 10_000, 0, false);
        Peer b = peer("b", 1, 1, 10_000, 0, false);
        PeerGroup g = new PeerGroup("u", List.of(a, b), null);
        picks(g, 2, PeerConnection.FAILED);
        assertEquals(1, a.fails());
        assertEquals(1, b.fails());
        RoundRobin rr = new RoundRobin(g, () -> now);
        PeerConnection pc = new PeerConnection();
        assertEquals(Rc.BUSY, rr.get(pc));
        assertEquals("u", pc.name, "nginx names the group");
        assertEquals(0, a.fails());
        assertEquals(0, b.fails());
    }

    @Test
    void maxConnsIsABound() {
        Peer a = peer("a", 1, 1, 10_000, 1, false);
        PeerGroup g = new PeerGroup("u", List.of(a), null);
        RoundRobin first = new RoundRobin(g, () -> now);
        PeerConnection pc1 = new PeerConnection();
        assertEquals(Rc.OK, first.get(pc1));
        assertEquals(1, a.conns());
        PeerConnection pc2 = new PeerConnection();
        assertEquals(Rc.BUSY, new RoundRobin(g, () -> now).get(pc2));
        first.free(pc1, 0);
        assertEquals(0, a.conns());
        assertEquals(Rc.OK, new RoundRobin(g, () -> now).get(new PeerConnection()));
    }

    @Test
    void leastConnPrefersTheIdlestForItsWeight() {
        Peer a = peer("a", 1);
        Peer b = peer("b", 2);
        PeerGroup g = new PeerGroup("u", List.of(a, b), null);
        List<RoundRobin> held = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            LeastConn lc = new LeastConn(g, () -> now);
            PeerConnection pc = new PeerConnection();
            assertEquals(Rc.OK, lc.get(pc));
            held.add(lc);
        }
        // b has twice a's weight: it holds twice a's connections
        assertEquals(2, a.conns());
        assertEquals(4, b.conns());
    }

    @Test
    void serverLinesAreParsedAsNginxParsesThem() throws ConfException {
        Upstream u = new Upstream("u", false, "f", 1);
        u.server(List.of("127.0.0.1:8081", "weight=3", "max_fails=2", "fail_timeout=30s", "max_conns=10"));
        u.server(List.of("unix:/tmp/jinx.sock", "backup"));
        u.server(List.of("[::1]:8082", "down"));
        PeerGroup g = u.group();
        assertEquals(2, g.peers.length);
        Peer p = g.peers[0];
        assertEquals("127.0.0.1:8081", p.name);
        assertEquals(3, p.weight);
        assertEquals(2, p.maxFails);
        assertEquals(30_000, p.failTimeout);
        assertEquals(10, p.maxConns);
        assertEquals("[::1]:8082", g.peers[1].name);
        assertTrue(g.peers[1].down);
        assertEquals(UnixDomainSocketAddress.of("/tmp/jinx.sock"), g.backup.peers[0].address);
        assertEquals("unix:/tmp/jinx.sock", g.backup.peers[0].name);
        assertEquals("invalid parameter \"weight=0\"",
            assertThrows(ConfException.class, () -> u.server(List.of("127.0.0.1", "weight=0"))).getMessage());
        assertEquals("invalid parameter \"slow\"",
            assertThrows(ConfException.class, () -> u.server(List.of("127.0.0.1", "slow"))).getMessage());
        assertEquals("invalid port in upstream \"127.0.0.1:99999\"",
            assertThrows(ConfException.class, () -> u.server(List.of("127.0.0.1:99999"))).getMessage());
        assertEquals("host not found in upstream \"no-such-host.invalid\"",
            assertThrows(ConfException.class, () -> u.server(List.of("no-such-host.invalid"))).getMessage());
    }
}
