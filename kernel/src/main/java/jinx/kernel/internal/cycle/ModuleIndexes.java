package jinx.kernel.internal.cycle;

import java.util.HashMap;
import java.util.Map;

import jinx.kernel.spi.ModuleType;

/**
 * Global and per-type module indexes by module name, carried from cycle to cycle so that a module keeps its
 * indexes across reloads (nginx keeps {@code index} and {@code ctx_index} the same way in
 * {@code ngx_module_index()} and {@code ngx_module_ctx_index()}), and per-type conf arrays stay plain arrays.
 */
final class ModuleIndexes {

    private final Map<String, Integer> global;
    private final Map<ModuleType, Map<String, Integer>> byType;

    ModuleIndexes() {
        this(new HashMap<>(), new HashMap<>());
    }

    private ModuleIndexes(Map<String, Integer> global, Map<ModuleType, Map<String, Integer>> byType) {
        this.global = global;
        this.byType = byType;
    }

    /** A copy for a new cycle: if that cycle fails, the old one's indexes are untouched. */
    ModuleIndexes copy() {
        Map<ModuleType, Map<String, Integer>> types = new HashMap<>();
        byType.forEach((type, map) -> types.put(type, new HashMap<>(map)));
        return new ModuleIndexes(new HashMap<>(global), types);
    }

    int index(String name) {
        return global.computeIfAbsent(name, n -> global.size());
    }

    int typeIndex(ModuleType type, String name) {
        Map<String, Integer> map = byType.computeIfAbsent(type, t -> new HashMap<>());
        return map.computeIfAbsent(name, n -> map.size());
    }
}
