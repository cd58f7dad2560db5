package jinx.http.internal.modules;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.EngineFixture;
import jinx.kernel.ErrorLog;
import jinx.kernel.SharedZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nginx's leaky bucket in thousandths of a request, on a real shared zone: what {@code ngx_http_limit_req_lookup()}
 * and {@code ngx_http_limit_req_account()} compute for the same times (the figures below are nginx's formula
 * worked by hand), the delay of {@code delay=}, the clamping of a clock gone back, expiry of idle keys, eviction
 * of the least recently used key when the zone is full and {@code could not allocate node} when even that fails,
 * and the configuration errors of both modules with nginx's texts.
 */
class LeakyBucketTest {

    @TempDir
    Path root;

    private SharedZone shm;
    private LimitZone zone;
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private ErrorLog log;
    private final LeakyBucket.Scratch s = new LeakyBucket.Scratch();

    @BeforeEach
    void zone() throws Exception {
        log = ErrorLog.early(new PrintStream(logged, true, StandardCharsets.ISO_8859_1), null);
        shm = SharedZone.create("one", 8 * SharedZone.PAGE_SIZE, "test", log);
        // rate=2r/s: 2000 thousandths per second
        zone = new LimitZone("one", null, 2000, new ShmTable(shm, LeakyBucket.PAYLOAD));
        zone.table.init(" in limit_req zone \"one\"", false);
        s.clear(1);
    }

    @AfterEach
    void release() {
        shm.release();
    }

    private int lookup(String key, long burst, long now) {
        shm.lock().lock();
        try {
            return LeakyBucket.lookup(zone, burst, ShmTable.crc32(key), key, s, 0, true, now, log);
        } finally {
            shm.lock().unlock();
        }
    }

    @Test
    void excessInThousandthsAsNginxComputesIt() {
        long t = 1_000_000;
        assertEquals(LeakyBucket.OK, lookup("a", 2000, t));
        assertEquals(0, s.excess);
        // 100 ms later: 0 - 2000 * 100 / 1000 + 1000 = 800
        assertEquals(LeakyBucket.OK, lookup("a", 2000, t + 100));
        assertEquals(800, s.excess);
        // 50 ms later: 800 - 100 + 1000 = 1700
        assertEquals(LeakyBucket.OK, lookup("a", 2000, t + 150));
        assertEquals(1700, s.excess);
        // at once: 2700 > burst 2000, refused and not stored
        assertEquals(LeakyBucket.BUSY, lookup("a", 2000, t + 150));
        assertEquals(2700, s.excess);
        // 600 ms later the bucket drained 1200: 1700 - 1200 + 1000 = 1500
        assertEquals(LeakyBucket.OK, lookup("a", 2000, t + 750));
        assertEquals(1500, s.excess);
        // a second later it is empty again: max(0, 1500 - 2000 + 1000) = 500
        assertEquals(LeakyBucket.OK, lookup("a", 2000, t + 1750));
        assertEquals(500, s.excess);
        assertEquals("0.500", LimitReqModule.thousandths(s.excess));
        assertEquals("12.034", LimitReqModule.thousandths(12034));
    }

    @Test
    void delayAndClockClamping() {
        assertEquals(0, LeakyBucket.delay(1000, 1000, 2000));
        // (2500 - 1000) * 1000 / 2000 = 750 ms
        assertEquals(750, LeakyBucket.delay(2500, 1000, 2000));
        // nodelay is delay = NGX_MAX_INT_T_VALUE / 1000, in thousandths
        assertEquals(0, LeakyBucket.delay(5000, Long.MAX_VALUE / 1000 * 1000, 2000));
        assertEquals(0, LeakyBucket.elapsed(100, 150));
        assertEquals(1, LeakyBucket.elapsed(100, 70_000));
        assertEquals(250, LeakyBucket.elapsed(350, 100));
    }

    @Test
    void lookupThenAccountCountsOnce() {
        long t = 5_000_000;
        shm.lock().lock();
        int rc;
        try {
            rc = LeakyBucket.lookup(zone, 0, ShmTable.crc32("k"), "k", s, 0, false, t, log);
        } finally {
            shm.lock().unlock();
        }
        assertEquals(LeakyBucket.AGAIN, rc);
        long node = s.nodes[0];
        assertNotEquals(0, node);
        shm.lock().lock();
        try {
            // a new node's last is 0: so long ago that the bucket drained everything, this request included
            assertEquals(0, LeakyBucket.account(zone, node, t));
        } finally {
            shm.lock().unlock();
        }
        // 0 - 2000 * 100 / 1000 + 1000 = 800 over a burst of 0
        assertEquals(LeakyBucket.BUSY, lookup("k", 0, t + 100));
        assertEquals(800, s.excess);
    }

    @Test
    void idleKeysExpireAndAFullZoneEvictsTheOldest() {
        long t = 10_000_000;
        int stored = 0;
        String last = null;
        // 32 KB hold some hundreds of keys of 200 bytes: fill it, then more
        for (int i = 0; i < 1000; i++) {
            last = "key-" + i + "-" + "x".repeat(200);
            assertEquals(LeakyBucket.OK, lookup(last, 0, t));
            stored++;
        }
        assertEquals(1000, stored);
        shm.lock().lock();
        try {
            // the first keys were evicted to make room for the last ones
            String first = "key-0-" + "x".repeat(200);
            assertEquals(0, zone.table.find(ShmTable.crc32(first), first));
            assertNotEquals(0, zone.table.find(ShmTable.crc32(last), last));
        } finally {
            shm.lock().unlock();
        }
        assertTrue(!logged.toString(StandardCharsets.ISO_8859_1).contains("could not allocate"), logged::toString);
    }

    @Test
    void aKeyLargerThanTheZoneCannotBeAllocated() {
        String huge = "h".repeat(40_000);
        assertEquals(LeakyBucket.ERROR, lookup(huge, 0, 1000));
        assertTrue(logged.toString(StandardCharsets.ISO_8859_1).contains(
            "could not allocate node in limit_req zone \"one\""), logged::toString);
    }

    @Test
    void configurationErrorsAsNginx() {
        String z = "limit_req_zone $binary_remote_addr zone=one:1m rate=1r/s;\n";
        assertRefused("limit_req_zone $binary_remote_addr zone=one:10k rate=1r/s;",
            "zone \"zone=one:10k\" is too small");
        assertRefused("limit_req_zone $binary_remote_addr zone=one rate=1r/s;", "invalid zone size \"zone=one\"");
        assertRefused("limit_req_zone $binary_remote_addr zone=one:1m rate=xr/s;", "invalid rate \"rate=xr/s\"");
        assertRefused("limit_req_zone $binary_remote_addr rate=1r/s x;", "invalid parameter \"x\"");
        assertRefused("limit_req_zone $binary_remote_addr rate=1r/s rate=2r/s;",
            "\"limit_req_zone\" must have \"zone\" parameter");
        assertRefused(z + "limit_req_zone $uri zone=one:1m rate=1r/s;",
            "limit_req_zone \"one\" is already bound to key \"$binary_remote_addr\"");
        assertRefused(z + "limit_req zone=one burst=0;", "invalid burst value \"burst=0\"");
        assertRefused(z + "limit_req zone=one delay=x;", "invalid delay value \"delay=x\"");
        assertRefused(z + "limit_req zone=one; limit_req zone=one;", "\"limit_req\" directive is duplicate");
        assertRefused("limit_req burst=5;", "\"limit_req\" must have \"zone\" parameter");
        assertRefused("limit_req_status 600;", "value must be between 400 and 599");
        assertRefused("limit_req_log_level debug;", "invalid value \"debug\"");
        assertRefused("limit_req zone=two;", "zero size shared memory zone \"two\"");
        assertRefused("limit_conn two 1;", "zero size shared memory zone \"two\"");
        assertRefused("limit_req_zone $nosuch zone=one:1m rate=1r/s;", "unknown \"nosuch\" variable");
        assertRefused("limit_conn_zone $binary_remote_addr zone=c:10k;", "zone \"zone=c:10k\" is too small");
        assertRefused("limit_conn_zone $binary_remote_addr c;", "invalid parameter \"c\"");
        String c = "limit_conn_zone $binary_remote_addr zone=c:1m;\n";
        assertRefused(c + "limit_conn c 0;", "invalid number of connections \"0\"");
        assertRefused(c + "limit_conn c 65536;", "connection limit must be less 65536");
        assertRefused(c + "limit_conn c 1; limit_conn c 2;", "\"limit_conn\" directive is duplicate");
        assertRefused(c + "limit_conn_zone $uri zone=c:1m;",
            "limit_conn_zone \"c\" is already bound to key \"$binary_remote_addr\"");
        assertRefused(z + "limit_conn_zone $binary_remote_addr zone=one:1m;",
            "the shared memory zone \"one\" is already declared for a different use");
        assertRefused("limit_conn_status 399;", "value must be between 400 and 599");
    }

    private void assertRefused(String http, String text) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(http + "\nserver {\n"
            + " listen 127.0.0.1:8080;\n root " + root + ";\n}\n").close());
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
