package jinx.kernel.internal.shm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedAcceptMutex;
import jinx.kernel.SharedZone;
import jinx.kernel.os.Files;
import jinx.kernel.os.Platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cycle's zones: nginx's declaration rules and errors, creation, reuse of an unchanged zone across a reload,
 * release of what the new cycle did not keep, attaching in a worker, and the master's forced unlock.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class ZoneTableTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<ZoneTable> tables = new ArrayList<>();
    private ErrorLog log;

    @BeforeEach
    void setUp() throws IOException {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                            new PrintStream(out, true, StandardCharsets.ISO_8859_1));
    }

    @AfterEach
    void tearDown() {
        tables.forEach(ZoneTable::release);
        log.close();
    }

    private ZoneTable table() {
        ZoneTable t = new ZoneTable();
        tables.add(t);
        return t;
    }

    @Test
    void declarationsFollowNginx() throws ConfException {
        ZoneTable t = table();
        SharedZone one = t.add("one", 10240, "limit_req");
        assertSame(one, t.add("one", 10240, "limit_req"));
        assertSame(one, t.add("one", 0, "limit_req"), "0 refers to the zone as declared");
        assertFalse(one.isMapped());
        assertThrows(IllegalStateException.class, one::slab);

        ConfException use = assertThrows(ConfException.class, () -> t.add("one", 10240, "limit_conn"));
        assertEquals("the shared memory zone \"one\" is already declared for a different use", use.getMessage());
        ConfException size = assertThrows(ConfException.class, () -> t.add("one", 20480, "limit_req"));
        assertEquals("the size 20480 of shared memory zone \"one\" conflicts with already declared size 10240",
                     size.getMessage());

        // a reference first, the size later (nginx's SETIFZ)
        SharedZone ref = t.add("later", 0, "limit_req");
        assertSame(ref, t.add("later", 8192, "limit_req"));
        assertEquals(8192, ref.size());
        assertEquals(List.of(one, ref), t.zones());
        assertEquals(3 * SharedZone.PAGE_SIZE, one.size(), "rounded up to pages");

        ConfException huge = assertThrows(ConfException.class, () -> t.add("huge", Long.MAX_VALUE, "m"));
        assertEquals("the size " + Long.MAX_VALUE + " of shared memory zone \"huge\" is invalid", huge.getMessage());
        assertThrows(ConfException.class, () -> t.add("negative", -1, "m"));
    }

    @Test
    void zeroSizeFailsCreation() throws ConfException {
        ZoneTable t = table();
        t.add("sized", 8192, "m");
        t.add("ref", 0, "m");
        ConfException e = assertThrows(ConfException.class, () -> t.create(null, log));
        assertEquals("zero size shared memory zone \"ref\"", e.getMessage());
        assertTrue(t.zones().get(0).isMapped(), "made before the failure; release() frees it");
    }

    @Test
    void reloadKeepsAnUnchangedZoneAndRemakesTheRest() throws Exception {
        ZoneTable old = table();
        SharedZone keep = old.add("keep", 64 * 1024, "m");
        SharedZone resized = old.add("resized", 64 * 1024, "m");
        SharedZone retagged = old.add("retagged", 64 * 1024, "m");
        SharedZone dropped = old.add("dropped", 64 * 1024, "m");
        old.create(null, log);
        for (SharedZone z : old.zones()) {
            long counter = z.slab().calloc(8);
            z.slab().data(counter);
            z.putLong(counter, 41);
        }

        ZoneTable next = table();
        SharedZone keep2 = next.add("keep", 64 * 1024, "m");
        SharedZone resized2 = next.add("resized", 128 * 1024, "m");
        SharedZone retagged2 = next.add("retagged", 64 * 1024, "other");
        SharedZone fresh = next.add("fresh", 64 * 1024, "m");
        next.create(old, log);

        assertTrue(keep2.reused());
        assertEquals(keep.fd(), keep2.fd(), "the same memfd");
        assertEquals(41, keep2.getLong(keep2.slab().data()), "contents kept");
        keep2.getAndAddLong(keep2.slab().data(), 1);
        assertEquals(42, keep.getLong(keep.slab().data()), "one memory, two cycles");

        for (SharedZone z : List.of(resized2, retagged2, fresh)) {
            assertFalse(z.reused(), z.name());
            assertEquals(0, z.slab().data(), z.name());
            assertTrue(z.fd() != resized.fd() && z.fd() != retagged.fd(), z.name());
        }
        assertEquals(128 * 1024, resized2.size());

        int keepFd = keep.fd();
        int resizedFd = resized.fd();
        int retaggedFd = retagged.fd();
        int droppedFd = dropped.fd();
        old.release();
        assertTrue(ZoneMemoryTest.isMemfd(keepFd, "keep"), "still the new cycle's");
        assertFalse(ZoneMemoryTest.isMemfd(resizedFd, "resized"));
        assertFalse(ZoneMemoryTest.isMemfd(retaggedFd, "retagged"));
        assertFalse(ZoneMemoryTest.isMemfd(droppedFd, "dropped"));
        assertEquals(42, keep2.getLong(keep2.slab().data()));

        next.release();
        assertFalse(ZoneMemoryTest.isMemfd(keepFd, "keep"));
    }

    @Test
    void failedReloadLeavesTheOldZonesAlone() throws Exception {
        ZoneTable old = table();
        SharedZone keep = old.add("kept", 64 * 1024, "m");
        old.create(null, log);
        keep.putLong(8192, 7);

        ZoneTable failed = table();
        failed.add("kept", 64 * 1024, "m");
        SharedZone made = failed.add("made", 64 * 1024, "m");
        failed.create(old, log);
        int madeFd = made.fd();
        failed.release();

        assertFalse(ZoneMemoryTest.isMemfd(madeFd, "made"));
        assertTrue(ZoneMemoryTest.isMemfd(keep.fd(), "kept"));
        assertEquals(7, keep.getLong(8192));

        // and the next reload still finds it
        ZoneTable next = table();
        SharedZone again = next.add("kept", 64 * 1024, "m");
        next.create(old, log);
        assertTrue(again.reused());
        assertEquals(7, again.getLong(8192));
    }

    @Test
    void workerAttachesByInheritedDescriptor() throws Exception {
        ZoneTable master = table();
        SharedZone z = master.add("attached", 32 * 1024, "m");
        master.create(null, log);
        long counter = z.slab().calloc(8);
        z.slab().data(counter);
        z.putLong(counter, 5);

        ZoneTable worker = table();
        SharedZone w = worker.add("attached", 32 * 1024, "m");
        int inherited = Files.open("/proc/self/fd/" + z.fd(), Platform.O_RDWR | Platform.O_CLOEXEC, 0);
        worker.attach(Map.of("attached", inherited), log);
        assertEquals(inherited, w.fd());
        assertFalse(w.reused());
        assertEquals(counter, w.slab().data());
        assertEquals(5, w.getAndAddLong(counter, 1));
        assertEquals(6, z.getLongVolatile(counter));

        ZoneTable missing = table();
        missing.add("elsewhere", 32 * 1024, "m");
        ConfException e = assertThrows(ConfException.class, () -> missing.attach(Map.of(), log));
        assertEquals("shared memory zone \"elsewhere\" was not inherited", e.getMessage());
    }

    @Test
    void masterUnlocksWhatAReapedWorkerHeld() throws Exception {
        ZoneTable t = table();
        SharedZone a = t.add("a", 8192, "m");
        SharedZone b = t.add("b", 8192, "m");
        SharedZone accept = t.add(SharedAcceptMutex.ZONE_NAME, SharedZone.PAGE_SIZE, SharedAcceptMutex.TAG);
        t.create(null, log);
        long dead = 4_000_000L;
        a.setLongRelease(ZoneHeader.LOCK, dead);
        accept.setLongRelease(ZoneHeader.LOCK, dead);
        assertTrue(b.lock().tryLock());

        assertEquals(2, t.forceUnlock(dead, log, SharedAcceptMutex.TAG));
        assertEquals(0, a.lock().owner());
        assertEquals(0, accept.lock().owner());
        assertEquals(ProcessHandle.current().pid(), b.lock().owner(), "a live process keeps its lock");
        String text = out.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("[alert] "), text);
        assertTrue(text.endsWith("shared memory zone \"a\" was locked by 4000000\n"), text);
        assertFalse(text.contains(SharedAcceptMutex.ZONE_NAME), "the accept mutex is released silently");
        b.lock().unlock();
    }

    /**
     * A late reap of a released (replaced) cycle's worker touches nothing of the released table: the master no
     * longer keeps every released cycle to tell (issue #36's soak: 30 KiB of heap per reload).
     */
    @Test
    void aReleasedTableUnlocksNothing() throws Exception {
        ZoneTable old = table();
        old.add("kept", 8192, "m");
        old.create(null, log);
        ZoneTable next = table();
        SharedZone taken = next.add("kept", 8192, "m");
        next.create(old, log);
        long dead = 4_000_001L;
        taken.setLongRelease(ZoneHeader.LOCK, dead);
        old.release();

        assertEquals(0, old.forceUnlock(dead, log, SharedAcceptMutex.TAG));
        assertEquals(dead, taken.lock().owner(), "the new cycle's zone is the new cycle's to unlock");
        assertEquals(1, next.forceUnlock(dead, log, SharedAcceptMutex.TAG));
        next.release();
    }
}
