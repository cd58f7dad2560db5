package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ConfContext;

/**
 * The addresses the servers listen on: nginx's {@code ngx_http_add_listen()}, {@code ngx_http_add_addresses()},
 * {@code ngx_http_add_address()}, {@code ngx_http_add_server()} while the configuration is read, then
 * {@code ngx_http_optimize_servers()}, {@code ngx_http_server_names()}, {@code ngx_http_init_listening()} and
 * {@code ngx_http_add_listening()} once the {@code http {}} block is parsed.
 */
final class Listens {

    private Listens() {
    }

    /**
     * Adds a server's address to the port list (nginx's {@code ngx_http_add_listen()}).
     *
     * @param cmcf the block's main conf
     * @param cscf the server
     * @param opt the address and its options
     * @throws ConfException {@code a duplicate listen x}, {@code duplicate listen options for x},
     *     {@code a duplicate default server for x}
     */
    static void add(HttpCoreMainConf cmcf, HttpCoreSrvConf cscf, ListenOpt opt) throws ConfException {
        cscf.listens.add(opt);
        int family = opt.sockaddr.family();
        int p = opt.sockaddr.port();
        for (ConfPort port : cmcf.ports) {
            if (port.port == p && port.family == family) {
                addAddresses(cscf, port, opt);
                return;
            }
        }
        ConfPort port = new ConfPort(family, p);
        cmcf.ports.add(port);
        addAddress(cscf, port, opt);
    }

    private static void addAddresses(HttpCoreSrvConf cscf, ConfPort port, ListenOpt opt) throws ConfException {
        for (ConfPort.Addr addr : port.addrs) {
            if (!addr.opt.sockaddr.equals(opt.sockaddr)) {
                continue;
            }
            // the address is already in the address list
            addServer(cscf, addr);
            // preserve the default_server bit while the options are overwritten
            boolean defaultServer = addr.opt.defaultServer;
            boolean proxyProtocol = opt.proxyProtocol || addr.opt.proxyProtocol;
            // ssl on any listen of the address makes the address's connections TLS (nginx)
            jinx.http.spi.ConnectionTakeover takeover = opt.takeover != null ? opt.takeover : addr.opt.takeover;
            if (opt.set) {
                if (addr.opt.set) {
                    throw new ConfException("duplicate listen options for " + addr.opt.addrText);
                }
                addr.opt = opt;
            }
            if (opt.defaultServer) {
                if (defaultServer) {
                    throw new ConfException("a duplicate default server for " + addr.opt.addrText);
                }
                defaultServer = true;
                addr.defaultServer = cscf;
            }
            addr.opt.defaultServer = defaultServer;
            addr.opt.proxyProtocol = proxyProtocol;
            addr.opt.takeover = takeover;
            return;
        }
        addAddress(cscf, port, opt);
    }

    private static void addAddress(HttpCoreSrvConf cscf, ConfPort port, ListenOpt opt) throws ConfException {
        ConfPort.Addr addr = new ConfPort.Addr(opt, cscf);
        port.addrs.add(addr);
        addServer(cscf, addr);
    }

    private static void addServer(HttpCoreSrvConf cscf, ConfPort.Addr addr) throws ConfException {
        for (HttpCoreSrvConf s : addr.servers) {
            if (s == cscf) {
                throw new ConfException("a duplicate listen " + addr.opt.addrText);
            }
        }
        addr.servers.add(cscf);
    }

    /**
     * Builds each address's server names and adds the listening sockets (nginx's
     * {@code ngx_http_optimize_servers()}).
     *
     * @param cf the parser, for warnings
     * @param cmcf the block's main conf
     * @throws ConfException {@code invalid server name or wildcard "x" on y}
     */
    static void optimizeServers(ConfContext cf, HttpCoreMainConf cmcf) throws ConfException {
        for (ConfPort port : cmcf.ports) {
            // a wildcard address must be the last resort; explicitly bound addresses first; else as written
            port.addrs.sort((a, b) -> rank(a) - rank(b));
            for (ConfPort.Addr addr : port.addrs) {
                if (addr.opt.takeover != null) {
                    // nginx's ngx_http_ssl_init(): the default server of an ssl address must have a certificate
                    HttpCoreSrvConf d = addr.defaultServer;
                    addr.opt.takeover.checkDefaultServer(d.ctx.srvConf, d.file, d.line);
                }
                if (addr.servers.size() > 1 || addr.defaultServer.captures) {
                    addr.virtualNames = serverNames(cf, addr);
                }
            }
            initListening(cf, cmcf, port);
        }
        cmcf.ports.clear();
    }

    private static int rank(ConfPort.Addr a) {
        if (a.opt.wildcard) {
            return 2;
        }
        return a.opt.bind ? 0 : 1;
    }

    /** nginx's {@code ngx_http_server_names()} with {@code ngx_hash_add_key(..., NGX_HASH_WILDCARD_KEY)}. */
    private static VirtualNames serverNames(ConfContext cf, ConfPort.Addr addr) throws ConfException {
        Map<String, HttpCoreSrvConf> exact = new LinkedHashMap<>();
        Map<String, HttpCoreSrvConf> head = new LinkedHashMap<>();
        Map<String, HttpCoreSrvConf> tail = new LinkedHashMap<>();
        List<ServerName> regex = new ArrayList<>();
        for (HttpCoreSrvConf cscf : addr.servers) {
            for (ServerName sn : cscf.serverNames) {
                if (sn.regex() != null) {
                    regex.add(sn);
                    continue;
                }
                int rc = addName(sn, exact, head, tail);
                if (rc == INVALID) {
                    throw ConfException.at("invalid server name or wildcard \"" + sn.name() + "\" on "
                                           + addr.opt.addrText, sn.file(), sn.line());
                }
                if (rc == BUSY) {
                    cf.cycle().log().warn("conflicting server name \"" + sn.name() + "\" on "
                                          + addr.opt.addrText + ", ignored");
                }
            }
        }
        return new VirtualNames(new NameTable<>(exact), head.isEmpty() ? null : new NameTable<>(head),
            tail.isEmpty() ? null : new NameTable<>(tail), regex);
    }

    private static final int ADDED = 0;
    private static final int BUSY = 1;
    private static final int INVALID = 2;

    /**
     * Adds a name to its table: {@link #ADDED}; {@link #BUSY} when another server has it already (the first
     * server keeps it); {@link #INVALID} for a wildcard nginx does not support.
     */
    private static int addName(ServerName sn, Map<String, HttpCoreSrvConf> exact,
                               Map<String, HttpCoreSrvConf> head, Map<String, HttpCoreSrvConf> tail) {
        String name = sn.name();
        int stars = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '*' && ++stars > 1 || c == '.' && i + 1 < name.length() && name.charAt(i + 1) == '.'
                || c == '\0') {
                return INVALID;
            }
        }
        HttpCoreSrvConf server = sn.server();
        if (name.length() > 1 && name.charAt(0) == '.') {
            // ".example.com" is "example.com" and "*.example.com" at once
            String bare = name.substring(1);
            if (exact.containsKey(bare) || head.containsKey(name)) {
                return BUSY;
            }
            exact.put(bare, server);
            head.put(name, server);
            return ADDED;
        }
        if (name.length() > 2 && name.startsWith("*.")) {
            return head.putIfAbsent(name.substring(1), server) == null ? ADDED : BUSY;
        }
        if (name.length() > 2 && name.endsWith(".*")) {
            return tail.putIfAbsent(name.substring(0, name.length() - 1), server) == null ? ADDED : BUSY;
        }
        if (stars > 0) {
            return INVALID;
        }
        return exact.putIfAbsent(name, server) == null ? ADDED : BUSY;
    }

    /** nginx's {@code ngx_http_init_listening()}: one socket per bound address, the rest through the wildcard. */
    private static void initListening(ConfContext cf, HttpCoreMainConf cmcf, ConfPort port) {
        List<ConfPort.Addr> addrs = port.addrs;
        int last = addrs.size();
        boolean bindWildcard = addrs.get(last - 1).opt.wildcard;
        if (bindWildcard) {
            addrs.get(last - 1).opt.bind = true;
        }
        int from = 0;
        int i = 0;
        while (from + i < last) {
            ConfPort.Addr addr = addrs.get(from + i);
            if (bindWildcard && !addr.opt.bind) {
                i++;
                continue;
            }
            Listening ls = addListening(cmcf, addr);
            List<AddrConf> served = new ArrayList<>();
            for (int k = from; k <= from + i; k++) {
                ConfPort.Addr a = addrs.get(k);
                served.add(new AddrConf(a.opt.sockaddr, a.defaultServer, a.virtualNames, a.opt.proxyProtocol,
                                         a.opt.takeover));
            }
            ls.servers = new ListeningServers(served);
            cf.cycle().addListening(ls);
            cmcf.listening.add(ls);
            from += i + 1;
            i = 0;
        }
    }

    private static Listening addListening(HttpCoreMainConf cmcf, ConfPort.Addr addr) {
        ListenOpt opt = addr.opt;
        Listening ls = new Listening(opt.sockaddr);
        ls.handler = connectionHandler(cmcf);
        ls.backlog = opt.backlog;
        ls.rcvbuf = opt.rcvbuf;
        ls.sndbuf = opt.sndbuf;
        ls.keepalive = opt.soKeepalive == 0 ? -1 : opt.soKeepalive == 1 ? 1 : 0;
        ls.deferredAccept = opt.deferredAccept;
        ls.ipv6only = opt.ipv6only;
        ls.reuseport = opt.reuseport;
        return ls;
    }

    /** Hands a connection to the engine's handler, read at accept time so the engine may set it late. */
    private static Consumer<Connection> connectionHandler(HttpCoreMainConf cmcf) {
        return c -> {
            Consumer<Connection> h = cmcf.connectionHandler;
            if (h != null) {
                h.accept(c);
                return;
            }
            if (c.log != null) {
                c.log.log(LogLevel.ALERT, c.number, "no http connection handler, closing " + c.addrText());
            }
            c.close();
        };
    }
}
