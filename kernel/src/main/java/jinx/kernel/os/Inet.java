package jinx.kernel.os;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Socket addresses as text, nginx's {@code src/core/ngx_inet.c}: {@code ngx_parse_url} for the forms
 * {@code listen} takes (numeric only; {@link #resolve} looks names up at configuration time) and
 * {@code ngx_sock_ntop}/{@code ngx_inet6_ntop} for printing. Used through {@link SockAddr}.
 */
final class Inet {

    private Inet() {
    }

    /** See {@link SockAddr#parse(String, int)}. */
    static SockAddr parse(String text, int defaultPort) {
        if (text.regionMatches(true, 0, "unix:", 0, 5)) {
            return SockAddr.unix(text.substring(5));
        }
        if (text.startsWith("[")) {
            return parseInet6(text, defaultPort);
        }
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? text : text.substring(0, colon);
        int port = colon < 0 ? defaultPort : parsePort(text.substring(colon + 1));
        if (colon < 0 && isDigits(text)) {
            host = "*";
            port = parsePort(text);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("no host");
        }
        if (host.equals("*")) {
            return SockAddr.of(Platform.AF_INET, new byte[4], port, 0);
        }
        byte[] a = parseInet4(host);
        if (a == null) {
            throw new IllegalArgumentException(isHostName(host) ? "not a numeric address" : "invalid host");
        }
        return SockAddr.of(Platform.AF_INET, a, port, 0);
    }

    /** See {@link SockAddr#resolve(String, int)}. */
    static List<SockAddr> resolve(String text, int defaultPort) {
        try {
            return List.of(parse(text, defaultPort));
        } catch (IllegalArgumentException e) {
            if (!"not a numeric address".equals(e.getMessage())) {
                throw e;
            }
        }
        int colon = text.lastIndexOf(':');
        int port = colon < 0 ? defaultPort : parsePort(text.substring(colon + 1));
        List<SockAddr> all = new ArrayList<>();
        try {
            for (InetAddress a : InetAddress.getAllByName(colon < 0 ? text : text.substring(0, colon))) {
                all.add(SockAddr.inet(a, port));
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host not found", e);
        }
        return List.copyOf(all);
    }

    private static SockAddr parseInet6(String text, int defaultPort) {
        int close = text.indexOf(']');
        if (close < 0) {
            throw new IllegalArgumentException("invalid host");
        }
        int port = defaultPort;
        if (close + 1 < text.length()) {
            if (text.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("invalid host");
            }
            port = parsePort(text.substring(close + 2));
        }
        String host = text.substring(1, close);
        if (host.isEmpty()) {
            throw new IllegalArgumentException("no host");
        }
        // Only hex digits, colons, dots and a %scope: InetAddress then parses a literal and never looks it up.
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '%') {
                break;
            }
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
                throw new IllegalArgumentException("invalid IPv6 address");
            }
        }
        try {
            InetAddress a = InetAddress.getByName("[" + host + "]");
            if (a instanceof Inet4Address) {
                // "::ffff:1.2.3.4" comes back as IPv4; nginx keeps it IPv6.
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(a.getAddress(), 0, mapped, 12, 4);
                return SockAddr.of(Platform.AF_INET6, mapped, port, 0);
            }
            return SockAddr.inet(a, port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("invalid IPv6 address", e);
        }
    }

    private static byte[] parseInet4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] a = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 3 || !isDigits(parts[i])) {
                return null;
            }
            int v = Integer.parseInt(parts[i]);
            if (v > 255) {
                return null;
            }
            a[i] = (byte) v;
        }
        return a;
    }

    private static boolean isHostName(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '.')) {
                return false;
            }
        }
        return !isDigits(host.replace(".", ""));
    }

    private static int parsePort(String text) {
        if (text.isEmpty() || text.length() > 5 || !isDigits(text)) {
            throw new IllegalArgumentException("invalid port");
        }
        int port = Integer.parseInt(text);
        if (port > 65535) {
            throw new IllegalArgumentException("invalid port");
        }
        return port;
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    static String inet4Text(byte[] a, int from) {
        return (a[from] & 0xff) + "." + (a[from + 1] & 0xff) + "." + (a[from + 2] & 0xff) + "." + (a[from + 3] & 0xff);
    }

    /** nginx's {@code ngx_inet6_ntop}: the longest run of two or more zero groups is "::", IPv4-mapped as dots. */
    static String inet6Text(byte[] p) {
        int zero = -1;
        int last = -1;
        int max = 1;
        int n = 0;
        for (int i = 0; i < 16; i += 2) {
            if (p[i] != 0 || p[i + 1] != 0) {
                if (max < n) {
                    zero = last;
                    max = n;
                }
                n = 0;
                continue;
            }
            if (n++ == 0) {
                last = i;
            }
        }
        if (max < n) {
            zero = last;
            max = n;
        }
        StringBuilder sb = new StringBuilder(46);
        int end = 16;
        if (zero == 0) {
            if ((max == 5 && p[10] == (byte) 0xff && p[11] == (byte) 0xff) || max == 6
                || (max == 7 && p[14] != 0 && p[15] != 1)) {
                end = 12;
            }
            sb.append(':');
        }
        for (int i = 0; i < end; i += 2) {
            if (i == zero) {
                sb.append(':');
                i += (max - 1) * 2;
                continue;
            }
            sb.append(Integer.toHexString((p[i] & 0xff) << 8 | p[i + 1] & 0xff));
            if (i < 14) {
                sb.append(':');
            }
        }
        if (end == 12) {
            sb.append(inet4Text(p, 12));
        }
        return sb.toString();
    }
}
