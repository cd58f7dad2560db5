package jinx.http.internal.core;

import jinx.kernel.Rc;
import jinx.kernel.os.SockAddr;

/**
 * Chooses the server of a request at run time: nginx's address choice of {@code ngx_http_init_connection()} and
 * {@code ngx_http_find_virtual_server()} with {@code ngx_hash_find_combined()}. Among the servers of the
 * connection's address: the exact name, then the longest leading wildcard ({@code *.example.com},
 * {@code .example.com}), then the longest trailing wildcard ({@code www.example.*}), then the regexes in the order
 * written (their captures go to the request); else the address's default server.
 *
 * <p>The host is the one the request parser validated: lower case, without port and trailing dot (nginx's
 * {@code ngx_http_validate_host()}). Lookups allocate nothing.
 */
public final class Servers {

    private Servers() {
    }

    /**
     * Chooses the address of a connection among those its listening socket serves.
     *
     * @param ls the listening socket's servers ({@code c.listening.servers})
     * @param local the connection's local address; may be null when {@link ListeningServers#needsLocalAddress()}
     *     is false
     * @return the address's configuration
     */
    public static AddrConf addr(ListeningServers ls, SockAddr local) {
        AddrConf[] addrs = ls.array();
        int last = addrs.length - 1;
        if (last == 0 || local == null) {
            return addrs[last];
        }
        for (int i = 0; i < last; i++) {
            if (addrs[i].addr().equals(local)) {
                return addrs[i];
            }
        }
        return addrs[last];
    }

    /**
     * Chooses the server of a request.
     *
     * @param ls the listening socket's servers
     * @param local the connection's local address (see {@link #addr})
     * @param host the validated host, or null (or empty) when the request has none: the server named {@code ""}
     *     then, if any
     * @param captures receives the groups of a regex name that matched, or null
     * @return the server, or null when a regex match was abandoned (answer 500; see {@link HttpRegex})
     */
    public static HttpCoreSrvConf find(ListeningServers ls, SockAddr local, CharSequence host, Captures captures) {
        return find(addr(ls, local), host, captures);
    }

    /**
     * Chooses the server of a request among those of an address.
     *
     * @param addr the connection's address
     * @param host the validated host, or null
     * @param captures receives the groups of a regex name that matched, or null
     * @return the server, or null when a regex match was abandoned
     */
    public static HttpCoreSrvConf find(AddrConf addr, CharSequence host, Captures captures) {
        VirtualNames vn = addr.virtualNames();
        if (vn == null) {
            return addr.defaultServer();
        }
        CharSequence h = host == null ? "" : host;
        HttpCoreSrvConf found = findName(vn, h);
        if (found != null) {
            return found;
        }
        if (h.length() > 0) {
            for (ServerName sn : vn.regex) {
                int rc = sn.regex().exec(h, captures);
                if (rc == Rc.DECLINED) {
                    continue;
                }
                return rc == Rc.OK ? sn.server() : null;
            }
        }
        return addr.defaultServer();
    }

    /** nginx's {@code ngx_hash_find_combined()}: exact, leading wildcard, trailing wildcard. */
    private static HttpCoreSrvConf findName(VirtualNames vn, CharSequence h) {
        int len = h.length();
        HttpCoreSrvConf s = vn.exact.get(h, 0, len);
        if (s != null) {
            return s;
        }
        if (vn.head != null) {
            // the longest suffix first: ".b.example.com" before ".example.com"
            for (int p = 1; p < len; p++) {
                if (h.charAt(p) == '.') {
                    s = vn.head.get(h, p, len);
                    if (s != null) {
                        return s;
                    }
                }
            }
        }
        if (vn.tail != null) {
            // the longest prefix first: "www.example." before "www."
            for (int p = len - 1; p > 0; p--) {
                if (h.charAt(p) == '.') {
                    s = vn.tail.get(h, 0, p + 1);
                    if (s != null) {
                        return s;
                    }
                }
            }
        }
        return null;
    }
}
