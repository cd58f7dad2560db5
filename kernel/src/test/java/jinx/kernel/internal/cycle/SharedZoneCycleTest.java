package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.EventLoop;
import jinx.kernel.SharedAcceptMutex;
import jinx.kernel.SharedZone;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared zones through the cycle: declared by directives ({@code Cycle.sharedZone}), nginx's errors at the
 * directive's place, created for a first cycle, and across a reload kept with their contents when name, size and
 * tag are unchanged, made anew otherwise, the old cycle's leftovers released with it.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class SharedZoneCycleTest {

    /** A core module with {@code zone NAME SIZE} and {@code other_zone NAME SIZE} (another module's tag). */
    static final class ZoneModule implements JinxModule, CoreModule {
        static final String NAME = "zonetest";
        private final List<Directive<?>> directives = List.of(
            Directive.of("zone", Set.of(Ctx.MAIN), Arity.TAKE2,
                (cf, unused) -> cf.cycle().sharedZone(cf.arg(1), ConfValues.parseSize(cf.arg(2)), NAME)).multi(),
            Directive.of("other_zone", Set.of(Ctx.MAIN), Arity.TAKE2,
                (cf, unused) -> cf.cycle().sharedZone(cf.arg(1), ConfValues.parseSize(cf.arg(2)), "other"))
                .multi(),
            Directive.of("accept_zone", Set.of(Ctx.MAIN), Arity.NOARGS,
                (cf, unused) -> SharedAcceptMutex.declare(cf.cycle())));

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public ModuleType type() {
            return ModuleType.CORE;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public List<Directive<?>> directives() {
            return directives;
        }
    }

    @TempDir
    Path dir;
    private CycleFixture fixture;
    private final List<KernelCycle> cycles = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fixture = new CycleFixture(dir);
    }

    @AfterEach
    void tearDown() {
        cycles.forEach(KernelCycle::releaseSharedZones);
        fixture.close();
    }

    /** Builds a cycle from {@code conf} and gives its zones memory, as the master does after parsing. */
    private KernelCycle cycle(String conf, KernelCycle old) throws ConfException, IOException {
        Path file = fixture.write("conf/jinx.conf", conf);
        KernelCycle cycle = fixture.build(file, fixture.modules(j -> new ZoneModule()), old);
        cycles.add(cycle);
        cycle.initSharedZones(old);
        return cycle;
    }

    private static SharedZone zone(KernelCycle cycle, String name) {
        return cycle.sharedZones().stream().filter(z -> z.name().equals(name)).findFirst().orElseThrow();
    }

    private static long counter(SharedZone z) {
        if (z.slab().data() == 0) {
            long c = z.slab().calloc(8);
            z.slab().data(c);
        }
        return z.slab().data();
    }

    @Test
    void reloadKeepsMatchingZonesWithTheirContents() throws Exception {
        KernelCycle first = cycle("zone one 64k;\nzone two 64k;\nzone one 0;\nzone gone 16k;\n", null);
        assertEquals(List.of("one", "two", "gone"), first.sharedZones().stream().map(SharedZone::name).toList());
        SharedZone one = zone(first, "one");
        SharedZone two = zone(first, "two");
        assertTrue(one.isMapped());
        assertFalse(one.reused());
        assertEquals(ZoneModule.NAME, one.tag());
        one.getAndAddLong(counter(one), 10);
        two.getAndAddLong(counter(two), 20);
        int twoFd = two.fd();
        int goneFd = zone(first, "gone").fd();

        KernelCycle second = cycle("zone two 128k;\nzone one 64k;\nzone new 16k;\n", first);
        SharedZone one2 = zone(second, "one");
        SharedZone two2 = zone(second, "two");
        assertTrue(one2.reused(), "same name, size and tag: kept");
        assertEquals(one.fd(), one2.fd());
        assertEquals(10, one2.getLongVolatile(one2.slab().data()), "contents kept");
        assertFalse(two2.reused(), "another size: a new zone");
        assertEquals(128 * 1024, two2.size());
        assertEquals(0, two2.slab().data());
        assertFalse(zone(second, "new").reused());

        // the old cycle goes: what the new one did not keep is released, what it kept lives on
        first.releaseSharedZones();
        assertTrue(isMemfd(one2.fd(), "one"));
        assertFalse(isMemfd(twoFd, "two"));
        assertFalse(isMemfd(goneFd, "gone"));
        one2.getAndAddLong(one2.slab().data(), 1);
        assertEquals(11, one2.getLongVolatile(one2.slab().data()));

        // and once more, from the second cycle
        KernelCycle third = cycle("zone one 64k;\nzone two 128k;\n", second);
        assertTrue(zone(third, "one").reused());
        assertTrue(zone(third, "two").reused());
        assertEquals(11, zone(third, "one").getLong(zone(third, "one").slab().data()));
    }

    @Test
    void changedTagMakesANewZone() throws Exception {
        KernelCycle first = cycle("zone shared 64k;\n", null);
        SharedZone z = zone(first, "shared");
        z.getAndAddLong(counter(z), 5);
        KernelCycle second = cycle("other_zone shared 64k;\n", first);
        SharedZone z2 = zone(second, "shared");
        assertFalse(z2.reused());
        assertEquals("other", z2.tag());
        assertEquals(0, z2.slab().data());
    }

    @Test
    void failedReloadLeavesTheOldZonesAsTheyWere() throws Exception {
        KernelCycle first = cycle("zone one 64k;\n", null);
        SharedZone one = zone(first, "one");
        one.getAndAddLong(counter(one), 3);
        KernelCycle failed = cycle("zone one 64k;\nzone extra 64k;\n", first);
        int extraFd = zone(failed, "extra").fd();
        // the builder's failure path after zones were made
        failed.releaseSharedZones();
        assertFalse(isMemfd(extraFd, "extra"));
        assertTrue(isMemfd(one.fd(), "one"));
        assertEquals(3, one.getLongVolatile(one.slab().data()));
        KernelCycle next = cycle("zone one 64k;\n", first);
        assertTrue(zone(next, "one").reused());
    }

    @Test
    void conflictingDeclarationsFailWithNginxsMessages() throws Exception {
        fixture.write("conf/jinx.conf", "zone one 64k;\nzone one 128k;\n");
        ConfException size = fixture.fail(fixture.confFile(), fixture.modules(j -> new ZoneModule()), null);
        assertEquals(fixture.at("the size 131072 of shared memory zone \"one\" conflicts with already declared "
                                + "size 65536", 2), size.getMessage());

        fixture.write("conf/jinx.conf", "zone one 64k;\n\nother_zone one 64k;\n");
        ConfException use = fixture.fail(fixture.confFile(), fixture.modules(j -> new ZoneModule()), null);
        assertEquals(fixture.at("the shared memory zone \"one\" is already declared for a different use", 3),
                     use.getMessage());
    }

    @Test
    void zoneNobodySizedIsAnError() throws Exception {
        Path file = fixture.write("conf/jinx.conf", "zone ref 0;\n");
        KernelCycle cycle = fixture.build(file, fixture.modules(j -> new ZoneModule()), null);
        cycles.add(cycle);
        ConfException e = assertThrows(ConfException.class, () -> cycle.initSharedZones(null));
        assertEquals("zero size shared memory zone \"ref\"", e.getMessage());
    }

    @Test
    void acceptMutexZoneAndTheMastersUnlock() throws Exception {
        KernelCycle first = cycle("accept_zone;\nzone one 16k;\n", null);
        SharedZone zone = zone(first, SharedAcceptMutex.ZONE_NAME);
        assertEquals(SharedAcceptMutex.TAG, zone.tag());
        assertEquals(SharedZone.PAGE_SIZE, zone.size());
        EventLoop.AcceptMutex mutex = SharedAcceptMutex.of(zone);
        assertTrue(mutex.tryLock());
        assertFalse(SharedAcceptMutex.of(zone).tryLock());
        mutex.unlock();

        // a worker that died holding both: the master's reaping frees them, the accept mutex silently
        long dead = 3_999_999L;
        assertTrue(zone.compareAndSetLong(zone.lock().offset(), 0, dead));
        SharedZone one = zone(first, "one");
        assertTrue(one.compareAndSetLong(one.lock().offset(), 0, dead));
        assertEquals(2, first.unlockSharedZones(dead));
        assertTrue(mutex.tryLock());
        mutex.unlock();
        assertTrue(fixture.stderrText().contains("shared memory zone \"one\" was locked by 3999999"),
                   fixture.stderrText());
        assertFalse(fixture.stderrText().contains(SharedAcceptMutex.ZONE_NAME), fixture.stderrText());

        KernelCycle second = cycle("accept_zone;\n", first);
        assertTrue(zone(second, SharedAcceptMutex.ZONE_NAME).reused());
    }

    private static boolean isMemfd(int fd, String name) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString()
                .equals("/memfd:jinx:" + name + " (deleted)");
        } catch (IOException e) {
            return false;
        }
    }
}
