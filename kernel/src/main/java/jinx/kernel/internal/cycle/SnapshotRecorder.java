package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.Listening;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Sockets;

/**
 * The source of a cycle built to serve: the disk, with every glob expansion recorded and every
 * {@code load_module} jar copied into the module cache and loaded from there; at the end of the build
 * {@link #seal} puts it together with the files the parser read into the cycle's {@link ConfSnapshot}.
 */
final class SnapshotRecorder implements FileSource {

    private final Path prefix;
    private final List<ConfSnapshot.Glob> globs = new ArrayList<>();
    private final List<ConfSnapshot.ModuleJar> jars = new ArrayList<>();

    SnapshotRecorder(Path prefix) {
        this.prefix = prefix;
    }

    @Override
    public byte[] read(Path file) throws IOException {
        // the parser keeps every file it read, in order, with its bytes (KernelCycle.files()): nothing to add
        return DiskFiles.INSTANCE.read(file);
    }

    @Override
    public List<Path> glob(Path pattern) throws ConfException {
        List<Path> matches = DiskFiles.INSTANCE.glob(pattern);
        globs.add(new ConfSnapshot.Glob(pattern, matches));
        return matches;
    }

    @Override
    public Path moduleJar(Path path) throws ConfException {
        if (!Files.exists(path)) {
            // the loader says so, in nginx's words
            return path;
        }
        ModuleCache.Entry entry;
        try {
            entry = ModuleCache.store(prefix, path);
        } catch (IOException e) {
            throw new ConfException("load_module \"" + path + "\" failed (" + IoErrors.reason(e) + ")", e);
        }
        jars.add(new ConfSnapshot.ModuleJar(path, entry.cached(), entry.sha256()));
        return entry.cached();
    }

    /**
     * Seals what the cycle was built from.
     *
     * @param cycle the cycle, its listening sockets open
     * @param options what it was built with
     * @return the snapshot
     */
    ConfSnapshot seal(KernelCycle cycle, CycleOptions options) {
        List<ConfSnapshot.ListenSocket> listening = new ArrayList<>();
        for (Listening ls : cycle.listening()) {
            listening.add(new ConfSnapshot.ListenSocket(ls.addrText(), bound(ls), ls.reuseport, ls.worker));
        }
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        return new ConfSnapshot(Versions.JINX, options.prefix(), options.confFile(), options.params(),
            options.errorLog(), cycle.files(), globs, jars, listening,
            core == null ? null : ConfSnapshot.Resolved.of(core), cycle.openFiles().paths());
    }

    /** Port 0 binds a port the kernel picks: the worker checks its descriptor against that one. */
    private static String bound(Listening ls) {
        if (ls.fd() == -1) {
            return ls.addrText();
        }
        try {
            return Sockets.getsockname(ls.fd()).toString();
        } catch (NativeIoException e) {
            return ls.addrText();
        }
    }
}
