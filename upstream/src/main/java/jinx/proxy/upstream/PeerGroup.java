package jinx.proxy.upstream;

import java.util.List;

/**
 * The servers of an upstream: nginx's {@code ngx_http_upstream_rr_peers_t}, the primary peers with the backup
 * group as {@link #backup}. Built once per configuration and per worker.
 */
public final class PeerGroup {

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
}
