package jinx.kernel.internal.cycle;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.spi.JinxModule;

/**
 * What a master used to build a cycle, sealed so that a worker builds the same cycle without reading the disk:
 * nginx's workers inherit the parsed cycle through {@code fork()}, ours rebuild it from this in attach mode
 * ({@link CycleBuilder#attach}). The master gets it from {@link KernelCycle#snapshot()} after a
 * {@link CycleOptions.Purpose#RUN} build, writes it into a descriptor the workers inherit ({@link #writeTo(int)},
 * a memfd), and a worker reads it back ({@link #readFrom(int)}).
 *
 * <p>The binary format ({@link SnapshotCodec}) is versioned; a worker refuses a snapshot of another version or
 * written by another Jinx.
 *
 * @param jinxVersion the Jinx that wrote it ({@link Versions#JINX}): a worker of another one refuses it
 * @param prefix the absolute prefix ({@code -p})
 * @param confFile the absolute main configuration file ({@code -c})
 * @param params the {@code -g} directives, or null
 * @param errorLog the {@code -e} error log, or null
 * @param files every configuration file read, with its bytes, in the order read (main file, includes,
 *     {@code mime.types}...), a file included twice twice
 * @param globs every {@code include} pattern's expansion as it was, in the order expanded
 * @param jars every {@code load_module} jar and its copy in the module cache, in the order loaded
 * @param listening the cycle's listening sockets in order: the worker receives their descriptors at the same
 *     positions
 * @param resolved the values the master resolved that a worker must not resolve again, or null when the cycle
 *     has no {@code core} module
 * @param openFiles the files the master opened for the cycle ({@link OpenFiles}), in order: a reload in place
 *     sends their descriptors in this order
 */
public record ConfSnapshot(String jinxVersion, Path prefix, Path confFile, String params, String errorLog,
                           List<KernelCycle.ConfFile> files, List<Glob> globs, List<ModuleJar> jars,
                           List<ListenSocket> listening, Resolved resolved, List<Path> openFiles) {

    /**
     * A snapshot that names no open file.
     *
     * @param jinxVersion the writer's version
     * @param prefix the prefix
     * @param confFile the main configuration file
     * @param params the {@code -g} directives, or null
     * @param errorLog the {@code -e} error log, or null
     * @param files the files read
     * @param globs the patterns expanded
     * @param jars the jars loaded
     * @param listening the listening sockets
     * @param resolved the resolved core values, or null
     */
    public ConfSnapshot(String jinxVersion, Path prefix, Path confFile, String params, String errorLog,
                        List<KernelCycle.ConfFile> files, List<Glob> globs, List<ModuleJar> jars,
                        List<ListenSocket> listening, Resolved resolved) {
        this(jinxVersion, prefix, confFile, params, errorLog, files, globs, jars, listening, resolved, List.of());
    }

    /**
     * An {@code include} pattern and the files it matched, sorted.
     *
     * @param pattern the absolute pattern
     * @param matches the files
     */
    public record Glob(Path pattern, List<Path> matches) {

        /**
         * Checks and copies the parts.
         *
         * @param pattern the absolute pattern
         * @param matches the files
         */
        public Glob {
            Objects.requireNonNull(pattern, "pattern");
            matches = List.copyOf(matches);
        }
    }

    /**
     * A {@code load_module} jar, or directory of jars, and the copy that is loaded.
     *
     * @param path the jar as the directive named it, resolved against the prefix: what {@code jinx -m} shows
     * @param cached its copy in the module cache ({@link ModuleCache})
     * @param sha256 the copy's hash, which a worker checks before it loads it
     */
    public record ModuleJar(Path path, Path cached, String sha256) {

        /**
         * Checks the parts.
         *
         * @param path the jar as named
         * @param cached the copy
         * @param sha256 the hash
         */
        public ModuleJar {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(cached, "cached");
            Objects.requireNonNull(sha256, "sha256");
        }
    }

    /**
     * A listening socket as the master configured and bound it.
     *
     * @param address the configured address as nginx prints it ({@link jinx.kernel.Listening#addrText()})
     * @param bound the address the socket is bound to ({@code getsockname()}): differs for port 0
     * @param reuseport whether it is a {@code reuseport} socket
     * @param worker the worker a {@code reuseport} clone belongs to, or -1
     */
    public record ListenSocket(String address, String bound, boolean reuseport, int worker) {

        /**
         * Checks the parts.
         *
         * @param address the configured address
         * @param bound the bound address
         * @param reuseport whether {@code reuseport}
         * @param worker the worker, or -1
         */
        public ListenSocket {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(bound, "bound");
        }
    }

    /**
     * The {@code core} values the master resolved: a worker's JVM sees one processor and may not read the user
     * database the same way, so it takes these instead of resolving them again.
     *
     * @param workerProcesses {@code worker_processes}, {@code auto} resolved to the master's CPU count
     * @param user {@code user}'s name, or null
     * @param group {@code user}'s group, or null
     * @param uid the uid, or -1
     * @param gid the gid, or -1
     * @param cpuAffinity the {@code worker_cpu_affinity} masks, {@code auto} resolved
     */
    public record Resolved(int workerProcesses, String user, String group, int uid, int gid,
                           List<BitSet> cpuAffinity) {

        /**
         * Copies the masks.
         *
         * @param workerProcesses the worker count
         * @param user the user, or null
         * @param group the group, or null
         * @param uid the uid, or -1
         * @param gid the gid, or -1
         * @param cpuAffinity the masks
         */
        public Resolved {
            cpuAffinity = cpuAffinity.stream().map(b -> (BitSet) b.clone()).toList();
        }

        /**
         * Takes the values from a core conf the master initialised.
         *
         * @param c the conf
         * @return the values
         */
        public static Resolved of(CoreConf c) {
            return new Resolved(c.workerProcesses, c.user, c.group, c.uid, c.gid, c.cpuAffinity);
        }

        /**
         * Puts the values into a worker's core conf, over what the worker's own parse resolved.
         *
         * @param c the worker's conf, initialised
         */
        public void apply(CoreConf c) {
            c.workerProcesses = workerProcesses;
            c.user = user;
            c.group = group;
            c.uid = uid;
            c.gid = gid;
            c.cpuAffinity.clear();
            for (BitSet mask : cpuAffinity) {
                c.cpuAffinity.add((BitSet) mask.clone());
            }
        }
    }

    /**
     * Checks the parts and makes the lists unmodifiable.
     *
     * @param jinxVersion the writer's version
     * @param prefix the prefix
     * @param confFile the main configuration file
     * @param params the {@code -g} directives, or null
     * @param errorLog the {@code -e} error log, or null
     * @param files the files read
     * @param globs the patterns expanded
     * @param jars the jars loaded
     * @param listening the listening sockets
     * @param resolved the resolved core values, or null
     * @param openFiles the files opened
     */
    public ConfSnapshot {
        Objects.requireNonNull(jinxVersion, "jinxVersion");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(confFile, "confFile");
        files = List.copyOf(files);
        globs = List.copyOf(globs);
        jars = List.copyOf(jars);
        listening = List.copyOf(listening);
        openFiles = List.copyOf(openFiles);
    }

    /**
     * Returns the options that build this snapshot's cycle in a worker, with {@link CycleBuilder#attach}: its
     * prefix, configuration file, {@code -g} and {@code -e}, purpose {@link CycleOptions.Purpose#WORKER}.
     *
     * @param staticModules the built-in modules, fresh instances on every call (the master's own set)
     * @param builtinOrder the fixed order of the built-in modules
     * @param stderr the stream standing for stderr
     * @param log the log in force while the cycle is built
     * @return the options
     */
    public CycleOptions workerOptions(Supplier<List<JinxModule>> staticModules, List<String> builtinOrder,
                                      PrintStream stderr, ErrorLog log) {
        return new CycleOptions(prefix, confFile, params, errorLog, CycleOptions.Purpose.WORKER, staticModules,
            builtinOrder, stderr, log, null, this);
    }

    /**
     * Writes the snapshot in its binary format.
     *
     * @param out the stream; not closed
     * @throws IOException when it cannot be written
     */
    public void write(OutputStream out) throws IOException {
        SnapshotCodec.write(this, out);
    }

    /**
     * Reads a snapshot written by {@link #write}.
     *
     * @param in the stream; not closed
     * @return the snapshot
     * @throws IOException when it cannot be read, is truncated or damaged, or has another format version
     */
    public static ConfSnapshot read(InputStream in) throws IOException {
        return SnapshotCodec.read(in);
    }

    /**
     * Writes the snapshot into an open descriptor from its start, truncating it: the memfd a master creates for
     * its workers (seal it afterwards), or any file. The descriptor itself stays open and its offset unchanged:
     * the file is opened again through {@code /proc/self/fd}.
     *
     * @param fd the descriptor
     * @throws IOException when it cannot be written
     */
    public void writeTo(int fd) throws IOException {
        try (OutputStream out = new FileOutputStream(procFd(fd))) {
            write(out);
        }
    }

    /**
     * Reads a snapshot from an inherited descriptor, from its start, whatever the descriptor's offset; the
     * descriptor stays open.
     *
     * @param fd the descriptor
     * @return the snapshot
     * @throws IOException when it cannot be read or is not a snapshot of this version
     */
    public static ConfSnapshot readFrom(int fd) throws IOException {
        try (InputStream in = new FileInputStream(procFd(fd))) {
            return read(in);
        }
    }

    private static String procFd(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("bad descriptor " + fd);
        }
        return "/proc/self/fd/" + fd;
    }
}
