package jinx.http.internal.modules;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;
import jinx.kernel.os.Errors;
import jinx.kernel.os.FileStat;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A file opened for a request as nginx's {@code ngx_open_cached_file()} opens one without a cache
 * ({@code ngx_open_and_stat_file()}): {@code open(O_RDONLY|O_NONBLOCK)} (non-blocking so that a FIFO cannot hang the
 * loop), then {@code fstat()}. A directory's descriptor is closed at once; a file's is closed when the request is
 * freed (nginx's pool cleanup), so a response still being sent keeps it.
 *
 * <p>Symbolic links are followed: {@code disable_symlinks} is not implemented, which is nginx's default
 * ({@code disable_symlinks off}).
 *
 * <p>{@link #open} answers with one object per thread, reused by the next call (the static handler reads it at
 * once: no allocation per request); {@link #test}, whose callers keep an answer across another test, with a new
 * one.
 */
final class OpenFile {

    private static final int FLAGS = Platform.O_RDONLY | Platform.O_NONBLOCK | Platform.O_CLOEXEC;
    private static final LoopLocal<OpenFile> REUSED = new LoopLocal<>(OpenFile::new);

    /** The descriptor of a file, -1 for a directory or a failure. */
    private int fd;
    private long size;
    private long mtime;
    private boolean isDir;
    private boolean isFile;
    private int err;
    private String failed;
    /** This thread's {@code struct stat}, for the reused answer, and the memory it lives in (the thread's life). */
    private long statBuf;
    private NativeMemory memory;
    /** This thread's native copy of the path being opened: {@code open()} reads it without a JNI array copy. */
    private long pathBuf;

    /** The size of {@link #pathBuf}, Linux's {@code PATH_MAX}: a longer path is opened from the heap. */
    private static final int PATH_BUF_SIZE = 4096;

    private OpenFile set(int fd, long size, long mtime, boolean isDir, boolean isFile, int err, String failed) {
        this.fd = fd;
        this.size = size;
        this.mtime = mtime;
        this.isDir = isDir;
        this.isFile = isFile;
        this.err = err;
        this.failed = failed;
        return this;
    }

    int fd() {
        return fd;
    }

    /** The size in bytes. */
    long size() {
        return size;
    }

    /** The modification time in seconds. */
    long mtime() {
        return mtime;
    }

    boolean isDir() {
        return isDir;
    }

    boolean isFile() {
        return isFile;
    }

    /** The errno of a failure, 0 when opened (or when {@code fstat()} failed, logged at crit). */
    int err() {
        return err;
    }

    /** The call that failed ({@code open()}), for the message, or null. */
    String failed() {
        return failed;
    }

    /**
     * Tells whether the file was opened (or is a directory).
     *
     * @return true on success
     */
    boolean ok() {
        return failed == null;
    }

    /**
     * Opens {@code path} for {@code r}; the descriptor of a file is closed when the request is freed.
     *
     * @param r the request
     * @param path the file name (a byte string, one char per byte)
     * @return what was found
     */
    static OpenFile open(HttpRequest r, String path) {
        OpenFile of = REUSED.get();
        if (of.statBuf == 0) {
            // one struct stat per thread for its whole life, as the thread's reused answer
            of.memory = new NativeMemory();
            of.statBuf = of.memory.allocate(Platform.SIZEOF_STAT);
            of.pathBuf = of.memory.allocate(PATH_BUF_SIZE);
        }
        return open(of, r, path, true);
    }

    /**
     * Tests {@code path} as nginx's {@code of.test_only} does: opened and closed again at once.
     *
     * @param r the request
     * @param path the file name
     * @return what was found; its descriptor is already closed
     */
    static OpenFile test(HttpRequest r, String path) {
        return open(new OpenFile(), r, path, false);
    }

    /** A failed {@code open()} (the caller logs it, with its status) or {@code fstat()} (logged here, at crit). */
    private static OpenFile failed(OpenFile of, HttpRequest r, String path, boolean stat, int errno) {
        if (!stat) {
            return of.set(-1, 0, 0, false, false, errno, "open()");
        }
        CoreOutput.log(r, LogLevel.CRIT, errno, "fstat() \"" + path + "\" failed");
        return of.set(-1, 0, 0, false, false, 0, "fstat()");
    }

    private static OpenFile open(OpenFile of, HttpRequest r, String path, boolean keep) {
        int fd;
        long size;
        long mtime;
        int mode;
        try {
            if (of.statBuf != 0) {
                // open and fstat in one native call: the loop's hot form, a missing file without an exception
                fd = Files.tryOpenStat(path, FLAGS, of.pathBuf, PATH_BUF_SIZE, of.statBuf);
                if (fd < 0) {
                    return failed(of, r, path, Files.statFailed(fd), Files.errno(fd));
                }
                size = Files.statSize(of.statBuf);
                mtime = Files.statMtimeSec(of.statBuf);
                mode = Files.statMode(of.statBuf);
            } else {
                fd = Files.open(path, FLAGS, 0);
                FileStat st;
                try {
                    st = Files.fstat(fd);
                } catch (NativeIoException e) {
                    close(r, fd, path);
                    throw e;
                }
                size = st.size();
                mtime = st.mtimeSec();
                mode = st.mode();
            }
        } catch (NativeIoException e) {
            return failed(of, r, path, e.call().equals("fstat()"), e.errno());
        } catch (IllegalArgumentException e) {
            // a NUL byte: no file has such a name (nginx refuses "%00" in the URI before it gets here)
            return of.set(-1, 0, 0, false, false, Errors.ENOENT, "open()");
        }
        boolean dir = (mode & Platform.S_IFMT) == Platform.S_IFDIR;
        if (dir || !keep) {
            close(r, fd, path);
            fd = -1;
        }
        if (fd != -1 && r instanceof CoreRequest cr) {
            // a descriptor and a name kept by the request: no closure per request, and this record does not escape
            cr.addFileCleanup(fd, path);
        }
        return of.set(fd, size, mtime, dir, (mode & Platform.S_IFMT) == Platform.S_IFREG, 0, null);
    }

    /**
     * Closes a descriptor, logging a failure at alert as nginx's {@code ngx_pool_cleanup_file()} does.
     *
     * @param r the request
     * @param fd the descriptor
     * @param path its file's name
     */
    static void close(HttpRequest r, int fd, String path) {
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            CoreOutput.log(r, LogLevel.ALERT, e.errno(), "close() \"" + path + "\" failed");
        }
    }
}
