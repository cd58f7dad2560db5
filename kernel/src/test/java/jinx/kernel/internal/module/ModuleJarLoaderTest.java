package jinx.kernel.internal.module;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.spi.ApiVersion;

/**
 * Tests {@link ModuleJarLoader} with real jars, compiled by {@link TestJars}, loaded by the real loader.
 *
 * <p>These tests run on the class path, where the kernel has no layer. So they build one: {@code jinx.kernel}
 * and its dependencies defined afresh in a layer over the boot layer, with the platform loader as parent so that
 * no class comes from the class path's copy. The test reaches that layer's {@code ModuleJarLoader} by reflection;
 * its package is not exported, so the layer's controller exports it to this test's unnamed module. Results are
 * objects of the layer's classes, so they are read by reflection as well.
 */
class ModuleJarLoaderTest {

    private static final String PACKAGE = ModuleJarLoader.class.getPackageName();

    private static ModuleLayer kernelLayer;
    private static ClassLoader kernelLoader;
    private static Method load;
    private static Method name;

    @TempDir
    Path tmp;

    @BeforeAll
    static void defineKernelLayer() throws ReflectiveOperationException {
        ModuleFinder finder = ModuleFinder.of(TestJars.kernelModulePath().toArray(new Path[0]));
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("jinx.kernel"));
        ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(
            cf, List.of(boot), ClassLoader.getPlatformClassLoader());
        kernelLayer = controller.layer();
        Module kernel = kernelLayer.findModule("jinx.kernel").orElseThrow();
        controller.addExports(kernel, PACKAGE, ModuleJarLoaderTest.class.getModule());
        kernelLoader = kernelLayer.findLoader("jinx.kernel");
        Class<?> loader = kernelLoader.loadClass(ModuleJarLoader.class.getName());
        load = loader.getMethod("load", Path.class, ModuleLayer.class, ClassLoader.class);
        name = kernelLoader.loadClass("jinx.kernel.spi.JinxModule").getMethod("name");
    }

    /** Calls the kernel layer's {@code ModuleJarLoader.load}, returning the modules' names. */
    private static List<String> load(Path path) throws Exception {
        List<String> names = new ArrayList<>();
        try {
            for (Object module : (List<?>) load.invoke(null, path, kernelLayer, kernelLoader)) {
                names.add((String) name.invoke(module));
            }
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
        return names;
    }

    /** Returns the text of the ConfException the kernel layer's loader throws. */
    private static String error(Path path) {
        Exception e = assertThrows(Exception.class, () -> load(path));
        assertEquals("jinx.kernel.ConfException", e.getClass().getName(), () -> "not a ConfException: " + e);
        return e.getMessage();
    }

    @Test
    @Timeout(60)
    void goodJarLoadsOnlyItsOwnModule() throws Exception {
        Path jar = TestJars.simpleModuleJar(tmp, "hello", "hello_text");
        // The kernel layer provides its built-in modules too; the loader must not return them.
        assertEquals(List.of("hello"), load(jar));
    }

    @Test
    @Timeout(60)
    void olderMinorIsAccepted() throws Exception {
        assumeTrue(ApiVersion.MINOR > 0, "the API has no older minor version yet");
        Path jar = TestJars.jar(tmp, "jinx.test.older", TestJars.simpleModule(
            "jinx.test.older", "older", ApiVersion.MAJOR, ApiVersion.MINOR - 1, "older_text"));
        assertEquals(List.of("older"), load(jar));
    }

    @Test
    @Timeout(60)
    void newerMinorIsRefused() throws Exception {
        Path jar = TestJars.jar(tmp, "jinx.test.newer", TestJars.simpleModule(
            "jinx.test.newer", "newer", ApiVersion.MAJOR, ApiVersion.MINOR + 5, "newer_text"));
        assertEquals("module \"" + jar + "\" version " + ApiVersion.MAJOR + "." + (ApiVersion.MINOR + 5)
                     + " instead of " + ApiVersion.CURRENT, error(jar));
    }

    @Test
    @Timeout(60)
    void differentMajorIsRefused() throws Exception {
        Path jar = TestJars.jar(tmp, "jinx.test.major", TestJars.simpleModule(
            "jinx.test.major", "major", ApiVersion.MAJOR + 1, 0, "major_text"));
        assertEquals("module \"" + jar + "\" is not binary compatible", error(jar));
    }

    @Test
    @Timeout(60)
    void missingFile() {
        Path jar = tmp.resolve("nope.jar");
        assertEquals("load_module \"" + jar + "\" failed (No such file or directory)", error(jar));
    }

    @Test
    @Timeout(60)
    void jarWithoutProvider() throws Exception {
        Path jar = TestJars.jar(tmp, "jinx.test.empty", Map.of(
            "module-info.java", TestJars.moduleInfo("jinx.test.empty", null),
            "jinx/test/empty/Nothing.java", "package jinx.test.empty;\n\npublic final class Nothing {\n}\n"));
        assertEquals("module \"" + jar + "\" provides no jinx.kernel.spi.JinxModule", error(jar));
    }

    @Test
    @Timeout(60)
    void fileThatIsNotAJar() throws Exception {
        Path file = Files.writeString(tmp.resolve("hello.txt"), "not a jar\n");
        // The reason is the JDK's FindException message.
        assertEquals("load_module \"" + file + "\" failed (Module format not recognized: " + file + ")", error(file));
    }

    @Test
    @Timeout(60)
    void providerWhoseConstructorThrows() throws Exception {
        Path jar = TestJars.jar(tmp, "jinx.test.boom", TestJars.simpleModule(
            "jinx.test.boom", "boom", ApiVersion.MAJOR, ApiVersion.MINOR, "boom_text",
            "    public TestModule() { throw new IllegalStateException(\"boom\"); }"));
        assertEquals("load_module \"" + jar + "\" failed (boom)", error(jar));
    }

    @Test
    @Timeout(60)
    void directoryOfJarsLoadsAModuleWithItsDependency() throws Exception {
        Path lib = tmp.resolve("greeter");
        buildGreeter(lib);
        assertEquals(List.of("greeter"), load(lib));
    }

    @Test
    @Timeout(60)
    void directoryWithoutTheDependencyIsRefused() throws Exception {
        Path lib = tmp.resolve("greeter");
        Path greeting = buildGreeter(lib);
        Files.delete(greeting);
        assertEquals("load_module \"" + lib + "\" failed (Module jinx.test.greeting not found, required by "
                     + "jinx.test.greeter)", error(lib));
    }

    @Test
    @Timeout(60)
    void sameJarLoadsTwiceIntoTwoLayers() throws Exception {
        // A reload loads the jar again in a new layer, beside the one the old cycle still holds.
        Path jar = TestJars.simpleModuleJar(tmp, "again", "again_text");
        assertEquals(List.of("again"), load(jar));
        assertEquals(List.of("again"), load(jar));
    }

    @Test
    @Timeout(60)
    void kernelLayerIsNullOnTheClassPathAndTheLayerOnTheModulePath() throws ReflectiveOperationException {
        assertNull(ModuleJarLoader.kernelLayer());
        Method m = kernelLoader.loadClass(ModuleJarLoader.class.getName()).getMethod("kernelLayer");
        assertSame(kernelLayer, m.invoke(null));
        assertEquals("\"load_module\" requires the server on the module path", ModuleJarLoader.NEEDS_MODULE_PATH);
    }

    /**
     * Builds, in {@code lib}, {@code jinx.test.greeting}, a plain library, and {@code jinx.test.greeter}, a module
     * whose name it takes from the library.
     */
    private static Path buildGreeter(Path lib) throws IOException {
        Path greeting = TestJars.jar(lib, "jinx.test.greeting", Map.of(
            "module-info.java", "module jinx.test.greeting {\n    exports jinx.test.greeting;\n}\n",
            "jinx/test/greeting/Greeting.java", String.join("\n",
                "package jinx.test.greeting;",
                "",
                "public final class Greeting {",
                "    public static String name() { return \"greeter\"; }",
                "}",
                "")));
        Map<String, String> greeter = new LinkedHashMap<>(TestJars.simpleModule(
            "jinx.test.greeter", "greeter", ApiVersion.MAJOR, ApiVersion.MINOR, "greeter_text"));
        greeter.put("module-info.java",
                    TestJars.moduleInfo("jinx.test.greeter", "jinx.test.greeter.TestModule", "jinx.test.greeting"));
        String source = "jinx/test/greeter/TestModule.java";
        greeter.put(source, greeter.get(source).replace("return \"greeter\";",
                                                        "return jinx.test.greeting.Greeting.name();"));
        TestJars.jar(lib, "jinx.test.greeter", greeter, greeting);
        return greeting;
    }
}
