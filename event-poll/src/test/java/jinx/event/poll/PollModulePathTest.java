package jinx.event.poll;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.ServiceLoader;
import java.util.TreeSet;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JPMS smoke test: the module boots on a module path in its own layer, exports only the binding package,
 * is found by {@link ServiceLoader} there, and its probe links (which needs jnr-ffi to reach the exported
 * binding interface from outside the module).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class PollModulePathTest {

    @Test
    void bootsOnTheModulePath() throws Exception {
        String runtime = System.getProperty("jinx.runtime.path");
        String classes = System.getProperty("jinx.poll.classes");
        Assumptions.assumeTrue(runtime != null && classes != null, "run by Maven: the module path is not known");
        List<Path> path = new ArrayList<>();
        path.add(Path.of(classes));
        for (String entry : runtime.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                path.add(Path.of(entry));
            }
        }
        ModuleFinder finder = ModuleFinder.of(path.toArray(new Path[0]));
        // as --add-modules ALL-MODULE-PATH: automatic modules (jnr's, asm) declare nothing they need
        Set<String> roots = new TreeSet<>();
        finder.findAll().forEach(ref -> roots.add(ref.descriptor().name()));
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());

        ModuleDescriptor poll = layer.findModule("jinx.event.poll").orElseThrow().getDescriptor();
        Set<String> exports = new TreeSet<>();
        poll.exports().forEach(e -> {
            assertTrue(e.targets().isEmpty(), "unqualified: " + e);
            exports.add(e.source());
        });
        assertEquals(Set.of("jinx.event.poll.bind"), exports);

        ClassLoader loader = layer.findLoader("jinx.kernel");
        Class<?> spi = loader.loadClass("jinx.kernel.spi.JinxModule");
        Class<?> eventModule = loader.loadClass("jinx.kernel.spi.EventModule");
        Object found = null;
        for (Object m : ServiceLoader.load(layer, spi)) {
            if ("poll".equals(spi.getMethod("name").invoke(m))) {
                found = m;
            }
        }
        assertNotNull(found, "poll provided in the layer");
        assertEquals("jinx.event.poll", found.getClass().getModule().getName());
        Object context = spi.getMethod("context").invoke(found);
        assertEquals(Boolean.TRUE, eventModule.getMethod("isUsable").invoke(context));
    }
}
