package jinx.proxy.upstream;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import jinx.kernel.ConfException;
import jinx.kernel.EventLoop;
import jinx.kernel.spi.ConfValues;

/**
 * A DNS resolver as the {@code resolver} directive configures it: nginx's {@code ngx_resolver_t}
 * (src/core/ngx_resolver.c), for the HTTP proxy and stream proxy to look up a name that a {@code proxy_pass} with
 * variables makes, on the event loop: queries go out over UDP (TCP when an answer is truncated) through the
 * kernel's outbound connections, answers come back as read events, and nothing ever blocks the loop.
 *
 * <p>A resolver is built once from the directive's parameters ({@link #create}); each loop that uses it gets its
 * own state (queries in flight, the cache of answers, sockets), made on first use. Queries carry random ids, go to
 * the servers in turn, are sent again to the next server every 5 seconds while unanswered (nginx's
 * {@code resend_timeout}), and answers are cached for their TTL or {@code valid=}. A lookup that is not answered
 * within its timeout ({@code resolver_timeout}) ends with {@link #TIMEDOUT}.
 *
 * <p>Thread contract: {@link #resolve} and {@link Resolution#cancel} on the loop's thread only.
 */
public final class Resolver {

    /** A lookup's state: nginx's {@code NGX_RESOLVE_FORMERR}. */
    public static final int FORMERR = 1;
    /** {@code NGX_RESOLVE_SERVFAIL}. */
    public static final int SERVFAIL = 2;
    /** {@code NGX_RESOLVE_NXDOMAIN}: also a name that cannot be queried, or too many CNAMEs. */
    public static final int NXDOMAIN = 3;
    /** {@code NGX_RESOLVE_NOTIMP}. */
    public static final int NOTIMP = 4;
    /** {@code NGX_RESOLVE_REFUSED}. */
    public static final int REFUSED = 5;
    /** {@code NGX_RESOLVE_TIMEDOUT}, which is {@code NGX_ETIMEDOUT}: the lookup's timeout expired. */
    public static final int TIMEDOUT = 110;
    /** The default of {@code resolver_timeout}, in milliseconds. */
    public static final long DEFAULT_TIMEOUT = 30_000;

    private static final String[] ERRORS = {
        "Format error", "Server failure", "Host not found", "Unimplemented", "Operation refused",
    };

    private final List<InetSocketAddress> servers;
    private final List<String> serverNames;
    private final long valid;
    private final boolean ipv4;
    private final boolean ipv6;
    private final Map<EventLoop, ResolverLoop> loops = new ConcurrentHashMap<>();

    private Resolver(List<InetSocketAddress> servers, List<String> names, long valid, boolean ipv4, boolean ipv6) {
        this.servers = List.copyOf(servers);
        this.serverNames = List.copyOf(names);
        this.valid = valid;
        this.ipv4 = ipv4;
        this.ipv6 = ipv6;
    }

    /**
     * Builds a resolver from the {@code resolver} directive's parameters: nginx's {@code ngx_resolver_create()}.
     * An address is {@code host[:port]} or {@code [v6][:port]} (port 53 by default; a name is looked up here, at
     * configuration time, and gives one server per address); {@code valid=time} overrides the answers' TTL;
     * {@code ipv4=on|off} and {@code ipv6=on|off} choose the records asked for (both by default);
     * {@code status_zone=zone} (nginx 1.27) is accepted and has no effect yet.
     *
     * @param params the parameters (the directive's arguments after its name)
     * @return the resolver
     * @throws ConfException {@code invalid parameter: x}, {@code host not found in resolver "x"},
     *     {@code invalid port in resolver "x"}, {@code "ipv4" and "ipv6" cannot both be "off"},
     *     {@code no name servers defined}
     */
    public static Resolver create(List<String> params) throws ConfException {
        List<InetSocketAddress> servers = new ArrayList<>();
        List<String> names = new ArrayList<>();
        long valid = 0;
        boolean ipv4 = true;
        boolean ipv6 = true;
        for (String p : params) {
            if (p.startsWith("valid=")) {
                valid = ConfValues.parseTime(p.substring(6), true);
                if (valid < 0) {
                    throw new ConfException("invalid parameter: " + p);
                }
            } else if (p.startsWith("ipv4=")) {
                ipv4 = onOff(p, p.substring(5));
            } else if (p.startsWith("ipv6=")) {
                ipv6 = onOff(p, p.substring(5));
            } else if (p.startsWith("status_zone=")) {
                if (p.length() == 12) {
                    throw new ConfException("invalid parameter: " + p);
                }
            } else if (p.indexOf('/') >= 0 && !p.startsWith("unix:")) {
                // nginx's ngx_parse_url() takes what follows a slash as a URI, which a resolver cannot have
                throw new ConfException("invalid host in resolver \"" + p + "\"");
            } else {
                for (SocketAddress sa : Upstream.resolve(p, "resolver \"" + p + "\"", 53)) {
                    if (!(sa instanceof InetSocketAddress in)) {
                        throw new ConfException("invalid address in resolver \"" + p + "\"");
                    }
                    servers.add(in);
                    names.add(Upstream.nameOf(in));
                }
            }
        }
        if (!ipv4 && !ipv6) {
            throw new ConfException("\"ipv4\" and \"ipv6\" cannot both be \"off\"");
        }
        if (servers.isEmpty()) {
            throw new ConfException("no name servers defined");
        }
        return new Resolver(servers, names, valid * 1000, ipv4, ipv6);
    }

    /**
     * Looks a name up: nginx's {@code ngx_resolve_start()} and {@code ngx_resolve_name()}. An IPv4 address
     * written as such is answered at once; a cached answer too; otherwise the handler runs later on the loop,
     * once with the answer or the failure. The caller ends the lookup with {@link Resolution#cancel} when it no
     * longer wants the answer (a request that went away), and may call it after the handler too.
     *
     * @param loop the loop the lookup runs on (the caller's)
     * @param name the name
     * @param timeout milliseconds until the lookup ends with {@link #TIMEDOUT} ({@code resolver_timeout})
     * @param handler called with the finished lookup: {@link Resolution#state()} 0 with addresses, or an error
     * @return the lookup
     */
    public Resolution resolve(EventLoop loop, String name, long timeout, Consumer<Resolution> handler) {
        Resolution ctx = new Resolution(name, handler);
        InetAddress literal = ipv4Literal(name);
        if (literal != null) {
            ctx.finish(0, List.of(literal));
            return ctx;
        }
        loops.computeIfAbsent(loop, l -> new ResolverLoop(this, l)).resolve(ctx, timeout);
        return ctx;
    }

    /**
     * The text of a lookup's state: nginx's {@code ngx_resolver_strerror()}.
     *
     * @param state the state
     * @return {@code Host not found}, {@code Operation timed out}, ...
     */
    public static String strerror(int state) {
        if (state > 0 && state <= ERRORS.length) {
            return ERRORS[state - 1];
        }
        return state == TIMEDOUT ? "Operation timed out" : "Unknown error";
    }

    /**
     * The servers' addresses, in the order written.
     *
     * @return the addresses
     */
    public List<InetSocketAddress> servers() {
        return servers;
    }

    String serverName(int i) {
        return serverNames.get(i);
    }

    /** {@code valid=} in milliseconds, or 0 for the answers' TTL. */
    long valid() {
        return valid;
    }

    boolean ipv4() {
        return ipv4;
    }

    boolean ipv6() {
        return ipv6;
    }

    private static boolean onOff(String param, String v) throws ConfException {
        if (v.equals("on")) {
            return true;
        }
        if (v.equals("off")) {
            return false;
        }
        throw new ConfException("invalid parameter: " + param);
    }

    /** nginx's {@code ngx_inet_addr()}: four decimal bytes, nothing else; no lookup is made. */
    static InetAddress ipv4Literal(String name) {
        byte[] a = new byte[4];
        int part = 0;
        int value = -1;
        for (int i = 0; i <= name.length(); i++) {
            char ch = i < name.length() ? name.charAt(i) : '.';
            if (ch >= '0' && ch <= '9') {
                value = (value < 0 ? 0 : value * 10) + ch - '0';
                if (value > 255) {
                    return null;
                }
            } else if (ch == '.' && value >= 0 && part < 4) {
                a[part++] = (byte) value;
                value = -1;
            } else {
                return null;
            }
        }
        if (part != 4) {
            return null;
        }
        try {
            return InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
