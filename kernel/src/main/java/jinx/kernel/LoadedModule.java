package jinx.kernel;

import java.nio.file.Path;

import jinx.kernel.spi.JinxModule;

/**
 * A module as a cycle holds it: the module, its global index and its index among the modules of its type (both
 * stable across cycles, as nginx's {@code index} and {@code ctx_index}), and where it came from.
 *
 * @param module the module
 * @param index the global index
 * @param typeIndex the index among modules of the same type
 * @param jar the jar or directory {@code load_module} named, or null for a built-in module
 * @param version the module's version, or {@code "-"} when it has none
 */
public record LoadedModule(JinxModule module, int index, int typeIndex, Path jar, String version) {

    /**
     * Returns the module's name.
     *
     * @return the name
     */
    public String name() {
        return module.name();
    }

    /**
     * Tells whether the module is built in, as opposed to loaded with {@code load_module}.
     *
     * @return true for a built-in module
     */
    public boolean isStatic() {
        return jar == null;
    }
}
