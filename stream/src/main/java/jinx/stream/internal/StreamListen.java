package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;

/**
 * The {@code listen} directive of a stream server, nginx's {@code ngx_stream_core_listen()} (1.22): an address
 * ({@code 12345}, {@code 127.0.0.1:12345}, {@code [::1]:12345}, {@code unix:/path}, or a host name), then
 * {@code bind}, {@code backlog=}, {@code rcvbuf=}, {@code sndbuf=}, {@code ipv6only=on|off}, {@code reuseport},
 * {@code so_keepalive=on|off|idle:intvl:cnt}, {@code proxy_protocol} and {@code udp} (a datagram socket whose
 * clients get sessions of their own). Once the block is parsed,
 * {@link #addListening} makes the listening sockets as nginx's {@code ngx_stream_optimize_servers()}: a bound
 * address gets its own socket, the others on a port share the wildcard's.
 */
final class StreamListen {

    private StreamListen() {
    }

    static void listen(ConfContext cf, StreamBlock block, StreamCoreSrvConf cscf) throws ConfException {
        cscf.listen = true;
        String url = cf.arg(1);
        List<SockAddr> addrs;
        try {
            addrs = SockAddr.resolve(url, 0);
        } catch (IllegalArgumentException e) {
            throw new ConfException(e.getMessage() + " in \"" + url + "\" of the \"listen\" directive");
        }
        ListenOpt proto = new ListenOpt(addrs.get(0));
        proto.server = cscf;
        boolean backlog = false;
        for (String v : cf.args().subList(2, cf.args().size())) {
            backlog |= v.startsWith("backlog=");
            parameter(cf, block, proto, v);
        }
        if (proto.udp) {
            if (backlog) {
                throw new ConfException("\"listen\" directive \"backlog\" parameter is incompatible with \"udp\"");
            }
            if (proto.soKeepalive != 0) {
                throw new ConfException("\"listen\" directive \"so_keepalive\" parameter is incompatible with "
                    + "\"udp\"");
            }
            if (proto.proxyProtocol) {
                throw new ConfException("\"listen\" directive \"proxy_protocol\" parameter is incompatible with "
                    + "\"udp\"");
            }
        }
        List<SockAddr> seen = new ArrayList<>();
        for (SockAddr sa : addrs) {
            if (seen.contains(sa)) {
                continue;
            }
            seen.add(sa);
            for (ListenOpt o : block.listens) {
                if (o.udp == proto.udp && o.sockaddr.equals(sa)) {
                    throw new ConfException("duplicate \"" + o.addrText + "\" address and port pair");
                }
            }
            block.listens.add(proto.copy(sa));
        }
    }

    private static void parameter(ConfContext cf, StreamBlock block, ListenOpt o, String v) throws ConfException {
        if (v.equals("udp")) {
            o.udp = true;
        } else if (v.equals("bind")) {
            o.bind = true;
        } else if (v.startsWith("backlog=")) {
            int n = ConfValues.parseNumber(v.substring(8));
            if (n <= 0) {
                throw new ConfException("invalid backlog \"" + v + "\"");
            }
            o.backlog = n;
            o.bind = true;
        } else if (v.startsWith("rcvbuf=") || v.startsWith("sndbuf=")) {
            long n = ConfValues.parseSize(v.substring(7));
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new ConfException("invalid " + v.substring(0, 6) + " \"" + v + "\"");
            }
            if (v.charAt(0) == 'r') {
                o.rcvbuf = (int) n;
            } else {
                o.sndbuf = (int) n;
            }
            o.bind = true;
        } else if (v.startsWith("ipv6only=o")) {
            ipv6only(cf, o, v);
        } else if (v.equals("reuseport")) {
            o.reuseport = true;
            o.bind = true;
        } else if (block.listenParameters.containsKey(v)) {
            block.listenParameters.get(v).set(cf);
            java.util.Set<String> names = new java.util.HashSet<>(o.parameters);
            names.add(v);
            o.parameters = java.util.Set.copyOf(names);
        } else if (v.equals("ssl")) {
            throw new ConfException("the \"ssl\" parameter requires ngx_stream_ssl_module");
        } else if (v.startsWith("so_keepalive=")) {
            soKeepalive(o, v.substring(13));
            o.bind = true;
        } else if (v.equals("proxy_protocol")) {
            o.proxyProtocol = true;
        } else {
            throw new ConfException("the invalid \"" + v + "\" parameter");
        }
    }

    private static void ipv6only(ConfContext cf, ListenOpt o, String v) throws ConfException {
        String rest = v.substring(10);
        if (rest.equals("n")) {
            o.ipv6only = true;
        } else if (rest.equals("ff")) {
            o.ipv6only = false;
        } else {
            throw new ConfException("invalid ipv6only flags \"" + v.substring(9) + "\"");
        }
        if (o.sockaddr.isUnix() || o.sockaddr.inetAddress() instanceof java.net.Inet4Address) {
            cf.log(LogLevel.EMERG, "ipv6only is not supported on addr \"" + o.addrText + "\", ignored");
            return;
        }
        o.bind = true;
    }

    /** {@code on}, {@code off}, or {@code [idle]:[intvl]:[cnt]} with at least one of them. */
    private static void soKeepalive(ListenOpt o, String value) throws ConfException {
        if (value.equals("on")) {
            o.soKeepalive = 1;
            return;
        }
        if (value.equals("off")) {
            o.soKeepalive = 2;
            return;
        }
        String[] parts = value.split(":", -1);
        if (parts.length > 3) {
            throw invalidKeepalive(value);
        }
        long idle = parts[0].isEmpty() ? 0 : ConfValues.parseTime(parts[0], true);
        long intvl = parts.length < 2 || parts[1].isEmpty() ? 0 : ConfValues.parseTime(parts[1], true);
        int cnt = parts.length < 3 || parts[2].isEmpty() ? 0 : ConfValues.parseNumber(parts[2]);
        if (idle < 0 || intvl < 0 || cnt < 0 || idle == 0 && intvl == 0 && cnt == 0) {
            throw invalidKeepalive(value);
        }
        o.soKeepalive = 1;
    }

    private static ConfException invalidKeepalive(String value) {
        return new ConfException("invalid so_keepalive value: \"" + value + "\"");
    }

    /**
     * nginx's {@code ngx_stream_optimize_servers()}: per port, a wildcard address takes the addresses that are not
     * bound; each bound address (and the wildcard) gets a listening socket serving its addresses.
     */
    static void addListening(StreamBlock block, SessionHandler handler) {
        List<ListenOpt> all = new ArrayList<>(block.listens);
        List<ListenOpt> done = new ArrayList<>();
        for (ListenOpt o : all) {
            if (done.contains(o)) {
                continue;
            }
            List<ListenOpt> port = new ArrayList<>();
            for (ListenOpt p : all) {
                if (!done.contains(p) && samePort(o, p)) {
                    port.add(p);
                }
            }
            done.addAll(port);
            ListenOpt wildcard = null;
            for (ListenOpt p : port) {
                if (p.wildcard) {
                    wildcard = p;
                }
            }
            List<ListenOpt> shared = new ArrayList<>();
            for (ListenOpt p : port) {
                if (wildcard != null && p != wildcard && !p.bind) {
                    shared.add(p);
                    continue;
                }
                if (p != wildcard) {
                    add(block, handler, p, List.of(p));
                }
            }
            if (wildcard != null) {
                // the wildcard is the last resort: its own conf closes the list
                shared.add(wildcard);
                add(block, handler, wildcard, shared);
            }
        }
    }

    private static boolean samePort(ListenOpt a, ListenOpt b) {
        if (a.sockaddr.isUnix() || b.sockaddr.isUnix()) {
            return a == b;
        }
        return a.udp == b.udp && a.sockaddr.family() == b.sockaddr.family() && a.sockaddr.port() == b.sockaddr.port();
    }

    private static void add(StreamBlock block, SessionHandler handler, ListenOpt o, List<ListenOpt> served) {
        Listening ls = new Listening(o.sockaddr);
        ls.backlog = o.backlog;
        ls.rcvbuf = o.rcvbuf;
        ls.sndbuf = o.sndbuf;
        ls.keepalive = o.soKeepalive == 0 ? -1 : o.soKeepalive == 1 ? 1 : 0;
        ls.ipv6only = o.ipv6only;
        ls.reuseport = o.reuseport;
        ls.datagram = o.udp;
        ls.servers = new AddrConfs(List.copyOf(served));
        ls.handler = handler::init;
        block.cycle.addListening(ls);
    }

    /** The addresses a listening socket serves, the wildcard last: nginx's {@code ngx_stream_port_t}. */
    record AddrConfs(List<ListenOpt> addrs) {

        ListenOpt find(SockAddr local) {
            if (addrs.size() == 1 || local == null) {
                return addrs.get(addrs.size() - 1);
            }
            for (int i = 0; i < addrs.size() - 1; i++) {
                if (addrs.get(i).sockaddr.equals(local)) {
                    return addrs.get(i);
                }
            }
            return addrs.get(addrs.size() - 1);
        }
    }
}
