package jinx.kernel.os;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A socket address: IPv4, IPv6 (with its scope id) or unix-domain. Immutable; equal when family, address, port,
 * scope id and path are. Parsed from text as nginx's {@code listen} directive writes addresses, printed as nginx
 * prints them ({@code ngx_sock_ntop}), and encoded to or decoded from a native {@code struct sockaddr} whose
 * layout the platform probe reports:
 *
 * <pre>
 * struct sockaddr_in  { sa_family_t sin_family; in_port_t sin_port; struct in_addr sin_addr; ... };
 * struct sockaddr_in6 { sa_family_t sin6_family; in_port_t sin6_port; uint32_t sin6_flowinfo;
 *                       struct in6_addr sin6_addr; uint32_t sin6_scope_id; };
 * struct sockaddr_un  { sa_family_t sun_family; char sun_path[108]; };
 * </pre>
 *
 * <p>Unix paths are byte strings, one char per byte (ISO-8859-1), as the configuration tokenizer produces them.
 * Parsing never looks a name up: {@link #parse(String, int)} takes numeric addresses only, and
 * {@link #resolve(String, int)} (configuration time only) resolves host names.
 */
public final class SockAddr {

    private static final int SIZEOF_SA_FAMILY_T = Platform.probe("SIZEOF_SA_FAMILY_T");
    private static final int SIZEOF_SOCKADDR_IN = Platform.probe("SIZEOF_SOCKADDR_IN");
    private static final int SIN_FAMILY = Platform.probe("OFFSETOF_SIN_FAMILY");
    private static final int SIN_PORT = Platform.probe("OFFSETOF_SIN_PORT");
    private static final int SIN_ADDR = Platform.probe("OFFSETOF_SIN_ADDR");
    private static final int SIZEOF_SOCKADDR_IN6 = Platform.probe("SIZEOF_SOCKADDR_IN6");
    private static final int SIN6_PORT = Platform.probe("OFFSETOF_SIN6_PORT");
    private static final int SIN6_ADDR = Platform.probe("OFFSETOF_SIN6_ADDR");
    private static final int SIN6_SCOPE_ID = Platform.probe("OFFSETOF_SIN6_SCOPE_ID");
    private static final int SIZEOF_SOCKADDR_UN = Platform.probe("SIZEOF_SOCKADDR_UN");
    private static final int SUN_PATH = Platform.probe("OFFSETOF_SUN_PATH");
    private static final int SIZEOF_SUN_PATH = Platform.probe("SIZEOF_SUN_PATH");

    private final int family;
    private final byte[] addr;
    private final int port;
    private final int scopeId;
    private final String path;

    private SockAddr(int family, byte[] addr, int port, int scopeId, String path) {
        this.family = family;
        this.addr = addr;
        this.port = port;
        this.scopeId = scopeId;
        this.path = path;
    }

    /** An IP address from its bytes (4 or 16), for {@link Inet}. */
    static SockAddr of(int family, byte[] addr, int port, int scopeId) {
        return new SockAddr(family, addr, checkPort(port), scopeId, null);
    }

    /**
     * An IP address and port.
     *
     * @param address an IPv4 or IPv6 address (an IPv6 one keeps its scope id)
     * @param port 0 to 65535
     * @return the address
     */
    public static SockAddr inet(InetAddress address, int port) {
        checkPort(port);
        if (address instanceof Inet6Address a6) {
            return new SockAddr(Platform.AF_INET6, a6.getAddress(), port, a6.getScopeId(), null);
        }
        return new SockAddr(Platform.AF_INET, address.getAddress(), port, 0, null);
    }

    /**
     * A unix-domain socket path.
     *
     * @param path the path, one char per byte
     * @return the address
     * @throws IllegalArgumentException {@code no path in the unix domain socket}, {@code too long path in the unix
     *     domain socket}
     */
    public static SockAddr unix(String path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("no path in the unix domain socket");
        }
        if (path.length() >= SIZEOF_SUN_PATH) {
            throw new IllegalArgumentException("too long path in the unix domain socket");
        }
        return new SockAddr(Platform.AF_UNIX, null, 0, 0, path);
    }

    /**
     * Parses an address as nginx's {@code listen} writes it, numeric only: {@code 127.0.0.1:8080}, {@code 8080},
     * {@code *:8080}, {@code 127.0.0.1} (default port), {@code [::1]:8080}, {@code [fe80::1%2]:80},
     * {@code unix:/path}. Unlike nginx, port 0 is allowed (the kernel picks one: tests use it).
     *
     * @param text the address
     * @param defaultPort the port when none is given (nginx's {@code listen}: 80)
     * @return the address
     * @throws IllegalArgumentException with nginx's {@code ngx_parse_url} error ({@code invalid port},
     *     {@code invalid host}, {@code no host}, {@code invalid IPv6 address}, {@code not a numeric address} for
     *     a host name); the caller adds {@code in "x" of the "listen" directive}
     */
    public static SockAddr parse(String text, int defaultPort) {
        return Inet.parse(text, defaultPort);
    }

    /**
     * Parses an address with nginx's {@code listen} default port, 80.
     *
     * @param text the address
     * @return the address
     * @throws IllegalArgumentException as {@link #parse(String, int)}
     */
    public static SockAddr parse(String text) {
        return parse(text, 80);
    }

    /**
     * Parses an address that may name a host ({@code localhost:8080}), resolving it: configuration time only,
     * never on the event loop.
     *
     * @param text the address
     * @param defaultPort the port when none is given
     * @return every address the host has (one for a numeric address)
     * @throws IllegalArgumentException as {@link #parse(String, int)}, or {@code host not found}
     */
    public static List<SockAddr> resolve(String text, int defaultPort) {
        return Inet.resolve(text, defaultPort);
    }

    /**
     * Decodes a native {@code struct sockaddr} ({@code accept4()}, {@code getsockname()} ...).
     *
     * @param address where it is
     * @param length its length ({@code socklen_t} the call returned)
     * @return the address
     * @throws IllegalArgumentException for a family other than AF_INET, AF_INET6, AF_UNIX
     */
    public static SockAddr decode(long address, int length) {
        int family = (int) NativeMemory.getUnsigned(address + SIN_FAMILY, SIZEOF_SA_FAMILY_T);
        if (family == Platform.AF_INET) {
            byte[] a = new byte[4];
            NativeMemory.get(address + SIN_ADDR, a, 0, 4);
            return new SockAddr(family, a, getPort(address + SIN_PORT), 0, null);
        }
        if (family == Platform.AF_INET6) {
            byte[] a = new byte[16];
            NativeMemory.get(address + SIN6_ADDR, a, 0, 16);
            return new SockAddr(family, a, getPort(address + SIN6_PORT),
                                NativeMemory.getInt(address + SIN6_SCOPE_ID), null);
        }
        if (family == Platform.AF_UNIX) {
            // An unnamed socket (a client, a socketpair) has no path: nginx prints "unix:".
            int max = Math.max(0, Math.min(length, SIZEOF_SOCKADDR_UN) - SUN_PATH);
            byte[] p = new byte[max];
            NativeMemory.get(address + SUN_PATH, p, 0, max);
            int n = 0;
            while (n < max && p[n] != 0) {
                n++;
            }
            return new SockAddr(family, null, 0, 0, new String(p, 0, n, StandardCharsets.ISO_8859_1));
        }
        throw new IllegalArgumentException("unsupported address family " + family);
    }

    /**
     * Writes this address as a native {@code struct sockaddr}.
     *
     * @param address where, at least {@link #length()} bytes
     * @return the length to pass as {@code socklen_t}
     */
    public int encode(long address) {
        int len = length();
        NativeMemory.fill(address, len, (byte) 0);
        NativeMemory.putUnsigned(address + SIN_FAMILY, SIZEOF_SA_FAMILY_T, family);
        if (family == Platform.AF_INET) {
            putPort(address + SIN_PORT, port);
            NativeMemory.put(address + SIN_ADDR, addr, 0, 4);
        } else if (family == Platform.AF_INET6) {
            putPort(address + SIN6_PORT, port);
            NativeMemory.put(address + SIN6_ADDR, addr, 0, 16);
            NativeMemory.putInt(address + SIN6_SCOPE_ID, scopeId);
        } else {
            byte[] p = path.getBytes(StandardCharsets.ISO_8859_1);
            NativeMemory.put(address + SUN_PATH, p, 0, p.length);
        }
        return len;
    }

    /**
     * Returns the length of the native form: {@code sizeof(struct sockaddr_in)}, {@code _in6} or {@code _un}.
     *
     * @return bytes
     */
    public int length() {
        if (family == Platform.AF_INET) {
            return SIZEOF_SOCKADDR_IN;
        }
        return family == Platform.AF_INET6 ? SIZEOF_SOCKADDR_IN6 : SIZEOF_SOCKADDR_UN;
    }

    /**
     * Returns the address family.
     *
     * @return {@link Platform#AF_INET}, {@link Platform#AF_INET6} or {@link Platform#AF_UNIX}
     */
    public int family() {
        return family;
    }

    /**
     * Returns whether this is a unix-domain address.
     *
     * @return whether AF_UNIX
     */
    public boolean isUnix() {
        return family == Platform.AF_UNIX;
    }

    /**
     * Returns the port (0 for a unix-domain address).
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Returns the IPv6 scope id (0 otherwise).
     *
     * @return the scope id
     */
    public int scopeId() {
        return scopeId;
    }

    /**
     * Returns the unix-domain path ({@code ""} for an unnamed socket), or null for an IP address.
     *
     * @return the path
     */
    public String path() {
        return path;
    }

    /**
     * Returns the IP address, built without any lookup; null for a unix-domain address.
     *
     * @return the address
     */
    public InetAddress inetAddress() {
        try {
            if (family == Platform.AF_INET6) {
                return Inet6Address.getByAddress(null, addr, scopeId);
            }
            return addr == null ? null : InetAddress.getByAddress(addr);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Returns whether the IP address is the wildcard ({@code 0.0.0.0}, {@code ::}).
     *
     * @return whether INADDR_ANY or IN6ADDR_ANY
     */
    public boolean isWildcard() {
        if (addr == null) {
            return false;
        }
        for (byte b : addr) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns the same IP address with another port.
     *
     * @param newPort the port
     * @return the address
     */
    public SockAddr withPort(int newPort) {
        checkPort(newPort);
        if (addr == null) {
            throw new IllegalStateException("a unix domain socket has no port");
        }
        return new SockAddr(family, addr, newPort, scopeId, null);
    }

    /**
     * Prints an address without a port as nginx does ({@code ngx_inet_ntop()}): {@code 192.0.2.1},
     * {@code 2001:db8::1}, {@code ::ffff:192.0.2.1}.
     *
     * @param addr 4 bytes (IPv4) or 16 (IPv6), in network order
     * @return the text
     */
    public static String addressText(byte[] addr) {
        return addr.length == 4 ? Inet.inet4Text(addr, 0) : Inet.inet6Text(addr);
    }

    /**
     * Prints the address as nginx does: {@code 127.0.0.1:8080}, {@code [::1]:8080}, {@code unix:/tmp/x.sock}.
     *
     * @return the text
     */
    @Override
    public String toString() {
        if (family == Platform.AF_UNIX) {
            return "unix:" + path;
        }
        if (family == Platform.AF_INET) {
            return Inet.inet4Text(addr, 0) + ":" + port;
        }
        return "[" + Inet.inet6Text(addr) + "]:" + port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SockAddr s && family == s.family && port == s.port && scopeId == s.scopeId
               && Arrays.equals(addr, s.addr) && (path == null ? s.path == null : path.equals(s.path));
    }

    @Override
    public int hashCode() {
        return (family * 31 + port) * 31 + Arrays.hashCode(addr) + (path == null ? 0 : path.hashCode());
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("invalid port");
        }
        return port;
    }

    /**
     * An accepted peer's address kept as numbers, so that accepting makes no object: its text is made when first
     * asked for ({@link #text()}). An instance is meant to be owned by a connection slot and filled again for every
     * connection it holds.
     */
    public static final class Peer {
        private int family;
        private long high;
        private long low;
        private int port;
        private int scopeId;
        private String text;

        /**
         * Reads a native {@code struct sockaddr}: an inet one into numbers, any other (a UNIX-domain peer) into its
         * text at once.
         *
         * @param address the sockaddr
         * @param length its length as the kernel gave it
         */
        public void read(long address, int length) {
            int f = (int) NativeMemory.getUnsigned(address + SIN_FAMILY, SIZEOF_SA_FAMILY_T);
            text = null;
            if (f == Platform.AF_INET) {
                family = f;
                low = NativeMemory.getInt(address + SIN_ADDR) & 0xffffffffL;
                port = SockAddr.getPort(address + SIN_PORT);
            } else if (f == Platform.AF_INET6) {
                family = f;
                high = NativeMemory.getLong(address + SIN6_ADDR);
                low = NativeMemory.getLong(address + SIN6_ADDR + 8);
                port = SockAddr.getPort(address + SIN6_PORT);
                scopeId = NativeMemory.getInt(address + SIN6_SCOPE_ID);
            } else {
                family = 0;
                text = decode(address, length).toString();
            }
        }

        /**
         * Sets the text directly (a connection without a socket address).
         *
         * @param addrText the text, or null
         */
        public void text(String addrText) {
            family = 0;
            text = addrText;
        }

        /**
         * Returns the address as nginx prints it ({@code 127.0.0.1:50000}, {@code [::1]:50000}, {@code unix:}),
         * made on the first call.
         *
         * @return the text, or null when none was read or set
         */
        public String text() {
            if (text == null && family != 0) {
                ByteBuffer b = ByteBuffer.allocate(family == Platform.AF_INET ? 4 : 16).order(ByteOrder.nativeOrder());
                if (family == Platform.AF_INET) {
                    b.putInt((int) low);
                } else {
                    b.putLong(high).putLong(low);
                }
                text = new SockAddr(family, b.array(), port, family == Platform.AF_INET ? 0 : scopeId, null).toString();
            }
            return text;
        }

        /**
         * Tells whether the peer is a UNIX-domain socket's, without making an inet peer's text.
         *
         * @return true for {@code unix:}
         */
        public boolean isUnix() {
            return family == 0 && text != null && text.startsWith("unix:");
        }
    }

    private static int getPort(long address) {
        return (NativeMemory.getByte(address) & 0xff) << 8 | NativeMemory.getByte(address + 1) & 0xff;
    }

    private static void putPort(long address, int port) {
        NativeMemory.putByte(address, (byte) (port >>> 8));
        NativeMemory.putByte(address + 1, (byte) port);
    }
}
