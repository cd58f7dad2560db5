package jinx.proxy.upstream;

import java.net.SocketAddress;

/**
 * One server of an upstream group with its running state: nginx's {@code ngx_http_upstream_rr_peer_t}. The
 * configuration ({@code server 127.0.0.1:8081 weight=2 max_fails=3 fail_timeout=10s max_conns=100 backup down})
 * is fixed; the state (smooth weighted round robin's weights, failures, connections) is the worker's and changes
 * on the loop's thread only.
 */
public final class Peer {

    /** The address. */
    public final SocketAddress address;
    /** The name as logs and {@code $upstream_addr} print it ({@code 127.0.0.1:8081}). */
    public final String name;
    /** The name as the {@code server} directive wrote it ({@code localhost:8081}). */
    public final String server;
    /** {@code weight=}, 1 by default. */
    public final int weight;
    /** {@code max_fails=}, 1 by default; 0 never counts failures. */
    public final int maxFails;
    /** {@code fail_timeout=} in ms, 10 s by default. */
    public final long failTimeout;
    /** {@code max_conns=}, 0 for no limit. */
    public final int maxConns;
    /** {@code down}: never chosen. */
    public final boolean down;

    /** Smooth weighted round robin's current weight. */
    int currentWeight;
    /** The weight in use, lowered by failures and raised back one by one. */
    int effectiveWeight;
    /** Connections open to this peer from this worker. */
    int conns;
    /** Failures within {@link #failTimeout}. */
    int fails;
    /** When the peer last failed, loop ms. */
    long accessed;
    /** When the peer was last chosen or failed, loop ms. */
    long checked;

    /**
     * A peer as configured.
     *
     * @param address the address
     * @param name its printed name
     * @param server the {@code server} directive's address as written
     * @param weight the weight, at least 1
     * @param maxFails failures before the peer is taken out for {@code failTimeout}
     * @param failTimeout ms
     * @param maxConns connections at most, 0 for no limit
     * @param down whether the peer is marked down
     */
    public Peer(SocketAddress address, String name, String server, int weight, int maxFails, long failTimeout,
                int maxConns, boolean down) {
        this.address = address;
        this.name = name;
        this.server = server;
        this.weight = weight;
        this.maxFails = maxFails;
        this.failTimeout = failTimeout;
        this.maxConns = maxConns;
        this.down = down;
        this.effectiveWeight = weight;
    }

    /**
     * Returns the connections open to this peer from this worker.
     *
     * @return the count
     */
    public int conns() {
        return conns;
    }

    /**
     * Returns the failures counted within {@code fail_timeout}.
     *
     * @return the count
     */
    public int fails() {
        return fails;
    }

    /** Whether the peer may be chosen now: not down, not failed out, below max_conns (nginx's checks). */
    boolean available(long now) {
        if (down) {
            return false;
        }
        if (maxFails > 0 && fails >= maxFails && now - checked <= failTimeout) {
            return false;
        }
        return maxConns == 0 || conns < maxConns;
    }

    @Override
    public String toString() {
        return name;
    }
}
