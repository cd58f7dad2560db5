package jinx.proxy.upstream;

import java.util.Arrays;
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
    /** When the current peer was chosen, ms: its response time runs from there. */
    private long chosenAt;
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
        group.lock();
        try {
            return getLocked(pc, now);
        } finally {
            group.unlock();
        }
    }

    private int getLocked(PeerConnection pc, long now) {
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
                Arrays.fill(tried, 0);
                p = choose(group, now);
            }
            if (p == null) {
                return busy(pc);
            }
        }
        current = p;
        chosenAt = now;
        p.set(Peer.CONNS, p.get(Peer.CONNS) + 1);
        p.add(Peer.REQUESTS, 1);
        pc.address = p.address;
        pc.name = p.name;
        return Rc.OK;
    }

    /** nginx's "failed:" label: forget the failures, say BUSY. */
    private int busy(PeerConnection pc) {
        for (Peer q : group.peers) {
            q.set(Peer.FAILS, 0);
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
        long bestWeight = 0;
        long total = 0;
        Peer[] peers = g.peers;
        for (int i = 0; i < peers.length; i++) {
            Peer p = peers[i];
            if (isTried(i) || !p.available(now) || !among.test(i)) {
                continue;
            }
            // weights in thousandths, so that slow_start can hand a peer a part of its weight
            long effective = p.get(Peer.EFFECTIVE_WEIGHT);
            long add = effective * p.ramp(now);
            long cw = p.get(Peer.CURRENT_WEIGHT) + add;
            p.set(Peer.CURRENT_WEIGHT, cw);
            total += add;
            if (effective < p.weight) {
                p.set(Peer.EFFECTIVE_WEIGHT, effective + 1);
            }
            if (best == null || cw > bestWeight) {
                best = p;
                bestIndex = i;
                bestWeight = cw;
            }
        }
        if (best == null) {
            return null;
        }
        markTried(bestIndex);
        best.set(Peer.CURRENT_WEIGHT, bestWeight - total);
        touch(best, now);
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
        long now = clock.getAsLong();
        group.lock();
        try {
            freeLocked(pc, state, p, now);
        } finally {
            group.unlock();
        }
        if ((state & PeerConnection.FAILED) != 0) {
            p.add(Peer.FAILS_TOTAL, 1);
        } else {
            p.average(Peer.RESPONSE_TIME, (now - chosenAt) * 1000);
        }
    }

    private void freeLocked(PeerConnection pc, int state, Peer p, long now) {
        p.set(Peer.CONNS, p.get(Peer.CONNS) - 1);
        if (group.single()) {
            pc.tries = 0;
            return;
        }
        if ((state & PeerConnection.FAILED) != 0) {
            long fails = p.get(Peer.FAILS) + 1;
            p.set(Peer.FAILS, fails);
            p.set(Peer.ACCESSED, now);
            p.set(Peer.CHECKED, now);
            if (p.maxFails > 0) {
                long effective = Math.max(0, p.get(Peer.EFFECTIVE_WEIGHT) - p.weight / p.maxFails);
                p.set(Peer.EFFECTIVE_WEIGHT, effective);
                if (fails == p.maxFails) {
                    p.add(Peer.UNAVAIL, 1);
                }
                if (fails >= p.maxFails && pc.log != null) {
                    pc.log.log(LogLevel.WARN, pc.connection != null ? pc.connection.number : 0,
                        "upstream server temporarily disabled");
                }
            }
        } else if (p.get(Peer.ACCESSED) < p.get(Peer.CHECKED)) {
            if (p.maxFails > 0 && p.get(Peer.FAILS) >= p.maxFails && p.slowStart > 0) {
                // back after being failed out: slow_start ramps its weight up from here
                p.set(Peer.RECOVERED, now);
            }
            p.set(Peer.FAILS, 0);
        }
        if (pc.tries > 0) {
            pc.tries--;
        }
    }

    /**
     * The current peer answered: its response class counted, its time to the header averaged and given to a
     * latency-aware balancer. The proxy calls this when the response header is read (status 0 and the connect
     * time for a protocol without statuses, the stream proxy's).
     *
     * @param status the status code, 0 for none
     * @param micros the time from the try's start to the header, µs
     */
    public void responded(int status, long micros) {
        Peer p = current;
        if (p == null) {
            return;
        }
        p.responded(status, micros);
        observed(p, micros, clock.getAsLong());
    }

    /**
     * Hands a latency sample to a balancer that weighs peers by it ({@link PeakEwma}); nothing here.
     *
     * @param p the peer
     * @param micros the latency, µs
     * @param now the clock, ms
     */
    protected void observed(Peer p, long micros, long now) {
    }

    /** nginx's {@code if (now - best->checked > best->fail_timeout) best->checked = now}. */
    static void touch(Peer p, long now) {
        if (now - p.get(Peer.CHECKED) > p.failTimeout) {
            p.set(Peer.CHECKED, now);
        }
    }
}
