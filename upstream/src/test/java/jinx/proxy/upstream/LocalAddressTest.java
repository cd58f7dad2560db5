package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

/** {@link LocalAddress}: nginx's {@code ngx_parse_addr_port()} for {@code proxy_bind}, literals only. */
class LocalAddressTest {

    @Test
    void literalsWithAndWithoutPorts() {
        InetSocketAddress a = LocalAddress.parse("127.0.0.2");
        assertEquals("127.0.0.2", a.getAddress().getHostAddress());
        assertEquals(0, a.getPort());
        assertEquals(8080, LocalAddress.parse("10.1.2.3:8080").getPort());
        assertEquals(0, LocalAddress.parse("::1").getPort());
        InetSocketAddress v6 = LocalAddress.parse("[::1]:81");
        assertEquals("0:0:0:0:0:0:0:1", v6.getAddress().getHostAddress());
        assertEquals(81, v6.getPort());
    }

    @Test
    void namesAndBadPortsAreNoAddress() {
        assertNull(LocalAddress.parse("localhost"));
        assertNull(LocalAddress.parse("nowhere.example"));
        assertNull(LocalAddress.parse("deadbeef"));
        assertNull(LocalAddress.parse("127.0.0.1:0"));
        assertNull(LocalAddress.parse("127.0.0.1:70000"));
        assertNull(LocalAddress.parse("[::1"));
        assertNull(LocalAddress.parse("[::1]x"));
        assertNull(LocalAddress.parse(""));
    }
}
