package jinx.http.internal.modules;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nginx's address parsers as {@link Cidr} ports them: {@code ngx_inet_addr()}, {@code ngx_inet6_addr()} and
 * {@code ngx_ptocidr()}, with their quirks.
 */
class CidrTest {

    private static byte[] b(int... v) {
        byte[] a = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            a[i] = (byte) v[i];
        }
        return a;
    }

    @Test
    void ipv4AsNginxReadsIt() {
        assertArrayEquals(b(192, 168, 1, 2), Cidr.inetAddr("192.168.1.2"));
        assertArrayEquals(b(1, 0, 2, 3), Cidr.inetAddr("1..2.3"));
        assertNull(Cidr.inetAddr("1.2.3"));
        assertNull(Cidr.inetAddr("1.2.3.4."));
        assertNull(Cidr.inetAddr("256.1.1.1"));
        assertNull(Cidr.inetAddr("1.2.3.x"));
    }

    @Test
    void ipv6AsNginxReadsIt() {
        byte[] loop = new byte[16];
        loop[15] = 1;
        assertArrayEquals(loop, Cidr.inet6Addr("::1"));
        assertArrayEquals(new byte[16], Cidr.inet6Addr("::"));
        assertArrayEquals(b(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10),
            Cidr.inet6Addr("2001:DB8::10"));
        assertArrayEquals(b(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1),
            Cidr.inet6Addr("::ffff:127.0.0.1"));
        assertArrayEquals(b(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8), Cidr.inet6Addr("1:2:3:4:5:6:7:8"));
        assertNull(Cidr.inet6Addr("1:2:3:4:5:6:7"));
        assertNull(Cidr.inet6Addr("1::2::3"));
        assertNull(Cidr.inet6Addr("12345::"));
        assertNull(Cidr.inet6Addr("g::"));
        assertNull(Cidr.inet6Addr(""));
    }

    @Test
    void networksWithMasks() {
        Cidr c = Cidr.parse("10.1.2.3/8");
        assertNotNull(c);
        assertTrue(c.meaningless());
        assertArrayEquals(b(10, 0, 0, 0), c.addr());
        assertTrue(c.contains(b(10, 200, 1, 1)));
        assertFalse(c.contains(b(11, 0, 0, 0)));
        assertFalse(Cidr.parse("10.0.0.0/8").meaningless());
        assertTrue(Cidr.parse("192.168.1.0/25").contains(b(192, 168, 1, 127)));
        assertFalse(Cidr.parse("192.168.1.0/25").contains(b(192, 168, 1, 128)));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(b(1, 2, 3, 4)));
        Cidr v6 = Cidr.parse("2001:db8::/32");
        assertTrue(v6.contains(Cidr.inet6Addr("2001:db8:ffff::1")));
        assertFalse(v6.contains(Cidr.inet6Addr("2001:db9::1")));
        assertFalse(v6.contains(b(32, 1, 13, 184)));
        assertTrue(Arrays.equals(Cidr.parse("::1").mask(), Cidr.parse("::1/128").mask()));
        assertNull(Cidr.parse("10.0.0.0/33"));
        assertNull(Cidr.parse("::/129"));
        assertNull(Cidr.parse("10.0.0.0/x"));
        assertNull(Cidr.parse("10.0.0.0/"));
        assertNull(Cidr.parse("example.com"));
        // ngx_inet_addr() answers INADDR_NONE for it, so ngx_ptocidr() refuses it
        assertNull(Cidr.parse("255.255.255.255"));
    }

    @Test
    void mappedAddresses() {
        byte[] mapped = Cidr.address("::ffff:10.0.0.1");
        assertTrue(Cidr.v4Mapped(mapped));
        assertArrayEquals(b(10, 0, 0, 1), Cidr.unmap(mapped));
        assertFalse(Cidr.v4Mapped(Cidr.address("::1")));
        assertNull(Cidr.address("unix:"));
    }
}
