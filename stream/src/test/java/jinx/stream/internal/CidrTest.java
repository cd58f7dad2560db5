package jinx.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The addresses of {@code allow} and {@code deny}, as nginx's {@code ngx_ptocidr()} reads them. */
class CidrTest {

    private static byte[] ip(int a, int b, int c, int d) {
        return new byte[] {(byte) a, (byte) b, (byte) c, (byte) d};
    }

    @Test
    void networksMatchTheirAddresses() {
        Cidr net = Cidr.parse("192.168.1.0/24").cidr();
        assertTrue(net.matches(ip(192, 168, 1, 77)));
        assertFalse(net.matches(ip(192, 168, 2, 1)));
        assertFalse(net.matches(null), "a UNIX-domain client is no IP");
        Cidr host = Cidr.parse("127.0.0.1").cidr();
        assertTrue(host.matches(ip(127, 0, 0, 1)));
        assertFalse(host.matches(ip(127, 0, 0, 2)));
        assertTrue(Cidr.parse("all").cidr().matches(null));
        assertTrue(Cidr.parse("unix:").cidr().matches(null));
        assertFalse(Cidr.parse("unix:").cidr().matches(ip(1, 2, 3, 4)));
        Cidr v6 = Cidr.parse("::1").cidr();
        assertTrue(v6.matches(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
        assertFalse(v6.matches(ip(0, 0, 0, 1)));
    }

    @Test
    void lowBitsAreReportedAndCleared() {
        Cidr.Parsed p = Cidr.parse("10.1.2.3/8");
        assertTrue(p.lowBits());
        assertTrue(p.cidr().matches(ip(10, 200, 0, 1)));
        assertFalse(Cidr.parse("10.0.0.0/8").lowBits());
    }

    @Test
    void invalidTextIsRefused() {
        assertNull(Cidr.parse("localhost"));
        assertNull(Cidr.parse("10.0.0.0/33"));
        assertNull(Cidr.parse("10.0.0/8"));
        assertNull(Cidr.parse("1.2.3.4/x"));
        assertEquals(4, Cidr.parse("0.0.0.0/0").cidr().addr().length);
    }
}
