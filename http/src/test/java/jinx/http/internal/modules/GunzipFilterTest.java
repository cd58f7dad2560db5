package jinx.http.internal.modules;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.FakeRequest;
import jinx.http.internal.variables.Variables;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gunzip filter's decompression: members, headers with a name, bytes cut anywhere, corrupt data, and a
 * compression bomb that never has more than its buffers out at a time.
 */
class GunzipFilterTest {

    static byte[] gzip(byte[] data) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }

    /** The next filters: keeps the bytes, answers {@code rc}. */
    static final class Sink implements jinx.http.spi.BodyFilter.Next {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> batches = new ArrayList<>();
        boolean last;
        int rc = Rc.OK;
        long total;

        @Override
        public int filter(HttpRequest r, BufChain in) {
            int n = 0;
            for (BufChain cl = in; cl != null; cl = cl.next) {
                ByteBuffer m = cl.buf.mem;
                if (m != null) {
                    byte[] got = new byte[m.remaining()];
                    m.get(got);
                    n += got.length;
                    if (total < 4096) {
                        bytes.write(got, 0, got.length);
                    }
                }
                last |= cl.buf.last;
            }
            batches.add(n);
            total += n;
            return rc;
        }
    }

    private static BufChain chain(byte[] data, int from, int to, boolean last) {
        Buf b = Buf.of(ByteBuffer.wrap(data, from, to - from).slice());
        b.last = last;
        return BufChain.of(b);
    }

    @Test
    @Timeout(30)
    void membersAndCutsAnywhere() throws Exception {
        byte[] one = gzip("first member\n".getBytes(StandardCharsets.ISO_8859_1));
        byte[] two = gzip("second member\n".getBytes(StandardCharsets.ISO_8859_1));
        byte[] both = new byte[one.length + two.length];
        System.arraycopy(one, 0, both, 0, one.length);
        System.arraycopy(two, 0, both, one.length, two.length);
        for (int cut = 1; cut < both.length; cut++) {
            try (FakeRequest r = new FakeRequest(new Variables())) {
                GunzipState g = new GunzipState(32, 4096);
                Sink sink = new Sink();
                g.filter(r, chain(both, 0, cut, false), sink);
                g.filter(r, chain(both, cut, both.length, true), sink);
                assertEquals("first member\nsecond member\n", sink.bytes.toString(StandardCharsets.ISO_8859_1),
                    "cut at " + cut);
                assertTrue(sink.last && g.done(), "cut at " + cut);
                g.run();
            }
        }
    }

    @Test
    @Timeout(30)
    void corruptDataIsAnError() throws Exception {
        byte[] z = gzip("some text that is long enough to corrupt".getBytes(StandardCharsets.ISO_8859_1));
        z[z.length - 6] ^= 0x55;
        try (FakeRequest r = FakeRequest.onSocketPair()) {
            GunzipState g = new GunzipState(32, 4096);
            assertEquals(Rc.ERROR, g.filter(r, chain(z, 0, z.length, true), new Sink()));
            assertTrue(r.errors().contains("inflate() failed: 4, -3"), r.errors());
            g.run();
        }
    }

    @Test
    @Timeout(30)
    void aBombStaysWithinItsBuffers() throws Exception {
        byte[] bomb = gzip(new byte[8 * 1024 * 1024]);
        assertTrue(bomb.length < 10_000);
        try (FakeRequest r = new FakeRequest(new Variables())) {
            GunzipState g = new GunzipState(4, 1024);
            Sink sink = new Sink();
            sink.rc = Rc.AGAIN;
            // the client does not read: one batch of 4 x 1 KB goes down, the rest waits
            assertEquals(Rc.AGAIN, g.filter(r, chain(bomb, 0, bomb.length, true), sink));
            assertEquals(List.of(4096), sink.batches);
            // each push of the writer lets one more batch out
            assertEquals(Rc.AGAIN, g.filter(r, null, sink));
            assertEquals(List.of(4096, 4096), sink.batches);
            sink.rc = Rc.OK;
            assertEquals(Rc.OK, g.filter(r, null, sink));
            assertEquals(8 * 1024 * 1024, sink.total);
            assertTrue(sink.batches.stream().allMatch(n -> n <= 4096), "no batch beyond the buffers");
            assertTrue(sink.last);
            g.run();
        }
    }
}
