package jinx.kernel.os;

import java.nio.charset.StandardCharsets;

/**
 * The facade over file calls ({@code open}, {@code fstat}, {@code unlink}, {@code memfd_create},
 * {@code ftruncate}), with {@link Syscalls}' rules. Paths
 * are byte strings, one char per byte (ISO-8859-1), as the configuration tokenizer produces them; errors name
 * the path as nginx does: {@code open() "/var/www/x" failed (2: No such file or directory)}.
 */
public final class Files {

    /*
     * struct stat: the probe reports each field's offset and width (st_dev, st_ino, st_mode, st_size,
     * st_mtim.tv_sec, st_mtim.tv_nsec).
     */
    private static final int ST_DEV = Platform.probe("OFFSETOF_STAT_DEV");
    private static final int SIZEOF_ST_DEV = Platform.probe("SIZEOF_STAT_DEV");
    private static final int ST_INO = Platform.probe("OFFSETOF_STAT_INO");
    private static final int SIZEOF_ST_INO = Platform.probe("SIZEOF_STAT_INO");
    private static final int ST_MODE = Platform.probe("OFFSETOF_STAT_MODE");
    private static final int SIZEOF_ST_MODE = Platform.probe("SIZEOF_STAT_MODE");
    private static final int ST_SIZE = Platform.probe("OFFSETOF_STAT_SIZE");
    private static final int SIZEOF_ST_SIZE = Platform.probe("SIZEOF_STAT_SIZE");
    private static final int ST_MTIM_SEC = Platform.probe("OFFSETOF_STAT_MTIM_SEC");
    private static final int SIZEOF_ST_MTIM_SEC = Platform.probe("SIZEOF_STAT_MTIM_SEC");
    private static final int ST_MTIM_NSEC = Platform.probe("OFFSETOF_STAT_MTIM_NSEC");
    private static final int SIZEOF_ST_MTIM_NSEC = Platform.probe("SIZEOF_STAT_MTIM_NSEC");
    /** jinx_open_stat's mark on {@code -errno} when fstat failed rather than open (jinxio.c). */
    private static final int FSTAT_FAILED = 0x10000;

    private Files() {
    }

    /**
     * Opens a file. Not hot (the path is encoded on the heap).
     *
     * @param path the path
     * @param flags {@link Platform#O_RDONLY} | {@link Platform#O_CLOEXEC} ...
     * @param mode permissions when {@link Platform#O_CREAT} creates it ({@code 0644})
     * @return the descriptor
     * @throws NativeIoException {@code open() "/path" failed (...)}
     */
    public static int open(String path, int flags, int mode) throws NativeIoException {
        byte[] p = cString(path);
        for (;;) {
            int fd = Native.C.open(p, flags, mode);
            if (fd >= 0) {
                return fd;
            }
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("open() \"" + path + "\"", errno);
            }
        }
    }

    /**
     * Writes bytes of a Java array to a file: {@code write(fd, buf, len)}, retried on EINTR. Not hot (jnr copies
     * the array): for log lines.
     *
     * @param fd the file
     * @param buf the bytes, from the first
     * @param len how many
     * @return bytes written
     * @throws NativeIoException {@code write() failed (...)}
     */
    public static int write(int fd, byte[] buf, int len) throws NativeIoException {
        for (;;) {
            long n = Native.C.write(fd, buf, len);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("write()", errno);
            }
        }
    }

    /**
     * Opens a file, its path written into the caller's native memory first: the hot form of
     * {@link #open(String, int, int)}, which allocates nothing once the path's bytes are cached (a path longer
     * than the memory takes the other form).
     *
     * @param path the path
     * @param flags {@link Platform#O_RDONLY} | {@link Platform#O_CLOEXEC} ...
     * @param mode permissions when {@link Platform#O_CREAT} creates it ({@code 0644})
     * @param buf the address of the caller's memory for the path
     * @param size its size in bytes
     * @return the descriptor
     * @throws NativeIoException {@code open() "/path" failed (...)}
     */
    public static int open(String path, int flags, int mode, long buf, int size) throws NativeIoException {
        byte[] p = cString(path);
        if (p.length > size) {
            return open(path, flags, mode);
        }
        NativeMemory.put(buf, p, 0, p.length);
        LibJinxIo io = Native.IO;
        for (;;) {
            int fd = io != null ? io.open(buf, flags, mode) : Native.C.open(buf, flags, mode);
            if (fd >= 0) {
                return fd;
            }
            int errno = io != null ? -fd : Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("open() \"" + path + "\"", errno);
            }
        }
    }

    /**
     * Opens a file and fills the caller's {@code struct stat} for it, in one call through libjinxio (two without
     * it): the hot form of {@link #open(String, int, int, long, int)} and {@link #fstatRaw}, for a static file. The
     * path is written into the caller's memory first; a longer path takes the separate calls.
     *
     * @param path the path
     * @param flags {@link Platform#O_RDONLY} | {@link Platform#O_CLOEXEC} ...
     * @param buf the address of the caller's memory for the path
     * @param size its size in bytes
     * @param statBuf the address of {@link Platform#SIZEOF_STAT} bytes of the caller's memory
     * @return the descriptor
     * @throws NativeIoException {@code open() "/path" failed (...)}, or {@code fstat() failed (...)} with the
     *     descriptor closed again
     */
    public static int openStat(String path, int flags, long buf, int size, long statBuf) throws NativeIoException {
        int rc = tryOpenStat(path, flags, buf, size, statBuf);
        if (rc >= 0) {
            return rc;
        }
        if (statFailed(rc)) {
            throw Errors.failure("fstat()", errno(rc));
        }
        throw Errors.failure("open() \"" + path + "\"", errno(rc));
    }

    /**
     * {@link #openStat} without an exception, for a request whose file may well be missing (a 404 costs no
     * exception, no message): the descriptor, or a negative code that {@link #statFailed} and {@link #errno} read.
     *
     * @param path the path
     * @param flags {@link Platform#O_RDONLY} | {@link Platform#O_CLOEXEC} ...
     * @param buf the address of the caller's memory for the path
     * @param size its size in bytes
     * @param statBuf the address of {@link Platform#SIZEOF_STAT} bytes of the caller's memory
     * @return the descriptor, or a negative code (the descriptor closed again when {@code fstat()} failed)
     */
    public static int tryOpenStat(String path, int flags, long buf, int size, long statBuf) {
        LibJinxIo io = Native.IO;
        byte[] p = cString(path);
        if (io == null || p.length > size) {
            int fd;
            try {
                fd = io == null ? open(path, flags, 0, buf, size) : open(path, flags, 0);
            } catch (NativeIoException e) {
                return -e.errno();
            }
            try {
                fstatRaw(fd, statBuf);
            } catch (NativeIoException e) {
                Native.C.close(fd);
                return -(FSTAT_FAILED | e.errno());
            }
            return fd;
        }
        NativeMemory.put(buf, p, 0, p.length);
        for (;;) {
            int fd = io.open_stat(buf, flags, 0, statBuf);
            if (fd >= 0 || -fd != Errors.EINTR) {
                return fd;
            }
        }
    }

    /**
     * Tells whether a negative code of {@link #tryOpenStat} is {@code fstat()}'s failure (else {@code open()}'s).
     *
     * @param rc the code
     * @return true for {@code fstat()}
     */
    public static boolean statFailed(int rc) {
        return (-rc & FSTAT_FAILED) != 0;
    }

    /**
     * The errno of a negative code of {@link #tryOpenStat}.
     *
     * @param rc the code
     * @return the errno
     */
    public static int errno(int rc) {
        return -rc & ~FSTAT_FAILED;
    }

    /**
     * Reads a descriptor's metadata. Not hot: allocates the {@code struct stat}; see the two-argument form.
     *
     * @param fd the descriptor
     * @return its metadata
     * @throws NativeIoException {@code fstat() failed (...)}
     */
    public static FileStat fstat(int fd) throws NativeIoException {
        long buf = NativeMemory.allocateTemporary(Platform.SIZEOF_STAT);
        try {
            return fstat(fd, buf);
        } finally {
            NativeMemory.freeTemporary(buf);
        }
    }

    /**
     * Fills the caller's {@code struct stat} for a descriptor, for {@link #statSize}, {@link #statMtimeSec} and
     * {@link #statMode}: {@link #fstat(int, long)} without the record (a hot path that must not allocate).
     *
     * @param fd the descriptor
     * @param statBuf the address of {@link Platform#SIZEOF_STAT} bytes of the caller's memory
     * @throws NativeIoException {@code fstat() failed (...)}
     */
    public static void fstatRaw(int fd, long statBuf) throws NativeIoException {
        LibJinxIo io = Native.IO;
        if (io != null) {
            int rc = io.fstat(fd, statBuf);
            if (rc != 0) {
                throw Errors.failure("fstat()", -rc);
            }
            return;
        }
        if (Native.C.fstat(fd, statBuf) != 0) {
            throw Errors.failure("fstat()", Errors.last());
        }
    }

    /**
     * Returns {@code st_size} of a filled {@code struct stat}.
     *
     * @param statBuf the {@code struct stat}
     * @return the size in bytes
     */
    public static long statSize(long statBuf) {
        return NativeMemory.getUnsigned(statBuf + ST_SIZE, SIZEOF_ST_SIZE);
    }

    /**
     * Returns {@code st_mtim.tv_sec} of a filled {@code struct stat}.
     *
     * @param statBuf the {@code struct stat}
     * @return the modification time in seconds
     */
    public static long statMtimeSec(long statBuf) {
        return NativeMemory.getUnsigned(statBuf + ST_MTIM_SEC, SIZEOF_ST_MTIM_SEC);
    }

    /**
     * Returns {@code st_mode} of a filled {@code struct stat}.
     *
     * @param statBuf the {@code struct stat}
     * @return the mode bits
     */
    public static int statMode(long statBuf) {
        return (int) NativeMemory.getUnsigned(statBuf + ST_MODE, SIZEOF_ST_MODE);
    }

    /**
     * Reads a descriptor's metadata through the caller's {@code struct stat}.
     *
     * @param fd the descriptor
     * @param statBuf the address of {@link Platform#SIZEOF_STAT} bytes of the caller's memory
     * @return its metadata
     * @throws NativeIoException {@code fstat() failed (...)}
     */
    public static FileStat fstat(int fd, long statBuf) throws NativeIoException {
        fstatRaw(fd, statBuf);
        return new FileStat(NativeMemory.getUnsigned(statBuf + ST_SIZE, SIZEOF_ST_SIZE),
                            NativeMemory.getUnsigned(statBuf + ST_MTIM_SEC, SIZEOF_ST_MTIM_SEC),
                            NativeMemory.getUnsigned(statBuf + ST_MTIM_NSEC, SIZEOF_ST_MTIM_NSEC),
                            (int) NativeMemory.getUnsigned(statBuf + ST_MODE, SIZEOF_ST_MODE),
                            NativeMemory.getUnsigned(statBuf + ST_INO, SIZEOF_ST_INO),
                            NativeMemory.getUnsigned(statBuf + ST_DEV, SIZEOF_ST_DEV));
    }

    /**
     * Removes a name (a unix socket's file before binding it again).
     *
     * @param path the path
     * @throws NativeIoException {@code unlink() "/path" failed (...)}
     */
    public static void unlink(String path) throws NativeIoException {
        byte[] p = cString(path);
        for (;;) {
            if (Native.C.unlink(p) == 0) {
                return;
            }
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("unlink() \"" + path + "\"", errno);
            }
        }
    }

    /**
     * Creates an anonymous memory-backed file ({@code memfd_create(2)}): a shared zone's backing, inherited by the
     * workers. It starts empty; size it with {@link #ftruncate(int, long)}. Not hot.
     *
     * @param name the name, for {@code /proc/PID/fd} ({@code /memfd:name (deleted)}); at most 249 bytes
     * @param flags {@link Platform#MFD_CLOEXEC}, {@link Platform#MFD_ALLOW_SEALING}
     * @return the descriptor
     * @throws NativeIoException {@code memfd_create() "name" failed (...)}
     */
    public static int memfdCreate(String name, int flags) throws NativeIoException {
        byte[] n = cString(name);
        for (;;) {
            int fd = Native.C.memfd_create(n, flags);
            if (fd >= 0) {
                return fd;
            }
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("memfd_create() \"" + name + "\"", errno);
            }
        }
    }

    /**
     * Sets a file's size ({@code ftruncate(2)}): grows it with zeroes or cuts it.
     *
     * @param fd the descriptor, open for writing
     * @param length the new size in bytes
     * @throws NativeIoException {@code ftruncate(12, 4096) failed (...)}
     */
    public static void ftruncate(int fd, long length) throws NativeIoException {
        for (;;) {
            if (Native.C.ftruncate(fd, length) == 0) {
                return;
            }
            int errno = Errors.last();
            if (errno != Errors.EINTR) {
                throw Errors.failure("ftruncate(" + fd + ", " + length + ")", errno);
            }
        }
    }

    /** A path and its C string, never written after they are made. */
    private record CPath(String path, byte[] bytes) {
    }

    /**
     * C strings of paths opened lately, a direct-mapped table keyed by the path string's identity, shared by threads
     * (records are immutable, a race costs a miss): a server opens the same files again and again.
     */
    private static final CPath[] C_PATHS = new CPath[512];

    private static byte[] cString(String path) {
        int slot = System.identityHashCode(path) & (C_PATHS.length - 1);
        CPath c = C_PATHS[slot];
        if (c != null && c.path == path) {
            return c.bytes;
        }
        byte[] b = newCString(path);
        C_PATHS[slot] = new CPath(path, b);
        return b;
    }

    private static byte[] newCString(String path) {
        if (path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a path with a NUL byte");
        }
        byte[] b = new byte[path.length() + 1];
        byte[] s = path.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(s, 0, b, 0, s.length);
        return b;
    }
}
