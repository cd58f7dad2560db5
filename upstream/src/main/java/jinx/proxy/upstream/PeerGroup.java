package jinx.proxy.upstream;

import java.util.List;

import jinx.kernel.ZoneLock;

/**
 * The servers of an upstream: nginx's {@code ngx_http_upstream_rr_peers_t}, the primary peers with the backup
 * group as {@link #backup}. Built once per configuration and per worker; with a {@code zone}, the peers' state is
 * in the zone and the group's {@link #lock()} (nginx's {@code ngx_http_upstream_rr_peers_wlock()}) guards what the
 * balancers change.
 */
public final class PeerGroup {

    /** Spins before a waiter looks at whether the holder is still alive. */
    private static final int SPINS_BEFORE_CHECK = 1 << 16;

    /** The upstream's name ({@code backend}, or {@code 127.0.0.1:8081} for an implicit one). */
    public final String name;
    /** The peers, in configuration order. */
    public final Peer[] peers;
    /** The backup servers, or null. */
    public final PeerGroup backup;
    /** The sum of the weights. */
    public final int totalWeight;
    /** Whether some peer has a weight other than 1. */
    public final boolean weighted;

    private ZoneLock lock;

    /**
     * A group of peers.
     *
     * @param name the upstream's name
     * @param peers the peers
     * @param backup the backup group, or null
     */
    public PeerGroup(String name, List<Peer> peers, PeerGroup backup) {
        this.name = name;
        this.peers = peers.toArray(new Peer[0]);
        this.backup = backup;
        int total = 0;
        boolean w = false;
        for (Peer p : this.peers) {
            total += p.weight;
            w |= p.weight != 1;
        }
        this.totalWeight = total;
        this.weighted = w;
    }

    /**
     * Tells whether the group is one peer without backups: nginx's {@code peers->single}, where failures are not
     * counted.
     *
     * @return true for a single peer
     */
    public boolean single() {
        return peers.length == 1 && backup == null;
    }

    /** The zone's lock of the upstream, shared with the backup group (PeerZone, when a worker binds). */
    void lock(ZoneLock l) {
        lock = l;
        if (backup != null) {
            backup.lock = l;
        }
    }

    /**
     * Takes the group's lock: nothing without a zone. A holder that died (a worker killed inside the few lines
     * the lock guards) is found by its pid and the lock forced open, since the master does not know this lock.
     */
    void lock() {
        ZoneLock l = lock;
        if (l == null || l.tryLock()) {
            return;
        }
        for (int i = 1; ; i++) {
            if (l.tryLock()) {
                return;
            }
            if ((i & (SPINS_BEFORE_CHECK - 1)) == 0) {
                long owner = l.owner();
                if (owner != 0 && owner != ProcessHandle.current().pid()
                    && !ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    l.forceUnlock(owner);
                }
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Releases the group's lock. */
    void unlock() {
        ZoneLock l = lock;
        if (l != null) {
            l.unlock();
        }
    }
}
