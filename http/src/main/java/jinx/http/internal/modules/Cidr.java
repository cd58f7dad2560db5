package jinx.http.internal.modules;

import jinx.kernel.os.SockAddr;

/**
 * An address with a mask, nginx's {@code ngx_cidr_t}, parsed as {@code ngx_ptocidr()} parses it ({@code 10.0.0.0/8},
 * {@code 2001:db8::/32}, a bare address), and nginx's address parsers {@code ngx_inet_addr()} and
 * {@code ngx_inet6_addr()}, which {@code allow}, {@code geo} and {@code set_real_ip_from} use. Addresses are byte
 * arrays in network order: 4 bytes for IPv4, 16 for IPv6.
 *
 * @param addr the address, its host bits cleared
 * @param mask the mask, as long as the address
 * @param meaningless the text had host bits set ({@code low address bits of X are meaningless})
 */
record Cidr(byte[] addr, byte[] mask, boolean meaningless) {

    /**
     * Parses {@code address[/bits]}: nginx's {@code ngx_ptocidr()}.
     *
     * @param text the text
     * @return the network, or null when the text is not one
     */
    static Cidr parse(String text) {
        int slash = text.indexOf('/');
        String a = slash < 0 ? text : text.substring(0, slash);
        byte[] addr = inetAddr(a);
        if (addr != null && isAllOnes(addr)) {
            // ngx_inet_addr() answers INADDR_NONE for it: nginx refuses a bare 255.255.255.255 here
            addr = null;
        }
        if (addr == null) {
            addr = inet6Addr(a);
        }
        if (addr == null) {
            return null;
        }
        int bits = addr.length * 8;
        if (slash >= 0) {
            bits = atoi(text.substring(slash + 1));
            if (bits < 0 || bits > addr.length * 8) {
                return null;
            }
        }
        byte[] mask = new byte[addr.length];
        boolean meaningless = false;
        for (int i = 0; i < addr.length; i++) {
            int s = Math.min(8, Math.max(0, bits - i * 8));
            mask[i] = (byte) (0xff00 >> s);
            byte masked = (byte) (addr[i] & mask[i]);
            meaningless |= masked != addr[i];
            addr[i] = masked;
        }
        return new Cidr(addr, mask, meaningless);
    }

    /**
     * Makes the network of every address of a family ({@code 0.0.0.0/0} or {@code ::/0}).
     *
     * @param length 4 or 16
     * @return the network
     */
    static Cidr any(int length) {
        return new Cidr(new byte[length], new byte[length], false);
    }

    /**
     * Tells whether an address is in this network.
     *
     * @param a the address, of any family
     * @return true when it is of this family and in the network
     */
    boolean contains(byte[] a) {
        if (a.length != addr.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if ((a[i] & mask[i]) != addr[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses a client address as {@code $remote_addr} shows it.
     *
     * @param text {@code 127.0.0.1}, {@code ::1}, {@code unix:}
     * @return 4 or 16 bytes, or null (a UNIX-domain socket, or not an address)
     */
    static byte[] address(String text) {
        if (text == null) {
            return null;
        }
        byte[] a = inetAddr(text);
        return a != null ? a : inet6Addr(text);
    }

    /**
     * Tells whether an IPv6 address is IPv4-mapped ({@code ::ffff:a.b.c.d}).
     *
     * @param a 16 bytes
     * @return true when mapped
     */
    static boolean v4Mapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    /**
     * Returns the IPv4 address inside an IPv4-mapped one.
     *
     * @param a 16 bytes
     * @return 4 bytes
     */
    static byte[] unmap(byte[] a) {
        return new byte[] {a[12], a[13], a[14], a[15]};
    }

    private static boolean isAllOnes(byte[] a) {
        for (byte b : a) {
            if (b != (byte) 0xff) {
                return false;
            }
        }
        return true;
    }

    /** nginx's {@code ngx_atoi()}: digits only, -1 otherwise. */
    static int atoi(String s) {
        if (s.isEmpty() || s.length() > 9) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /**
     * nginx's {@code ngx_inet_addr()}: four decimal octets (an empty one is 0, as nginx reads it).
     *
     * @param s the text
     * @return 4 bytes, or null
     */
    static byte[] inetAddr(CharSequence s) {
        long addr = 0;
        int octet = 0;
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                octet = octet * 10 + (c - '0');
                if (octet > 255) {
                    return null;
                }
                continue;
            }
            if (c == '.') {
                addr = addr << 8 | octet;
                octet = 0;
                n++;
                continue;
            }
            return null;
        }
        if (n != 3) {
            return null;
        }
        addr = addr << 8 | octet;
        return new byte[] {(byte) (addr >> 24), (byte) (addr >> 16), (byte) (addr >> 8), (byte) addr};
    }

    /**
     * nginx's {@code ngx_inet6_addr()}: eight groups of up to four hex digits, one {@code ::}, an IPv4 address as
     * the last two groups.
     *
     * @param s the text
     * @return 16 bytes, or null
     */
    static byte[] inet6Addr(String s) {
        int len = s.length();
        if (len == 0) {
            return null;
        }
        byte[] out = new byte[16];
        int o = 0;
        int zero = -1;
        int digit = -1;
        int nibbles = 0;
        int word = 0;
        int n = 8;
        int p = 0;
        if (s.charAt(0) == ':') {
            p++;
        }
        for (; p < len; p++) {
            char c = s.charAt(p);
            if (c == ':') {
                if (nibbles != 0) {
                    digit = p + 1;
                    out[o++] = (byte) (word >> 8);
                    out[o++] = (byte) word;
                    if (--n != 0) {
                        nibbles = 0;
                        word = 0;
                        continue;
                    }
                } else if (zero < 0) {
                    digit = p + 1;
                    zero = o;
                    continue;
                }
                return null;
            }
            if (c == '.' && nibbles != 0) {
                if (n < 2 || digit < 0) {
                    return null;
                }
                byte[] v4 = inetAddr(s.substring(digit));
                if (v4 == null) {
                    return null;
                }
                out[o++] = v4[0];
                out[o++] = v4[1];
                word = (v4[2] & 0xff) << 8 | v4[3] & 0xff;
                n--;
                break;
            }
            if (++nibbles > 4) {
                return null;
            }
            int d = Character.digit(c, 16);
            if (d < 0 || c > 'f') {
                return null;
            }
            word = word * 16 + d;
        }
        if (nibbles == 0 && zero < 0) {
            return null;
        }
        out[o++] = (byte) (word >> 8);
        out[o++] = (byte) word;
        if (--n != 0) {
            if (zero < 0) {
                return null;
            }
            // move what follows "::" to the end, zeros in between
            int tail = o - zero;
            System.arraycopy(out, zero, out, 16 - tail, tail);
            java.util.Arrays.fill(out, zero, 16 - tail, (byte) 0);
            return out;
        }
        return zero < 0 ? out : null;
    }

    /**
     * Formats an address as nginx prints it ({@code ngx_inet_ntop()}).
     *
     * @param a 4 or 16 bytes
     * @return the text
     */
    static String text(byte[] a) {
        return SockAddr.addressText(a);
    }
}
