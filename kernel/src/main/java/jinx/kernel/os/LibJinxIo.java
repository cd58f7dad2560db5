package jinx.kernel.os;

import jnr.ffi.annotations.IgnoreError;
import jnr.ffi.types.intptr_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * libjinxio ({@code kernel/src/main/c/jinxio.c}): the loop's hot calls, each the C prototype of the call it makes,
 * with the symbol prefixed {@code jinx_}, returning {@code -errno} on failure instead of setting errno. Called
 * without jnr-ffi's errno save ({@code @IgnoreError}), only through {@link Sockets} and {@link Syscalls}, which
 * fall back to {@link LibC} where the library is not found.
 */
public interface LibJinxIo {

    /**
     * {@code long jinx_recv(int fd, void *buf, size_t len, int flags);}
     *
     * @param fd the socket
     * @param buf the buffer's address
     * @param len its length
     * @param flags the flags
     * @return bytes received, or {@code -errno}
     */
    @IgnoreError
    @ssize_t long recv(int fd, @intptr_t long buf, @size_t long len, int flags);

    /**
     * {@code long jinx_send(int fd, const void *buf, size_t len, int flags);}
     *
     * @param fd the socket
     * @param buf the bytes' address
     * @param len their length
     * @param flags the flags
     * @return bytes sent, or {@code -errno}
     */
    @IgnoreError
    @ssize_t long send(int fd, @intptr_t long buf, @size_t long len, int flags);

    /**
     * {@code long jinx_writev(int fd, const struct iovec *iov, int iovcnt);}
     *
     * @param fd the descriptor
     * @param iov the array's address
     * @param iovcnt its length
     * @return bytes written, or {@code -errno}
     */
    @IgnoreError
    @ssize_t long writev(int fd, @intptr_t long iov, int iovcnt);

    /**
     * {@code long jinx_sendv(int fd, const struct iovec *iov, int iovcnt, int flags);}: a socket's gather write
     * with {@code flags}, as {@code sendto} of one buffer or of the array gathered when it is at most 1 KB, and as
     * {@code sendmsg} of the array otherwise.
     *
     * @param fd the socket
     * @param iov the array's address
     * @param iovcnt its length
     * @param flags the flags
     * @return bytes written, or {@code -errno}
     */
    @IgnoreError
    @ssize_t long sendv(int fd, @intptr_t long iov, int iovcnt, int flags);

    /**
     * {@code long jinx_sendfile(int out_fd, int in_fd, off_t *offset, size_t count);}
     *
     * @param outFd the socket
     * @param inFd the file
     * @param offset the address of the {@code off_t} offset
     * @param count bytes at most
     * @return bytes sent, or {@code -errno}
     */
    @IgnoreError
    @ssize_t long sendfile(int outFd, int inFd, @intptr_t long offset, @size_t long count);

    /**
     * {@code long jinx_sendv_file(int fd, const struct iovec *iov, int iovcnt, int in_fd, off_t *part);}:
     * {@link #sendv} with {@code MSG_MORE | MSG_NOSIGNAL}, then, once the whole array went, {@link #sendfile} from
     * {@code part[0]} (advanced), {@code part[1]} bytes at most: a header and its file in one call. Five
     * arguments: jnr-ffi 2.2.17's fast invokers pass a sixth wrongly.
     *
     * @param fd the socket
     * @param iov the array's address
     * @param iovcnt its length
     * @param inFd the file
     * @param part the address of two {@code off_t}: the file's offset and its bytes to send at most
     * @return bytes of both sent; the array's alone when the file's call failed or sent nothing; {@code -errno}
     *     when the array's failed
     */
    @IgnoreError
    @ssize_t long sendv_file(int fd, @intptr_t long iov, int iovcnt, int inFd, @intptr_t long part);

    /**
     * {@code int jinx_open(const char *path, int flags, int mode);}: {@code openat(AT_FDCWD, ...)}.
     *
     * @param path the address of the NUL-terminated path
     * @param flags the flags
     * @param mode permissions of a file it creates
     * @return the descriptor, or {@code -errno}
     */
    @IgnoreError
    int open(@intptr_t long path, int flags, int mode);

    /**
     * {@code int jinx_fstat(int fd, struct stat *buf);}
     *
     * @param fd the descriptor
     * @param buf the address of the caller's {@code struct stat}
     * @return 0, or {@code -errno}
     */
    @IgnoreError
    int fstat(int fd, @intptr_t long buf);

    /**
     * {@code int jinx_open_stat(const char *path, int flags, int mode, struct stat *buf);}: {@link #open}, then
     * {@link #fstat} of what it opened.
     *
     * @param path the address of the NUL-terminated path
     * @param flags the flags
     * @param mode permissions of a file it creates
     * @param buf the address of the caller's {@code struct stat}
     * @return the descriptor; {@code -errno} when open failed; {@code -(0x10000 | errno)} when fstat failed (the
     *     descriptor closed)
     */
    @IgnoreError
    int open_stat(@intptr_t long path, int flags, int mode, @intptr_t long buf);

    /**
     * {@code int jinx_close(int fd);}
     *
     * @param fd the descriptor
     * @return 0, or {@code -errno}
     */
    @IgnoreError
    int close(int fd);
}
