package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The DNS wire format without sockets: queries, answers, and hostile packets refused with nginx's words. */
class DnsCodecTest {

    /** A response header: id 0x1234, QR and RD and RA, the code, one question, {@code nan} answers. */
    private static ByteArrayOutputStream header(int flags, int nqs, int nan) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x12, 0x34, (byte) (flags >> 8), (byte) flags, 0, (byte) nqs, 0, (byte) nan,
            0, 0, 0, 0});
        return out;
    }

    private static ByteArrayOutputStream question(String name, int type, int nan) {
        ByteArrayOutputStream out = header(0x8180, 1, nan);
        out.writeBytes(name(name));
        out.writeBytes(new byte[] {0, (byte) type, 0, 1});
        return out;
    }

    private static byte[] name(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String l : name.split("\\.")) {
            out.write(l.length());
            out.writeBytes(l.getBytes());
        }
        out.write(0);
        return out.toByteArray();
    }

    /** An answer owned by the question's name (pointer to 12). */
    private static void rr(ByteArrayOutputStream out, int type, long ttl, byte[] data) {
        out.writeBytes(new byte[] {(byte) 0xc0, 12, 0, (byte) type, 0, 1, (byte) (ttl >> 24), (byte) (ttl >> 16),
            (byte) (ttl >> 8), (byte) ttl, (byte) (data.length >> 8), (byte) data.length});
        out.writeBytes(data);
    }

    private static DnsCodec.Header header(byte[] b) {
        return DnsCodec.header(b, b.length, false);
    }

    @Test
    void queryIsNginxs() {
        byte[] q = DnsCodec.query(0xabcd, "www.example.com", DnsCodec.TYPE_A);
        byte[] want = {(byte) 0xab, (byte) 0xcd, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
            3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1};
        assertArrayEquals(want, q);
        assertEquals(28, DnsCodec.query(1, "a", DnsCodec.TYPE_AAAA)[16]);
    }

    @Test
    void unaskableNamesAreRefused() {
        assertNull(DnsCodec.query(1, "", DnsCodec.TYPE_A));
        assertNull(DnsCodec.query(1, "a..b", DnsCodec.TYPE_A));
        assertNull(DnsCodec.query(1, ".a", DnsCodec.TYPE_A));
        assertNull(DnsCodec.query(1, "a.", DnsCodec.TYPE_A), "an empty last label, as nginx");
        assertNull(DnsCodec.query(1, "x".repeat(64) + ".com", DnsCodec.TYPE_A));
        assertNull(DnsCodec.query(1, "abc.".repeat(64) + "com", DnsCodec.TYPE_A));
        assertNotNull(DnsCodec.query(1, "x".repeat(63) + ".com", DnsCodec.TYPE_A));
    }

    @Test
    void answerWithAddressesAndSmallestTtl() throws Exception {
        ByteArrayOutputStream out = question("Example.COM", DnsCodec.TYPE_A, 2);
        rr(out, DnsCodec.TYPE_A, 300, new byte[] {10, 0, 0, 1});
        rr(out, DnsCodec.TYPE_A, 60, new byte[] {10, 0, 0, 2});
        byte[] b = out.toByteArray();
        DnsCodec.Header h = header(b);
        assertNull(h.error());
        assertEquals(0x1234, h.id());
        assertEquals("example.com", h.qname(), "lower-cased as nginx's copy");
        assertEquals(DnsCodec.TYPE_A, h.qtype());
        DnsCodec.Answers a = DnsCodec.answers(b, b.length, h);
        assertNull(a.error());
        assertEquals(List.of(InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2")), a.addresses());
        assertEquals(60, a.ttl());
    }

    @Test
    void cnameIsDecompressed() {
        ByteArrayOutputStream out = question("www.example.com", DnsCodec.TYPE_A, 1);
        // "edge" then a pointer to "example.com" inside the question (offset 16)
        rr(out, DnsCodec.TYPE_CNAME, 30, new byte[] {4, 'e', 'd', 'g', 'e', (byte) 0xc0, 16});
        byte[] b = out.toByteArray();
        DnsCodec.Header h = header(b);
        DnsCodec.Answers a = DnsCodec.answers(b, b.length, h);
        assertNull(a.error());
        assertEquals("edge.example.com", a.cname());
        assertEquals(List.of(), a.addresses());
    }

    @Test
    void compressionLoopIsBounded() {
        ByteArrayOutputStream out = question("a.b", DnsCodec.TYPE_A, 1);
        int at = out.size() + 12;
        // a CNAME whose data points at itself
        rr(out, DnsCodec.TYPE_CNAME, 30, new byte[] {(byte) (0xc0 | at >> 8), (byte) at});
        byte[] b = out.toByteArray();
        DnsCodec.Answers a = DnsCodec.answers(b, b.length, header(b));
        assertEquals("compression pointers loop in DNS response", a.error());
    }

    @Test
    void pointerOutOfPacket() {
        ByteArrayOutputStream out = question("a.b", DnsCodec.TYPE_A, 1);
        rr(out, DnsCodec.TYPE_CNAME, 30, new byte[] {(byte) 0xc0, (byte) 0xff, 0});
        byte[] b = out.toByteArray();
        assertEquals("name is out of DNS response", DnsCodec.answers(b, b.length, header(b)).error());
        String[] name = new String[1];
        assertEquals("name is out of DNS response", DnsCodec.name(new byte[] {5, 'a', 'b'}, 3, 0, name));
        assertEquals("name is out of DNS response", DnsCodec.name(new byte[] {(byte) 0xc0}, 1, 0, name));
    }

    @Test
    void headerRefusals() {
        assertEquals("short DNS response", header(new byte[11]).error());
        byte[] query = header(0x0100, 1, 0).toByteArray();
        assertEquals("invalid UDP DNS response 4660 fl:0100", header(query).error());
        byte[] truncatedTcp = question("a.b", 1, 0).toByteArray();
        truncatedTcp[2] |= 0x02;
        assertEquals("invalid TCP DNS response 4660 fl:8380",
            DnsCodec.header(truncatedTcp, truncatedTcp.length, true).error());
        ByteArrayOutputStream two = header(0x8180, 2, 0);
        assertEquals("invalid number of questions in DNS response", header(two.toByteArray()).error());
        ByteArrayOutputStream pointer = header(0x8180, 1, 0);
        pointer.writeBytes(new byte[] {(byte) 0xc0, 12, 0, 1, 0, 1});
        assertEquals("unexpected compression pointer in DNS response", header(pointer.toByteArray()).error());
        ByteArrayOutputStream root = header(0x8180, 1, 0);
        root.writeBytes(new byte[] {0, 0, 1, 0, 1});
        assertEquals("zero-length domain name in DNS response", header(root.toByteArray()).error());
        assertEquals("short DNS response", header(question("a.b", 1, 3).toByteArray()).error());
        ByteArrayOutputStream cls = header(0x8180, 1, 0);
        cls.writeBytes(name("a.b"));
        cls.writeBytes(new byte[] {0, 1, 0, 3});
        assertEquals("unknown query class 3 in DNS response", header(cls.toByteArray()).error());
        assertEquals("unknown query type 16 in DNS response", header(question("a.b", 16, 0).toByteArray()).error());
        ByteArrayOutputStream open = header(0x8180, 1, 0);
        open.writeBytes(new byte[] {3, 'a', 'b', 'c'});
        assertEquals("short DNS response", header(open.toByteArray()).error());
    }

    @Test
    void errorCodesPassTheHeader() {
        DnsCodec.Header nx = header(question("a.b", 1, 0).toByteArray().clone());
        assertEquals(0, nx.code());
        byte[] b = question("a.b", 1, 0).toByteArray();
        b[3] = (byte) 0x83;
        assertEquals(Resolver.NXDOMAIN, header(b).code());
        assertEquals("a.b", header(b).qname());
        b[3] = (byte) 0x86;
        DnsCodec.Header odd = header(b);
        assertNull(odd.error());
        assertEquals(6, odd.code(), "beyond REFUSED: the caller logs a DNS error");
    }

    @Test
    void answerRefusals() {
        assertEquals("invalid A record in DNS response", answersError(DnsCodec.TYPE_A, DnsCodec.TYPE_A, 5));
        assertEquals("unexpected AAAA record in DNS response",
            answersError(DnsCodec.TYPE_A, DnsCodec.TYPE_AAAA, 16));
        assertEquals("unexpected A record in DNS response", answersError(DnsCodec.TYPE_AAAA, DnsCodec.TYPE_A, 4));
        assertEquals("invalid AAAA record in DNS response",
            answersError(DnsCodec.TYPE_AAAA, DnsCodec.TYPE_AAAA, 4));
        ByteArrayOutputStream out = question("a.b", DnsCodec.TYPE_A, 1);
        out.writeBytes(new byte[] {(byte) 0xc0, 12, 0, 1, 0, 3, 0, 0, 0, 1, 0, 4, 1, 2, 3, 4});
        byte[] b = out.toByteArray();
        assertEquals("unexpected RR class 3 in DNS response", DnsCodec.answers(b, b.length, header(b)).error());
        ByteArrayOutputStream rootOwner = question("a.b", DnsCodec.TYPE_A, 1);
        rootOwner.writeBytes(new byte[] {0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 1, 2, 3, 4});
        b = rootOwner.toByteArray();
        assertEquals("invalid name in DNS response", DnsCodec.answers(b, b.length, header(b)).error());
    }

    @Test
    void cutAnswerIsShort() {
        ByteArrayOutputStream out = question("a.b", DnsCodec.TYPE_A, 1);
        rr(out, DnsCodec.TYPE_A, 1, new byte[] {1, 2, 3, 4});
        byte[] full = out.toByteArray();
        // the header's bound (nan * 12 bytes) passes, the record's own does not
        int n = full.length - 2;
        DnsCodec.Header h = DnsCodec.header(full, n, false);
        assertNull(h.error());
        assertEquals("short DNS response", DnsCodec.answers(full, n, h).error());
    }

    @Test
    void otherTypesAreNotedAndNegativeTtlIsZero() {
        ByteArrayOutputStream out = question("a.b", DnsCodec.TYPE_A, 2);
        rr(out, 16, 5, new byte[] {1, 'x'});
        rr(out, DnsCodec.TYPE_A, 0x80000000L, new byte[] {1, 2, 3, 4});
        byte[] b = out.toByteArray();
        DnsCodec.Answers a = DnsCodec.answers(b, b.length, header(b));
        assertNull(a.error());
        assertEquals(List.of("unexpected RR type 16 in DNS response"), a.notes());
        assertEquals(0, a.ttl());
        assertEquals(1, a.addresses().size());
    }

    /** Random and mutated packets: every one is read or refused, none throws or reads outside. */
    @Test
    void hostilePacketsNeverThrow() {
        Random random = new Random(34);
        ByteArrayOutputStream good = question("www.example.com", DnsCodec.TYPE_A, 2);
        rr(good, DnsCodec.TYPE_CNAME, 30, new byte[] {4, 'e', 'd', 'g', 'e', (byte) 0xc0, 16});
        rr(good, DnsCodec.TYPE_A, 30, new byte[] {1, 2, 3, 4});
        byte[] base = good.toByteArray();
        for (int i = 0; i < 20_000; i++) {
            byte[] b;
            if (i % 2 == 0) {
                b = new byte[random.nextInt(80)];
                random.nextBytes(b);
            } else {
                b = base.clone();
                for (int k = random.nextInt(4); k >= 0; k--) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
            }
            int n = random.nextInt(b.length + 1);
            DnsCodec.Header h = DnsCodec.header(b, n, random.nextBoolean());
            if (h.error() == null && h.qname() != null) {
                DnsCodec.answers(b, n, h);
            }
        }
    }

    private static String answersError(int qtype, int type, int len) {
        ByteArrayOutputStream out = question("a.b", qtype, 1);
        rr(out, type, 1, new byte[len]);
        out.write(0);
        byte[] b = out.toByteArray();
        return DnsCodec.answers(b, b.length, header(b)).error();
    }
}
