package jinx.kernel.os;

import jnr.constants.platform.Errno;

import jinx.kernel.Rc;

/**
 * The errno table: the numbers callers compare {@link NativeIoException#errno()} with, read from the platform
 * (jnr-constants), and the one place an errno becomes a {@link NativeIoException} with its {@code strerror} text.
 */
public final class Errors {

    /** Interrupted system call: the facades retry. */
    public static final int EINTR = Errno.EINTR.intValue();
    /** Try again: the facades return {@code Rc.AGAIN}. */
    public static final int EAGAIN = Errno.EAGAIN.intValue();
    /** Same as {@code EAGAIN} on Linux; both are checked. */
    public static final int EWOULDBLOCK = Errno.EWOULDBLOCK.intValue();
    /** A non-blocking {@code connect()} is under way: returned as {@code Rc.AGAIN}. */
    public static final int EINPROGRESS = Errno.EINPROGRESS.intValue();
    /** Bad file descriptor. */
    public static final int EBADF = Errno.EBADF.intValue();
    /** No such file or directory. */
    public static final int ENOENT = Errno.ENOENT.intValue();
    /** Permission denied. */
    public static final int EACCES = Errno.EACCES.intValue();
    /** A component of a path is not a directory: the static module answers 404, as for ENOENT. */
    public static final int ENOTDIR = Errno.ENOTDIR.intValue();
    /** File name too long: the static module answers 404. */
    public static final int ENAMETOOLONG = Errno.ENAMETOOLONG.intValue();
    /** Too many symbolic links: nginx answers 403 where it has {@code openat()}. */
    public static final int ELOOP = Errno.ELOOP.intValue();
    /** The process is out of descriptors: nginx disables accept for a while. */
    public static final int EMFILE = Errno.EMFILE.intValue();
    /** The system is out of descriptors. */
    public static final int ENFILE = Errno.ENFILE.intValue();
    /** Out of socket buffers. */
    public static final int ENOBUFS = Errno.ENOBUFS.intValue();
    /** Out of kernel memory. */
    public static final int ENOMEM = Errno.ENOMEM.intValue();
    /** A connection was aborted before {@code accept4()} took it: accept the next. */
    public static final int ECONNABORTED = Errno.ECONNABORTED.intValue();
    /** Connection reset by peer. */
    public static final int ECONNRESET = Errno.ECONNRESET.intValue();
    /** Connection refused. */
    public static final int ECONNREFUSED = Errno.ECONNREFUSED.intValue();
    /** Broken pipe (no SIGPIPE: sends use {@code MSG_NOSIGNAL}). */
    public static final int EPIPE = Errno.EPIPE.intValue();
    /** The socket is not connected. */
    public static final int ENOTCONN = Errno.ENOTCONN.intValue();
    /** Connection timed out. */
    public static final int ETIMEDOUT = Errno.ETIMEDOUT.intValue();
    /** Address already in use. */
    public static final int EADDRINUSE = Errno.EADDRINUSE.intValue();
    /** Cannot assign requested address. */
    public static final int EADDRNOTAVAIL = Errno.EADDRNOTAVAIL.intValue();
    /** Host unreachable. */
    public static final int EHOSTUNREACH = Errno.EHOSTUNREACH.intValue();
    /** Network unreachable. */
    public static final int ENETUNREACH = Errno.ENETUNREACH.intValue();
    /** Network is down: a connect to a peer fails at error level, as nginx logs it. */
    public static final int ENETDOWN = Errno.ENETDOWN.intValue();
    /** Host is down: as {@link #ENETDOWN}. */
    public static final int EHOSTDOWN = Errno.EHOSTDOWN.intValue();
    /** No child processes: {@code waitpid()} has nothing left to reap. */
    public static final int ECHILD = Errno.ECHILD.intValue();
    /** No such process. */
    public static final int ESRCH = Errno.ESRCH.intValue();
    /** Operation not permitted ({@code setuid()} as a user). */
    public static final int EPERM = Errno.EPERM.intValue();
    /** Function not implemented: a kernel older than the call ({@code close_range()}). */
    public static final int ENOSYS = Errno.ENOSYS.intValue();
    /** Invalid argument. */
    public static final int EINVAL = Errno.EINVAL.intValue();
    /** {@code EOPNOTSUPP}. */
    public static final int EOPNOTSUPP = Errno.EOPNOTSUPP.intValue();
    /** {@code ENOPROTOOPT}. */
    public static final int ENOPROTOOPT = Errno.ENOPROTOOPT.intValue();

    private Errors() {
    }

    /**
     * Returns the text of an error number, as {@code strerror(3)}.
     *
     * @param errno the error number
     * @return its text ({@code "Address already in use"})
     */
    public static String text(int errno) {
        return Native.C.strerror(errno);
    }

    /**
     * Returns the errno jnr-ffi saved after this thread's last native call.
     *
     * @return errno
     */
    static int last() {
        return Native.RUNTIME.getLastError();
    }

    /**
     * Returns whether an errno means "would block".
     *
     * @param errno the error number
     * @return whether it is {@code EAGAIN} or {@code EWOULDBLOCK}
     */
    static boolean isAgain(int errno) {
        return errno == EAGAIN || errno == EWOULDBLOCK;
    }

    /**
     * Returns the exception for a failed call: {@code call failed (errno: text)}.
     *
     * @param call the call as nginx words it ({@code "accept4()"}, {@code "bind() to 127.0.0.1:80"})
     * @param errno the error number
     * @return the exception, to throw
     */
    static NativeIoException failure(String call, int errno) {
        return new NativeIoException(call, errno, text(errno));
    }

    /**
     * Returns {@link Rc#AGAIN} for EAGAIN/EWOULDBLOCK; throws for anything else.
     *
     * @param call the call, as nginx words it
     * @param errno the error number, not EINTR
     * @return {@code Rc.AGAIN}
     * @throws NativeIoException for any other errno
     */
    static int again(String call, int errno) throws NativeIoException {
        if (isAgain(errno)) {
            return Rc.AGAIN;
        }
        throw failure(call, errno);
    }
}
