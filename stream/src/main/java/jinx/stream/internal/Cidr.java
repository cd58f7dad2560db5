package jinx.stream.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address with a mask ({@code 192.168.1.0/24}, {@code ::1}, {@code all}): nginx's {@code ngx_cidr_t} as
 * {@code ngx_ptocidr()} parses it.
 */
record Cidr(byte[] addr, byte[] mask, boolean any, boolean unix) {

    /** The result of {@link #parse}: the value, and whether low address bits were set (nginx's {@code NGX_DONE}). */
    record Parsed(Cidr cidr, boolean lowBits) {
    }

    /**
     * Parses {@code all}, {@code unix:}, an IPv4 or IPv6 address with an optional {@code /bits}.
     *
     * @return the value, or null when invalid
     */
    static Parsed parse(String text) {
        if (text.equals("all")) {
            return new Parsed(new Cidr(null, null, true, false), false);
        }
        if (text.equals("unix:")) {
            return new Parsed(new Cidr(null, null, false, true), false);
        }
        int slash = text.indexOf('/');
        String a = slash < 0 ? text : text.substring(0, slash);
        byte[] addr = numeric(a);
        if (addr == null) {
            return null;
        }
        int bits = addr.length * 8;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                return null;
            }
            if (bits < 0 || bits > addr.length * 8) {
                return null;
            }
        }
        byte[] mask = new byte[addr.length];
        for (int i = 0; i < bits; i++) {
            mask[i / 8] |= (byte) (0x80 >>> (i % 8));
        }
        boolean low = false;
        for (int i = 0; i < addr.length; i++) {
            if ((addr[i] & ~mask[i]) != 0) {
                low = true;
                addr[i] &= mask[i];
            }
        }
        return new Parsed(new Cidr(addr, mask, false, false), low);
    }

    /** An IPv4 address in dotted quad or an IPv6 address, as nginx's {@code ngx_parse_addr()}; else null. */
    static byte[] numeric(String a) {
        if (a.indexOf(':') >= 0) {
            if (!a.matches("[0-9A-Fa-f:.]+")) {
                return null;
            }
        } else if (!a.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return null;
        }
        try {
            return InetAddress.getByName(a).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether an address (4 or 16 bytes, or null for a UNIX-domain client) is inside. */
    boolean matches(byte[] client) {
        if (any) {
            return true;
        }
        if (unix || client == null) {
            return unix && client == null;
        }
        if (client.length != addr.length) {
            return false;
        }
        for (int i = 0; i < addr.length; i++) {
            if ((client[i] & mask[i]) != addr[i]) {
                return false;
            }
        }
        return true;
    }
}
