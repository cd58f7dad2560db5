package jinx.kernel.internal.module;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Tests {@link ModuleSorter}: the built-in order, {@code after()}/{@code before()}, ties, and the error texts.
 */
class ModuleSorterTest {

    private static final List<String> BUILTIN = List.of("core", "errlog", "events", "event_core", "epoll", "http");

    /** A module that only has a name and order constraints. */
    private record Stub(String name, List<String> after, List<String> before) implements JinxModule {

        @Override
        public ModuleType type() {
            return ModuleType.CORE;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.CURRENT;
        }
    }

    private static Stub m(String name) {
        return new Stub(name, List.of(), List.of());
    }

    private static Stub after(String name, String... others) {
        return new Stub(name, List.of(others), List.of());
    }

    private static Stub before(String name, String... others) {
        return new Stub(name, List.of(), List.of(others));
    }

    private static List<String> names(List<JinxModule> modules) {
        return modules.stream().map(JinxModule::name).collect(Collectors.toList());
    }

    private static List<String> sort(JinxModule... modules) throws ConfException {
        return names(ModuleSorter.sort(List.of(modules), BUILTIN));
    }

    private static String error(JinxModule... modules) {
        return assertThrows(ConfException.class, () -> ModuleSorter.sort(List.of(modules), BUILTIN)).getMessage();
    }

    @Test
    @Timeout(10)
    void builtinOrderIsKeptWhateverTheInputOrder() throws ConfException {
        assertEquals(List.of("core", "events", "epoll", "http"), sort(m("http"), m("epoll"), m("core"), m("events")));
    }

    @Test
    @Timeout(10)
    void builtinsNotLoadedAreSkipped() throws ConfException {
        assertEquals(List.of("core", "http"), sort(m("http"), m("core")));
    }

    @Test
    @Timeout(10)
    void thirdPartyModuleWithoutConstraintsGoesAfterBuiltins() throws ConfException {
        assertEquals(List.of("core", "events", "http", "aaa"), sort(m("aaa"), m("http"), m("events"), m("core")));
    }

    @Test
    @Timeout(10)
    void tiesAreBrokenByName() throws ConfException {
        assertEquals(List.of("core", "alpha", "beta", "gamma"), sort(m("gamma"), m("core"), m("beta"), m("alpha")));
    }

    @Test
    @Timeout(10)
    void afterPlacesTheModuleBehindItsDependency() throws ConfException {
        assertEquals(List.of("core", "zeta", "alpha"), sort(after("alpha", "zeta"), m("zeta"), m("core")));
    }

    @Test
    @Timeout(10)
    void beforePlacesTheModuleAheadOfItsDependent() throws ConfException {
        assertEquals(List.of("core", "zeta", "alpha"), sort(m("alpha"), before("zeta", "alpha"), m("core")));
    }

    @Test
    @Timeout(10)
    void aThirdPartyModuleCanStandBetweenBuiltins() throws ConfException {
        assertEquals(List.of("core", "events", "gzip", "http"),
                     sort(m("http"), new Stub("gzip", List.of("events"), List.of("http")), m("events"), m("core")));
    }

    @Test
    @Timeout(10)
    void aChainOfConstraintsIsFollowed() throws ConfException {
        assertEquals(List.of("core", "http", "c", "b", "a"),
                     sort(after("a", "b"), after("b", "c"), after("c", "http"), m("http"), m("core")));
    }

    @Test
    @Timeout(10)
    void orderIsTheSameUnderShuffles() throws ConfException {
        List<JinxModule> modules = new ArrayList<>(List.of(
            m("core"), m("events"), m("epoll"), m("http"), after("x", "http"), before("y", "x"), m("b"), m("a"),
            new Stub("z", List.of("core"), List.of("events")), after("w", "a", "b")));
        List<String> expected = names(ModuleSorter.sort(modules, BUILTIN));
        assertEquals(List.of("core", "z", "events", "epoll", "http", "a", "b", "w", "y", "x"), expected);
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            Collections.shuffle(modules, random);
            assertEquals(expected, names(ModuleSorter.sort(modules, BUILTIN)));
        }
    }

    @Test
    @Timeout(10)
    void inputListIsNotModified() throws ConfException {
        List<JinxModule> modules = new ArrayList<>(List.of(m("http"), m("core")));
        ModuleSorter.sort(modules, BUILTIN);
        assertEquals(List.of("http", "core"), names(modules));
    }

    @Test
    @Timeout(10)
    void cycleIsReportedFromTheSmallestName() {
        assertEquals("modules \"a\" and \"b\" are ordered in a cycle: a -> b -> c -> a",
                     error(after("b", "a"), after("c", "b"), after("a", "c"), m("core")));
    }

    @Test
    @Timeout(10)
    void cycleIsReportedTheSameUnderShuffles() {
        // p -> q -> r -> p, and y <-> x; "a" and "tail" stand after the cycle without being in it.
        List<JinxModule> modules = new ArrayList<>(List.of(
            m("core"), new Stub("q", List.of("p"), List.of("r")), after("p", "r"), m("r"), after("tail", "q"),
            after("a", "tail"), after("x", "y"), after("y", "x")));
        String expected = "modules \"p\" and \"q\" are ordered in a cycle: p -> q -> r -> p";
        Random random = new Random(7);
        for (int i = 0; i < 50; i++) {
            Collections.shuffle(modules, random);
            assertEquals(expected,
                         assertThrows(ConfException.class, () -> ModuleSorter.sort(modules, BUILTIN)).getMessage());
        }
    }

    @Test
    @Timeout(10)
    void constraintAgainstTheBuiltinOrderIsACycle() {
        assertEquals("modules \"core\" and \"http\" are ordered in a cycle: core -> http -> core",
                     error(m("core"), before("http", "core")));
    }

    @Test
    @Timeout(10)
    void selfReferenceIsACycle() {
        assertEquals("modules \"a\" and \"a\" are ordered in a cycle: a -> a", error(after("a", "a")));
    }

    @Test
    @Timeout(10)
    void missingAfterDependency() {
        assertEquals("module \"a\" is ordered after \"x\", which is not loaded", error(after("a", "x"), m("core")));
    }

    @Test
    @Timeout(10)
    void missingBeforeDependency() {
        assertEquals("module \"a\" is ordered before \"x\", which is not loaded", error(before("a", "x"), m("core")));
    }

    @Test
    @Timeout(10)
    void duplicateName() {
        assertEquals("module \"echo\" is already loaded", error(m("core"), m("echo"), after("echo", "core")));
    }

    @Test
    @Timeout(10)
    void checkUniqueAcceptsDistinctNames() throws ConfException {
        ModuleSorter.checkUnique(List.of(m("a"), m("b")));
    }
}
