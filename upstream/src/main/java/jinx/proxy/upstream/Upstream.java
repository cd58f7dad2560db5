package jinx.proxy.upstream;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.EventLoop;
import jinx.kernel.PeerConnection;
import jinx.kernel.spi.ConfValues;

/**
 * An upstream group as configured, with its per-worker running state: nginx's
 * {@code ngx_http_upstream_srv_conf_t}. Explicit ({@code upstream backend { server ...; }}) or implicit (made
 * by {@code proxy_pass http://127.0.0.1:8081}, one peer per address the name resolves to). Nothing here knows
 * HTTP: a stream proxy uses the same groups, balancers and keep-alive cache.
 */
public final class Upstream {

    /** The balancer a group uses. */
    public enum Method {
        /** Smooth weighted round robin, the default. */
        ROUND_ROBIN,
        /** {@code least_conn}. */
        LEAST_CONN,
        /** {@code hash key}. */
        HASH,
        /** {@code hash key consistent}. */
        HASH_CONSISTENT,
        /** {@code ip_hash}. */
        IP_HASH,
        /** {@code random}. */
        RANDOM,
        /** {@code random two [least_conn]}. */
        RANDOM_TWO,
        /** {@code random two peak_ewma}: two drawn, the lower latency-weighted load serves ({@link PeakEwma}). */
        RANDOM_TWO_PEAK_EWMA
    }

    /** nginx's defaults of a {@code server} line: weight 1, max_fails 1, fail_timeout 10 s. */
    private static final long DEFAULT_FAIL_TIMEOUT = 10_000;

    /** The group's name. */
    public final String name;
    /** Made by a {@code proxy_pass} address, not by an {@code upstream} block. */
    public final boolean implicit;
    /** Where it was defined, for messages. */
    public final String file;
    /** The line. */
    public final int line;

    /** The balancer. */
    public Method method = Method.ROUND_ROBIN;
    /** The {@code hash} key as its protocol module compiled it (opaque here), or null. */
    public Object hashKey;
    /** {@code keepalive}: idle connections kept per worker, 0 for none. */
    public int keepalive;
    /** {@code keepalive_requests}. */
    public int keepaliveRequests = 1000;
    /** {@code keepalive_time}, ms. */
    public long keepaliveTime = 3_600_000;
    /** {@code keepalive_timeout}, ms. */
    public long keepaliveTimeout = 60_000;
    /** {@code random two peak_ewma decay=}, ms. */
    public long ewmaDecay = PeakEwma.DEFAULT_DECAY;
    /** The zone the peers' state is in ({@code zone}), or null. Added in SPI 1.6. */
    public PeerZone zone;
    /** A {@code mandatory} health check names this upstream: new peers start unhealthy. Added in SPI 1.6. */
    public boolean mandatory;

    private final List<Peer> primary = new ArrayList<>();
    private final List<Peer> backup = new ArrayList<>();
    private PeerGroup group;
    private Hash.Points points;
    private KeepaliveCache cache;

    /**
     * A group.
     *
     * @param name its name
     * @param implicit whether {@code proxy_pass} made it
     * @param file where it was defined
     * @param line the line
     */
    public Upstream(String name, boolean implicit, String file, int line) {
        this.name = name;
        this.implicit = implicit;
        this.file = file;
        this.line = line;
    }

    /**
     * Adds the peers of a {@code server} line: nginx's {@code ngx_http_upstream_server()}.
     *
     * @param args the directive's arguments after its name
     * @throws ConfException with nginx's words
     */
    public void server(List<String> args) throws ConfException {
        int weight = 1;
        int maxFails = 1;
        long failTimeout = DEFAULT_FAIL_TIMEOUT;
        int maxConns = 0;
        boolean isBackup = false;
        boolean down = false;
        long slowStart = 0;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("weight=")) {
                weight = number(a, 7, "weight");
                if (weight == 0) {
                    throw invalid(a);
                }
            } else if (a.startsWith("max_fails=")) {
                maxFails = number(a, 10, "max_fails");
            } else if (a.startsWith("max_conns=")) {
                maxConns = number(a, 10, "max_conns");
            } else if (a.startsWith("fail_timeout=")) {
                failTimeout = ConfValues.parseTime(a.substring(13), false);
                if (failTimeout < 0) {
                    throw invalid(a);
                }
            } else if (a.startsWith("slow_start=")) {
                slowStart = ConfValues.parseTime(a.substring(11), false);
                if (slowStart < 0) {
                    throw invalid(a);
                }
            } else if (a.equals("backup")) {
                isBackup = true;
            } else if (a.equals("down")) {
                down = true;
            } else {
                throw invalid(a);
            }
        }
        if (isBackup && method != Method.ROUND_ROBIN && method != Method.LEAST_CONN) {
            throw new ConfException("balancing method does not support parameter \"backup\"");
        }
        if (slowStart > 0 && method != Method.ROUND_ROBIN && method != Method.LEAST_CONN) {
            throw new ConfException("balancing method does not support parameter \"slow_start\"");
        }
        String address = args.get(0);
        for (SocketAddress sa : resolve(address, "upstream \"" + address + "\"")) {
            Peer p = new Peer(sa, nameOf(sa), address, weight, maxFails, failTimeout, maxConns, down);
            p.slowStart = slowStart;
            p.backup = isBackup;
            (isBackup ? backup : primary).add(p);
        }
    }

    /**
     * Adds a peer with nginx's defaults (an implicit upstream's address).
     *
     * @param address the address
     * @param server the address as written
     */
    public void peer(SocketAddress address, String server) {
        primary.add(new Peer(address, nameOf(address), server, 1, 1, DEFAULT_FAIL_TIMEOUT, 0, false));
    }

    /**
     * Tells whether the group has any server.
     *
     * @return true when a server was added
     */
    public boolean hasServers() {
        return !primary.isEmpty();
    }

    /**
     * Returns the worker's peers, built on first use.
     *
     * @return the group
     */
    public PeerGroup group() {
        PeerGroup g = group;
        if (g == null) {
            PeerGroup b = backup.isEmpty() ? null : new PeerGroup(name, backup, null);
            g = new PeerGroup(name, primary, b);
            group = g;
        }
        return g;
    }

    private Hash.Points points(PeerGroup g) {
        Hash.Points p = points;
        if (p == null) {
            p = new Hash.Points(g);
            points = p;
        }
        return p;
    }

    /**
     * Returns the worker's keep-alive cache, or null without {@code keepalive}.
     *
     * @return the cache
     */
    public KeepaliveCache cache() {
        if (keepalive == 0) {
            return null;
        }
        KeepaliveCache c = cache;
        if (c == null) {
            c = new KeepaliveCache(keepalive, keepaliveRequests, keepaliveTime, keepaliveTimeout);
            cache = c;
        }
        return c;
    }

    /**
     * Makes a request's source of peers: the balancer over the group, behind the keep-alive cache if any.
     *
     * @param loop the loop
     * @param pc the request's peer connection, whose {@code source} and {@code tries} are set
     */
    public void start(EventLoop loop, PeerConnection pc) {
        start(loop, pc, null);
    }

    /**
     * Makes a request's source of peers, with the key a hash balancer hashes: the {@code hash} key evaluated, or
     * the client's address bytes for {@code ip_hash}.
     *
     * @param loop the loop
     * @param pc the request's peer connection
     * @param key the key's bytes, or null (the balancer falls back to round robin)
     */
    public void start(EventLoop loop, PeerConnection pc, byte[] key) {
        PeerGroup g = group();
        RoundRobin balancer = switch (method) {
            case LEAST_CONN -> new LeastConn(g, loop);
            case HASH -> key == null ? new RoundRobin(g, loop) : new Hash(g, loop::wallMillis, key, null, false);
            case HASH_CONSISTENT -> key == null ? new RoundRobin(g, loop)
                : new Hash(g, loop::wallMillis, key, points(g), false);
            case IP_HASH -> key == null ? new RoundRobin(g, loop) : new Hash(g, loop::wallMillis, key, null, true);
            case RANDOM -> new RandomPick(g, loop::wallMillis, false);
            case RANDOM_TWO -> new RandomPick(g, loop::wallMillis, true);
            case RANDOM_TWO_PEAK_EWMA -> new RandomPick(g, loop::wallMillis, true, ewmaDecay);
            default -> new RoundRobin(g, loop);
        };
        KeepaliveCache c = cache();
        pc.source = c == null ? balancer : c.wrap(balancer);
        pc.data = balancer;
        pc.tries = RoundRobin.tries(g);
    }

    /**
     * {@code random [two [least_conn | peak_ewma [decay=time]]]}: nginx's arguments, and Peak EWMA as a method of
     * {@code two} (its decay 10 s unless given). Added in SPI 1.6.
     *
     * @param a the directive's words
     * @return the method
     * @throws ConfException {@code invalid parameter "x"}
     */
    public Method randomMethod(List<String> a) throws ConfException {
        if (a.size() > 1 && !a.get(1).equals("two")) {
            throw new ConfException("invalid parameter \"" + a.get(1) + "\"");
        }
        if (a.size() > 2 && !a.get(2).equals("least_conn") && !a.get(2).equals("peak_ewma")) {
            throw new ConfException("invalid parameter \"" + a.get(2) + "\"");
        }
        boolean ewma = a.size() > 2 && a.get(2).equals("peak_ewma");
        if (a.size() > 3) {
            long decay = a.get(3).startsWith("decay=") ? ConfValues.parseTime(a.get(3).substring(6), false) : -1;
            if (!ewma || decay <= 0) {
                throw new ConfException("invalid parameter \"" + a.get(3) + "\"");
            }
            ewmaDecay = decay;
        }
        return ewma ? Method.RANDOM_TWO_PEAK_EWMA
            : a.size() > 1 ? Method.RANDOM_TWO : Method.RANDOM;
    }

    /**
     * Tells the request's balancer that the peer answered: the response counted by class and its time averaged
     * in the peer's figures, and given to a latency-aware balancer ({@code random two peak_ewma}). Added in SPI 1.6.
     *
     * @param pc the request's peer connection, as {@link #start} set it up
     * @param status the response's status, 0 for a protocol without one
     * @param micros the time from the try's start to the response header (stream: to the connection), µs
     */
    public static void responded(PeerConnection pc, int status, long micros) {
        if (pc.data instanceof RoundRobin rr) {
            rr.responded(status, micros);
        }
    }

    /**
     * Resolves an address as nginx's {@code ngx_parse_url()} does for upstreams: {@code unix:/path},
     * {@code host[:port]} (port 80 by default), {@code [v6]:port}; a name gives one address per record.
     *
     * @param address the text
     * @param what how a failure names the address ({@code upstream "x"})
     * @return the addresses
     * @throws ConfException {@code host not found in upstream "x"}, {@code invalid port in upstream "x"}
     */
    public static List<SocketAddress> resolve(String address, String what) throws ConfException {
        return resolve(address, what, 80);
    }

    /**
     * Resolves an address as {@link #resolve(String, String)} with another default port ({@code resolver}: 53).
     *
     * @param address the text
     * @param what how a failure names the address
     * @param defaultPort the port when none is written
     * @return the addresses
     * @throws ConfException as {@link #resolve(String, String)}
     */
    public static List<SocketAddress> resolve(String address, String what, int defaultPort) throws ConfException {
        if (address.startsWith("unix:")) {
            String path = address.substring(5);
            if (path.isEmpty()) {
                throw new ConfException("no path in the unix domain socket in " + what);
            }
            return List.of(UnixDomainSocketAddress.of(path));
        }
        String host = address;
        int port = defaultPort;
        int colon = address.lastIndexOf(':');
        int bracket = address.lastIndexOf(']');
        if (colon > bracket && (bracket >= 0 || address.indexOf(':') == colon)) {
            host = address.substring(0, colon);
            String p = address.substring(colon + 1);
            try {
                port = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new ConfException("invalid port in " + what);
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty()) {
            throw new ConfException("no host in " + what);
        }
        try {
            List<SocketAddress> out = new ArrayList<>();
            for (InetAddress ia : InetAddress.getAllByName(host)) {
                out.add(new InetSocketAddress(ia, port));
            }
            return out;
        } catch (UnknownHostException e) {
            throw new ConfException("host not found in " + what);
        }
    }

    /**
     * Prints an address as nginx's {@code ngx_sock_ntop()}: {@code 127.0.0.1:80}, {@code [::1]:80},
     * {@code unix:/path}.
     *
     * @param sa the address
     * @return the text
     */
    public static String nameOf(SocketAddress sa) {
        if (sa instanceof UnixDomainSocketAddress u) {
            return "unix:" + u.getPath();
        }
        InetSocketAddress in = (InetSocketAddress) sa;
        String host = in.getAddress().getHostAddress();
        if (host.indexOf(':') >= 0) {
            int pct = host.indexOf('%');
            if (pct >= 0) {
                host = host.substring(0, pct);
            }
            host = "[" + compressV6(host) + "]";
        }
        return host + ":" + in.getPort();
    }

    /** Java prints 0:0:0:0:0:0:0:1; nginx prints ::1. */
    private static String compressV6(String full) {
        try {
            byte[] b = InetAddress.getByName(full).getAddress();
            int[] w = new int[8];
            for (int i = 0; i < 8; i++) {
                w[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
            }
            int bestStart = -1;
            int bestLen = 0;
            for (int i = 0; i < 8; ) {
                if (w[i] != 0) {
                    i++;
                    continue;
                }
                int j = i;
                while (j < 8 && w[j] == 0) {
                    j++;
                }
                if (j - i > bestLen && j - i > 1) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                if (i == bestStart) {
                    sb.append(i == 0 ? "::" : ":");
                    i += bestLen - 1;
                    continue;
                }
                sb.append(Integer.toHexString(w[i]));
                if (i < 7) {
                    sb.append(':');
                }
            }
            return sb.toString();
        } catch (UnknownHostException e) {
            return full;
        }
    }

    private static int number(String a, int from, String what) throws ConfException {
        try {
            int n = Integer.parseInt(a.substring(from));
            if (n < 0) {
                throw invalid(a);
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(a);
        }
    }

    private static ConfException invalid(String a) {
        return new ConfException("invalid parameter \"" + a + "\"");
    }
}
