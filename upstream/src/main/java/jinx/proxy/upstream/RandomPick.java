package jinx.proxy.upstream;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * {@code random [two [least_conn]]}: nginx's {@code ngx_http_upstream_random_module.c}. A peer is drawn with a
 * probability proportional to its weight; with {@code two}, two distinct peers are drawn and the one with fewer
 * connections for its weight serves (nginx's only method for two, {@code least_conn}). Unavailable or tried peers
 * are drawn again, 20 times at most, then round robin decides.
 */
public final class RandomPick extends RoundRobin {

    private static final int MAX_TRIES = 20;

    private final PeerGroup group;
    private final boolean two;
    private int tries;

    /**
     * A request's state.
     *
     * @param group the peers
     * @param clock the loop's clock, ms
     * @param two whether two are drawn and the less loaded one taken
     */
    public RandomPick(PeerGroup group, LongSupplier clock, boolean two) {
        super(group, clock);
        this.group = group;
        this.two = two;
    }

    @Override
    protected Peer choose(PeerGroup g, long now) {
        if (g != group || tries > MAX_TRIES) {
            return super.choose(g, now);
        }
        Peer[] peers = g.peers;
        for (;;) {
            int x = draw(now);
            if (x >= 0 && two) {
                int y = -1;
                for (int i = 0; i < MAX_TRIES && (y < 0 || y == x); i++) {
                    y = draw(now);
                }
                if (y >= 0 && y != x
                    && (long) peers[x].conns * peers[y].weight > (long) peers[y].conns * peers[x].weight) {
                    x = y;
                }
            }
            if (x >= 0) {
                Peer p = peers[x];
                markTried(x);
                if (now - p.checked > p.failTimeout) {
                    p.checked = now;
                }
                return p;
            }
            if (++tries > MAX_TRIES) {
                return super.choose(g, now);
            }
        }
    }

    /** A peer drawn by weight, or -1 when the one drawn cannot serve. */
    private int draw(long now) {
        Peer[] peers = group.peers;
        long w = ThreadLocalRandom.current().nextLong(group.totalWeight);
        for (int i = 0; i < peers.length; i++) {
            if (w < peers[i].weight) {
                return isTried(i) || !peers[i].available(now) ? -1 : i;
            }
            w -= peers[i].weight;
        }
        return -1;
    }
}
