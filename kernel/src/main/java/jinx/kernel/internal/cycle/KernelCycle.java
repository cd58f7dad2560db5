package jinx.kernel.internal.cycle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.module.ModuleSorter;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.TypedConfs;

/**
 * The kernel's {@link Cycle}: the module list with its indexes, the core modules' conf objects, the files read
 * and the error log.
 */
public final class KernelCycle implements Cycle {

    private final Path prefix;
    private final Path confFile;
    private final ModuleIndexes indexes;
    private final List<String> builtinOrder;
    private final boolean test;
    private final List<JinxModule> unsorted = new ArrayList<>();
    private final Map<JinxModule, Path> jars = new IdentityHashMap<>();
    private final Map<JinxModule, LoadedModule> entries = new IdentityHashMap<>();
    private final List<ConfFile> files = new ArrayList<>();
    private List<LoadedModule> order = List.of();
    private Object[] coreConfs = new Object[0];
    private boolean modulesUsed;
    private int modulesVersion;
    private ErrorLog log;
    private final List<Listening> listening = new ArrayList<>();
    private EventLoop eventLoop;

    KernelCycle(Path prefix, Path confFile, ModuleIndexes indexes, List<String> builtinOrder, boolean test,
                ErrorLog log) {
        this.prefix = prefix;
        this.confFile = confFile;
        this.indexes = indexes;
        this.builtinOrder = builtinOrder;
        this.test = test;
        this.log = log;
    }

    /**
     * A file the configuration read, kept for {@code jinx -T} and for the workers' snapshot.
     *
     * @param path the absolute file
     * @param content its bytes
     */
    public record ConfFile(Path path, byte[] content) {
    }

    @Override
    public Path prefix() {
        return prefix;
    }

    @Override
    public Path confPrefix() {
        Path dir = confFile.getParent();
        return dir != null ? dir : prefix;
    }

    @Override
    public Path confFile() {
        return confFile;
    }

    @Override
    public ErrorLog log() {
        return log;
    }

    void log(ErrorLog newLog) {
        log = newLog;
    }

    /**
     * Tells whether the cycle is only a configuration test ({@code -t}, {@code -T}).
     *
     * @return true for a test
     */
    public boolean isTest() {
        return test;
    }

    /**
     * Returns the files the configuration read, in the order read.
     *
     * @return the files
     */
    public List<ConfFile> files() {
        return List.copyOf(files);
    }

    void addFile(ConfFile file) {
        files.add(file);
    }

    /**
     * Tells whether the module list is fixed: a block holding modules of some type has been opened, so a
     * {@code load_module} now is "specified too late".
     *
     * @return true once the list is fixed
     */
    public boolean modulesUsed() {
        return modulesUsed;
    }

    ModuleIndexes indexes() {
        return indexes;
    }

    int modulesVersion() {
        return modulesVersion;
    }

    /**
     * Adds modules to the cycle, orders the whole list again and creates the conf objects of the new core
     * modules (nginx's {@code ngx_add_module()}).
     *
     * @param modules the modules
     * @param jar the jar they came from, or null for built-in modules
     * @throws ConfException for a name already loaded, or an order that cannot be satisfied
     */
    public void addModules(List<JinxModule> modules, Path jar) throws ConfException {
        for (JinxModule m : modules) {
            if (module(m.name()) != null || modules.stream().filter(o -> o.name().equals(m.name())).count() > 1) {
                throw new ConfException("module \"" + m.name() + "\" is already loaded");
            }
        }
        List<JinxModule> all = new ArrayList<>(unsorted);
        all.addAll(modules);
        List<JinxModule> sorted = ModuleSorter.sort(all, builtinOrder);
        unsorted.addAll(modules);
        for (JinxModule m : modules) {
            if (jar != null) {
                jars.put(m, jar);
            }
        }
        reindex(sorted);
        // in module order, as ngx_init_cycle() calls create_conf, not in the order the modules were handed over
        for (LoadedModule entry : order) {
            JinxModule m = entry.module();
            if (modules.stream().anyMatch(added -> added == m) && m.type().equals(ModuleType.CORE)
                && m.context() instanceof CoreModule core) {
                coreConfs[entry.index()] = core.createConf(this);
            }
        }
    }

    private void reindex(List<JinxModule> sorted) {
        List<LoadedModule> list = new ArrayList<>(sorted.size());
        entries.clear();
        int max = 0;
        for (JinxModule m : sorted) {
            int index = indexes.index(m.name());
            int typeIndex = indexes.typeIndex(m.type(), m.name());
            LoadedModule entry = new LoadedModule(m, index, typeIndex, jars.get(m), Versions.of(m));
            list.add(entry);
            entries.put(m, entry);
            max = Math.max(max, index + 1);
        }
        order = List.copyOf(list);
        if (coreConfs.length < max) {
            coreConfs = Arrays.copyOf(coreConfs, max);
        }
        modulesVersion++;
    }

    @Override
    public List<LoadedModule> modules() {
        return order;
    }

    @Override
    public List<LoadedModule> modules(ModuleType type) {
        modulesUsed = true;
        List<LoadedModule> list = new ArrayList<>();
        for (LoadedModule m : order) {
            if (m.module().type().equals(type)) {
                list.add(m);
            }
        }
        return list;
    }

    @Override
    public LoadedModule module(String name) {
        for (LoadedModule m : order) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }

    @Override
    public LoadedModule entry(JinxModule module) {
        LoadedModule entry = entries.get(module);
        if (entry == null) {
            throw new IllegalArgumentException("module \"" + module.name() + "\" is not in this cycle");
        }
        return entry;
    }

    @Override
    public <T> T conf(JinxModule module, Class<T> type) {
        LoadedModule entry = entry(module);
        Object conf = module.type().equals(ModuleType.CORE) ? coreConfs[entry.index()] : typedConf(entry);
        return type.isInstance(conf) ? type.cast(conf) : null;
    }

    @Override
    public <T> T conf(String name, Class<T> type) {
        LoadedModule entry = module(name);
        return entry == null ? null : conf(entry.module(), type);
    }

    private Object typedConf(LoadedModule entry) {
        for (Object c : coreConfs) {
            if (c instanceof TypedConfs tc && tc.type().equals(entry.module().type())) {
                return tc.get(entry.typeIndex());
            }
        }
        return null;
    }

    Object coreConf(LoadedModule entry) {
        return coreConfs[entry.index()];
    }

    @Override
    public List<Listening> listening() {
        return Collections.unmodifiableList(listening);
    }

    @Override
    public void addListening(Listening ls) {
        listening.add(ls);
    }

    @Override
    public EventLoop eventLoop() {
        return eventLoop;
    }

    /**
     * Sets this process's event loop: the event core module does it when the process starts serving.
     *
     * @param loop the loop
     */
    public void eventLoop(EventLoop loop) {
        eventLoop = loop;
    }
}
