package jinx.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import jinx.kernel.Rc;

/**
 * {@link SslPreread} on ClientHellos {@code openssl s_client} sent (the fuzz corpus): the server name, the ALPN
 * protocols and the version it offered; a hello that arrives byte by byte or split over two records reads the same;
 * plain HTTP is declined; a truncated hello waits for more.
 */
class SslPrereadTest {

    private static byte[] input(String name) throws IOException {
        try (InputStream in = SslPrereadTest.class.getResourceAsStream("SslPrereadFuzzTestInputs/" + name)) {
            return in.readAllBytes();
        }
    }

    private static String read(byte[] hello, boolean byteByByte) {
        ByteBuffer b = ByteBuffer.allocateDirect(hello.length).put(hello);
        SslPreread p = new SslPreread(0);
        int rc = Rc.AGAIN;
        for (int last = byteByByte ? 1 : hello.length; rc == Rc.AGAIN && last <= hello.length; last++) {
            rc = p.feed(b, last);
        }
        return rc == Rc.OK ? p.serverName() + "|" + p.alpnProtocols() + "|" + p.protocol()
            : rc == Rc.AGAIN ? "again" : "declined";
    }

    @Test
    void theServerNameAlpnAndVersionOfRealHellos() throws IOException {
        assertEquals("a.example|h2,http/1.1|TLSv1.3", read(input("tls13-sni-alpn"), false));
        assertEquals("backend.example.org||TLSv1.2", read(input("tls12-sni"), false));
        assertEquals("||TLSv1.3", read(input("no-sni"), false));
        assertEquals("x.y|h2|TLSv1.3", read(input("tls13-only-alpn"), false));
        assertEquals("||TLSv1", read(input("sslv2-hello"), false));
    }

    @Test
    void byteByByteAndOverTwoRecordsReadsTheSame() throws IOException {
        assertEquals("a.example|h2,http/1.1|TLSv1.3", read(input("tls13-sni-alpn"), true));
        assertEquals("backend.example.org||TLSv1.2", read(input("two-records"), false));
        assertEquals("backend.example.org||TLSv1.2", read(input("two-records"), true));
    }

    @Test
    void plainHttpIsDeclinedAndATruncatedHelloWaits() throws IOException {
        assertEquals("declined", read(input("plain-http"), false));
        assertEquals("again", read(input("truncated"), false));
    }
}
