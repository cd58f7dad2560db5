package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * The hash balancers without nginx beside them (ProxyHashIT compares them with nginx key by key): a key always
 * goes to the same server, keys spread by weight, a server taken down moves only its own keys under
 * {@code consistent}, and an unavailable server's keys are rehashed elsewhere.
 */
class HashTest {

    private static Peer peer(int port, int weight, boolean down) {
        return new Peer(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "127.0.0.1:" + port,
            "127.0.0.1:" + port, weight, 1, 10_000, 0, down);
    }

    private static PeerGroup group(boolean cDown) {
        return new PeerGroup("u", List.of(peer(8001, 1, false), peer(8002, 2, false), peer(8003, 1, cDown)), null);
    }

    private static String pick(PeerGroup g, Hash.Points points, String key) {
        Hash h = new Hash(g, () -> 0L, key.getBytes(StandardCharsets.ISO_8859_1), points, false);
        PeerConnection pc = new PeerConnection();
        pc.tries = 3;
        assertEquals(Rc.OK, h.get(pc));
        h.free(pc, 0);
        return pc.name;
    }

    @Test
    void aKeyAlwaysGoesToTheSameServerAndKeysSpread() {
        PeerGroup g = group(false);
        List<String> first = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            first.add(pick(g, null, "key" + k));
        }
        for (int k = 0; k < 300; k++) {
            assertEquals(first.get(k), pick(g, null, "key" + k));
        }
        long b = first.stream().filter(n -> n.endsWith(":8002")).count();
        assertTrue(b > 100 && b < 200, "weight 2 of 4 takes about half: " + b);
        assertEquals(3, new HashSet<>(first).size());
    }

    @Test
    void consistentMovesOnlyTheKeysOfAServerTakenDown() {
        PeerGroup all = group(false);
        PeerGroup cDown = group(true);
        Hash.Points before = new Hash.Points(all);
        Hash.Points after = new Hash.Points(cDown);
        int moved = 0;
        for (int k = 0; k < 300; k++) {
            String was = pick(all, before, "key" + k);
            String now = pick(cDown, after, "key" + k);
            assertNotEquals("127.0.0.1:8003", now);
            if (!was.endsWith(":8003")) {
                assertEquals(was, now, "key" + k + " moved though its server is up");
            } else {
                moved++;
            }
        }
        assertTrue(moved > 30, "server c held some keys: " + moved);
    }

    @Test
    void anUnavailableServersKeysAreRehashed() {
        PeerGroup cDown = group(true);
        for (int k = 0; k < 100; k++) {
            assertNotEquals("127.0.0.1:8003", pick(cDown, null, "key" + k));
        }
    }
}
