package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The addresses the {@code listen} directives name on one port of one address family, while the configuration
 * is read: nginx's {@code ngx_http_conf_port_t}. Unix-domain addresses share the "port" 0 of their family.
 */
final class ConfPort {

    /** One address of the port: nginx's {@code ngx_http_conf_addr_t}. */
    static final class Addr {
        /** The options of the address: the first directive's, or the one that set options. */
        ListenOpt opt;
        /** The {@code default_server}, else the first server listening on the address. */
        HttpCoreSrvConf defaultServer;
        /** The servers listening on the address, in order. */
        final List<HttpCoreSrvConf> servers = new ArrayList<>();
        /** The names, once built. */
        VirtualNames virtualNames;

        Addr(ListenOpt opt, HttpCoreSrvConf server) {
            this.opt = opt;
            this.defaultServer = server;
        }
    }

    final int family;
    final int port;
    final List<Addr> addrs = new ArrayList<>();

    ConfPort(int family, int port) {
        this.family = family;
        this.port = port;
    }
}
