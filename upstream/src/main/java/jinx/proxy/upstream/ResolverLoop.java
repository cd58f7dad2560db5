package jinx.proxy.upstream;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;

/**
 * A resolver's state on one loop: nginx's {@code ngx_resolver_t} at run time — the names asked for, cached or in
 * flight (its name tree and queues), the servers' sockets, the resend timer. Follows
 * {@code ngx_resolve_name_locked()}, {@code ngx_resolver_resend()}, {@code ngx_resolver_process_response()} and
 * {@code ngx_resolver_process_a()}: an A and an AAAA query go out together (as {@code ipv4=}/{@code ipv6=} ask),
 * the answer waits for both, an error code of either wins, a CNAME without addresses is followed (50 at most, then
 * "Host not found"), and a response that is not for a query in flight, or is malformed, is logged and dropped
 * (the lookup then times out, as nginx's does).
 */
final class ResolverLoop {

    /** nginx's {@code resend_timeout}: 5 seconds. */
    private static final long RESEND = 5000;
    /** nginx's {@code expire}: a name unused for 30 seconds leaves the cache. */
    private static final long EXPIRE = 30_000;
    /** nginx's {@code NGX_RESOLVER_MAX_RECURSION}. */
    private static final int MAX_RECURSION = 50;

    /** A name asked for: nginx's {@code ngx_resolver_node_t}. */
    private static final class Node {
        final String name;
        byte[] queryA;
        byte[] query6;
        /** An answer of that type is awaited (nginx's {@code naddrs == (u_short) -1}). */
        boolean waitA;
        boolean wait6;
        boolean tcpA;
        boolean tcp6;
        List<InetAddress> addrs4 = List.of();
        List<InetAddress> addrs6 = List.of();
        String cname;
        int code;
        long ttl;
        long validUntil;
        long resendAt;
        long expireAt;
        int server;
        boolean querying;
        final List<Resolution> waiting = new ArrayList<>(2);

        Node(String name) {
            this.name = name;
        }
    }

    private final Resolver conf;
    private final EventLoop loop;
    private final ResolverServer[] servers;
    /** The names, least recently used first. */
    private final Map<String, Node> names = new LinkedHashMap<>(16, 0.75f, true);
    /** The names whose queries are in flight: nginx's {@code name_resend_queue}. */
    private final Set<Node> inFlight = new LinkedHashSet<>();
    private final Event resendTimer = new Event();
    private final SecureRandom random = new SecureRandom();
    private ByteBuffer buffer;
    private int lastServer;

    ResolverLoop(Resolver conf, EventLoop loop) {
        this.conf = conf;
        this.loop = loop;
        this.servers = new ResolverServer[conf.servers().size()];
        for (int i = 0; i < servers.length; i++) {
            servers[i] = new ResolverServer(this, loop, conf.servers().get(i), conf.serverName(i));
        }
        resendTimer.handler = ev -> resend();
        resendTimer.cancelable = true;
        resendTimer.log = loop.log();
    }

    /** The loop's datagram buffer (direct, {@code NGX_RESOLVER_UDP_SIZE}). */
    ByteBuffer buffer() {
        if (buffer == null) {
            buffer = ByteBuffer.allocateDirect(ResolverServer.UDP_SIZE);
        }
        return buffer;
    }

    void resolve(Resolution ctx, long timeout) {
        ctx.owner = this;
        ctx.timer.handler = ev -> timedOut(ctx);
        ctx.timer.log = loop.log();
        resolveName(ctx, ctx.name(), timeout);
    }

    /** nginx's {@code ngx_resolve_name_locked()}. */
    private void resolveName(Resolution ctx, String name, long timeout) {
        String key = name.toLowerCase(Locale.ROOT);
        ctx.querying = key;
        long now = loop.wallMillis();
        Node n = names.get(key);
        if (n != null && !n.querying && n.validUntil > now) {
            n.expireAt = now + EXPIRE;
            if (!n.addrs4.isEmpty() || !n.addrs6.isEmpty()) {
                ctx.finish(0, export(n));
                return;
            }
            if (n.cname != null && ctx.recursion++ < MAX_RECURSION) {
                resolveName(ctx, n.cname, timeout);
                return;
            }
            ctx.finish(Resolver.NXDOMAIN, List.of());
            return;
        }
        if (n != null && n.querying) {
            n.waiting.add(ctx);
            arm(ctx, timeout);
            return;
        }
        if (n == null) {
            n = new Node(key);
            names.put(key, n);
        }
        if (!start(n)) {
            names.remove(key);
            ctx.finish(Resolver.NXDOMAIN, List.of());
            return;
        }
        n.waiting.add(ctx);
        if (!send(n)) {
            // nginx tries the next server at once when the query could not be sent
            n.server = (n.server + 1) % servers.length;
            send(n);
        }
        arm(ctx, timeout);
        if (inFlight.isEmpty()) {
            loop.addTimer(resendTimer, RESEND);
        }
        n.resendAt = now + RESEND;
        inFlight.add(n);
    }

    private void arm(Resolution ctx, long timeout) {
        if (!ctx.timer.timerSet()) {
            loop.addTimer(ctx.timer, timeout);
        }
    }

    /** nginx's {@code ngx_resolver_create_name_query()}: false when the name cannot be asked. */
    private boolean start(Node n) {
        n.queryA = conf.ipv4() ? DnsCodec.query(id(), n.name, DnsCodec.TYPE_A) : null;
        n.query6 = conf.ipv6() ? DnsCodec.query(id(), n.name, DnsCodec.TYPE_AAAA) : null;
        if (conf.ipv4() && n.queryA == null || conf.ipv6() && n.query6 == null) {
            return false;
        }
        n.waitA = n.queryA != null;
        n.wait6 = n.query6 != null;
        n.tcpA = false;
        n.tcp6 = false;
        n.addrs4 = List.of();
        n.addrs6 = List.of();
        n.cname = null;
        n.code = 0;
        n.ttl = Long.MAX_VALUE;
        n.validUntil = 0;
        n.querying = true;
        n.server = lastServer;
        lastServer = (lastServer + 1) % servers.length;
        return true;
    }

    private int id() {
        return random.nextInt() & 0xffff;
    }

    /** nginx's {@code ngx_resolver_send_query()}. */
    private boolean send(Node n) {
        ResolverServer s = servers[n.server];
        boolean ok = true;
        if (n.waitA) {
            ok = s.send(n.queryA, n.tcpA);
        }
        if (n.wait6) {
            ok &= s.send(n.query6, n.tcp6);
        }
        return ok;
    }

    /** nginx's {@code ngx_resolver_resend()}: unanswered queries go to the next server. */
    private void resend() {
        long now = loop.wallMillis();
        long next = Long.MAX_VALUE;
        for (Iterator<Node> it = inFlight.iterator(); it.hasNext();) {
            Node n = it.next();
            if (now < n.resendAt) {
                next = Math.min(next, n.resendAt - now);
                continue;
            }
            if (n.waiting.isEmpty()) {
                it.remove();
                n.querying = false;
                names.remove(n.name);
                continue;
            }
            n.server = (n.server + 1) % servers.length;
            send(n);
            n.resendAt = now + RESEND;
            next = Math.min(next, RESEND);
        }
        if (inFlight.isEmpty()) {
            closeSockets();
            return;
        }
        loop.addTimer(resendTimer, next);
    }

    /** A datagram or TCP message from a server: nginx's {@code ngx_resolver_process_response()}. */
    void process(byte[] b, int len, boolean tcp) {
        DnsCodec.Header h = DnsCodec.header(b, len, tcp);
        if (h.error() != null) {
            log(h.error());
            return;
        }
        if (h.code() == Resolver.FORMERR || h.code() > Resolver.REFUSED) {
            dnsError(h);
            return;
        }
        Node n = names.get(h.qname());
        boolean six = h.qtype() == DnsCodec.TYPE_AAAA;
        if (n == null || !n.querying || !(six ? n.wait6 : n.waitA)) {
            log("unexpected response for " + h.qname());
            return;
        }
        int qid = DnsCodec.u16(six ? n.query6 : n.queryA, 0);
        if (h.id() != qid) {
            log("wrong ident " + h.id() + " response for " + h.qname() + ", expect " + qid);
            return;
        }
        if (h.truncated()) {
            // nginx asks again over TCP, to the same server
            if (six) {
                n.tcp6 = true;
            } else {
                n.tcpA = true;
            }
            servers[n.server].send(six ? n.query6 : n.queryA, true);
            n.resendAt = loop.wallMillis() + RESEND;
            return;
        }
        int code = h.code() == 0 && n.code != 0 ? n.code : h.code();
        if (code == 0 && h.answers() > 0) {
            DnsCodec.Answers a = DnsCodec.answers(b, len, h);
            for (String note : a.notes()) {
                log(note);
            }
            if (a.error() != null) {
                log(a.error());
                return;
            }
            n.ttl = Math.min(n.ttl, a.ttl());
            if (six) {
                n.addrs6 = a.addresses();
            } else {
                n.addrs4 = a.addresses();
            }
            if (a.cname() != null) {
                n.cname = a.cname();
            }
        }
        if (six) {
            n.wait6 = false;
        } else {
            n.waitA = false;
        }
        if (code != 0) {
            n.code = code;
        }
        if (n.waitA || n.wait6) {
            return;
        }
        complete(n, h.answers());
    }

    /** Both answers are in: nginx's exports, CNAME following or error delivery. */
    private void complete(Node n, int answers) {
        if (n.code != 0) {
            fail(n, n.code);
            return;
        }
        if (!n.addrs4.isEmpty() || !n.addrs6.isEmpty()) {
            List<Resolution> w = done(n, true);
            List<InetAddress> addrs = export(n);
            for (Resolution ctx : w) {
                ctx.finish(0, addrs);
            }
            closeIfIdle();
            return;
        }
        if (n.cname != null) {
            List<Resolution> w = done(n, true);
            for (Resolution ctx : w) {
                if (ctx.recursion++ >= MAX_RECURSION) {
                    ctx.finish(Resolver.NXDOMAIN, List.of());
                } else {
                    resolveName(ctx, n.cname, Resolver.DEFAULT_TIMEOUT);
                }
            }
            closeIfIdle();
            return;
        }
        if (answers == 0) {
            fail(n, Resolver.NXDOMAIN);
            return;
        }
        // the lookups wait for their timeout, as nginx's
        log("no A or CNAME types in DNS response");
    }

    /** The node leaves the in-flight set, cached for its TTL (or {@code valid=}) when {@code keep}. */
    private List<Resolution> done(Node n, boolean keep) {
        n.querying = false;
        inFlight.remove(n);
        long now = loop.wallMillis();
        if (keep) {
            long ttl = n.ttl == Long.MAX_VALUE ? 0 : n.ttl * 1000;
            n.validUntil = now + (conf.valid() > 0 ? conf.valid() : ttl);
            n.expireAt = now + EXPIRE;
        } else {
            names.remove(n.name);
        }
        List<Resolution> w = new ArrayList<>(n.waiting);
        n.waiting.clear();
        return w;
    }

    /** An error for every lookup waiting; errors are not cached (nginx deletes the node). */
    private void fail(Node n, int code) {
        for (Resolution ctx : done(n, false)) {
            ctx.finish(code, List.of());
        }
        closeIfIdle();
    }

    private void dnsError(DnsCodec.Header h) {
        String name = null;
        int times = 0;
        for (Node n : inFlight) {
            if (times++ >= 100) {
                break;
            }
            if (n.waitA && DnsCodec.u16(n.queryA, 0) == h.id() || n.wait6 && DnsCodec.u16(n.query6, 0) == h.id()) {
                name = n.name;
                break;
            }
        }
        log("DNS error (" + h.code() + ": " + Resolver.strerror(h.code()) + "), query id:" + h.id()
            + (name != null && h.code() == Resolver.FORMERR ? ", name:\"" + name + "\"" : ""));
    }

    /** nginx's {@code ngx_resolver_timeout_handler()}. */
    private void timedOut(Resolution ctx) {
        leave(ctx);
        ctx.finish(Resolver.TIMEDOUT, List.of());
        closeIfIdle();
    }

    /** nginx's {@code ngx_resolve_name_done()}, with its {@code ngx_resolver_expire()}. */
    void cancel(Resolution ctx) {
        stopTimer(ctx);
        if (ctx.state() == Resolution.PENDING) {
            leave(ctx);
        }
        expire();
        closeIfIdle();
    }

    void stopTimer(Resolution ctx) {
        if (ctx.timer.timerSet()) {
            loop.deleteTimer(ctx.timer);
        }
    }

    /** The lookup stops waiting; a query nobody waits for any more is dropped at once. */
    private void leave(Resolution ctx) {
        Node n = names.get(ctx.querying);
        if (n != null && n.waiting.remove(ctx) && n.waiting.isEmpty() && n.querying) {
            done(n, false);
        }
    }

    /** Up to two names unused for {@link #EXPIRE} leave the cache, as nginx's expire step. */
    private void expire() {
        long now = loop.wallMillis();
        int removed = 0;
        for (Iterator<Node> it = names.values().iterator(); it.hasNext() && removed < 2;) {
            Node n = it.next();
            if (n.querying) {
                continue;
            }
            if (n.expireAt > now) {
                return;
            }
            it.remove();
            removed++;
        }
    }

    private void closeIfIdle() {
        if (inFlight.isEmpty()) {
            closeSockets();
        }
    }

    private void closeSockets() {
        if (resendTimer.timerSet()) {
            loop.deleteTimer(resendTimer);
        }
        for (ResolverServer s : servers) {
            s.close();
        }
    }

    /** nginx's {@code ngx_resolver_export()}: IPv4 first, each family rotated from a random start. */
    private static List<InetAddress> export(Node n) {
        List<InetAddress> out = new ArrayList<>(n.addrs4.size() + n.addrs6.size());
        rotate(out, n.addrs4);
        rotate(out, n.addrs6);
        return out;
    }

    private static void rotate(List<InetAddress> out, List<InetAddress> in) {
        int size = in.size();
        if (size == 0) {
            return;
        }
        int d = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0; i < size; i++) {
            out.add(in.get((d + i) % size));
        }
    }

    private void log(String message) {
        loop.log().log(LogLevel.ERROR, message);
    }
}
