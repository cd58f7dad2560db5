package jinx.proxy.upstream;

import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * Smooth weighted round robin for one request: nginx's {@code ngx_http_upstream_round_robin.c}. Each choice adds
 * every available peer's effective weight to its current weight and takes the peer with the highest, which then
 * loses the total: with weights 5, 1, 1 the order is a a b a c a a, spread rather than in runs. A peer is skipped
 * while {@code down}, at {@code max_conns}, or failed {@code max_fails} times within {@code fail_timeout}, and a
 * request never tries the same peer twice. When no primary peer is left the backup group is tried; when none is
 * left at all, every failure count is forgotten (as nginx does, so the group is not dead forever) and the answer
 * is {@link Rc#BUSY}.
 *
 * <p>One object per request (nginx's {@code ngx_http_upstream_rr_peer_data_t}), used on the loop's thread.
 * Subclasses choose differently ({@link LeastConn}).
 */
public class RoundRobin implements PeerConnection.Source {

    private final LongSupplier clock;
    private PeerGroup group;
    private long[] tried;
    /** The peer of the current try, or null. */
    protected Peer current;

    /**
     * A request's state over a group.
     *
     * @param group the upstream's peers
     * @param loop the loop whose clock times failures
     */
    public RoundRobin(PeerGroup group, EventLoop loop) {
        this(group, loop::wallMillis);
    }

    /**
     * A request's state over a group, with its own clock (tests).
     *
     * @param group the upstream's peers
     * @param clock the time in ms
     */
    public RoundRobin(PeerGroup group, LongSupplier clock) {
        this.group = group;
        this.clock = clock;
        this.tried = new long[(Math.max(group.peers.length, group.backup == null ? 0 : group.backup.peers.length)
            + 63) / 64];
    }

    /**
     * Returns how many tries a request of this group has at most: one per peer, backups included.
     *
     * @param group the group
     * @return the tries
     */
    public static int tries(PeerGroup group) {
        return group.peers.length + (group.backup == null ? 0 : group.backup.peers.length);
    }

    /**
     * Returns the peer of the current try.
     *
     * @return the peer, or null
     */
    public Peer current() {
        return current;
    }

    @Override
    public int get(PeerConnection pc) {
        long now = clock.getAsLong();
        Peer p;
        if (group.single()) {
            p = group.peers[0];
            if (!p.available(now)) {
                return busy(pc);
            }
        } else {
            p = choose(group, now);
            if (p == null && group.backup != null) {
                group = group.backup;
                java.util.Arrays.fill(tried, 0);
                p = choose(group, now);
            }
            if (p == null) {
                return busy(pc);
            }
        }
        current = p;
        p.conns++;
        pc.address = p.address;
        pc.name = p.name;
        return Rc.OK;
    }

    /** nginx's "failed:" label: forget the failures, say BUSY. */
    private int busy(PeerConnection pc) {
        for (Peer q : group.peers) {
            q.fails = 0;
        }
        pc.name = group.name;
        current = null;
        return Rc.BUSY;
    }

    /**
     * Chooses among the peers of {@code g} not tried yet: nginx's {@code ngx_http_upstream_get_peer()}.
     *
     * @param g the group
     * @param now the clock, ms
     * @return the peer, marked tried, or null
     */
    protected Peer choose(PeerGroup g, long now) {
        return smooth(g, now, ALL);
    }

    /** Every peer is a candidate. */
    private static final IntPredicate ALL = i -> true;

    /**
     * Smooth weighted round robin among the peers of {@code g} not tried yet, available, and accepted by
     * {@code among}: nginx's loop of {@code ngx_http_upstream_get_peer()}, which least_conn (over the least loaded)
     * and the consistent hash (over one server's peers) run too.
     *
     * @param g the group
     * @param now the clock, ms
     * @param among which peer indexes are candidates
     * @return the peer, marked tried, or null when no candidate is left
     */
    protected final Peer smooth(PeerGroup g, long now, IntPredicate among) {
        Peer best = null;
        int bestIndex = -1;
        int total = 0;
        Peer[] peers = g.peers;
        for (int i = 0; i < peers.length; i++) {
            Peer p = peers[i];
            if (isTried(i) || !p.available(now) || !among.test(i)) {
                continue;
            }
            p.currentWeight += p.effectiveWeight;
            total += p.effectiveWeight;
            if (p.effectiveWeight < p.weight) {
                p.effectiveWeight++;
            }
            if (best == null || p.currentWeight > best.currentWeight) {
                best = p;
                bestIndex = i;
            }
        }
        if (best == null) {
            return null;
        }
        markTried(bestIndex);
        best.currentWeight -= total;
        if (now - best.checked > best.failTimeout) {
            best.checked = now;
        }
        return best;
    }

    /**
     * Returns a peer's index in its group's array, as {@link #isTried} and {@link #markTried} take it.
     *
     * @param peers the group's peers
     * @param p the peer
     * @return the index, or -1
     */
    protected static int indexOf(Peer[] peers, Peer p) {
        for (int i = 0; i < peers.length; i++) {
            if (peers[i] == p) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Tells whether the peer at {@code i} of the current group was tried by this request.
     *
     * @param i the index
     * @return true when tried
     */
    protected final boolean isTried(int i) {
        return (tried[i >>> 6] & (1L << i)) != 0;
    }

    /**
     * Marks the peer at {@code i} of the current group tried.
     *
     * @param i the index
     */
    protected final void markTried(int i) {
        tried[i >>> 6] |= 1L << i;
    }

    @Override
    public void free(PeerConnection pc, int state) {
        Peer p = current;
        if (p == null) {
            return;
        }
        current = null;
        p.conns--;
        if (group.single()) {
            pc.tries = 0;
            return;
        }
        long now = clock.getAsLong();
        if ((state & PeerConnection.FAILED) != 0) {
            p.fails++;
            p.accessed = now;
            p.checked = now;
            if (p.maxFails > 0) {
                p.effectiveWeight -= p.weight / p.maxFails;
                if (p.fails >= p.maxFails && pc.log != null) {
                    pc.log.log(LogLevel.WARN, pc.connection != null ? pc.connection.number : 0,
                        "upstream server temporarily disabled");
                }
            }
            if (p.effectiveWeight < 0) {
                p.effectiveWeight = 0;
            }
        } else if (p.accessed < p.checked) {
            p.fails = 0;
        }
        if (pc.tries > 0) {
            pc.tries--;
        }
    }
}
