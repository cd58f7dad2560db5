package jinx.http.internal.modules;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;
import jinx.http.internal.request.Responses;

import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The copy step under {@code sendfile off} ({@link FileCopy}): its two read buffers come from the loop's
 * {@link BufferPool} and go back to it when the request ends, also when the client goes away in the middle of a
 * file; a slow client on a keep-alive connection gets every byte, twice; more ranges than read buffers, each too
 * small for {@code postpone_output}, come out as with sendfile. The loop runs on the test's thread, so the pool
 * of that thread is the loop's.
 */
class FileCopyTest {

    /** Larger than a socket pair takes at once and than the two 32k buffers. */
    private static final int BIG = 300_000;

    @TempDir
    Path root;

    private EngineFixture f;
    private String big;

    @BeforeEach
    void files() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < BIG; i++) {
            sb.append(i).append('\n');
        }
        big = sb.substring(0, BIG);
        write(root.resolve("big.txt"), big);
        write(root.resolve("r.txt"), RangeFilterTest.BODY);
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n location /nosf/ { sendfile off; alias " + root + "/; }\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private static String get(String uri, boolean close) {
        return "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n";
    }

    @Test
    @Timeout(30)
    void buffersGoBackToThePoolWhenTheClientGoesAway() throws Exception {
        BufferPool pool = BufferPool.current();
        // a first whole response: the pool has its buffers from then on
        assertEquals(big, f.get(get("/nosf/big.txt", true)).body());
        f.turnUntil(100, () -> false);
        int idle = pool.outstanding();
        long allocated = pool.allocated();
        for (int round = 0; round < 3; round++) {
            LocalConnection lc = LocalConnection.openSocketPair(f.loop(), f.cycle().listening().get(0));
            lc.send(get("/nosf/big.txt", false));
            // nobody reads: the socket pair fills, and both read buffers wait below with data
            f.turnUntil(200, () -> false);
            assertTrue(pool.outstanding() >= idle + 2, "taken: " + pool.outstanding() + ", idle: " + idle);
            lc.close();
            assertTrue(f.turnUntil(5000, () -> pool.outstanding() == idle),
                "taken after the close: " + pool.outstanding() + ", idle: " + idle + "\n" + f.log());
        }
        assertEquals(allocated, pool.allocated(), "the buffers of a request are reused by the next");
        assertFalse(f.log().contains("[alert]"), f.log());
    }

    @Test
    @Timeout(60)
    void aSlowClientGetsEveryByteOnAKeepAliveConnection() throws Exception {
        try (LocalConnection lc = LocalConnection.openSocketPair(f.loop(), f.cycle().listening().get(0))) {
            String request = get("/nosf/big.txt", false);
            lc.send(request + request);
            long[] got = {0};
            // the client takes what the socket holds at each turn of the loop, the server's buffers busy in between;
            // the text is looked at once both bodies may be there
            f.turnUntil(40_000, () -> {
                try {
                    got[0] += lc.receive().length;
                    if (got[0] < 2L * BIG) {
                        return false;
                    }
                    String raw = lc.received();
                    return raw.lastIndexOf(big) > raw.indexOf(big);
                } catch (java.io.IOException e) {
                    return true;
                }
            });
            String raw = lc.received();
            int first = raw.indexOf("\r\n\r\n") + 4;
            assertEquals(big, raw.substring(first, first + BIG));
            String second = raw.substring(first + BIG);
            assertTrue(second.startsWith("HTTP/1.1 200 OK\r\n"), raw.length() + " bytes, then: "
                + second.substring(0, Math.min(200, second.length())) + "\n" + f.log());
            assertTrue(second.contains("\r\nContent-Length: " + BIG + "\r\n"), second);
            assertEquals(big, second.substring(second.indexOf("\r\n\r\n") + 4));
            assertFalse(lc.closedByServer(), "keep-alive");
        }
        assertFalse(f.log().contains("[alert]"), f.log());
        assertFalse(f.log().contains("[crit]"), f.log());
    }

    @Test
    @Timeout(30)
    void moreRangesThanReadBuffersAsWithSendfile() throws Exception {
        String ranges = "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            + "Range: bytes=0-0,2-3,5-7,9-9,11-12,-2\r\n\r\n";
        Responses.Response without = f.get(String.format(ranges, "/nosf/r.txt"));
        Responses.Response with = f.get(String.format(ranges, "/r.txt"));
        assertEquals(206, without.status());
        String b = boundary(without);
        String expected = part(b, "0-0", "0") + part(b, "2-3", "23") + part(b, "5-7", "567") + part(b, "9-9", "9")
            + part(b, "11-12", "bc") + part(b, "18-19", "ij") + "\r\n--" + b + "--\r\n";
        assertEquals(expected, without.body());
        assertEquals(with.body().replace(boundary(with), b), without.body());
        assertEquals(String.valueOf(expected.length()), without.header("Content-Length"));
        assertEquals(RangeFilterTest.BODY.substring(3, 17),
            f.get("GET /nosf/r.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nRange: bytes=3-16\r\n\r\n")
                .body());
        assertFalse(f.log().contains("[alert]"), f.log());
    }

    private static String boundary(Responses.Response r) {
        String type = r.header("Content-Type");
        return type.substring(type.indexOf("boundary=") + 9);
    }

    private static String part(String boundary, String range, String data) {
        return "\r\n--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes " + range + "/20\r\n\r\n"
            + data;
    }
}
