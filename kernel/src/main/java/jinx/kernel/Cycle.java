package jinx.kernel;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;

import jinx.kernel.internal.cycle.AppendFile;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Everything one configuration produces: nginx's {@code ngx_cycle_t}. A reload builds a new cycle from the old
 * one; if that fails, the old one stays in force untouched.
 */
public interface Cycle {

    /**
     * Returns the prefix ({@code -p}): relative paths other than includes resolve against it.
     *
     * @return the absolute prefix
     */
    Path prefix();

    /**
     * Returns the configuration prefix, the directory of the main configuration file.
     *
     * @return the absolute directory
     */
    Path confPrefix();

    /**
     * Returns the main configuration file.
     *
     * @return the absolute file
     */
    Path confFile();

    /**
     * Returns the cycle's error log.
     *
     * @return the log
     */
    ErrorLog log();

    /**
     * Returns the modules in their resolved order.
     *
     * @return the modules
     */
    List<LoadedModule> modules();

    /**
     * Returns the modules of one type in their resolved order; fixes the module list (a later
     * {@code load_module} is "specified too late").
     *
     * @param type the type
     * @return the modules of that type, their {@link LoadedModule#typeIndex()} from 0 up in this order
     */
    List<LoadedModule> modules(ModuleType type);

    /**
     * Returns the module named {@code name}, or null.
     *
     * @param name the name
     * @return the module, or null
     */
    LoadedModule module(String name);

    /**
     * Returns the entry of a module of this cycle.
     *
     * @param module the module
     * @return its entry
     * @throws IllegalArgumentException when the module is not in this cycle
     */
    LoadedModule entry(JinxModule module);

    /**
     * Returns a module's main conf object: a core module's own, or, for a module of a block type, the one its
     * block made (null while that block has not been parsed).
     *
     * @param module the module
     * @param type the conf object's type
     * @param <T> the conf object's type
     * @return the conf object, or null
     */
    <T> T conf(JinxModule module, Class<T> type);

    /**
     * Returns the main conf object of the module named {@code name}.
     *
     * @param name the module's name
     * @param type the conf object's type
     * @param <T> the conf object's type
     * @return the conf object, or null when there is no such module or conf
     */
    <T> T conf(String name, Class<T> type);

    /**
     * Returns the listening sockets the configuration asked for.
     *
     * @return the listening sockets, in the order added
     */
    List<Listening> listening();

    /**
     * Adds a listening socket while the configuration is parsed; the cycle opens it (or takes the old cycle's
     * descriptor for the same address) unless it only tests the configuration.
     *
     * @param ls the listening socket
     */
    void addListening(Listening ls);

    /**
     * Returns this process's event loop, or null before a serving process has started it (and in the master).
     *
     * @return the loop
     */
    EventLoop eventLoop();

    /**
     * Declares a shared memory zone while the configuration is parsed (nginx's {@code ngx_shared_memory_add()}),
     * or returns the zone already declared under that name. The memory is there once the configuration is parsed:
     * created by the master (taken over from the previous cycle when name, size and tag are unchanged, see
     * {@link SharedZone#reused()}), attached by a worker. A module sets up its structures in {@code initModule}
     * when the zone is new, and finds them through {@link SlabPool#data()} when it was kept.
     *
     * @param name the zone's name
     * @param size its size in bytes, rounded up to pages; 0 to refer to a zone another directive sizes
     * @param tag the owning module's name
     * @return the zone
     * @throws ConfException {@code the shared memory zone "x" is already declared for a different use}, or
     *     {@code the size N of shared memory zone "x" conflicts with already declared size M}
     */
    default SharedZone sharedZone(String name, long size, String tag) throws ConfException {
        throw new ConfException("shared memory zones are not supported by this cycle");
    }

    /**
     * Returns the shared zones declared, in the order declared: what the master hands to its workers.
     *
     * @return the zones
     */
    default List<SharedZone> sharedZones() {
        return List.of();
    }

    /**
     * Gives a file this process has just reopened for writing ({@code USR1}, log rotation) to the user the worker
     * processes run as, as nginx's {@code ngx_reopen_files()} does in the master: the master reopens first, as
     * root, and creates the file anew; without this the workers, which reopen after it as {@code user}, could not
     * open it and would go on writing to the rotated file. Makes the file readable and writable by its owner as
     * well. Does nothing in a worker, in a single process, or when the master does not run as root. A failure is
     * logged at {@code emerg} with nginx's words ({@code chown("/x", 65534) failed (...)}).
     *
     * <p>Added in SPI 1.3.
     *
     * @param file the file's path, as opened
     */
    default void ownReopenedFile(Path file) {
    }

    /**
     * Opens a file this cycle writes (an error or access log) for appending, creating it with mode 0644: nginx's
     * {@code ngx_conf_open_file()}. Every process of the cycle opens the same files: the master as it builds the
     * cycle (as root when started so), each worker as it attaches. A worker that takes a reload in place after it
     * dropped its privileges ({@code user}) gets a copy of the master's descriptor for the same path instead, as
     * nginx's workers inherit the master's files through fork: a new log file of a reload is created by the master
     * and written to by the workers, whoever owns it. The caller closes the channel; a reopen ({@code USR1}) opens
     * the path itself.
     *
     * <p>Added in SPI 1.5.
     *
     * @param file the absolute path
     * @return the file, written with whole {@code write(2)} calls
     * @throws IOException with nginx's words: {@code open() "/x" failed (13: Permission denied)}
     */
    default WritableByteChannel openFile(Path file) throws IOException {
        return AppendFile.open(file);
    }

    /**
     * Declares a directory for temporary files while the configuration is parsed: nginx's {@code ngx_add_path()}.
     * A cycle built to serve creates each path declared (mode 0700, the directory alone, not its parents) and gives
     * it to the workers' {@code user} when the master runs as root, as nginx's {@code ngx_create_paths()} does, so
     * that workers that dropped their privileges can make their files in it. A path declared twice is created once.
     * The default does nothing (a cycle that serves nothing).
     *
     * <p>Added in SPI 1.6.
     *
     * @param path the path
     * @throws ConfException when the directory was declared before with other levels, in nginx's words
     *     ({@link TempPath#checkSameLevels})
     */
    default void addPath(TempPath path) throws ConfException {
    }

    /**
     * Returns the paths declared with {@link #addPath}, in the order declared.
     *
     * <p>Added in SPI 1.6.
     *
     * @return the paths
     */
    default List<TempPath> paths() {
        return List.of();
    }
}
