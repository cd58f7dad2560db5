package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Listening;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Sockets;

/**
 * The source of a worker's cycle: the master's {@link ConfSnapshot} replayed in order. The worker parses the same
 * bytes, so it asks for the same files, patterns and jars in the same order; anything else means the snapshot is
 * not this configuration's, and the build fails rather than read the disk.
 */
final class SnapshotReplay implements FileSource {

    private static final String MISMATCH = "configuration snapshot mismatch: ";

    private final ConfSnapshot snapshot;
    private int files;
    private int globs;
    private int jars;

    SnapshotReplay(ConfSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public byte[] read(Path file) throws ConfException {
        List<KernelCycle.ConfFile> list = snapshot.files();
        if (files == list.size() || !list.get(files).path().equals(file)) {
            throw new ConfException(MISMATCH + "file \"" + file + "\" is not the next one it holds");
        }
        return list.get(files++).content();
    }

    @Override
    public List<Path> glob(Path pattern) throws ConfException {
        List<ConfSnapshot.Glob> list = snapshot.globs();
        if (globs == list.size() || !list.get(globs).pattern().equals(pattern)) {
            throw new ConfException(MISMATCH + "pattern \"" + pattern + "\" is not the next one it holds");
        }
        return list.get(globs++).matches();
    }

    /** The cached copy, checked against its hash: a copy changed since the master stored it is refused. */
    @Override
    public Path moduleJar(Path path) throws ConfException {
        List<ConfSnapshot.ModuleJar> list = snapshot.jars();
        if (jars == list.size() || !list.get(jars).path().equals(path)) {
            throw new ConfException(MISMATCH + "module \"" + path + "\" is not the next one it holds");
        }
        ConfSnapshot.ModuleJar jar = list.get(jars++);
        String sha;
        try {
            sha = ModuleCache.digest(jar.cached());
        } catch (IOException e) {
            throw new ConfException("load_module \"" + path + "\" failed (cached copy \"" + jar.cached() + "\": "
                + IoErrors.reason(e) + ")", e);
        }
        if (!sha.equals(jar.sha256())) {
            throw new ConfException("load_module \"" + path + "\" failed (cached copy \"" + jar.cached()
                + "\" changed: sha256 " + sha + " instead of " + jar.sha256() + ")");
        }
        return jar.cached();
    }

    /**
     * Checks that the parse used the whole snapshot.
     *
     * @throws ConfException naming what was left
     */
    void checkUsed() throws ConfException {
        int leftFiles = snapshot.files().size() - files;
        int leftGlobs = snapshot.globs().size() - globs;
        int leftJars = snapshot.jars().size() - jars;
        if (leftFiles + leftGlobs + leftJars > 0) {
            throw new ConfException(MISMATCH + leftFiles + " files, " + leftGlobs + " patterns and " + leftJars
                + " modules in it were not used");
        }
    }

    /**
     * Gives each listening socket of the worker's cycle the inherited descriptor at its position, after checking
     * that the configuration's sockets are the snapshot's and that each descriptor is bound where the master
     * bound it.
     *
     * @param cycle the worker's cycle, parsed
     * @param fds the descriptors, one per listening socket in the snapshot's order; -1 for a socket this worker
     *     does not receive (another worker's {@code reuseport} clone)
     * @throws ConfException naming the first difference
     */
    void attachListening(KernelCycle cycle, int[] fds) throws ConfException {
        List<ConfSnapshot.ListenSocket> recorded = snapshot.listening();
        List<Listening> configured = cycle.listening();
        if (fds.length != recorded.size()) {
            throw new ConfException(MISMATCH + fds.length + " listening descriptors given for "
                + recorded.size() + " listening sockets");
        }
        if (configured.size() != recorded.size()) {
            throw new ConfException(MISMATCH + "the configuration has " + configured.size()
                + " listening sockets, the snapshot " + recorded.size());
        }
        for (int i = 0; i < fds.length; i++) {
            Listening ls = configured.get(i);
            ConfSnapshot.ListenSocket r = recorded.get(i);
            if (!ls.addrText().equals(r.address()) || ls.reuseport != r.reuseport() || ls.worker != r.worker()) {
                throw new ConfException(MISMATCH + "listening socket " + i + " is " + describe(ls.addrText(),
                    ls.reuseport, ls.worker) + " in the configuration but " + describe(r.address(), r.reuseport(),
                    r.worker()) + " in the snapshot");
            }
            if (fds[i] != -1) {
                checkBound(fds[i], r);
            }
        }
        for (int i = 0; i < fds.length; i++) {
            if (fds[i] != -1) {
                // inherited: the master opened it, as a reload's cycle takes over the old one's
                configured.get(i).open(fds[i], true);
            }
        }
    }

    private static void checkBound(int fd, ConfSnapshot.ListenSocket r) throws ConfException {
        String bound;
        try {
            bound = Sockets.getsockname(fd).toString();
        } catch (NativeIoException e) {
            throw new ConfException("listening socket \"" + r.address() + "\": inherited descriptor " + fd + ": "
                + e.getMessage(), e);
        }
        if (!bound.equals(r.bound())) {
            throw new ConfException(MISMATCH + "inherited descriptor " + fd + " for listening socket \""
                + r.address() + "\" is bound to " + bound + ", not " + r.bound());
        }
    }

    private static String describe(String address, boolean reuseport, int worker) {
        return "\"" + address + "\"" + (reuseport ? " reuseport" : "") + (worker != -1 ? " of worker " + worker : "");
    }
}
