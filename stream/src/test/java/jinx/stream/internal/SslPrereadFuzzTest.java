package jinx.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import com.code_intelligence.jazzer.junit.FuzzTest;

import jinx.kernel.Rc;

/**
 * A coverage-guided fuzz target for {@code ssl_preread}'s ClientHello parser ({@link SslPreread}, nginx's
 * {@code ngx_stream_ssl_preread_parse_record()}): the TLS entry of a stream server, random and mutated records.
 * {@code mvn verify} replays the committed corpus ({@code src/test/resources/.../SslPrereadFuzzTestInputs/}: real
 * ClientHellos of {@code openssl s_client}, one split over two records, truncated, SSLv2, plain HTTP),
 * {@code JAZZER_FUZZ=1} fuzzes ({@code bench/fuzz}). Any input gives OK, AGAIN or DECLINED, never an exception;
 * the same bytes arriving in two reads (cut where the input's last byte says) give the same answer and the same
 * variables as in one; what OK gives is no longer than the input.
 */
class SslPrereadFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void clientHello(byte[] in) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, in.length));
        b.put(in);
        SslPreread whole = new SslPreread(0);
        int rc = whole.feed(b, in.length);
        assertTrue(rc == Rc.OK || rc == Rc.AGAIN || rc == Rc.DECLINED, "answer " + rc);
        int cut = in.length == 0 ? 0 : (in[in.length - 1] & 0xff) % in.length;
        SslPreread split = new SslPreread(0);
        int first = split.feed(b, cut);
        int rc2 = first == Rc.AGAIN ? split.feed(b, in.length) : first;
        if (first == Rc.AGAIN) {
            assertEquals(rc, rc2, "in two reads cut at " + cut);
        }
        if (rc == Rc.OK && first == Rc.AGAIN) {
            assertEquals(whole.serverName(), split.serverName());
            assertEquals(whole.alpnProtocols(), split.alpnProtocols());
            assertEquals(whole.protocol(), split.protocol());
        }
        if (rc == Rc.OK) {
            assertTrue(whole.serverName().length() <= in.length && whole.alpnProtocols().length() <= in.length);
        }
    }
}
