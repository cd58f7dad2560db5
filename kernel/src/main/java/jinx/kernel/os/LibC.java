package jinx.kernel.os;

import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.intptr_t;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;
import jnr.ffi.types.u_int64_t;

/**
 * The C library calls the kernel makes, mirroring their C prototypes. Called only through the facades
 * ({@link Syscalls}, {@link Sockets}, {@link Channels}, {@link Files}, {@link Signals}, {@link Processes},
 * {@link ProcessSetup}, and {@link SigSet}), which retry {@code EINTR} and turn errno into
 * {@link NativeIoException}.
 *
 * <p>Buffers and structs are raw native addresses ({@code @intptr_t long}), never a jnr {@code Pointer} or
 * {@code Struct}: building one per call would be garbage on the hot path. Java arrays and strings appear only on
 * calls made at setup time; paths are NUL-terminated byte arrays (the facades encode them). jnr-ffi saves errno
 * after every call (no {@code @IgnoreError} anywhere). The {@code pthread_*} and {@code posix_spawn*} calls return
 * an error number instead of setting errno.
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
     * {@code ssize_t write(int fd, const void *buf, size_t count);} from a Java array: a log line.
     *
     * @param fd the descriptor
     * @param buf the bytes, from the first
     * @param count how many
     * @return bytes written, or -1 with errno set
     */
    @ssize_t long write(int fd, @In byte[] buf, @size_t long count);

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
     * {@code ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);}
     *
     * @param fd the file
     * @param buf the bytes
     * @param count how many
     * @param offset the file offset to write at
     * @return bytes written, or -1 with errno set
     */
    @ssize_t long pwrite(int fd, @intptr_t long buf, @size_t long count, @off_t long offset);

    /**
     * {@code ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);}
     *
     * @param fd the file
     * @param iov the {@code struct iovec} array
     * @param iovcnt its length
     * @param offset the file offset to write at
     * @return bytes written, or -1 with errno set
     */
    @ssize_t long pwritev(int fd, @intptr_t long iov, int iovcnt, @off_t long offset);

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
     * {@code int pipe2(int pipefd[2], int flags);}
     *
     * @param pipefd receives the read end, then the write end
     * @param flags {@code O_CLOEXEC}, {@code O_NONBLOCK}
     * @return 0, or -1 with errno set
     */
    int pipe2(@Out int[] pipefd, int flags);

    /**
     * {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout);} ({@code nfds_t} is {@code unsigned long}):
     * the master's wait on its signalfd, timerfd and channels.
     *
     * @param fds the array of {@code struct pollfd}
     * @param nfds its length
     * @param timeout milliseconds, -1 for none
     * @return how many entries have events, 0 on timeout, or -1 with errno set
     */
    int poll(@intptr_t long fds, @u_int64_t long nfds, int timeout);

    /**
     * {@code int timerfd_create(int clockid, int flags);}
     *
     * @param clockid {@code CLOCK_MONOTONIC}
     * @param flags {@code TFD_CLOEXEC}, {@code TFD_NONBLOCK}
     * @return the descriptor, or -1 with errno set
     */
    int timerfd_create(int clockid, int flags);

    /**
     * {@code int timerfd_settime(int fd, int flags, const struct itimerspec *new_value,
     * struct itimerspec *old_value);}
     *
     * @param fd the timerfd
     * @param flags 0 (relative)
     * @param newValue the {@code struct itimerspec} to arm (all zero disarms)
     * @param oldValue where the previous setting goes, or 0
     * @return 0, or -1 with errno set
     */
    int timerfd_settime(int fd, int flags, @intptr_t long newValue, @intptr_t long oldValue);

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
     * {@code int open(const char *pathname, int flags, mode_t mode);} with the path in native memory: no array
     * copied by JNI on the way in (a file served per request).
     *
     * @param pathname the address of the path, NUL-terminated
     * @param flags {@code O_RDONLY}, {@code O_CLOEXEC}, ...
     * @param mode the permissions when creating
     * @return the descriptor, or -1 with errno set
     */
    int open(@intptr_t long pathname, int flags, @mode_t int mode);

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

    /**
     * {@code int ftruncate(int fd, off_t length);}
     *
     * @param fd the descriptor
     * @param length the new size
     * @return 0, or -1 with errno set
     */
    int ftruncate(int fd, @off_t long length);

    /**
     * {@code int memfd_create(const char *name, unsigned int flags);} (glibc 2.27)
     *
     * @param name the name, NUL-terminated, shown as {@code /memfd:name} in {@code /proc/self/fd}
     * @param flags {@code MFD_CLOEXEC}, {@code MFD_ALLOW_SEALING}
     * @return the descriptor, or -1 with errno set
     */
    int memfd_create(@In byte[] name, int flags);

    // signal masks: sigsetops(3), pthread_sigmask(3), sigprocmask(2), signalfd(2)

    /**
     * {@code int sigemptyset(sigset_t *set);}
     *
     * @param set the {@code sigset_t}
     * @return 0, or -1 with errno set
     */
    int sigemptyset(@intptr_t long set);

    /**
     * {@code int sigfillset(sigset_t *set);}
     *
     * @param set the {@code sigset_t}
     * @return 0, or -1 with errno set
     */
    int sigfillset(@intptr_t long set);

    /**
     * {@code int sigaddset(sigset_t *set, int signum);}
     *
     * @param set the {@code sigset_t}
     * @param signum the signal
     * @return 0, or -1 with errno set ({@code EINVAL}: not a signal, or one glibc reserves)
     */
    int sigaddset(@intptr_t long set, int signum);

    /**
     * {@code int sigdelset(sigset_t *set, int signum);}
     *
     * @param set the {@code sigset_t}
     * @param signum the signal
     * @return 0, or -1 with errno set
     */
    int sigdelset(@intptr_t long set, int signum);

    /**
     * {@code int sigismember(const sigset_t *set, int signum);}
     *
     * @param set the {@code sigset_t}
     * @param signum the signal
     * @return 1 when a member, 0 when not, or -1 with errno set
     */
    int sigismember(@intptr_t long set, int signum);

    /**
     * {@code int pthread_sigmask(int how, const sigset_t *set, sigset_t *oldset);} (in libc since glibc 2.34;
     * older glibc resolves it from the libpthread every JVM has loaded)
     *
     * @param how {@code SIG_BLOCK}, {@code SIG_UNBLOCK}, {@code SIG_SETMASK}
     * @param set the set, or 0 to only read the mask
     * @param oldset receives the previous mask, or 0
     * @return 0, or an error number (errno is not set)
     */
    int pthread_sigmask(int how, @intptr_t long set, @intptr_t long oldset);

    /**
     * {@code int sigprocmask(int how, const sigset_t *set, sigset_t *oldset);} (the calling thread's mask with
     * glibc, as {@code pthread_sigmask})
     *
     * @param how {@code SIG_BLOCK}, {@code SIG_UNBLOCK}, {@code SIG_SETMASK}
     * @param set the set, or 0
     * @param oldset receives the previous mask, or 0
     * @return 0, or -1 with errno set
     */
    int sigprocmask(int how, @intptr_t long set, @intptr_t long oldset);

    /**
     * {@code int signalfd(int fd, const sigset_t *mask, int flags);}
     *
     * @param fd -1 for a new descriptor, or a signalfd whose mask to replace
     * @param mask the signals to read
     * @param flags {@code SFD_NONBLOCK}, {@code SFD_CLOEXEC}
     * @return the descriptor, or -1 with errno set
     */
    int signalfd(int fd, @intptr_t long mask, int flags);

    /**
     * {@code long syscall(long number, ...);} with three arguments (unused ones are ignored by the kernel). glibc's
     * {@code syscall} is assembly that moves registers, so binding the variadic prototype with fixed arguments is
     * exact on x86_64 and aarch64. Used for {@code gettid}, {@code tgkill} and {@code prctl}.
     *
     * @param number the system call ({@code SYS_gettid} ...)
     * @param a1 the first argument
     * @param a2 the second argument
     * @param a3 the third argument
     * @return the call's result, or -1 with errno set
     */
    long syscall(long number, long a1, long a2, long a3);

    // processes: posix_spawn(3), wait(2), exec

    /**
     * {@code int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *file_actions,
     * const posix_spawnattr_t *attrp, char *const argv[], char *const envp[]);}
     *
     * @param pid receives the child's pid (an {@code int})
     * @param file the program, NUL-terminated, searched in {@code PATH} when it has no slash
     * @param fileActions the file actions, or 0
     * @param attrp the attributes, or 0
     * @param argv a NULL-terminated array of NUL-terminated strings
     * @param envp a NULL-terminated array of {@code NAME=value} strings
     * @return 0, or an error number (errno is not set), which includes the child's failure to exec
     */
    int posix_spawnp(@intptr_t long pid, @In byte[] file, @intptr_t long fileActions, @intptr_t long attrp,
                     @intptr_t long argv, @intptr_t long envp);

    /**
     * {@code int posix_spawnattr_init(posix_spawnattr_t *attr);}
     *
     * @param attr the attributes
     * @return 0, or an error number
     */
    int posix_spawnattr_init(@intptr_t long attr);

    /**
     * {@code int posix_spawnattr_destroy(posix_spawnattr_t *attr);}
     *
     * @param attr the attributes
     * @return 0, or an error number
     */
    int posix_spawnattr_destroy(@intptr_t long attr);

    /**
     * {@code int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags);}
     *
     * @param attr the attributes
     * @param flags {@code POSIX_SPAWN_SETSIGMASK} | {@code POSIX_SPAWN_SETSIGDEF} | ...
     * @return 0, or an error number
     */
    int posix_spawnattr_setflags(@intptr_t long attr, short flags);

    /**
     * {@code int posix_spawnattr_setsigmask(posix_spawnattr_t *attr, const sigset_t *sigmask);}
     *
     * @param attr the attributes
     * @param sigmask the child's signal mask
     * @return 0, or an error number
     */
    int posix_spawnattr_setsigmask(@intptr_t long attr, @intptr_t long sigmask);

    /**
     * {@code int posix_spawnattr_setsigdefault(posix_spawnattr_t *attr, const sigset_t *sigdefault);}
     *
     * @param attr the attributes
     * @param sigdefault the signals reset to {@code SIG_DFL} in the child
     * @return 0, or an error number
     */
    int posix_spawnattr_setsigdefault(@intptr_t long attr, @intptr_t long sigdefault);

    /**
     * {@code int posix_spawnattr_setpgroup(posix_spawnattr_t *attr, pid_t pgroup);}
     *
     * @param attr the attributes
     * @param pgroup the child's process group, 0 for a new one led by the child
     * @return 0, or an error number
     */
    int posix_spawnattr_setpgroup(@intptr_t long attr, int pgroup);

    /**
     * {@code int posix_spawn_file_actions_init(posix_spawn_file_actions_t *file_actions);}
     *
     * @param fileActions the file actions
     * @return 0, or an error number
     */
    int posix_spawn_file_actions_init(@intptr_t long fileActions);

    /**
     * {@code int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *file_actions);}
     *
     * @param fileActions the file actions
     * @return 0, or an error number
     */
    int posix_spawn_file_actions_destroy(@intptr_t long fileActions);

    /**
     * {@code int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *file_actions, int fildes,
     * int newfildes);}
     *
     * @param fileActions the file actions
     * @param fildes the parent's descriptor
     * @param newfildes its number in the child
     * @return 0, or an error number
     */
    int posix_spawn_file_actions_adddup2(@intptr_t long fileActions, int fildes, int newfildes);

    /**
     * {@code int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *file_actions, int fildes);}
     *
     * @param fileActions the file actions
     * @param fildes the descriptor to close in the child
     * @return 0, or an error number
     */
    int posix_spawn_file_actions_addclose(@intptr_t long fileActions, int fildes);

    /**
     * {@code pid_t waitpid(pid_t pid, int *wstatus, int options);}
     *
     * @param pid the child, -1 for any, {@code -pgid} for any in a process group
     * @param wstatus receives the status (an {@code int}), or 0
     * @param options {@code WNOHANG}
     * @return the child's pid, 0 when {@code WNOHANG} found none finished, or -1 with errno set
     */
    int waitpid(int pid, @intptr_t long wstatus, int options);

    /**
     * {@code int execve(const char *pathname, char *const argv[], char *const envp[]);}
     *
     * @param pathname the program, NUL-terminated
     * @param argv a NULL-terminated array of NUL-terminated strings
     * @param envp a NULL-terminated array of {@code NAME=value} strings
     * @return only on failure: -1 with errno set
     */
    int execve(@In byte[] pathname, @intptr_t long argv, @intptr_t long envp);

    /**
     * {@code pid_t getpid(void);}
     *
     * @return the process id
     */
    int getpid();

    /**
     * {@code pid_t getppid(void);}
     *
     * @return the parent's process id
     */
    int getppid();

    /**
     * {@code pid_t setsid(void);}
     *
     * @return the new session id, or -1 with errno set
     */
    int setsid();

    /**
     * {@code int chdir(const char *path);}
     *
     * @param path the directory, NUL-terminated
     * @return 0, or -1 with errno set
     */
    int chdir(@In byte[] path);

    /**
     * {@code int setuid(uid_t uid);} (glibc applies it to every thread of the process)
     *
     * @param uid the user id
     * @return 0, or -1 with errno set
     */
    int setuid(int uid);

    /**
     * {@code int setgid(gid_t gid);} (every thread, as {@code setuid})
     *
     * @param gid the group id
     * @return 0, or -1 with errno set
     */
    int setgid(int gid);

    /**
     * {@code struct passwd *getpwnam(const char *name);}
     *
     * @param name the user's name, NUL-terminated
     * @return the entry's address (libc's static buffer), 0 when there is none
     */
    @intptr_t long getpwnam(@In byte[] name);

    /**
     * {@code struct group *getgrnam(const char *name);}
     *
     * @param name the group's name, NUL-terminated
     * @return the entry's address (libc's static buffer), 0 when there is none
     */
    @intptr_t long getgrnam(@In byte[] name);

    /**
     * {@code int initgroups(const char *user, gid_t group);}
     *
     * @param user the user's name, NUL-terminated
     * @param group a group added to the user's supplementary groups
     * @return 0, or -1 with errno set
     */
    int initgroups(@In byte[] user, int group);

    /**
     * {@code int setpriority(int which, id_t who, int prio);}
     *
     * @param which {@code PRIO_PROCESS}
     * @param who 0: on Linux, the calling thread only
     * @param prio the nice value, -20 to 19
     * @return 0, or -1 with errno set
     */
    int setpriority(int which, int who, int prio);

    /**
     * {@code int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param);}
     *
     * @param pid a thread's id, 0 for the calling thread
     * @param policy {@code SCHED_OTHER} or {@code SCHED_IDLE}
     * @param param {@code struct sched_param}: one int, the static priority, 0 for these policies
     * @return 0, or -1 with errno set
     */
    int sched_setscheduler(int pid, int policy, @In int[] param);

    /**
     * {@code int sched_getscheduler(pid_t pid);}
     *
     * @param pid a thread's id, 0 for the calling thread
     * @return the policy, or -1 with errno set
     */
    int sched_getscheduler(int pid);

    /**
     * {@code int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask);}
     *
     * @param pid 0: the calling thread
     * @param cpusetsize the mask's size in bytes
     * @param mask the CPUs, one bit each in {@code unsigned long} words
     * @return 0, or -1 with errno set
     */
    int sched_setaffinity(int pid, @size_t long cpusetsize, @intptr_t long mask);

    /**
     * {@code int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask);}
     *
     * @param pid 0: the calling thread
     * @param cpusetsize the mask's size in bytes
     * @param mask receives the CPUs
     * @return 0, or -1 with errno set
     */
    int sched_getaffinity(int pid, @size_t long cpusetsize, @intptr_t long mask);
}
