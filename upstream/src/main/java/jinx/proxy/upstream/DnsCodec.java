package jinx.proxy.upstream;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The DNS wire format as nginx's resolver writes and reads it (src/core/ngx_resolver.c): a recursive query of one
 * question ({@code ngx_resolver_create_name_query()}), and a response read in nginx's two steps, the header and
 * question ({@code ngx_resolver_process_response()}) and then the answers ({@code ngx_resolver_process_a()}), each
 * failure named with nginx's log text. Every read is bounded by the datagram's length, and a compressed name
 * follows at most 128 pointers ({@code ngx_resolver_copy()}, as fixed for CVE-2021-23017), so no answer, however
 * hostile, reads outside the packet or loops. Pure functions: no socket, testable alone.
 */
final class DnsCodec {

    static final int TYPE_A = 1;
    static final int TYPE_CNAME = 5;
    static final int TYPE_AAAA = 28;
    static final int TYPE_DNAME = 39;

    static final int HEADER = 12;
    /** An answer's fixed part after its name: type, class, ttl, rdlength (nginx's {@code ngx_resolver_an_t}). */
    private static final int AN = 10;
    private static final int MAX_POINTERS = 128;
    /** {@link #skipName}'s flag: the name ended with a compression pointer. */
    private static final int POINTER = 1 << 30;

    /** A response's header and question, or the reason it is dropped ({@link #error}). */
    record Header(int id, int flags, int code, boolean truncated, int answers, String qname, int qtype,
                  int answersAt, String error) {
    }

    /** What the answers hold, or the reason they are dropped ({@link #error}). */
    record Answers(List<InetAddress> addresses, String cname, long ttl, List<String> notes, String error) {
    }

    private DnsCodec() {
    }

    /**
     * A recursive query for a name: nginx's {@code ngx_resolver_create_name_query()}.
     *
     * @param id the query id (16 bits)
     * @param name the name, dots between labels
     * @param type {@link #TYPE_A} or {@link #TYPE_AAAA}
     * @return the packet, or null when the name has an empty label or one longer than 63 bytes, or is longer than
     *     255 bytes (nginx's {@code NGX_DECLINED}: the lookup fails with "Host not found" without a query)
     */
    static byte[] query(int id, String name, int type) {
        if (name.isEmpty() || name.length() > 253) {
            return null;
        }
        byte[] q = new byte[HEADER + name.length() + 2 + 4];
        q[0] = (byte) (id >> 8);
        q[1] = (byte) id;
        q[2] = 1;                           // RD: recursion desired
        q[5] = 1;                           // one question
        int p = HEADER;
        int start = 0;
        for (int i = 0; i <= name.length(); i++) {
            if (i < name.length() && name.charAt(i) != '.') {
                char ch = name.charAt(i);
                if (ch > 0xff) {
                    return null;
                }
                q[p + 1 + i - start] = (byte) ch;
                continue;
            }
            int len = i - start;
            if (len == 0 || len > 63) {
                return null;
            }
            q[p] = (byte) len;
            p += 1 + len;
            start = i + 1;
        }
        q[p++] = 0;
        q[p + 1] = (byte) type;
        q[p + 3] = 1;                       // class IN
        return q;
    }

    /**
     * Reads a response's header and question: nginx's {@code ngx_resolver_process_response()}.
     *
     * @param b the packet
     * @param n its length
     * @param tcp whether it came over TCP (a truncated TCP answer is invalid)
     * @return the header; {@code error} set when the packet is dropped
     */
    static Header header(byte[] b, int n, boolean tcp) {
        if (n < HEADER) {
            return failed("short DNS response");
        }
        int id = u16(b, 0);
        int flags = u16(b, 2);
        int nqs = u16(b, 4);
        int nan = u16(b, 6);
        boolean trunc = (flags & 0x0200) != 0;
        // a response (QR), to a standard query (opcode 0), Z clear; nginx ignores AA and RA
        if ((flags & 0xf870) != 0x8000 || trunc && tcp) {
            return failed(String.format("invalid %s DNS response %d fl:%04X", tcp ? "TCP" : "UDP", id, flags));
        }
        int code = flags & 0xf;
        if (code == Resolver.FORMERR || code > Resolver.REFUSED) {
            // the caller names the query if it knows the id
            return new Header(id, flags, code, trunc, nan, null, 0, 0, null);
        }
        if (nqs != 1) {
            return failed("invalid number of questions in DNS response");
        }
        int i = HEADER;
        while (i < n && b[i] != 0) {
            if ((b[i] & 0xc0) != 0) {
                return failed("unexpected compression pointer in DNS response");
            }
            i += 1 + (b[i] & 0xff);
        }
        if (i >= n) {
            return failed("short DNS response");
        }
        if (i++ == HEADER) {
            return failed("zero-length domain name in DNS response");
        }
        if ((long) i + 4 + (long) nan * (2 + AN) > n) {
            return failed("short DNS response");
        }
        int qtype = u16(b, i);
        int qclass = u16(b, i + 2);
        if (qclass != 1) {
            return failed("unknown query class " + qclass + " in DNS response");
        }
        if (qtype != TYPE_A && qtype != TYPE_AAAA) {
            return failed("unknown query type " + qtype + " in DNS response");
        }
        String[] name = new String[1];
        String err = name(b, n, HEADER, name);
        if (err != null) {
            return failed(err);
        }
        return new Header(id, flags, code, trunc, nan, name[0], qtype, i + 4, null);
    }

    /**
     * Reads the answers of a response to a question of {@code h.qtype}: nginx's {@code ngx_resolver_process_a()}.
     * Records of types nginx does not use are noted ({@code unexpected RR type 16 in DNS response}) and skipped.
     *
     * @param b the packet
     * @param n its length
     * @param h its header
     * @return the addresses (of the question's type), the last CNAME's target and the smallest TTL (seconds);
     *     {@code error} set when the answer is dropped
     */
    static Answers answers(byte[] b, int n, Header h) {
        List<InetAddress> addrs = new ArrayList<>();
        List<String> notes = new ArrayList<>(0);
        int cname = -1;
        long ttl = 0xffffffffL;
        int i = h.answersAt;
        for (int a = 0; a < h.answers; a++) {
            int start = i;
            int end = skipName(b, n, i);
            if (end < 0) {
                return dropped("short DNS response");
            }
            i = end & ~POINTER;
            if ((end & POINTER) == 0 && i - start < 2) {
                return dropped("invalid name in DNS response");
            }
            // nginx's test is ">=": an answer must leave at least one byte after its fixed part
            if (i + AN >= n) {
                return dropped("short DNS response");
            }
            int type = u16(b, i);
            int rclass = u16(b, i + 2);
            long t = ((long) u16(b, i + 4) << 16) | u16(b, i + 6);
            int len = u16(b, i + 8);
            if (rclass != 1) {
                return dropped("unexpected RR class " + rclass + " in DNS response");
            }
            // nginx reads the TTL as a signed 32-bit number and takes a negative one as 0
            if (t > Integer.MAX_VALUE) {
                t = 0;
            }
            ttl = Math.min(ttl, t);
            i += AN;
            switch (type) {
                case TYPE_A, TYPE_AAAA -> {
                    String what = type == TYPE_A ? "A" : "AAAA";
                    int size = type == TYPE_A ? 4 : 16;
                    if (type != h.qtype) {
                        return dropped("unexpected " + what + " record in DNS response");
                    }
                    if (len != size) {
                        return dropped("invalid " + what + " record in DNS response");
                    }
                    if (i + size > n) {
                        return dropped("short DNS response");
                    }
                    addrs.add(address(b, i, size));
                }
                case TYPE_CNAME -> cname = i;
                case TYPE_DNAME -> {
                }
                default -> notes.add("unexpected RR type " + type + " in DNS response");
            }
            i += len;
        }
        String target = null;
        if (cname >= 0 && addrs.isEmpty()) {
            String[] name = new String[1];
            String err = name(b, n, cname, name);
            if (err != null) {
                return dropped(err);
            }
            target = name[0];
        }
        return new Answers(addrs, target, ttl == 0xffffffffL ? 0 : ttl, notes, null);
    }

    /**
     * A name at {@code at}, its compression pointers followed: nginx's {@code ngx_resolver_copy()}, lower-cased as
     * it does.
     *
     * @return null, with the name in {@code out[0]}; or the reason the name is refused
     */
    static String name(byte[] b, int n, int at, String[] out) {
        StringBuilder sb = new StringBuilder();
        int p = at;
        for (int hops = 0; hops < MAX_POINTERS; hops++) {
            if (p >= n) {
                return "name is out of DNS response";
            }
            int len = b[p++] & 0xff;
            if (len == 0) {
                out[0] = sb.toString().toLowerCase(Locale.ROOT);
                return null;
            }
            if ((len & 0xc0) != 0) {
                if (p >= n) {
                    return "name is out of DNS response";
                }
                p = ((len & 0x3f) << 8) | (b[p] & 0xff);
                continue;
            }
            if (p + len > n) {
                return "name is out of DNS response";
            }
            if (sb.length() > 0) {
                sb.append('.');
            }
            for (int k = 0; k < len; k++) {
                sb.append((char) (b[p + k] & 0xff));
            }
            p += len;
        }
        return "compression pointers loop in DNS response";
    }

    /**
     * Skips an answer's owner name as nginx does: labels up to the root, or up to a pointer (two bytes, not
     * followed).
     *
     * @return the offset after the name, with {@link #POINTER} set when it ended with a pointer; -1 past the end
     */
    private static int skipName(byte[] b, int n, int i) {
        while (i < n) {
            int len = b[i] & 0xff;
            if ((len & 0xc0) != 0) {
                return (i + 2) | POINTER;
            }
            if (len == 0) {
                return i + 1;
            }
            i += 1 + len;
        }
        return -1;
    }

    private static InetAddress address(byte[] b, int at, int size) {
        byte[] raw = new byte[size];
        System.arraycopy(b, at, raw, 0, size);
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);  // 4 or 16 bytes: cannot happen
        }
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }

    private static Header failed(String error) {
        return new Header(0, 0, 0, false, 0, null, 0, 0, error);
    }

    private static Answers dropped(String error) {
        return new Answers(List.of(), null, 0, List.of(), error);
    }
}
