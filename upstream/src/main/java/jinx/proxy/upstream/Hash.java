package jinx.proxy.upstream;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;


/**
 * {@code hash key [consistent]} and {@code ip_hash}: nginx's {@code ngx_http_upstream_hash_module.c} and
 * {@code ngx_http_upstream_ip_hash_module.c}, with their hash functions, so that a key goes to the server nginx
 * would choose for it. {@code hash}: CRC32 of the key modulo the total weight, rehashed (Cache::Memcached's
 * expression) while the peer is unavailable; {@code consistent}: ketama points, 160 per weight unit, from
 * CRC32 of {@code host \0 port} and the previous point (Cache::Memcached::Fast); {@code ip_hash}: the first three
 * octets of an IPv4 address (the whole of an IPv6 one). After 20 misses a request falls back to round robin.
 */
public final class Hash extends RoundRobin {

    private static final int MAX_TRIES = 20;

    /** A consistent hash's points, made once per group. */
    public static final class Points {
        final long[] hash;
        final String[] server;

        /**
         * The ketama points of a group.
         *
         * @param group the peers
         */
        public Points(PeerGroup group) {
            int n = 0;
            for (Peer p : group.peers) {
                n += p.weight * 160;
            }
            long[][] pts = new long[n][];
            String[] names = new String[group.peers.length];
            int k = 0;
            for (int i = 0; i < group.peers.length; i++) {
                Peer p = group.peers[i];
                names[i] = p.server;
                String host;
                String port;
                if (p.server.regionMatches(true, 0, "unix:", 0, 5)) {
                    host = p.server.substring(5);
                    port = "";
                } else {
                    int colon = p.server.lastIndexOf(':');
                    boolean v6 = p.server.startsWith("[");
                    if (colon >= 0 && (!v6 || colon > p.server.indexOf(']'))) {
                        host = p.server.substring(0, colon);
                        port = p.server.substring(colon + 1);
                    } else {
                        host = p.server;
                        port = "";
                    }
                    if (host.startsWith("[") && host.endsWith("]")) {
                        host = host.substring(1, host.length() - 1);
                    }
                }
                long prev = 0;
                for (int j = 0; j < p.weight * 160; j++) {
                    CRC32 c = base(host, port);
                    byte[] le = {(byte) prev, (byte) (prev >>> 8), (byte) (prev >>> 16), (byte) (prev >>> 24)};
                    c.update(le);
                    long h = c.getValue();
                    pts[k++] = new long[] {h, i};
                    prev = h;
                }
            }
            Arrays.sort(pts, (a, b) -> Long.compare(a[0], b[0]));
            // nginx drops points of equal hash after the first
            int m = 0;
            for (int i = 0; i < pts.length; i++) {
                if (m == 0 || pts[i][0] != pts[m - 1][0]) {
                    pts[m++] = pts[i];
                }
            }
            hash = new long[m];
            server = new String[m];
            for (int i = 0; i < m; i++) {
                hash[i] = pts[i][0];
                server[i] = names[(int) pts[i][1]];
            }
        }

        /** CRC32 cannot be cloned: the base (host, NUL, port) is made again per point, at configuration only. */
        private static CRC32 base(String host, String port) {
            CRC32 c = new CRC32();
            c.update(host.getBytes(StandardCharsets.ISO_8859_1));
            c.update(0);
            c.update(port.getBytes(StandardCharsets.ISO_8859_1));
            return c;
        }

        /** nginx's {@code ngx_http_upstream_find_chash_point()}: the first point at or above {@code h}. */
        int find(long h) {
            int lo = 0;
            int hi = hash.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (h > hash[mid]) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    private final PeerGroup group;
    private final byte[] key;
    private final Points points;
    private final boolean ip;
    private long hash;
    private int tries;
    private int rehash;
    private boolean started;
    private boolean fallback;

    /**
     * A request's state.
     *
     * @param group the peers
     * @param clock the loop's clock, ms
     * @param key the key's bytes (for {@code ip_hash}, the client's address bytes)
     * @param points the consistent hash's points, or null for the plain hash
     * @param ip whether this is {@code ip_hash}
     */
    public Hash(PeerGroup group, LongSupplier clock, byte[] key, Points points, boolean ip) {
        super(group, clock);
        this.group = group;
        this.key = key;
        this.points = points;
        this.ip = ip;
    }

    @Override
    protected Peer choose(PeerGroup g, long now) {
        if (fallback || g != group || tries > MAX_TRIES || g.single()) {
            return super.choose(g, now);
        }
        Peer p = points != null ? consistent(now) : ip ? ipHash(now) : plain(now);
        if (p == null) {
            fallback = true;
            return super.choose(g, now);
        }
        return p;
    }

    /** nginx's {@code ngx_http_upstream_get_hash_peer()}. */
    private Peer plain(long now) {
        for (;;) {
            CRC32 c = new CRC32();
            if (rehash > 0) {
                c.update(Integer.toString(rehash).getBytes(StandardCharsets.ISO_8859_1));
            }
            c.update(key);
            hash += (c.getValue() >>> 16) & 0x7fff;
            rehash++;
            Peer p = byWeight(hash);
            if (p != null && usable(p, now)) {
                return take(p, now);
            }
            if (++tries > MAX_TRIES) {
                return null;
            }
        }
    }

    /** nginx's {@code ngx_http_upstream_get_ip_hash_peer()}. */
    private Peer ipHash(long now) {
        if (!started) {
            started = true;
            hash = 89;
        }
        int len = key.length == 4 ? 3 : key.length;
        for (;;) {
            for (int i = 0; i < len; i++) {
                hash = (hash * 113 + (key[i] & 0xff)) % 6271;
            }
            Peer p = byWeight(hash);
            if (p != null && usable(p, now)) {
                return take(p, now);
            }
            if (++tries > MAX_TRIES) {
                return null;
            }
        }
    }

    /** nginx's {@code ngx_http_upstream_get_chash_peer()}: the best peer named by the point, moving on. */
    private Peer consistent(long now) {
        if (!started) {
            started = true;
            CRC32 c = new CRC32();
            c.update(key);
            hash = points.find(c.getValue());
        }
        Peer[] peers = group.peers;
        for (;;) {
            String server = points.server[(int) (hash % points.hash.length)];
            Peer best = smooth(group, now, i -> peers[i].server.equals(server));
            if (best != null) {
                return best;
            }
            hash++;
            if (++tries > MAX_TRIES) {
                return null;
            }
        }
    }

    private Peer byWeight(long h) {
        long w = h % group.totalWeight;
        Peer[] peers = group.peers;
        for (int i = 0; i < peers.length; i++) {
            if (w < peers[i].weight) {
                return peers[i];
            }
            w -= peers[i].weight;
        }
        return null;
    }

    private boolean usable(Peer p, long now) {
        int i = indexOf(group.peers, p);
        return !isTried(i) && p.available(now);
    }

    private Peer take(Peer p, long now) {
        markTried(indexOf(group.peers, p));
        touch(p, now);
        return p;
    }
}
