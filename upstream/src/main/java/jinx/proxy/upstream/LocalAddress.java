package jinx.proxy.upstream;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Pattern;

import jinx.kernel.ConfException;

/**
 * The local address of {@code proxy_bind} (HTTP and stream): nginx's {@code ngx_parse_addr_port()}, a literal IPv4
 * address or an IPv6 one (in brackets when a port follows), with an optional port. No name is ever looked up, so
 * it may run on the event loop for a value made from variables.
 */
public final class LocalAddress {

    private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.%\\[\\]]+");

    private LocalAddress() {
    }

    /**
     * Parses an address.
     *
     * @param text the address as written
     * @return the address (port 0 when none was given), or null when it is no literal address
     */
    public static InetSocketAddress parse(String text) {
        if (!LITERAL.matcher(text).matches()) {
            return null;
        }
        String host = text;
        int port = 0;
        int bracket = text.lastIndexOf(']');
        int colon = text.lastIndexOf(':');
        if (text.startsWith("[")) {
            if (bracket < 0) {
                return null;
            }
            host = text.substring(1, bracket);
            if (bracket + 1 < text.length()) {
                if (text.charAt(bracket + 1) != ':') {
                    return null;
                }
                port = port(text.substring(bracket + 2));
            }
        } else if (colon >= 0 && text.indexOf(':') == colon) {
            host = text.substring(0, colon);
            port = port(text.substring(colon + 1));
        } else if (colon < 0 && text.chars().filter(ch -> ch == '.').count() != 3) {
            return null;
        }
        if (port < 0 || host.isEmpty()) {
            return null;
        }
        try {
            // a literal only (the pattern allows no name), so no lookup happens
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * Checks the arguments of a {@code proxy_bind} directive (nginx's {@code ngx_http_upstream_bind_set_slot()} and
     * {@code ngx_stream_proxy_bind()}): {@code off}, or an address (a literal, or a value with variables checked per
     * request) and {@code transparent}.
     *
     * @param args the directive's arguments, its name first
     * @return whether {@code transparent} was given, or null for {@code off}
     * @throws ConfException {@code invalid parameter "x"}, {@code invalid address "x"}
     */
    public static Boolean checkBind(List<String> args) throws ConfException {
        String v = args.get(1);
        if (v.equals("off")) {
            return null;
        }
        boolean transparent = false;
        if (args.size() == 3) {
            if (!args.get(2).equals("transparent")) {
                throw new ConfException("invalid parameter \"" + args.get(2) + "\"");
            }
            transparent = true;
        }
        if (v.indexOf('$') < 0 && parse(v) == null) {
            throw new ConfException("invalid address \"" + v + "\"");
        }
        return transparent;
    }

    private static int port(String p) {
        try {
            int n = Integer.parseInt(p);
            return n < 1 || n > 65535 ? -1 : n;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
