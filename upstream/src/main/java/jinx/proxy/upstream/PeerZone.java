package jinx.proxy.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.SharedZone;
import jinx.kernel.ZoneLock;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;

/**
 * {@code zone name [size];} in an upstream: the peers' state kept in a shared memory zone, so that every worker
 * sees the same connections, failures and health (nginx's {@code ngx_http_upstream_zone_module.c} and
 * {@code ngx_stream_upstream_zone_module.c}). Several upstreams may share a zone. Added in SPI 1.6.
 *
 * <p>The master lays the records out ({@link #init()}, in {@code initModule}); each worker binds its peers to them
 * ({@link #attach()}, in {@code initProcess}). Beyond nginx, whose upstream zones are made anew at every reload, a
 * reload that keeps the zone (same name and size) keeps the state of each upstream whose servers are unchanged:
 * its record is found again by name and a fingerprint of its servers. A record no upstream claims any more is
 * freed two reloads later, when the cycle that used it has finished its last requests (an old cycle that outlives
 * two reloads would then write into freed memory: {@code worker_shutdown_timeout} is the bound).
 *
 * <p>Layout: the root ({@code slab().data()}) holds the first record and the generation (one per reload); a record
 * holds the next record, the fingerprint, the generation that last claimed it, the peer count, the upstream's lock
 * word, then per peer its state ({@link Peer}'s words) and its configuration (weight, flags, max_fails,
 * fail_timeout), then the names (upstream, then each peer's name and server) as length-prefixed UTF-8.
 */
public final class PeerZone {

    /** The tag of HTTP's upstream zones (nginx's {@code &ngx_http_upstream_module}). */
    public static final String HTTP_TAG = "http_upstream";
    /** The tag of stream's upstream zones. */
    public static final String STREAM_TAG = "stream_upstream";

    private static final int ROOT_FIRST = 0;
    private static final int ROOT_GENERATION = 8;
    private static final int R_NEXT = 0;
    private static final int R_FINGERPRINT = 8;
    private static final int R_GENERATION = 16;
    private static final int R_COUNT = 24;
    private static final int R_LOCK = 32;
    private static final int R_NAMES = 40;
    private static final int R_HEADER = 48;
    private static final int C_WEIGHT = Peer.SIZE;
    private static final int C_FLAGS = Peer.SIZE + 8;
    private static final int C_MAX_FAILS = Peer.SIZE + 16;
    private static final int C_FAIL_TIMEOUT = Peer.SIZE + 24;
    private static final int STRIDE = Peer.SIZE + 32;

    private final SharedZone zone;
    private final List<Upstream> upstreams = new ArrayList<>();

    /** A zone's upstreams, as the directive gathers them (and the tests). */
    PeerZone(SharedZone zone) {
        this.zone = zone;
    }

    /** Puts an upstream into this zone. */
    void add(Upstream u) {
        if (u.zone != null) {
            u.zone.upstreams.remove(u);
        }
        u.zone = this;
        upstreams.add(u);
    }

    /**
     * The {@code zone} directive of an upstream block: nginx's {@code ngx_http_upstream_zone()}, with its texts
     * ({@code invalid zone size "x"}, {@code zone "x" is too small}); the cycle refuses a name bound to another use
     * or another size.
     *
     * @param cf the directive
     * @param u the upstream it stands in
     * @param tag the upstream module's name, the zone's tag
     * @param zones the module's zones by name, in this configuration
     * @throws ConfException with nginx's words
     */
    public static void directive(ConfContext cf, Upstream u, String tag, Map<String, PeerZone> zones)
        throws ConfException {
        String name = cf.arg(1);
        if (name.isEmpty()) {
            throw new ConfException("invalid zone name \"" + name + "\"");
        }
        long size = 0;
        if (cf.args().size() == 3) {
            size = ConfValues.parseSize(cf.arg(2));
            if (size < 0) {
                throw new ConfException("invalid zone size \"" + cf.arg(2) + "\"");
            }
            if (size < 8L * SharedZone.PAGE_SIZE) {
                throw new ConfException("zone \"" + name + "\" is too small");
            }
        }
        SharedZone shm = cf.cycle().sharedZone(name, size, tag);
        zones.computeIfAbsent(name, n -> new PeerZone(shm)).add(u);
    }

    /**
     * Returns the shared zone.
     *
     * @return the zone
     */
    public SharedZone shared() {
        return zone;
    }

    /**
     * The master's part ({@code initModule}): a record per upstream, the one a kept zone already has for it when
     * its servers are unchanged, a new one otherwise; records left unclaimed two generations ago are freed.
     *
     * @throws ConfException {@code no memory in upstream zone "x"} when the records do not fit
     */
    public void init() throws ConfException {
        if (!zone.isMapped()) {
            return;
        }
        zone.slab().logContext(" in upstream zone \"" + zone.name() + "\"");
        ZoneLock l = zone.lock();
        l.lock();
        try {
            long root = zone.slab().data();
            if (root == 0) {
                root = zone.slab().callocLocked(16);
                if (root == 0) {
                    throw noMemory();
                }
                zone.slab().data(root);
            }
            long gen = zone.getLong(root + ROOT_GENERATION) + 1;
            zone.putLong(root + ROOT_GENERATION, gen);
            for (Upstream u : upstreams) {
                long fp = fingerprint(u);
                long rec = find(root, u.name, fp, gen);
                if (rec == 0) {
                    rec = make(u, fp);
                    zone.putLong(rec + R_NEXT, zone.getLong(root + ROOT_FIRST));
                    zone.putLong(root + ROOT_FIRST, rec);
                }
                zone.putLong(rec + R_GENERATION, gen);
            }
            sweep(root, gen);
        } finally {
            l.unlock();
        }
    }

    private ConfException noMemory() {
        return new ConfException("no memory in upstream zone \"" + zone.name() + "\"");
    }

    /** A record of that name and fingerprint not claimed in this generation yet, or 0. */
    private long find(long root, String name, long fp, long gen) {
        for (long r = zone.getLong(root + ROOT_FIRST); r != 0; r = zone.getLong(r + R_NEXT)) {
            if (zone.getLong(r + R_FINGERPRINT) == fp && zone.getLong(r + R_GENERATION) != gen
                && name.equals(string(r + zone.getLong(r + R_NAMES)))) {
                return r;
            }
        }
        return 0;
    }

    /** A new record: the peers' state as a fresh group's, their configuration and names. */
    private long make(Upstream u, long fp) throws ConfException {
        List<Peer> peers = peers(u);
        List<byte[]> names = new ArrayList<>();
        names.add(u.name.getBytes(StandardCharsets.UTF_8));
        for (Peer p : peers) {
            names.add(p.name.getBytes(StandardCharsets.UTF_8));
            names.add(p.server.getBytes(StandardCharsets.UTF_8));
        }
        long strings = 0;
        for (byte[] b : names) {
            strings += 4 + b.length;
        }
        long at = R_HEADER + (long) peers.size() * STRIDE;
        long rec = zone.slab().callocLocked(at + strings);
        if (rec == 0) {
            throw noMemory();
        }
        zone.putLong(rec + R_FINGERPRINT, fp);
        zone.putLong(rec + R_COUNT, peers.size());
        zone.putLong(rec + R_NAMES, at);
        for (int i = 0; i < peers.size(); i++) {
            Peer p = peers.get(i);
            long base = rec + R_HEADER + (long) i * STRIDE;
            zone.putLong(base + Peer.EFFECTIVE_WEIGHT, p.weight);
            zone.putLong(base + Peer.HEALTH, u.mandatory ? Peer.UNHEALTHY : 0);
            zone.putLong(base + C_WEIGHT, p.weight);
            zone.putLong(base + C_FLAGS, (p.backup ? 1 : 0) | (p.down ? 2 : 0));
            zone.putLong(base + C_MAX_FAILS, p.maxFails);
            zone.putLong(base + C_FAIL_TIMEOUT, p.failTimeout);
        }
        long o = rec + at;
        for (byte[] b : names) {
            zone.putInt(o, b.length);
            zone.putBytes(o + 4, b, 0, b.length);
            o += 4 + b.length;
        }
        return rec;
    }

    /** Frees the records no upstream claimed in this generation or the one before. */
    private void sweep(long root, long gen) {
        long prev = 0;
        for (long r = zone.getLong(root + ROOT_FIRST); r != 0; ) {
            long next = zone.getLong(r + R_NEXT);
            if (zone.getLong(r + R_GENERATION) < gen - 1) {
                zone.putLong(prev == 0 ? root + ROOT_FIRST : prev + R_NEXT, next);
                zone.slab().freeLocked(r);
            } else {
                prev = r;
            }
            r = next;
        }
    }

    /**
     * A worker's part ({@code initProcess}), and the single process's: each upstream's peers bound to its record,
     * so that their state is the zone's from now on.
     */
    public void attach() {
        if (!zone.isMapped()) {
            return;
        }
        ZoneLock l = zone.lock();
        l.lock();
        try {
            long root = zone.slab().data();
            if (root == 0) {
                return;
            }
            long gen = zone.getLong(root + ROOT_GENERATION);
            for (Upstream u : upstreams) {
                long fp = fingerprint(u);
                for (long r = zone.getLong(root + ROOT_FIRST); r != 0; r = zone.getLong(r + R_NEXT)) {
                    if (zone.getLong(r + R_FINGERPRINT) == fp && zone.getLong(r + R_GENERATION) == gen
                        && u.name.equals(string(r + zone.getLong(r + R_NAMES)))) {
                        bind(u, r);
                        break;
                    }
                }
            }
        } finally {
            l.unlock();
        }
    }

    private void bind(Upstream u, long rec) {
        List<Peer> peers = peers(u);
        for (int i = 0; i < peers.size(); i++) {
            peers.get(i).bind(zone, rec + R_HEADER + (long) i * STRIDE);
        }
        u.group().lock(zone.lockAt(rec + R_LOCK));
    }

    /** The primary peers, then the backups: the order of a record. */
    private static List<Peer> peers(Upstream u) {
        List<Peer> all = new ArrayList<>();
        for (PeerGroup g = u.group(); g != null; g = g.backup) {
            all.addAll(List.of(g.peers));
        }
        return all;
    }

    /** FNV-1a over what makes the servers the same servers. */
    static long fingerprint(Upstream u) {
        StringBuilder sb = new StringBuilder(u.name).append('\n');
        for (Peer p : peers(u)) {
            sb.append(p.name).append('|').append(p.server).append('|').append(p.weight).append('|')
                .append(p.maxFails).append('|').append(p.failTimeout).append('|').append(p.maxConns).append('|')
                .append(p.down).append('|').append(p.backup).append('|').append(p.slowStart).append('\n');
        }
        long h = 0xcbf29ce484222325L;
        for (byte b : sb.toString().getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private String string(long at) {
        int n = zone.getInt(at);
        byte[] b = new byte[n];
        zone.getBytes(at + 4, b, 0, n);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * Reads the live figures of every upstream of the newest configuration in a zone: for the status module, in
     * any process that has the zone mapped.
     *
     * @param z an upstream zone (tag {@link #HTTP_TAG} or {@link #STREAM_TAG})
     * @param now the clock, ms
     * @return the upstreams, by name
     */
    public static List<UpstreamFigures> figures(SharedZone z, long now) {
        List<UpstreamFigures> out = new ArrayList<>();
        if (!z.isMapped()) {
            return out;
        }
        PeerZone reader = new PeerZone(z);
        ZoneLock l = z.lock();
        l.lock();
        try {
            long root = z.slab().data();
            if (root == 0) {
                return out;
            }
            long gen = z.getLong(root + ROOT_GENERATION);
            for (long r = z.getLong(root + ROOT_FIRST); r != 0; r = z.getLong(r + R_NEXT)) {
                if (z.getLong(r + R_GENERATION) == gen) {
                    out.add(reader.read(r, now));
                }
            }
        } finally {
            l.unlock();
        }
        out.sort(Comparator.comparing(UpstreamFigures::name));
        return out;
    }

    private UpstreamFigures read(long rec, long now) {
        long o = rec + zone.getLong(rec + R_NAMES);
        String name = string(o);
        o += 4 + zone.getInt(o);
        int count = (int) zone.getLong(rec + R_COUNT);
        List<PeerFigures> peers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String peerName = string(o);
            o += 4 + zone.getInt(o);
            String server = string(o);
            o += 4 + zone.getInt(o);
            long base = rec + R_HEADER + (long) i * STRIDE;
            long flags = zone.getLong(base + C_FLAGS);
            Peer p = new Peer(null, peerName, server, (int) zone.getLong(base + C_WEIGHT),
                (int) zone.getLong(base + C_MAX_FAILS), zone.getLong(base + C_FAIL_TIMEOUT), 0, (flags & 2) != 0);
            p.backup = (flags & 1) != 0;
            p.bind(zone, base);
            peers.add(p.figures(now));
        }
        return new UpstreamFigures(zone.name(), name, peers);
    }
}
