package jinx.proxy.upstream;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * {@code random [two [least_conn | peak_ewma]]}: nginx's {@code ngx_http_upstream_random_module.c}. A peer is drawn
 * with a probability proportional to its weight; with {@code two}, two distinct peers are drawn and the one with
 * fewer connections for its weight serves (nginx's only method for two, {@code least_conn}), or with
 * {@code peak_ewma} the one with the lower latency-weighted load ({@link PeakEwma}). Unavailable or tried peers are
 * drawn again, 20 times at most, then round robin decides.
 */
public final class RandomPick extends RoundRobin {

    private static final int MAX_TRIES = 20;

    private final PeerGroup group;
    private final boolean two;
    /** Peak EWMA's decay, ms; 0 for least_conn's measure. */
    private final long decay;
    private int tries;

    /**
     * A request's state.
     *
     * @param group the peers
     * @param clock the loop's clock, ms
     * @param two whether two are drawn and the less loaded one taken
     */
    public RandomPick(PeerGroup group, LongSupplier clock, boolean two) {
        this(group, clock, two, 0);
    }

    /**
     * A request's state, with two drawn and compared by Peak EWMA when {@code decay} is not 0.
     *
     * @param group the peers
     * @param clock the loop's clock, ms
     * @param two whether two are drawn and the less loaded one taken
     * @param decay Peak EWMA's decay in ms, or 0 to compare connections per weight
     */
    public RandomPick(PeerGroup group, LongSupplier clock, boolean two, long decay) {
        super(group, clock);
        this.group = group;
        this.two = two;
        this.decay = decay;
    }

    /** Whether peer {@code y} is less loaded than {@code x}. */
    private boolean lighter(Peer y, Peer x, long now) {
        if (decay > 0) {
            return PeakEwma.load(y, now, decay) < PeakEwma.load(x, now, decay);
        }
        return x.get(Peer.CONNS) * y.weight > y.get(Peer.CONNS) * x.weight;
    }

    @Override
    protected void observed(Peer p, long micros, long now) {
        if (decay > 0) {
            PeakEwma.observe(p, micros, now, decay);
        }
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
                if (y >= 0 && y != x && lighter(peers[y], peers[x], now)) {
                    x = y;
                }
            }
            if (x >= 0) {
                Peer p = peers[x];
                markTried(x);
                touch(p, now);
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
