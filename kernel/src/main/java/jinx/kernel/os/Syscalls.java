package jinx.kernel.os;

import jnr.constants.platform.RLIMIT;
import jnr.constants.platform.Signal;

import jinx.kernel.Rc;

/**
 * The facade over the C library for processes and descriptors: signals, users, limits, and I/O on any
 * descriptor ({@code read}, {@code write}, {@code pread}, {@code readv}, {@code writev}, {@code sendfile},
 * {@code close}, {@code fcntl}, {@code eventfd}). Sockets are in {@link Sockets}, files in {@link Files}; all
 * three follow the same rules:
 *
 * <ul>
 * <li>{@code EINTR} is retried (except by {@code close}, see there);</li>
 * <li>{@code EAGAIN}/{@code EWOULDBLOCK} is returned as {@link Rc#AGAIN} by the calls that can block;</li>
 * <li>every other failure throws {@link NativeIoException} naming the call as nginx does, with errno and its
 *     text ({@code writev() failed (32: Broken pipe)});</li>
 * <li>nothing returns a raw -1; byte counts are never negative, so {@code Rc.AGAIN} cannot be mistaken for one;</li>
 * <li>hot calls take native addresses the caller owns ({@link NativeMemory}) and allocate nothing; calls that
 *     need scratch memory and are marked "not hot" allocate it and free it before returning.</li>
 * </ul>
 */
public final class Syscalls {

    private static final int EINTR = Errors.EINTR;
    private static final int PW_UID = Platform.probe("OFFSETOF_PW_UID");
    private static final int GR_GID = Platform.probe("OFFSETOF_GR_GID");
    private static final int RLIM_CUR = Platform.probe("OFFSETOF_RLIM_CUR");
    private static final int RLIM_MAX = Platform.probe("OFFSETOF_RLIM_MAX");
    private static final int SIZEOF_RLIMIT = Platform.probe("SIZEOF_RLIMIT");

    private Syscalls() {
    }

    /**
     * A resource limit: {@code struct rlimit}.
     *
     * @param soft {@code rlim_cur}, {@link Platform#RLIM_INFINITY} for none
     * @param hard {@code rlim_max}, {@link Platform#RLIM_INFINITY} for none
     */
    public record Rlimit(long soft, long hard) {
    }

    // processes

    /**
     * Returns the number of a signal by its name without {@code SIG} ({@code "HUP"}), read from the platform.
     *
     * @param name the signal's name
     * @return its number
     */
    public static int signal(String name) {
        return Signal.valueOf("SIG" + name).intValue();
    }

    /**
     * Sends a signal: {@code kill(pid, sig)}.
     *
     * @param pid the process
     * @param sig the signal
     * @throws NativeIoException {@code kill(pid, sig) failed (errno: text)}
     */
    public static void kill(long pid, int sig) throws NativeIoException {
        while (Native.C.kill((int) pid, sig) != 0) {
            int errno = Errors.last();
            if (errno != EINTR) {
                throw Errors.failure("kill(" + pid + ", " + sig + ")", errno);
            }
        }
    }

    /**
     * Returns the effective user id.
     *
     * @return {@code geteuid()}
     */
    public static int geteuid() {
        return Native.C.geteuid();
    }

    /**
     * Looks up a user.
     *
     * @param name the user's name
     * @return the user id, or -1 when there is no such user
     */
    public static int getpwnam(String name) {
        long pwd = Native.C.getpwnam(CStrings.bytes(name));
        return pwd == 0 ? -1 : NativeMemory.getInt(pwd + PW_UID);
    }

    /**
     * Looks up a group.
     *
     * @param name the group's name
     * @return the group id, or -1 when there is no such group
     */
    public static int getgrnam(String name) {
        long grp = Native.C.getgrnam(CStrings.bytes(name));
        return grp == 0 ? -1 : NativeMemory.getInt(grp + GR_GID);
    }

    /**
     * Reads a resource limit. Not hot.
     *
     * @param resource {@link Platform#RLIMIT_NOFILE}, ...
     * @return the limit
     * @throws NativeIoException {@code getrlimit(RLIMIT_NOFILE) failed (...)}
     */
    public static Rlimit getrlimit(int resource) throws NativeIoException {
        long rlim = NativeMemory.allocateTemporary(SIZEOF_RLIMIT);
        try {
            if (Native.C.getrlimit(resource, rlim) != 0) {
                int errno = Errors.last();
                throw Errors.failure("getrlimit(" + Platform.name(RLIMIT.class, resource) + ")", errno);
            }
            return new Rlimit(NativeMemory.getLong(rlim + RLIM_CUR), NativeMemory.getLong(rlim + RLIM_MAX));
        } finally {
            NativeMemory.freeTemporary(rlim);
        }
    }

    /**
     * Sets a resource limit ({@code worker_rlimit_nofile}). Not hot.
     *
     * @param resource {@link Platform#RLIMIT_NOFILE}, ...
     * @param limit the limit
     * @throws NativeIoException {@code setrlimit(RLIMIT_NOFILE, 1024) failed (...)}
     */
    public static void setrlimit(int resource, Rlimit limit) throws NativeIoException {
        long rlim = NativeMemory.allocateTemporary(SIZEOF_RLIMIT);
        try {
            NativeMemory.putLong(rlim + RLIM_CUR, limit.soft());
            NativeMemory.putLong(rlim + RLIM_MAX, limit.hard());
            if (Native.C.setrlimit(resource, rlim) != 0) {
                int errno = Errors.last();
                String name = Platform.name(RLIMIT.class, resource);
                throw Errors.failure("setrlimit(" + name + ", " + limit.soft() + ")", errno);
            }
        } finally {
            NativeMemory.freeTemporary(rlim);
        }
    }

    // descriptors

    /**
     * Reads: {@code read(fd, buf, len)}.
     *
     * @param fd the descriptor
     * @param buf the buffer's address
     * @param len its length
     * @return bytes read, 0 at end of file, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code read() failed (...)}
     */
    public static int read(int fd, long buf, int len) throws NativeIoException {
        for (;;) {
            long n = Native.C.read(fd, buf, len);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("read()", errno);
            }
        }
    }

    /**
     * Writes: {@code write(fd, buf, len)}.
     *
     * @param fd the descriptor
     * @param buf the bytes' address
     * @param len their length
     * @return bytes written, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code write() failed (...)}
     */
    public static int write(int fd, long buf, int len) throws NativeIoException {
        for (;;) {
            long n = Native.C.write(fd, buf, len);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("write()", errno);
            }
        }
    }

    /**
     * Reads a file at an offset without moving its position: {@code pread(fd, buf, len, offset)}. Files never
     * answer EAGAIN, so every failure is thrown.
     *
     * @param fd the file
     * @param buf the buffer's address
     * @param len its length
     * @param offset the file offset
     * @return bytes read, 0 at end of file
     * @throws NativeIoException {@code pread() failed (...)}
     */
    public static int pread(int fd, long buf, int len, long offset) throws NativeIoException {
        for (;;) {
            long n = Native.C.pread(fd, buf, len, offset);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                throw Errors.failure("pread()", errno);
            }
        }
    }

    /**
     * Writes a file at an offset: {@code pwrite(fd, buf, len, offset)} (nginx's {@code ngx_write_file()}). Files
     * never answer EAGAIN, so every failure is thrown. Not hot: temporary files.
     *
     * @param fd the file
     * @param buf the bytes' address
     * @param len their length
     * @param offset the file offset
     * @return bytes written
     * @throws NativeIoException {@code pwrite() failed (...)}
     */
    public static long pwrite(int fd, long buf, long len, long offset) throws NativeIoException {
        for (;;) {
            long n = Native.C.pwrite(fd, buf, len, offset);
            if (n >= 0) {
                return n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                throw Errors.failure("pwrite()", errno);
            }
        }
    }

    /**
     * Gather write to a file at an offset: {@code pwritev(fd, iov, iovcnt, offset)} (nginx's
     * {@code ngx_writev_file()}); the array as for {@link #readv}. Not hot: temporary files.
     *
     * @param fd the file
     * @param iov the array's address
     * @param iovcnt its length
     * @param offset the file offset
     * @return bytes written
     * @throws NativeIoException {@code pwritev() failed (...)}
     */
    public static long pwritev(int fd, long iov, int iovcnt, long offset) throws NativeIoException {
        for (;;) {
            long n = Native.C.pwritev(fd, iov, iovcnt, offset);
            if (n >= 0) {
                return n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                throw Errors.failure("pwritev()", errno);
            }
        }
    }

    /**
     * Scatter read: {@code readv(fd, iov, iovcnt)}. The {@code struct iovec} array is the caller's
     * ({@link Platform#SIZEOF_IOVEC} each; {@code iov_base} at {@link Platform#OFFSETOF_IOV_BASE}, {@code iov_len}
     * at {@link Platform#OFFSETOF_IOV_LEN}).
     *
     * @param fd the descriptor
     * @param iov the array's address
     * @param iovcnt its length
     * @return bytes read, 0 at end of file, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code readv() failed (...)}
     */
    public static long readv(int fd, long iov, int iovcnt) throws NativeIoException {
        for (;;) {
            long n = Native.C.readv(fd, iov, iovcnt);
            if (n >= 0) {
                return n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("readv()", errno);
            }
        }
    }

    /**
     * Tells whether the hot calls ({@code recv}, {@code send}, {@code writev}, {@code sendfile}) go through
     * libjinxio, which returns {@code -errno} and spares jnr-ffi's errno save, rather than libc.
     *
     * @return true when libjinxio was found in {@code jffi.boot.library.path}
     */
    public static boolean hotCallsThroughJinxIo() {
        return Native.IO != null;
    }

    /**
     * Gather write: {@code writev(fd, iov, iovcnt)}; the array as for {@link #readv}.
     *
     * @param fd the descriptor
     * @param iov the array's address
     * @param iovcnt its length
     * @return bytes written, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code writev() failed (...)}
     */
    public static long writev(int fd, long iov, int iovcnt) throws NativeIoException {
        LibJinxIo io = Native.IO;
        for (;;) {
            long n = io != null ? io.writev(fd, iov, iovcnt) : Native.C.writev(fd, iov, iovcnt);
            if (n >= 0) {
                return n;
            }
            int errno = io != null ? (int) -n : Errors.last();
            if (errno != EINTR) {
                return Errors.again("writev()", errno);
            }
        }
    }

    /**
     * Gather write to a socket: {@code writev(fd, iov, iovcnt)} made as a socket call with {@code MSG_NOSIGNAL}
     * ({@code sendto} of one buffer, or of the array gathered when it is small, else {@code sendmsg}), which skips
     * the VFS write path. With {@code more} it adds {@code MSG_MORE}, so that TCP holds a partial segment for what
     * the next call sends (a response's header before its file): one segment where {@code writev} and
     * {@code sendfile} would make two. Failures read {@code writev() failed}, the call nginx reports there. Without
     * libjinxio it is {@link #writev}.
     *
     * @param fd the socket
     * @param iov the array's address
     * @param iovcnt its length
     * @param more whether more follows at once
     * @return bytes written, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code writev() failed (...)}
     */
    public static long sendv(int fd, long iov, int iovcnt, boolean more) throws NativeIoException {
        LibJinxIo io = Native.IO;
        if (io == null) {
            return writev(fd, iov, iovcnt);
        }
        int flags = more ? Platform.MSG_MORE | Platform.MSG_NOSIGNAL : Platform.MSG_NOSIGNAL;
        for (;;) {
            long n = io.sendv(fd, iov, iovcnt, flags);
            if (n >= 0) {
                return n;
            }
            int errno = (int) -n;
            if (errno != EINTR) {
                return Errors.again("writev()", errno);
            }
        }
    }

    /**
     * A header and the file after it in one call: {@link #sendv} of the array with {@code MSG_MORE}, then, once
     * all of it went, {@link #sendfile}. When the file's bytes did not go (a full socket, an error, a file cut
     * short), the array's bytes alone are returned: the caller learns why from {@link #sendfile} by itself. Without
     * libjinxio it is {@link #sendv} of the array alone. Failures of the array's call read {@code writev() failed}.
     *
     * @param fd the socket
     * @param iov the array's address
     * @param iovcnt its length
     * @param in the file
     * @param part the address of the caller's two {@code off_t} ({@link Platform#SIZEOF_OFF_T} bytes each): the
     *     file offset, advanced by the kernel, and the file's bytes to send at most
     * @return bytes sent of both, or {@link Rc#AGAIN} when the socket took none
     * @throws NativeIoException {@code writev() failed (...)}
     */
    public static long sendvFile(int fd, long iov, int iovcnt, int in, long part) throws NativeIoException {
        LibJinxIo io = Native.IO;
        if (io == null) {
            return writev(fd, iov, iovcnt);
        }
        for (;;) {
            long n = io.sendv_file(fd, iov, iovcnt, in, part);
            if (n >= 0) {
                return n;
            }
            int errno = (int) -n;
            if (errno != EINTR) {
                return Errors.again("writev()", errno);
            }
        }
    }

    /**
     * Sends a file's bytes to a socket: {@code sendfile(out, in, offset, count)}.
     *
     * @param out the socket
     * @param in the file
     * @param offset the address of the caller's {@code off_t} ({@link Platform#SIZEOF_OFF_T} bytes) holding the
     *     file offset; the kernel advances it by the bytes sent
     * @param count bytes to send at most
     * @return bytes sent, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code sendfile() failed (...)}
     */
    public static long sendfile(int out, int in, long offset, long count) throws NativeIoException {
        LibJinxIo io = Native.IO;
        for (;;) {
            long n = io != null ? io.sendfile(out, in, offset, count) : Native.C.sendfile(out, in, offset, count);
            if (n >= 0) {
                return n;
            }
            int errno = io != null ? (int) -n : Errors.last();
            if (errno != EINTR) {
                return Errors.again("sendfile()", errno);
            }
        }
    }

    /**
     * Closes a descriptor. {@code EINTR} is not retried: Linux has released the descriptor already, and
     * a retry could close one another thread has just been given (nginx does not retry either); it counts
     * as success.
     *
     * @param fd the descriptor
     * @throws NativeIoException {@code close(12) failed (9: Bad file descriptor)}
     */
    public static void close(int fd) throws NativeIoException {
        LibJinxIo io = Native.IO;
        int rc = io != null ? io.close(fd) : Native.C.close(fd);
        if (rc != 0) {
            int errno = io != null ? -rc : Errors.last();
            if (errno != EINTR) {
                throw Errors.failure("close(" + fd + ")", errno);
            }
        }
    }

    /**
     * Makes a descriptor non-blocking: {@code fcntl(F_SETFL, flags | O_NONBLOCK)}.
     *
     * @param fd the descriptor
     * @throws NativeIoException {@code fcntl(O_NONBLOCK) failed (...)}
     */
    public static void setNonBlocking(int fd) throws NativeIoException {
        setFlag(fd, Platform.F_GETFL, Platform.F_SETFL, Platform.O_NONBLOCK, "fcntl(O_NONBLOCK)");
    }

    /**
     * Makes a descriptor close-on-exec: {@code fcntl(F_SETFD, flags | FD_CLOEXEC)}.
     *
     * @param fd the descriptor
     * @throws NativeIoException {@code fcntl(FD_CLOEXEC) failed (...)}
     */
    public static void setCloexec(int fd) throws NativeIoException {
        setFlag(fd, Platform.F_GETFD, Platform.F_SETFD, Platform.FD_CLOEXEC, "fcntl(FD_CLOEXEC)");
    }

    /**
     * A second descriptor for the same open file, close-on-exec: {@code fcntl(F_DUPFD, 0)}, then
     * {@code FD_CLOEXEC} (jnr-constants has no {@code F_DUPFD_CLOEXEC}; the window between the two matters only
     * to a process that spawns meanwhile, and the callers, workers, never spawn).
     *
     * @param fd the descriptor
     * @return the new descriptor, the lowest free one
     * @throws NativeIoException {@code fcntl(F_DUPFD) failed (...)}
     */
    public static int dup(int fd) throws NativeIoException {
        int copy = fcntl(fd, Platform.F_DUPFD, 0, "fcntl(F_DUPFD)");
        try {
            setCloexec(copy);
        } catch (NativeIoException e) {
            close(copy);
            throw e;
        }
        return copy;
    }

    /**
     * Clears a descriptor's close-on-exec flag: {@code fcntl(F_SETFD, flags & ~FD_CLOEXEC)}.
     *
     * @param fd the descriptor
     * @throws NativeIoException {@code fcntl(F_SETFD) failed (...)}
     */
    public static void clearCloexec(int fd) throws NativeIoException {
        int flags = fcntl(fd, Platform.F_GETFD, 0, "fcntl(F_GETFD)");
        if ((flags & Platform.FD_CLOEXEC) != 0) {
            fcntl(fd, Platform.F_SETFD, flags & ~Platform.FD_CLOEXEC, "fcntl(F_SETFD)");
        }
    }

    /**
     * Returns whether a descriptor is non-blocking.
     *
     * @param fd the descriptor
     * @return whether {@code O_NONBLOCK} is set
     * @throws NativeIoException {@code fcntl(F_GETFL) failed (...)}
     */
    public static boolean isNonBlocking(int fd) throws NativeIoException {
        return (fcntl(fd, Platform.F_GETFL, 0, "fcntl(F_GETFL)") & Platform.O_NONBLOCK) != 0;
    }

    /**
     * Returns whether a descriptor is close-on-exec.
     *
     * @param fd the descriptor
     * @return whether {@code FD_CLOEXEC} is set
     * @throws NativeIoException {@code fcntl(F_GETFD) failed (...)}
     */
    public static boolean isCloexec(int fd) throws NativeIoException {
        return (fcntl(fd, Platform.F_GETFD, 0, "fcntl(F_GETFD)") & Platform.FD_CLOEXEC) != 0;
    }

    /**
     * Creates a pipe: {@code pipe2(fds, flags)}. Not hot.
     *
     * @param flags {@link Platform#O_CLOEXEC} | {@link Platform#O_NONBLOCK}, or 0
     * @return the read end, then the write end
     * @throws NativeIoException {@code pipe2() failed (...)}
     */
    public static int[] pipe(int flags) throws NativeIoException {
        int[] fds = new int[2];
        if (Native.C.pipe2(fds, flags) != 0) {
            throw Errors.failure("pipe2()", Errors.last());
        }
        return fds;
    }

    // eventfd

    /**
     * Creates an eventfd: the loop's {@code notify} channel.
     *
     * @param initval the counter's initial value
     * @param flags {@link Platform#EFD_NONBLOCK} | {@link Platform#EFD_CLOEXEC}
     * @return the descriptor
     * @throws NativeIoException {@code eventfd() failed (...)}
     */
    public static int eventfd(int initval, int flags) throws NativeIoException {
        int fd = Native.C.eventfd(initval, flags);
        if (fd < 0) {
            throw Errors.failure("eventfd()", Errors.last());
        }
        return fd;
    }

    /**
     * Adds to an eventfd's counter ({@code eventfd_write}, no buffer): wakes the loop. Any thread may call it.
     * {@code EAGAIN} (the counter is full) is fine: the loop has a wake-up pending anyway.
     *
     * @param fd the eventfd
     * @param value the amount, at least 1
     * @throws NativeIoException {@code write() to eventfd 12 failed (...)}
     */
    public static void eventfdWrite(int fd, long value) throws NativeIoException {
        while (Native.C.eventfd_write(fd, value) != 0) {
            int errno = Errors.last();
            if (errno == EINTR) {
                continue;
            }
            if (Errors.isAgain(errno)) {
                return;
            }
            throw Errors.failure("write() to eventfd " + fd, errno);
        }
    }

    /**
     * Reads and resets a non-blocking eventfd's counter.
     *
     * @param fd the eventfd
     * @param scratch the address of 8 bytes of the caller's memory to read into
     * @return the counter (at least 1), or {@link Rc#AGAIN} when it is 0
     * @throws NativeIoException {@code read() eventfd 12 failed (...)}
     */
    public static long eventfdRead(int fd, long scratch) throws NativeIoException {
        for (;;) {
            long n = Native.C.read(fd, scratch, 8);
            if (n == 8) {
                return NativeMemory.getLong(scratch);
            }
            int errno = n < 0 ? Errors.last() : Errors.EINVAL;
            if (Errors.isAgain(errno)) {
                return Rc.AGAIN;
            }
            if (errno != EINTR) {
                throw Errors.failure("read() eventfd " + fd, errno);
            }
        }
    }

    private static void setFlag(int fd, int get, int set, int flag, String call) throws NativeIoException {
        int flags = fcntl(fd, get, 0, call);
        if ((flags & flag) == 0) {
            fcntl(fd, set, flags | flag, call);
        }
    }

    private static int fcntl(int fd, int cmd, int arg, String call) throws NativeIoException {
        for (;;) {
            int rc = Native.C.fcntl(fd, cmd, arg);
            if (rc != -1) {
                return rc;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                throw Errors.failure(call, errno);
            }
        }
    }
}
