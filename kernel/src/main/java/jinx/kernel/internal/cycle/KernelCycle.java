package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
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
import jinx.kernel.SharedAcceptMutex;
import jinx.kernel.SharedZone;
import jinx.kernel.TempPath;
import jinx.kernel.internal.module.ModuleSorter;
import jinx.kernel.internal.shm.ZoneTable;
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
    private final FileSource source;
    private ConfSnapshot snapshot;
    private final List<JinxModule> unsorted = new ArrayList<>();
    private final Map<JinxModule, Path> jars = new IdentityHashMap<>();
    /* where the load_module of each jar stands */
    private final Map<Path, Place> loadedAt = new java.util.HashMap<>();
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
                ErrorLog log, FileSource source) {
        this.source = source;
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
     * Returns where the configuration is read from while the cycle is built: the disk, or a worker's snapshot.
     * The kernel's {@code include} and {@code load_module} read through it.
     *
     * @return the source
     */
    public FileSource fileSource() {
        return source;
    }

    /**
     * Returns what a worker needs to build this cycle again without the disk: every configuration byte read, the
     * glob expansions, the cached module jars, the listening sockets and the values the master resolved.
     *
     * @return the snapshot of a cycle built to serve ({@link CycleOptions.Purpose#RUN}), else null
     */
    public ConfSnapshot snapshot() {
        return snapshot;
    }

    void snapshot(ConfSnapshot sealed) {
        snapshot = sealed;
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

    /**
     * Records where the {@code load_module} of a jar stands, for the errors its modules cause later
     * ({@code initModule}, {@code initProcess}).
     *
     * @param jar the jar as {@link #addModules} was given it
     * @param file the configuration file
     * @param line the directive's line
     */
    public void loadedAt(Path jar, String file, int line) {
        loadedAt.put(jar, new Place(file, line));
    }

    /**
     * A place in the configuration.
     *
     * @param file the absolute file name
     * @param line the line, from 1
     */
    public record Place(String file, int line) {
        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    /**
     * Returns where the {@code load_module} that loaded a module stands.
     *
     * @param m a module of this cycle
     * @return the place, or null for a built-in module
     */
    public Place loadedAt(LoadedModule m) {
        return m.jar() == null ? null : loadedAt.get(m.jar());
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

    /* ---- the worker's number (nginx's ngx_worker) ---- */

    private int worker;

    /**
     * Returns this process's worker number, its slot in the master's table (nginx's {@code ngx_worker}): which
     * {@code reuseport} clone it accepts on, which {@code worker_cpu_affinity} mask it takes. 0 in a single
     * process.
     *
     * @return the number
     */
    public int worker() {
        return worker;
    }

    /**
     * Sets this process's worker number, as the worker starts.
     *
     * @param n the number
     */
    public void worker(int n) {
        worker = n;
    }

    /* ---- the owner of reopened files (nginx's ngx_reopen_files(cycle, ccf->user) in the master) ---- */

    private int filesOwner = -1;

    /**
     * Sets the user that {@link #ownReopenedFile} gives files to: the master's {@code user} when it runs as root.
     *
     * @param uid the uid, negative for none (the default: a worker, a single process)
     */
    public void filesOwner(int uid) {
        filesOwner = uid;
    }

    @Override
    public void ownReopenedFile(Path file) {
        ReopenedFiles.own(file, filesOwner, log());
    }

    /* ---- the files written (nginx's cycle->open_files) ---- */

    private final OpenFiles openFiles = new OpenFiles();

    @Override
    public WritableByteChannel openFile(Path file) throws IOException {
        return openFiles.open(file);
    }

    /**
     * Returns the files this cycle opened through {@link #openFile}, and those a reload in place passed it.
     *
     * @return the files
     */
    public OpenFiles openFiles() {
        return openFiles;
    }

    /* ---- directories for temporary files (nginx's cycle->paths) ---- */

    private final List<TempPath> paths = new ArrayList<>();

    @Override
    public void addPath(TempPath path) throws ConfException {
        for (TempPath p : paths) {
            if (p.dir().equals(path.dir())) {
                path.checkSameLevels(p);
                return;
            }
        }
        paths.add(path);
    }

    @Override
    public List<TempPath> paths() {
        return List.copyOf(paths);
    }

    /* ---- shared memory zones (nginx's cycle->shared_memory) ---- */

    private final ZoneTable sharedZones = new ZoneTable();

    @Override
    public SharedZone sharedZone(String name, long size, String tag) throws ConfException {
        return sharedZones.add(name, size, tag);
    }

    @Override
    public List<SharedZone> sharedZones() {
        return sharedZones.zones();
    }

    /**
     * Gives the declared zones their memory, in the master, once the configuration is parsed and before
     * {@code initModule} (nginx's "create shared memory" step of {@code ngx_init_cycle()}): a zone of
     * {@code old} with the same name, size and tag is taken over with its contents, every other one is created
     * empty. If building the cycle fails afterwards, call {@link #releaseSharedZones()} on it.
     *
     * @param old the cycle in force, or null at start
     * @throws ConfException {@code zero size shared memory zone "x"}, or when memory cannot be made
     */
    public void initSharedZones(KernelCycle old) throws ConfException {
        sharedZones.create(old == null ? null : old.sharedZones, log);
    }

    /**
     * Maps the declared zones from the descriptors a worker inherited (attach mode: nothing is created).
     *
     * @param fds each zone's descriptor by zone name; the zones own them from now on
     * @throws ConfException when a zone was not inherited or its descriptor is not that zone
     */
    public void attachSharedZones(Map<String, Integer> fds) throws ConfException {
        sharedZones.attach(fds, log);
    }

    /**
     * Releases every zone lock a reaped worker held (nginx's {@code ngx_unlock_mutexes()}), logging
     * {@code shared memory zone "x" was locked by PID} except for the accept mutex; nothing once the zones are
     * {@linkplain #releaseSharedZones() released} (a late reap of an old cycle's worker).
     *
     * @param pid the reaped worker
     * @return how many locks it held
     */
    public int unlockSharedZones(long pid) {
        return sharedZones.forceUnlock(pid, log, SharedAcceptMutex.TAG);
    }

    /**
     * Drops this cycle's hold on its zones: the old cycle once the new one is in force (memory the new cycle took
     * over lives on), or a new cycle that failed. Idempotent.
     */
    public void releaseSharedZones() {
        sharedZones.release();
    }
}
