package jinx.proxy.upstream;

import java.net.SocketAddress;

import jinx.kernel.SharedZone;

/**
 * One server of an upstream group with its running state: nginx's {@code ngx_http_upstream_rr_peer_t}. The
 * configuration ({@code server 127.0.0.1:8081 weight=2 max_fails=3 fail_timeout=10s max_conns=100 backup down
 * slow_start=30s}) is fixed; the state (smooth weighted round robin's weights, failures, connections, health, the
 * live figures) is the worker's, or, in an upstream with a {@code zone}, a record in the shared zone that every
 * worker reads and writes ({@link PeerZone}). Either way it lives in words addressed by the offsets below, so the
 * balancers read it the same way: local words are a {@code long[]}, shared ones the zone's memory.
 *
 * <p>The balancer's words ({@code conns} to {@code effective weight}) change under the group's lock
 * ({@link PeerGroup#lock()}, a no-op without a zone); the counters are added to atomically by whoever counts.
 */
public final class Peer {

    /* the words of a peer's state, offsets in bytes (each 8 bytes, aligned): PeerZone keeps them in this order */
    static final int CONNS = 0;
    static final int FAILS = 8;
    static final int ACCESSED = 16;
    static final int CHECKED = 24;
    static final int CURRENT_WEIGHT = 32;
    static final int EFFECTIVE_WEIGHT = 40;
    /** Health: {@link #UNHEALTHY} and {@link #CHECKED_ONCE} bits. */
    static final int HEALTH = 48;
    static final int REQUESTS = 56;
    /** Responses of class 1xx; 2xx..5xx follow, 8 bytes apart. */
    static final int RESPONSES = 64;
    static final int FAILS_TOTAL = 104;
    static final int UNAVAIL = 112;
    /** Moving averages of the times to the response's header and to its end, in µs. */
    static final int HEADER_TIME = 120;
    static final int RESPONSE_TIME = 128;
    /** When the next health probe is due (ms): the lease a worker takes by compare-and-set. */
    static final int HC_NEXT = 136;
    static final int HC_FAILS = 144;
    static final int HC_PASSES = 152;
    static final int HC_CHECKS = 160;
    static final int HC_FAILS_TOTAL = 168;
    static final int HC_UNHEALTHY = 176;
    /** The last probe's result: 0 none yet, 1 passed, 2 failed. */
    static final int HC_LAST = 184;
    /** When the peer came back (ms), for slow_start; 0 when not ramping. */
    static final int RECOVERED = 192;
    /** Peak EWMA's latency (µs, a double's bits) and when it was last updated (ms). */
    static final int EWMA = 200;
    static final int EWMA_STAMP = 208;
    /** The bytes of a peer's state. */
    static final int SIZE = 216;

    static final long UNHEALTHY = 1;
    static final long CHECKED_ONCE = 2;

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
    /** {@code slow_start=} in ms, 0 for none. */
    public long slowStart;
    /** Whether the peer is in the backup group. */
    public boolean backup;

    private final long[] local = new long[SIZE / 8];
    private SharedZone zone;
    private long at;

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
        local[EFFECTIVE_WEIGHT / 8] = weight;
    }

    /** Moves the state into a zone's record at {@code offset} (a worker, once its zone is attached). */
    void bind(SharedZone z, long offset) {
        zone = z;
        at = offset;
    }

    /** Whether the state is in a shared zone. */
    boolean shared() {
        return zone != null;
    }

    long get(int word) {
        return zone == null ? local[word >>> 3] : zone.getLong(at + word);
    }

    void set(int word, long value) {
        if (zone == null) {
            local[word >>> 3] = value;
        } else {
            zone.putLong(at + word, value);
        }
    }

    /** Adds atomically across workers (a counter), or to the local word. */
    void add(int word, long delta) {
        if (zone == null) {
            local[word >>> 3] += delta;
        } else {
            zone.getAndAddLong(at + word, delta);
        }
    }

    long getVolatile(int word) {
        return zone == null ? local[word >>> 3] : zone.getLongVolatile(at + word);
    }

    boolean compareAndSet(int word, long expected, long value) {
        if (zone == null) {
            if (local[word >>> 3] != expected) {
                return false;
            }
            local[word >>> 3] = value;
            return true;
        }
        return zone.compareAndSetLong(at + word, expected, value);
    }

    /**
     * Returns the connections open to this peer (from every worker with a zone, from this one without).
     *
     * @return the count
     */
    public int conns() {
        return (int) get(CONNS);
    }

    /**
     * Returns the failures counted within {@code fail_timeout}.
     *
     * @return the count
     */
    public int fails() {
        return (int) get(FAILS);
    }

    /**
     * Tells whether active health checks found the peer unhealthy (or it is {@code mandatory} and not checked yet).
     *
     * @return true while it gets no traffic for its health
     */
    public boolean unhealthy() {
        return (getVolatile(HEALTH) & UNHEALTHY) != 0;
    }

    /**
     * Returns the live figures of the peer.
     *
     * @param now the clock, ms, for the state ({@code unavail} while failed out)
     * @return the figures
     */
    public PeerFigures figures(long now) {
        long[] r = new long[5];
        for (int i = 0; i < 5; i++) {
            r[i] = getVolatile(RESPONSES + 8 * i);
        }
        return new PeerFigures(name, server, backup, weight, state(now), conns(), getVolatile(REQUESTS), r,
            getVolatile(FAILS_TOTAL), getVolatile(UNAVAIL), getVolatile(HC_CHECKS), getVolatile(HC_FAILS_TOTAL),
            getVolatile(HC_UNHEALTHY), getVolatile(HC_LAST), getVolatile(HEADER_TIME) / 1000,
            getVolatile(RESPONSE_TIME) / 1000);
    }

    /** nginx Plus' states: up, down, unavail, unhealthy, checking (mandatory, no probe yet). */
    private String state(long now) {
        if (down) {
            return "down";
        }
        long h = getVolatile(HEALTH);
        if ((h & UNHEALTHY) != 0) {
            return (h & CHECKED_ONCE) == 0 ? "checking" : "unhealthy";
        }
        if (maxFails > 0 && fails() >= maxFails && now - get(CHECKED) <= failTimeout) {
            return "unavail";
        }
        return "up";
    }

    /** Whether the peer may be chosen now: not down, healthy, not failed out, below max_conns (nginx's checks). */
    boolean available(long now) {
        if (down || (get(HEALTH) & UNHEALTHY) != 0) {
            return false;
        }
        if (maxFails > 0 && get(FAILS) >= maxFails && now - get(CHECKED) <= failTimeout) {
            return false;
        }
        return maxConns == 0 || get(CONNS) < maxConns;
    }

    /**
     * The share of its weight the peer has now, in thousandths: 1000, or less while {@code slow_start} ramps it up
     * after it came back (from an unhealthy or failed-out state), never 0 so that a lone peer is still chosen.
     */
    int ramp(long now) {
        if (slowStart == 0) {
            return 1000;
        }
        long since = get(RECOVERED);
        if (since == 0) {
            return 1000;
        }
        long elapsed = now - since;
        if (elapsed >= slowStart || elapsed < 0) {
            set(RECOVERED, 0);
            return 1000;
        }
        return (int) Math.max(1, elapsed * 1000 / slowStart);
    }

    /** A response (or a connection's end) seen: the class counted and the times averaged. */
    void responded(int status, long headerMicros) {
        if (status >= 100 && status < 600) {
            add(RESPONSES + 8 * (status / 100 - 1), 1);
        }
        if (headerMicros >= 0) {
            average(HEADER_TIME, headerMicros);
        }
    }

    /**
     * Folds a sample into a moving average with weight 1/8, TCP's smoothed round-trip time (RFC 6298): recent
     * enough to show a slowing peer within a few dozen responses, smooth enough not to jump with one outlier.
     * Racing workers may lose a sample, which a moving average does not mind.
     */
    void average(int word, long micros) {
        long old = getVolatile(word);
        set(word, old == 0 ? micros : old + (micros - old) / 8);
    }

    @Override
    public String toString() {
        return name;
    }
}
