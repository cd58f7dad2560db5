package jinx.proxy.upstream;

import jinx.kernel.EventLoop;

/**
 * {@code least_conn}: nginx's {@code ngx_http_upstream_least_conn_module.c}. The peer with the fewest connections
 * for its weight ({@code conns / weight}) is chosen; among peers tied for it, smooth weighted round robin decides.
 * Counted per worker, as nginx counts without a {@code zone}.
 */
public final class LeastConn extends RoundRobin {

    /**
     * A request's state over a group.
     *
     * @param group the upstream's peers
     * @param loop the loop whose clock times failures
     */
    public LeastConn(PeerGroup group, EventLoop loop) {
        super(group, loop);
    }

    /**
     * A request's state over a group, with its own clock (tests).
     *
     * @param group the upstream's peers
     * @param clock the time in ms
     */
    public LeastConn(PeerGroup group, java.util.function.LongSupplier clock) {
        super(group, clock);
    }

    @Override
    protected Peer choose(PeerGroup g, long now) {
        Peer[] peers = g.peers;
        Peer best = null;
        int many = 0;
        for (int i = 0; i < peers.length; i++) {
            Peer p = peers[i];
            if (isTried(i) || !p.available(now)) {
                continue;
            }
            if (best == null || p.get(Peer.CONNS) * best.weight < best.get(Peer.CONNS) * p.weight) {
                best = p;
                many = 1;
            } else if (p.get(Peer.CONNS) * best.weight == best.get(Peer.CONNS) * p.weight) {
                many++;
            }
        }
        if (best == null) {
            return null;
        }
        if (many == 1) {
            int i = indexOf(peers, best);
            markTried(i);
            touch(best, now);
            return best;
        }
        long leastConns = best.get(Peer.CONNS);
        int leastWeight = best.weight;
        return smooth(g, now, i -> peers[i].get(Peer.CONNS) * leastWeight == leastConns * peers[i].weight);
    }
}
