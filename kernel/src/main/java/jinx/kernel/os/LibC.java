package jinx.kernel.os;

import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.intptr_t;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The C library calls the kernel makes, mirroring their C prototypes. Called only through the facades
 * ({@link Syscalls}, {@link Sockets}, {@link Channels}, {@link Files}), which retry {@code EINTR} and turn errno into
 * {@link NativeIoException}.
 *
 * <p>Buffers and structs are raw native addresses ({@code @intptr_t long}), never a jnr {@code Pointer} or
 * {@code Struct}: building one per call would be garbage on the hot path. Java arrays and strings appear only on
 * calls made at setup time; paths are NUL-terminated byte arrays (the facades encode them). jnr-ffi saves errno
 * after every call (no {@code @IgnoreError} anywhere).
 */
public interface LibC {

    /**
     * {@code int kill(pid_t pid, int sig);}
     *
     * @param pid the process
     * @param sig the signal
     * @return 0, or -1 with errno set
     */
    int kill(int pid, int sig);

    /**
     * {@code uid_t geteuid(void);}
     *
     * @return the effective user id
     */
    int geteuid();

    /**
     * {@code char *strerror(int errnum);}
     *
     * @param errnum the error number
     * @return its text
     */
    String strerror(int errnum);

    /**
     * {@code int getrlimit(int resource, struct rlimit *rlim);}
     *
     * @param resource the resource ({@code RLIMIT_NOFILE})
     * @param rlim a {@code struct rlimit} to fill
     * @return 0, or -1 with errno set
     */
    int getrlimit(int resource, @intptr_t long rlim);

    /**
     * {@code int setrlimit(int resource, const struct rlimit *rlim);}
     *
     * @param resource the resource
     * @param rlim the {@code struct rlimit} to set
     * @return 0, or -1 with errno set
     */
    int setrlimit(int resource, @intptr_t long rlim);

    // sockets

    /**
     * {@code int socket(int domain, int type, int protocol);}
     *
     * @param domain the address family
     * @param type the socket type, with {@code SOCK_NONBLOCK}/{@code SOCK_CLOEXEC}
     * @param protocol the protocol, usually 0
     * @return the descriptor, or -1 with errno set
     */
    int socket(int domain, int type, int protocol);

    /**
     * {@code int socketpair(int domain, int type, int protocol, int sv[2]);}
     *
     * @param domain the address family ({@code AF_UNIX})
     * @param type the socket type
     * @param protocol 0
     * @param sv receives the two descriptors
     * @return 0, or -1 with errno set
     */
    int socketpair(int domain, int type, int protocol, @Out int[] sv);

    /**
     * {@code int setsockopt(int sockfd, int level, int optname, const void *optval, socklen_t optlen);}
     *
     * @param sockfd the socket
     * @param level the level ({@code SOL_SOCKET})
     * @param optname the option
     * @param optval the value's address
     * @param optlen the value's length
     * @return 0, or -1 with errno set
     */
    int setsockopt(int sockfd, int level, int optname, @intptr_t long optval, int optlen);

    /**
     * {@code int getsockopt(int sockfd, int level, int optname, void *optval, socklen_t *optlen);}
     *
     * @param sockfd the socket
     * @param level the level
     * @param optname the option
     * @param optval receives the value
     * @param optlen the value's capacity in, its length out
     * @return 0, or -1 with errno set
     */
    int getsockopt(int sockfd, int level, int optname, @intptr_t long optval, @intptr_t long optlen);

    /**
     * {@code int bind(int sockfd, const struct sockaddr *addr, socklen_t addrlen);}
     *
     * @param sockfd the socket
     * @param addr the address
     * @param addrlen its length
     * @return 0, or -1 with errno set
     */
    int bind(int sockfd, @intptr_t long addr, int addrlen);

    /**
     * {@code int listen(int sockfd, int backlog);}
     *
     * @param sockfd the socket
     * @param backlog the accept queue's length
     * @return 0, or -1 with errno set
     */
    int listen(int sockfd, int backlog);

    /**
     * {@code int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);}
     *
     * @param sockfd the listening socket
     * @param addr receives the peer's address, or 0
     * @param addrlen the address buffer's capacity in, the address's length out, or 0
     * @param flags {@code SOCK_NONBLOCK}, {@code SOCK_CLOEXEC}
     * @return the new descriptor, or -1 with errno set
     */
    int accept4(int sockfd, @intptr_t long addr, @intptr_t long addrlen, int flags);

    /**
     * {@code int connect(int sockfd, const struct sockaddr *addr, socklen_t addrlen);}
     *
     * @param sockfd the socket
     * @param addr the peer's address
     * @param addrlen its length
     * @return 0, or -1 with errno set
     */
    int connect(int sockfd, @intptr_t long addr, int addrlen);

    /**
     * {@code int getsockname(int sockfd, struct sockaddr *addr, socklen_t *addrlen);}
     *
     * @param sockfd the socket
     * @param addr receives the local address
     * @param addrlen the capacity in, the length out
     * @return 0, or -1 with errno set
     */
    int getsockname(int sockfd, @intptr_t long addr, @intptr_t long addrlen);

    /**
     * {@code int getpeername(int sockfd, struct sockaddr *addr, socklen_t *addrlen);}
     *
     * @param sockfd the socket
     * @param addr receives the peer's address
     * @param addrlen the capacity in, the length out
     * @return 0, or -1 with errno set
     */
    int getpeername(int sockfd, @intptr_t long addr, @intptr_t long addrlen);

    /**
     * {@code int shutdown(int sockfd, int how);}
     *
     * @param sockfd the socket
     * @param how {@code SHUT_RD}, {@code SHUT_WR} or {@code SHUT_RDWR}
     * @return 0, or -1 with errno set
     */
    int shutdown(int sockfd, int how);

    /**
     * {@code ssize_t recv(int sockfd, void *buf, size_t len, int flags);}
     *
     * @param sockfd the socket
     * @param buf the buffer
     * @param len its length
     * @param flags {@code MSG_PEEK}, ...
     * @return bytes received, 0 at end of stream, or -1 with errno set
     */
    @ssize_t long recv(int sockfd, @intptr_t long buf, @size_t long len, int flags);

    /**
     * {@code ssize_t send(int sockfd, const void *buf, size_t len, int flags);}
     *
     * @param sockfd the socket
     * @param buf the bytes
     * @param len their length
     * @param flags {@code MSG_NOSIGNAL}, ...
     * @return bytes sent, or -1 with errno set
     */
    @ssize_t long send(int sockfd, @intptr_t long buf, @size_t long len, int flags);

    /**
     * {@code ssize_t sendmsg(int sockfd, const struct msghdr *msg, int flags);}
     *
     * @param sockfd the socket
     * @param msg the message header
     * @param flags {@code MSG_NOSIGNAL}, ...
     * @return bytes sent, or -1 with errno set
     */
    @ssize_t long sendmsg(int sockfd, @intptr_t long msg, int flags);

    /**
     * {@code ssize_t recvmsg(int sockfd, struct msghdr *msg, int flags);}
     *
     * @param sockfd the socket
     * @param msg the message header
     * @param flags {@code MSG_CMSG_CLOEXEC}, ...
     * @return bytes received, 0 at end of stream, or -1 with errno set
     */
    @ssize_t long recvmsg(int sockfd, @intptr_t long msg, int flags);

    // descriptors

    /**
     * {@code ssize_t read(int fd, void *buf, size_t count);}
     *
     * @param fd the descriptor
     * @param buf the buffer
     * @param count its length
     * @return bytes read, 0 at end of file, or -1 with errno set
     */
    @ssize_t long read(int fd, @intptr_t long buf, @size_t long count);

    /**
     * {@code ssize_t write(int fd, const void *buf, size_t count);}
     *
     * @param fd the descriptor
     * @param buf the bytes
     * @param count their length
     * @return bytes written, or -1 with errno set
     */
    @ssize_t long write(int fd, @intptr_t long buf, @size_t long count);

    /**
     * {@code ssize_t pread(int fd, void *buf, size_t count, off_t offset);}
     *
     * @param fd the descriptor
     * @param buf the buffer
     * @param count its length
     * @param offset the file offset to read at
     * @return bytes read, 0 at end of file, or -1 with errno set
     */
    @ssize_t long pread(int fd, @intptr_t long buf, @size_t long count, @off_t long offset);

    /**
     * {@code ssize_t readv(int fd, const struct iovec *iov, int iovcnt);}
     *
     * @param fd the descriptor
     * @param iov the {@code struct iovec} array
     * @param iovcnt its length
     * @return bytes read, 0 at end of file, or -1 with errno set
     */
    @ssize_t long readv(int fd, @intptr_t long iov, int iovcnt);

    /**
     * {@code ssize_t writev(int fd, const struct iovec *iov, int iovcnt);}
     *
     * @param fd the descriptor
     * @param iov the {@code struct iovec} array
     * @param iovcnt its length
     * @return bytes written, or -1 with errno set
     */
    @ssize_t long writev(int fd, @intptr_t long iov, int iovcnt);

    /**
     * {@code ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count);}
     *
     * @param outFd the socket
     * @param inFd the file
     * @param offset the {@code off_t} to read from, advanced by the kernel
     * @param count bytes to send
     * @return bytes sent, or -1 with errno set
     */
    @ssize_t long sendfile(int outFd, int inFd, @intptr_t long offset, @size_t long count);

    /**
     * {@code int close(int fd);}
     *
     * @param fd the descriptor
     * @return 0, or -1 with errno set
     */
    int close(int fd);

    /**
     * {@code int fcntl(int fd, int cmd, ...);} with its one int argument (ignored by the {@code F_GET*}
     * commands).
     *
     * @param fd the descriptor
     * @param cmd the command ({@code F_GETFL}, {@code F_SETFL}, {@code F_GETFD}, {@code F_SETFD})
     * @param arg the argument
     * @return the command's result, or -1 with errno set
     */
    int fcntl(int fd, int cmd, int arg);

    /**
     * {@code int eventfd(unsigned int initval, int flags);}
     *
     * @param initval the counter's initial value
     * @param flags {@code EFD_NONBLOCK}, {@code EFD_CLOEXEC}
     * @return the descriptor, or -1 with errno set
     */
    int eventfd(int initval, int flags);

    /**
     * {@code int eventfd_write(int fd, eventfd_t value);} (glibc): adds to the counter without a buffer.
     *
     * @param fd the eventfd
     * @param value the amount
     * @return 0, or -1 with errno set
     */
    int eventfd_write(int fd, long value);

    // files

    /**
     * {@code int open(const char *pathname, int flags, mode_t mode);}
     *
     * @param pathname the path, NUL-terminated
     * @param flags {@code O_RDONLY}, {@code O_CLOEXEC}, ...
     * @param mode the permissions when creating
     * @return the descriptor, or -1 with errno set
     */
    int open(@In byte[] pathname, int flags, @mode_t int mode);

    /**
     * {@code int fstat(int fd, struct stat *statbuf);}
     *
     * @param fd the descriptor
     * @param statbuf the {@code struct stat} to fill
     * @return 0, or -1 with errno set
     */
    int fstat(int fd, @intptr_t long statbuf);

    /**
     * {@code int unlink(const char *pathname);}
     *
     * @param pathname the path, NUL-terminated
     * @return 0, or -1 with errno set
     */
    int unlink(@In byte[] pathname);
}
