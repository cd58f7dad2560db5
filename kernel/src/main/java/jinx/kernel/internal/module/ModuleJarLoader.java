package jinx.kernel.internal.module;

import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolutionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;

/**
 * Loads the modules of a jar named by {@code load_module}: the {@code dlopen()} and {@code dlsym()} half of
 * nginx's {@code ngx_load_module()} ({@code src/core/nginx.c}), and its version check.
 *
 * <p>Each jar, or directory of jars for a module with dependencies, gets a {@link ModuleLayer} of its own whose
 * parent is the kernel's layer; its modules are every module the jar holds, and they share one class loader. A
 * reload builds new layers, so a jar can be added, removed or replaced between cycles; the old layer goes when the
 * old cycle's modules are no longer referenced.
 *
 * <p>Every error is a {@link ConfException} whose text has no place; the caller adds the directive's.
 */
public final class ModuleJarLoader {

    /** The error {@code load_module} reports when the kernel runs on the class path, where it has no layer. */
    public static final String NEEDS_MODULE_PATH = "\"load_module\" requires the server on the module path";

    private static final String NO_SUCH_FILE = "No such file or directory";

    private ModuleJarLoader() {
    }

    /**
     * Returns the kernel's module layer, the parent of every layer {@link #load} builds.
     *
     * @return the layer, or null when the kernel is on the class path ({@link #NEEDS_MODULE_PATH})
     */
    public static ModuleLayer kernelLayer() {
        return JinxModule.class.getModule().getLayer();
    }

    /**
     * Loads the modules a jar provides.
     *
     * @param path the jar, or a directory of jars, as the directive wrote it, resolved to an absolute path
     * @param parent the layer the jar's modules resolve against, normally {@link #kernelLayer()}
     * @param parentLoader the class loader the new layer's loader delegates to for classes outside any module
     * @return the jar's modules, instantiated and checked, in the order {@link ServiceLoader} found them
     * @throws ConfException {@code load_module "path" failed (reason)} when the jar is missing or its layer or a
     *     module cannot be made; {@code module "path" provides no jinx.kernel.spi.JinxModule};
     *     {@code module "path" is not binary compatible} for a different major API version;
     *     {@code module "path" version 1.5 instead of 1.0} for a newer minor one
     */
    public static List<JinxModule> load(Path path, ModuleLayer parent, ClassLoader parentLoader)
        throws ConfException {
        if (!Files.exists(path)) {
            throw failed(path, NO_SUCH_FILE, null);
        }
        ModuleLayer layer = defineLayer(path, parent, parentLoader);
        List<JinxModule> modules = instantiate(path, layer);
        if (modules.isEmpty()) {
            throw new ConfException("module \"" + path + "\" provides no " + JinxModule.class.getName());
        }
        for (JinxModule m : modules) {
            checkVersion(path, m);
        }
        return modules;
    }

    private static ModuleLayer defineLayer(Path path, ModuleLayer parent, ClassLoader parentLoader)
        throws ConfException {
        try {
            ModuleFinder finder = ModuleFinder.of(path);
            // Every module in the jar (or directory) is a root: a module with dependencies ships them beside it,
            // and binding adds nothing else, since the finder holds nothing else.
            Set<String> roots = new TreeSet<>();
            for (ModuleReference ref : finder.findAll()) {
                roots.add(ref.descriptor().name());
            }
            Configuration cf = parent.configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
            return ModuleLayer.defineModulesWithOneLoader(cf, List.of(parent), parentLoader).layer();
        } catch (FindException | ResolutionException | LayerInstantiationException | SecurityException e) {
            throw failed(path, reason(e), e);
        }
    }

    private static List<JinxModule> instantiate(Path path, ModuleLayer layer) throws ConfException {
        List<JinxModule> modules = new ArrayList<>();
        try {
            // ServiceLoader.load(layer, ...) also yields the providers of the parent layers: the kernel's own
            // modules and those of other load_module jars. Only the providers defined in this layer are the jar's.
            for (ServiceLoader.Provider<JinxModule> p : ServiceLoader.load(layer, JinxModule.class)
                     .stream().toList()) {
                if (p.type().getModule().getLayer() == layer) {
                    modules.add(p.get());
                }
            }
        } catch (ServiceConfigurationError e) {
            // The provider's constructor threw, or its class could not be linked: report what it said.
            throw failed(path, reason(e.getCause() != null ? e.getCause() : e), e);
        } catch (RuntimeException | LinkageError e) {
            throw failed(path, reason(e), e);
        }
        return modules;
    }

    private static void checkVersion(Path path, JinxModule m) throws ConfException {
        ApiVersion v;
        try {
            v = m.builtFor();
        } catch (RuntimeException | LinkageError e) {
            // AbstractMethodError: a module built against an SPI without builtFor() is not one of ours.
            throw failed(path, reason(e), e);
        }
        if (v == null || v.major() != ApiVersion.MAJOR) {
            throw new ConfException("module \"" + path + "\" is not binary compatible");
        }
        // A newer minor may call what this kernel lacks; an older one only misses additions, which have defaults.
        if (v.minor() > ApiVersion.MINOR) {
            throw new ConfException("module \"" + path + "\" version " + v + " instead of " + ApiVersion.CURRENT);
        }
    }

    private static ConfException failed(Path path, String reason, Throwable cause) {
        return new ConfException("load_module \"" + path + "\" failed (" + reason + ")", cause);
    }

    private static String reason(Throwable e) {
        String message = e.getMessage();
        return message != null ? message : e.getClass().getName();
    }
}
