package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;

/**
 * The files a cycle writes, nginx's {@code cycle->open_files} ({@code ngx_conf_open_file()}): every error and access
 * log is opened through {@link jinx.kernel.Cycle#openFile}. In the master the first descriptor of each path is
 * remembered, and the snapshot names the paths ({@link ConfSnapshot#openFiles()}), so that a reload inside the
 * running workers (issue #35) can send those descriptors along: a worker that dropped its privileges ({@code user})
 * writes to a file the master created as root, as nginx's workers do with the files they inherit through fork. A
 * worker given them ({@link #pass}) writes through a copy of the master's descriptor for a path it names, and opens
 * any other path itself.
 */
public final class OpenFiles {

    /** The master's: each path's first file, in the order opened. */
    private final Map<Path, AppendFile> opened = new LinkedHashMap<>();
    /** A worker's: the master's descriptors by path, until {@link #closePassed}. */
    private Map<Path, Integer> passed = Map.of();

    /**
     * Opens a file for appending: a copy of a passed descriptor for its path, else the file itself.
     *
     * @param file the path
     * @return the file, the caller's to close
     * @throws IOException {@code open() "/x" failed (13: Permission denied)} and kin
     */
    public synchronized WritableByteChannel open(Path file) throws IOException {
        Path key = file.normalize();
        Integer fd = passed.get(key);
        if (fd != null) {
            return AppendFile.of(Syscalls.dup(fd));
        }
        AppendFile f = AppendFile.open(file);
        opened.putIfAbsent(key, f);
        return f;
    }

    /**
     * The paths opened, in order: what the snapshot names.
     *
     * @return the paths
     */
    public synchronized List<Path> paths() {
        return new ArrayList<>(opened.keySet());
    }

    /**
     * The descriptor of the file first opened for {@code path}, for a reload in place: read right after the cycle
     * was built, while its modules hold their files (a reopen replaces them).
     *
     * @param path a path of {@link #paths()}
     * @return the descriptor, or -1 when that file is closed
     */
    public synchronized int fd(Path path) {
        AppendFile f = opened.get(path);
        return f == null ? -1 : f.fd();
    }

    /**
     * Gives a worker's cycle the master's descriptors before it is parsed.
     *
     * @param files the descriptors by path; this cycle's until {@link #closePassed}
     */
    synchronized void pass(Map<Path, Integer> files) {
        passed = new LinkedHashMap<>();
        files.forEach((p, fd) -> passed.put(p.normalize(), fd));
    }

    /** Closes the passed descriptors once the modules opened what they write to (after {@code initProcess}). */
    public synchronized void closePassed() {
        for (int fd : passed.values()) {
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                // nothing to do: the descriptor is gone either way
            }
        }
        passed = Map.of();
    }
}
