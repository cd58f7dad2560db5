package jinx.kernel.os;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SockAddr}: nginx's listen forms in, nginx's printing out, and the native encoding both ways.
 */
@Timeout(10)
class SockAddrTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:8080       | 127.0.0.1:8080",
        "8080                 | 0.0.0.0:8080",
        "*:8080               | 0.0.0.0:8080",
        "*                    | 0.0.0.0:80",
        "127.0.0.1            | 127.0.0.1:80",
        "10.1.2.3:0           | 10.1.2.3:0",
        "[::1]:8080           | [::1]:8080",
        "[::]:443             | [::]:443",
        "[::]                 | [::]:80",
        "[fe80::1:0:0:2]:81   | [fe80::1:0:0:2]:81",
        "[2001:db8:0:0:1:0:0:1]:1 | [2001:db8::1:0:0:1]:1",
        "[1::]:2              | [1::]:2",
        "[::ffff:1.2.3.4]:5   | [::ffff:1.2.3.4]:5",
        "[0:0:0:0:0:0:0:2]:6  | [::2]:6",
        "unix:/tmp/x.sock     | unix:/tmp/x.sock",
        "UNIX:/run/a b        | unix:/run/a b",
    })
    void parsesAndPrintsAsNginx(String text, String printed) {
        assertEquals(printed, SockAddr.parse(text).toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:99999 | invalid port",
        "127.0.0.1:      | invalid port",
        "127.0.0.1:8a    | invalid port",
        ":80             | no host",
        "1.2.3.256:80    | invalid host",
        "1.2.3:80        | invalid host",
        "[::1            | invalid host",
        "[::1]x          | invalid host",
        "[]:80           | no host",
        "[::g]:80        | invalid IPv6 address",
        "[1:2:3:4:5:6:7:8:9]:80 | invalid IPv6 address",
        "unix:           | no path in the unix domain socket",
        "localhost:80    | not a numeric address",
    })
    void refusesAsNginx(String text, String error) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SockAddr.parse(text));
        assertEquals(error, e.getMessage());
    }

    @Test
    void unixPathMustFitSunPath() {
        String max = "/" + "x".repeat((int) Platform.get("SIZEOF_SUN_PATH") - 2);
        assertEquals("unix:" + max, SockAddr.unix(max).toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SockAddr.unix(max + "y"));
        assertEquals("too long path in the unix domain socket", e.getMessage());
    }

    @Test
    void resolvesNamesOnlyWhenAsked() {
        List<SockAddr> all = SockAddr.resolve("localhost:8080", 80);
        assertFalse(all.isEmpty());
        assertTrue(all.stream().allMatch(a -> a.port() == 8080 && a.inetAddress().isLoopbackAddress()), all::toString);
        assertEquals(List.of(SockAddr.parse("127.0.0.1:1")), SockAddr.resolve("127.0.0.1:1", 80));
    }

    @Test
    void equalityAndAccessors() throws Exception {
        SockAddr a = SockAddr.parse("127.0.0.1:80");
        assertEquals(a, SockAddr.inet(InetAddress.getByName("127.0.0.1"), 80));
        assertEquals(a.hashCode(), SockAddr.parse("127.0.0.1").hashCode());
        assertNotEquals(a, a.withPort(81));
        assertEquals(Platform.AF_INET, a.family());
        assertFalse(a.isWildcard());
        assertTrue(SockAddr.parse("*:80").isWildcard());
        assertTrue(SockAddr.parse("[::]:80").isWildcard());
        SockAddr u = SockAddr.unix("/tmp/s");
        assertTrue(u.isUnix());
        assertEquals("/tmp/s", u.path());
        assertEquals(0, u.port());
        assertEquals(null, u.inetAddress());
        assertThrows(IllegalStateException.class, () -> u.withPort(1));
        assertEquals(SockAddr.parse("[fe80::1%3]:80").scopeId(), 3);
        assertNotEquals(SockAddr.parse("[fe80::1%3]:80"), SockAddr.parse("[fe80::1]:80"));
    }

    @ParameterizedTest
    @CsvSource({"127.0.0.1:8080", "0.0.0.0:1", "[::1]:65535", "[fe80::1%2]:80", "[::ffff:10.0.0.1]:9",
                "unix:/tmp/jinx.sock"})
    void encodesAndDecodes(String text) {
        SockAddr a = SockAddr.parse(text);
        try (NativeMemory mem = new NativeMemory()) {
            long sa = mem.allocate(Platform.SIZEOF_SOCKADDR_STORAGE);
            NativeMemory.fill(sa, Platform.SIZEOF_SOCKADDR_STORAGE, (byte) 0x55);
            int len = a.encode(sa);
            assertEquals(a.length(), len);
            assertEquals(a, SockAddr.decode(sa, len));
            if (!a.isUnix()) {
                // sin_port is in network order
                assertEquals(a.port() >>> 8, NativeMemory.getByte(sa + 2) & 0xff);
            }
        }
    }

    @Test
    void decodesAnUnnamedUnixSocket() {
        try (NativeMemory mem = new NativeMemory()) {
            long sa = mem.allocate(Platform.SIZEOF_SOCKADDR_STORAGE);
            NativeMemory.putShort(sa, (short) Platform.AF_UNIX);
            assertEquals("unix:", SockAddr.decode(sa, 2).toString());
            NativeMemory.putShort(sa, (short) 12345);
            assertThrows(IllegalArgumentException.class, () -> SockAddr.decode(sa, 16));
        }
    }

    @ParameterizedTest
    @CsvSource({"127.0.0.1:8080", "10.1.2.3:1", "[::1]:65535", "[fe80::1%2]:80", "[::ffff:10.0.0.1]:9",
                "[2001:db8::ff00:42:8329]:443", "unix:/tmp/jinx.sock"})
    void aPeerKeptAsNumbersPrintsAsTheDecodedAddress(String text) {
        SockAddr a = SockAddr.parse(text);
        try (NativeMemory mem = new NativeMemory()) {
            long sa = mem.allocate(Platform.SIZEOF_SOCKADDR_STORAGE);
            int len = a.encode(sa);
            SockAddr.Peer peer = new SockAddr.Peer();
            peer.read(sa, len);
            // the text is made later, from the numbers: the sockaddr may be overwritten by the next accept
            NativeMemory.fill(sa, Platform.SIZEOF_SOCKADDR_STORAGE, (byte) 0x55);
            assertEquals(SockAddr.parse(text).toString(), peer.text());
            assertEquals(a.isUnix(), peer.isUnix());
            peer.text(null);
            assertEquals(null, peer.text());
        }
    }
}
