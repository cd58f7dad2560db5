package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * {@code random} draws by weight and skips servers that cannot serve; {@code random two} takes the less loaded of
 * two draws.
 */
class RandomPickTest {

    private static Peer peer(int port, int weight, boolean down) {
        return new Peer(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "127.0.0.1:" + port,
            "127.0.0.1:" + port, weight, 1, 10_000, 0, down);
    }

    @Test
    void drawsByWeightAndSkipsADownServer() {
        PeerGroup g = new PeerGroup("u", List.of(peer(8001, 1, false), peer(8002, 3, false), peer(8003, 5, true)),
            null);
        Map<String, Integer> count = new HashMap<>();
        for (int i = 0; i < 4000; i++) {
            RandomPick r = new RandomPick(g, () -> 0L, false);
            PeerConnection pc = new PeerConnection();
            pc.tries = 3;
            assertEquals(Rc.OK, r.get(pc));
            assertNotEquals("127.0.0.1:8003", pc.name);
            count.merge(pc.name, 1, Integer::sum);
            r.free(pc, 0);
        }
        int a = count.get("127.0.0.1:8001");
        int b = count.get("127.0.0.1:8002");
        assertTrue(b > 2 * a && b < 4 * a, "weights 1 and 3: " + count);
    }

    @Test
    void twoTakesTheLessLoaded() {
        Peer busy = peer(8001, 1, false);
        Peer idle = peer(8002, 1, false);
        PeerGroup g = new PeerGroup("u", List.of(busy, idle), null);
        // hold 50 connections on the first
        for (int i = 0; i < 50; i++) {
            busy.add(Peer.CONNS, 1);
        }
        int onIdle = 0;
        for (int i = 0; i < 200; i++) {
            RandomPick r = new RandomPick(g, () -> 0L, true);
            PeerConnection pc = new PeerConnection();
            pc.tries = 2;
            assertEquals(Rc.OK, r.get(pc));
            if (pc.name.endsWith(":8002")) {
                onIdle++;
            }
            r.free(pc, 0);
        }
        assertEquals(200, onIdle, "two distinct draws always include the idle server");
    }
}
