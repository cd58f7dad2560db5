package jinx.kernel.internal.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.SharedZone;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A zone's memory: a memfd mapped twice in one process sees the same bytes, atomics stay atomic across the two
 * mappings, and descriptors are closed by the last holder.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class ZoneMemoryTest {

    private final List<SharedZone> zones = new ArrayList<>();

    @AfterEach
    void tearDown() {
        zones.forEach(SharedZone::release);
    }

    private SharedZone create(String name, long size) throws IOException {
        SharedZone z = SharedZone.create(name, size, "test", null);
        zones.add(z);
        return z;
    }

    /** A second mapping of the same memfd, as another process would make it. */
    private SharedZone second(SharedZone z) throws IOException {
        SharedZone m = Zone.attachPath(Path.of("/proc/self/fd/" + z.fd()), z.name(), z.size(), z.tag(), null);
        zones.add(m);
        return m;
    }

    @Test
    void sizeIsRoundedToPagesAndMemoryIsAMemfd() throws Exception {
        SharedZone z = create("memfd_one", 10_000);
        assertEquals(3 * SharedZone.PAGE_SIZE, z.size());
        assertTrue(z.isMapped());
        assertFalse(z.reused());
        String link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + z.fd())).toString();
        assertEquals("/memfd:jinx:memfd_one (deleted)", link);
        assertTrue(Syscalls.isCloexec(z.fd()), "the master's memfd is close-on-exec; spawn dup2s it");
    }

    @Test
    void twoMappingsSeeEachOthersWrites() throws Exception {
        SharedZone a = create("two_mappings", 64 * 1024);
        SharedZone b = second(a);
        long off = a.slab().alloc(256);
        assertTrue(off > 0);
        a.putLong(off, 0x1122334455667788L);
        a.putInt(off + 8, 42);
        a.putBytes(off + 16, "hello".getBytes(), 0, 5);
        assertEquals(0x1122334455667788L, b.getLong(off));
        assertEquals(42, b.getInt(off + 8));
        byte[] got = new byte[5];
        b.getBytes(off + 16, got, 0, 5);
        assertEquals("hello", new String(got));
        b.putByte(off + 100, (byte) 7);
        assertEquals(7, a.getByte(off + 100));
        assertTrue(b.compareAndSetLong(off, 0x1122334455667788L, 5));
        assertEquals(5, a.getLongVolatile(off));
        assertEquals(5, a.getAndAddLong(off, 10));
        assertEquals(15, b.getLongVolatile(off));
        b.setIntRelease(off + 8, 9);
        assertEquals(9, a.getAndAddInt(off + 8, 1));
        assertTrue(a.compareAndSetInt(off + 8, 10, 11));
        assertEquals(11, b.getIntVolatile(off + 8));
        // the slab pool is one pool: the second mapping's allocation does not overlap the first's
        long other = b.slab().alloc(256);
        assertTrue(other > 0 && other != off);
        assertEquals(0, a.slab().data());
        b.slab().data(off);
        assertEquals(off, a.slab().data());
    }

    @Test
    void casCounterThroughTwoMappingsLosesNothing() throws Exception {
        SharedZone a = create("cas_counter", SharedZone.PAGE_SIZE * 4);
        SharedZone b = second(a);
        long counter = a.slab().calloc(8);
        long adder = a.slab().calloc(8);
        int threads = 4;
        int perThread = 1_000_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> list = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SharedZone z = (t & 1) == 0 ? a : b;
            Thread th = new Thread(() -> {
                awaitQuietly(go);
                for (int i = 0; i < perThread; i++) {
                    for (;;) {
                        long v = z.getLongVolatile(counter);
                        if (z.compareAndSetLong(counter, v, v + 1)) {
                            break;
                        }
                    }
                    z.getAndAddLong(adder, 1);
                }
            });
            th.start();
            list.add(th);
        }
        go.countDown();
        for (Thread th : list) {
            th.join();
        }
        assertEquals((long) threads * perThread, a.getLongVolatile(counter));
        assertEquals((long) threads * perThread, b.getLongVolatile(adder));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void atomicsNeedAlignedOffsetsInsideTheZone() throws Exception {
        SharedZone z = create("aligned", SharedZone.PAGE_SIZE);
        assertThrows(IllegalArgumentException.class, () -> z.getAndAddLong(1004, 1));
        assertThrows(IllegalArgumentException.class, () -> z.compareAndSetInt(1002, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> z.getLong(SharedZone.PAGE_SIZE - 4));
        assertThrows(IndexOutOfBoundsException.class, () -> z.getLongVolatile(SharedZone.PAGE_SIZE));
        assertThrows(IndexOutOfBoundsException.class, () -> z.getLong(1L << 33));
        assertThrows(IndexOutOfBoundsException.class, () -> z.putLong(-8, 0));
        assertThrows(IllegalArgumentException.class, () -> z.lockAt(12));
    }

    @Test
    void attachChecksNameAndSizeAndClosesTheDescriptorOnFailure() throws Exception {
        SharedZone z = create("checked", 8 * SharedZone.PAGE_SIZE);
        Path fd = Path.of("/proc/self/fd/" + z.fd());
        IOException size = assertThrows(IOException.class,
            () -> Zone.attachPath(fd, "checked", 4 * SharedZone.PAGE_SIZE, "test", null));
        assertTrue(size.getMessage().contains("has " + 8 * SharedZone.PAGE_SIZE + " bytes, not "), size.getMessage());
        IOException name = assertThrows(IOException.class,
            () -> Zone.attachPath(fd, "other", 8 * SharedZone.PAGE_SIZE, "test", null));
        assertEquals("shared memory zone \"other\" is the zone \"checked\"", name.getMessage());

        // a descriptor handed to attach() is the zone's, also when attaching fails
        int dup = dup(z.fd());
        assertThrows(IOException.class, () -> SharedZone.attach(dup, "other", z.size(), "test", null));
        assertFalse(isMemfd(dup, "checked"));

        int good = dup(z.fd());
        SharedZone w = SharedZone.attach(good, "checked", z.size(), "test", null);
        assertEquals(good, w.fd());
        z.putLong(4096, 77);
        assertEquals(77, w.getLong(4096));
        w.release();
        assertEquals(-1, w.fd());
        assertFalse(isMemfd(good, "checked"));
        // the mapping outlives the descriptor
        assertEquals(77, w.getLong(4096));
    }

    @Test
    void plainFileIsNotAZone() throws Exception {
        Path f = Files.createTempFile("jinx-zone", ".bin");
        try {
            Files.write(f, new byte[SharedZone.PAGE_SIZE]);
            IOException e = assertThrows(IOException.class,
                () -> Zone.attachPath(f, "x", SharedZone.PAGE_SIZE, "test", null));
            assertEquals("shared memory zone \"x\" is not a shared zone", e.getMessage());
        } finally {
            Files.delete(f);
        }
    }

    @Test
    void lastHolderClosesTheMemfd() throws Exception {
        ZoneMemory m = ZoneMemory.create("held", SharedZone.PAGE_SIZE);
        int fd = m.fd();
        m.retain();
        assertEquals(2, m.holders());
        assertFalse(m.release());
        assertTrue(isMemfd(fd, "held"));
        assertTrue(m.release());
        assertEquals(0, m.holders());
        assertEquals(-1, m.fd());
        assertFalse(isMemfd(fd, "held"));
        assertThrows(IllegalStateException.class, m::retain);
    }

    /** Another descriptor for the same memfd, as a worker inherits one. */
    private static int dup(int fd) throws IOException {
        return jinx.kernel.os.Files.open("/proc/self/fd/" + fd, Platform.O_RDWR | Platform.O_CLOEXEC, 0);
    }

    static boolean isMemfd(int fd, String name) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString()
                .equals("/memfd:jinx:" + name + " (deleted)");
        } catch (IOException e) {
            return false;
        }
    }
}
