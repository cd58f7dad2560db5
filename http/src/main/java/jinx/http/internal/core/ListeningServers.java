package jinx.http.internal.core;

import java.util.List;

/**
 * What a listening socket serves, hung on {@link jinx.kernel.Listening#servers}: nginx's {@code ngx_http_port_t}.
 * A socket bound to one address has one {@link AddrConf}; a wildcard socket ({@code *:80}) also serves the
 * addresses of the same port that have no socket of their own ({@code listen 127.0.0.1:80} without {@code bind}),
 * listed first, the wildcard last: the connection's local address chooses among them ({@link Servers#addr}).
 */
public final class ListeningServers {

    private final AddrConf[] addrs;

    ListeningServers(List<AddrConf> addrs) {
        this.addrs = addrs.toArray(new AddrConf[0]);
    }

    /**
     * Returns the addresses, the socket's own address last.
     *
     * @return the addresses
     */
    public List<AddrConf> addrs() {
        return List.of(addrs);
    }

    /**
     * Tells whether the engine must learn a connection's local address ({@code getsockname()}) to choose its
     * {@link AddrConf}, as nginx's {@code ngx_http_init_connection()} does when {@code port->naddrs > 1}.
     *
     * @return true when the socket serves more than one address
     */
    public boolean needsLocalAddress() {
        return addrs.length > 1;
    }

    AddrConf[] array() {
        return addrs;
    }
}
