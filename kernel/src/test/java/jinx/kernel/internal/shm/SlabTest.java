package jinx.kernel.internal.shm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;
import jinx.kernel.SlabPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The slab allocator: every size class, whole pages, merging of freed runs, exhaustion and nginx's messages, and a
 * random workload checked against a model (no two live allocations overlap; everything freed is free again).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class SlabTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ErrorLog log;
    private SharedZone zone;
    private SlabPool slab;

    @BeforeEach
    void setUp() throws IOException {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                            new PrintStream(out, true, StandardCharsets.ISO_8859_1));
    }

    private void zone(int pages) throws IOException {
        zone = SharedZone.create("slab_test", (long) pages * SharedZone.PAGE_SIZE, "test", log);
        slab = zone.slab();
    }

    @AfterEach
    void tearDown() {
        if (zone != null) {
            zone.release();
        }
        log.close();
    }

    private String logText() {
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void layoutLeavesRoomForHeaderAndDescriptors() throws IOException {
        zone(64);
        // one page for the header, class lists and 64 descriptors of 24 bytes
        assertEquals(63, slab.pages());
        assertEquals(63, slab.freePages());
        assertEquals(9, slab.stats().size());
        assertEquals(8, slab.stats().get(0).size());
        assertEquals(2048, slab.stats().get(8).size());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 9, 16, 24, 32, 33, 64, 65, 100, 128, 200, 512, 1000, 2048})
    void sizeClassFillsPagesAndGivesThemBack(int size) throws IOException {
        zone(64);
        int chunk = size <= 8 ? 8 : Integer.highestOneBit(size - 1) << 1;
        int n = 3 * SharedZone.PAGE_SIZE / chunk + 5;
        List<Long> got = new ArrayList<>();
        TreeMap<Long, Integer> live = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            long p = slab.alloc(size);
            assertNotEquals(0, p, "allocation " + i);
            assertEquals(0, p % chunk, "aligned to its class");
            assertNoOverlap(live, p, chunk);
            zone.putByte(p, (byte) i);
            zone.putByte(p + size - 1, (byte) i);
            got.add(p);
        }
        int slot = Integer.numberOfTrailingZeros(chunk) - 3;
        assertEquals(n, slab.stats().get(slot).used());
        assertEquals(n, slab.stats().get(slot).reqs());
        assertTrue(slab.freePages() < slab.pages());
        for (int i = 0; i < n; i++) {
            long p = got.get(i);
            assertEquals((byte) i, zone.getByte(p));
            assertEquals((byte) i, zone.getByte(p + size - 1));
            slab.free(p);
        }
        assertEquals(slab.pages(), slab.freePages(), "every page back");
        assertEquals(0, slab.stats().get(slot).used());
        assertEquals(0, slab.stats().get(slot).total());
        assertEquals("", logText());
    }

    private static void assertNoOverlap(TreeMap<Long, Integer> live, long p, long len) {
        Map.Entry<Long, Integer> below = live.floorEntry(p);
        assertTrue(below == null || below.getKey() + below.getValue() <= p, "overlaps the one below");
        Map.Entry<Long, Integer> above = live.ceilingEntry(p);
        assertTrue(above == null || p + len <= above.getKey(), "overlaps the one above");
        live.put(p, (int) len);
    }

    @Test
    void smallPagesKeepTheirBitmapOutOfReach() throws IOException {
        zone(16);
        // 8-byte chunks: the page's first 64 bytes are its bitmap, so the first chunk handed out is at +64
        long p = slab.alloc(8);
        assertEquals(64, p % SharedZone.PAGE_SIZE);
        long q = slab.alloc(16);
        assertEquals(32, q % SharedZone.PAGE_SIZE);
        long r = slab.alloc(32);
        assertEquals(32, r % SharedZone.PAGE_SIZE);
        long s = slab.alloc(64);
        assertEquals(0, s % SharedZone.PAGE_SIZE);
        // 512 - 8 chunks of 8 bytes fit in a page
        assertEquals(504, slab.stats().get(0).total());
    }

    @Test
    void largeAllocationsTakeWholePagesAndFreedRunsMerge() throws IOException {
        zone(16);
        long total = slab.pages();
        long a = slab.alloc(3 * SharedZone.PAGE_SIZE);
        long b = slab.alloc(2049);
        long c = slab.alloc(2 * SharedZone.PAGE_SIZE + 1);
        assertEquals(0, a % SharedZone.PAGE_SIZE);
        assertEquals(a + 3 * SharedZone.PAGE_SIZE, b);
        assertEquals(b + SharedZone.PAGE_SIZE, c);
        assertEquals(total - 7, slab.freePages());
        // free around the middle run, then the middle: one run again, so everything fits in one allocation
        slab.free(a);
        slab.free(c);
        assertEquals(0, slab.alloc(total * SharedZone.PAGE_SIZE));
        assertTrue(logText().contains("[crit]"), logText());
        slab.free(b);
        assertEquals(total, slab.freePages());
        long all = slab.alloc(total * SharedZone.PAGE_SIZE);
        assertEquals(a, all);
        assertEquals(0, slab.freePages());
        slab.free(all);
        assertEquals(total, slab.freePages());
    }

    @Test
    void exhaustionLogsNginxsMessageAndRecovers() throws IOException {
        zone(8);
        List<Long> pages = new ArrayList<>();
        for (long p; (p = slab.alloc(SharedZone.PAGE_SIZE)) != 0; ) {
            pages.add(p);
        }
        assertEquals(slab.pages(), pages.size());
        assertTrue(logText().contains("[crit] "), logText());
        assertTrue(logText().endsWith("ngx_slab_alloc() failed: no memory\n"), logText());
        // a small class needs a page too
        assertEquals(0, slab.alloc(8));
        assertEquals(1, slab.stats().get(0).fails());

        out.reset();
        slab.logContext(" in test zone \"slab_test\"");
        assertEquals(0, slab.alloc(100));
        assertTrue(logText().endsWith("ngx_slab_alloc() failed: no memory in test zone \"slab_test\"\n"), logText());

        out.reset();
        slab.logNomem(false);
        assertEquals(0, slab.alloc(100));
        assertEquals("", logText());

        slab.free(pages.remove(0));
        assertNotEquals(0, slab.alloc(100));
    }

    @Test
    void badFreesAreLoggedAndIgnored() throws IOException {
        zone(16);
        long p = slab.alloc(100);
        slab.free(p);
        slab.free(p);
        assertTrue(logText().contains("[alert] "), logText());
        assertTrue(logText().contains("ngx_slab_free(): page is already free"), logText());

        long q = slab.alloc(100);
        long keep = slab.alloc(100);
        slab.free(q + 8);
        assertTrue(logText().contains("ngx_slab_free(): pointer to wrong chunk"), logText());
        slab.free(q);
        slab.free(q);
        assertTrue(logText().contains("ngx_slab_free(): chunk is already free"), logText());

        slab.free(16);
        assertTrue(logText().contains("ngx_slab_free(): outside of pool"), logText());

        long run = slab.alloc(2 * SharedZone.PAGE_SIZE);
        slab.free(run + SharedZone.PAGE_SIZE);
        assertTrue(logText().contains("ngx_slab_free(): pointer to wrong page"), logText());
        slab.free(run);
        slab.free(keep);
        assertEquals(slab.pages(), slab.freePages());
    }

    @Test
    void callocZeroes() throws IOException {
        zone(16);
        long p = slab.alloc(200);
        for (int i = 0; i < 200; i++) {
            zone.putByte(p + i, (byte) 0xA5);
        }
        slab.free(p);
        long q = slab.calloc(200);
        assertEquals(p, q);
        for (int i = 0; i < 200; i++) {
            assertEquals(0, zone.getByte(q + i));
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {20261130L, 1L, 42L})
    void randomWorkloadMatchesAModel(long seed) throws IOException {
        zone(256);
        Random random = new Random(seed);
        Map<Long, Integer> live = new HashMap<>();
        TreeMap<Long, Integer> spans = new TreeMap<>();
        List<Long> order = new ArrayList<>();
        int failures = 0;
        for (int step = 0; step < 200_000; step++) {
            boolean alloc = order.isEmpty() || random.nextInt(100) < 55;
            if (alloc) {
                int size = random.nextInt(10) == 0 ? 1 + random.nextInt(5 * SharedZone.PAGE_SIZE)
                                                   : 1 + random.nextInt(2048);
                long p = slab.alloc(size);
                if (p == 0) {
                    failures++;
                    continue;
                }
                assertTrue(p >= SharedZone.PAGE_SIZE && p + size <= zone.size());
                assertNoOverlap(spans, p, size);
                byte tag = (byte) (p >>> 3);
                zone.putByte(p, tag);
                zone.putByte(p + size - 1, tag);
                live.put(p, size);
                order.add(p);
            } else {
                long p = order.remove(random.nextInt(order.size()));
                int size = live.remove(p);
                spans.remove(p);
                byte tag = (byte) (p >>> 3);
                assertEquals(tag, zone.getByte(p), "first byte of " + p);
                assertEquals(tag, zone.getByte(p + size - 1), "last byte of " + p);
                slab.free(p);
            }
        }
        for (long p : order) {
            slab.free(p);
        }
        assertEquals(slab.pages(), slab.freePages());
        for (SlabPool.SlotStat s : slab.stats()) {
            assertEquals(0, s.used(), "class " + s.size());
            assertEquals(0, s.total(), "class " + s.size());
        }
        assertFalse(logText().contains("[alert]"), logText());
        assertTrue(failures > 0, "the workload also ran the zone full");
    }
}
