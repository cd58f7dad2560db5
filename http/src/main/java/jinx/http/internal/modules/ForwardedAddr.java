package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;

/**
 * nginx's {@code ngx_http_get_forwarded_addr()} (in {@code ngx_http_core_module.c}), which {@code realip} and
 * {@code geo ... proxy} use: while the address in hand is a trusted proxy's, take the last address of
 * {@code X-Forwarded-For} (or of another header), once, or with {@code recursive} until an untrusted one; several
 * {@code X-Forwarded-For} lines are read from the last.
 */
final class ForwardedAddr {

    /** No trusted proxy: the address is unchanged. */
    static final int DECLINED = 0;
    /** The list was followed to its start (or once, without recursion). */
    static final int OK = 1;
    /** An untrusted address stopped the recursion. */
    static final int DONE = 2;

    /** The address found (4 or 16 bytes), its port (0 for none), and how it was found. */
    byte[] addr;
    int port;

    ForwardedAddr(byte[] addr, int port) {
        this.addr = addr;
        this.port = port;
    }

    /**
     * Follows the {@code X-Forwarded-For} lines of a request.
     *
     * @param r the request
     * @param proxies the trusted networks
     * @param recursive {@code real_ip_recursive} / {@code proxy_recursive}
     * @return {@link #DECLINED}, {@link #OK} or {@link #DONE}
     */
    int fromXForwardedFor(HttpRequest r, List<Cidr> proxies, boolean recursive) {
        List<String> values = new ArrayList<>();
        for (HttpHeaders.Entry e : r.headersIn.headers.entries()) {
            if (!e.removed && e.lowcaseName.equals("x-forwarded-for")) {
                values.add(e.value);
            }
        }
        int rc = DECLINED;
        boolean found = false;
        for (int i = values.size() - 1; i >= 0; i--) {
            rc = fromValue(values.get(i), proxies, recursive);
            if (!recursive) {
                break;
            }
            if (rc == DECLINED && found) {
                rc = DONE;
                break;
            }
            if (rc != OK) {
                break;
            }
            found = true;
        }
        return rc;
    }

    /**
     * Follows one header value: nginx's {@code ngx_http_get_forwarded_addr_internal()}.
     *
     * @param xff the value, a list of addresses separated by commas and spaces
     * @param proxies the trusted networks
     * @param recursive go on while the address found is trusted
     * @return {@link #DECLINED}, {@link #OK} or {@link #DONE}
     */
    int fromValue(String xff, List<Cidr> proxies, boolean recursive) {
        boolean found = false;
        int len = xff.length();
        int p;
        do {
            if (!trusted(addr, proxies)) {
                return found ? DONE : DECLINED;
            }
            for (p = len - 1; p > 0; p--, len--) {
                char c = xff.charAt(p);
                if (c != ' ' && c != ',') {
                    break;
                }
            }
            for (; p > 0; p--) {
                char c = xff.charAt(p);
                if (c == ' ' || c == ',') {
                    p++;
                    break;
                }
            }
            if (p < 0 || !parseAddrPort(xff.substring(p, Math.max(p, len)))) {
                return found ? DONE : DECLINED;
            }
            found = true;
            len = p - 1;
        } while (recursive && p > 0);
        return OK;
    }

    /** nginx's {@code ngx_cidr_match()}. */
    static boolean trusted(byte[] addr, List<Cidr> proxies) {
        if (addr == null) {
            // a UNIX-domain client: trusted when "unix:" is (kept as a null network)
            return proxies.contains(null);
        }
        for (Cidr c : proxies) {
            if (c != null && c.contains(addr)) {
                return true;
            }
        }
        return false;
    }

    /** nginx's {@code ngx_parse_addr_port()}: {@code addr}, {@code addr:port}, {@code [v6]:port}, {@code v6}. */
    private boolean parseAddrPort(String text) {
        String host = text;
        int newPort = 0;
        if (text.startsWith("[")) {
            int end = text.indexOf(']');
            if (end < 0) {
                return false;
            }
            host = text.substring(1, end);
            String rest = text.substring(end + 1);
            if (!rest.isEmpty()) {
                if (rest.charAt(0) != ':' || (newPort = port(rest.substring(1))) < 0) {
                    return false;
                }
            }
        } else {
            int colon = text.lastIndexOf(':');
            if (colon >= 0 && text.indexOf(':') == colon) {
                host = text.substring(0, colon);
                newPort = port(text.substring(colon + 1));
                if (newPort < 0) {
                    return false;
                }
            }
        }
        byte[] a = Cidr.address(host);
        if (a == null) {
            return false;
        }
        addr = a;
        port = newPort;
        return true;
    }

    private static int port(String s) {
        int n = Cidr.atoi(s);
        return n < 1 || n > 65535 ? -1 : n;
    }
}
