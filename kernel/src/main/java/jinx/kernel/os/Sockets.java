package jinx.kernel.os;

import jnr.constants.platform.IPv6;
import jnr.constants.platform.SocketOption;
import jnr.constants.platform.TCP;

import jinx.kernel.Rc;

/**
 * The facade over the socket calls, with {@link Syscalls}' rules: {@code EINTR} retried, {@code EAGAIN} returned
 * as {@link Rc#AGAIN} where a call can block, any other failure a {@link NativeIoException} worded as nginx
 * words it ({@code bind() to 0.0.0.0:80 failed (98: Address already in use)}). Every send carries
 * {@code MSG_NOSIGNAL}. Calls marked "not hot" (socket setup) allocate scratch memory and free it before
 * returning; the others take the caller's addresses and allocate nothing. Descriptor passing is in
 * {@link Channels}.
 */
public final class Sockets {

    private static final int EINTR = Errors.EINTR;
    /* struct msghdr and struct iovec, as the build's probe measured them (glibc's widths) */
    private static final int MSGHDR = Platform.probe("SIZEOF_MSGHDR");
    private static final int MSG_NAME = Platform.probe("OFFSETOF_MSG_NAME");
    private static final int MSG_NAMELEN = Platform.probe("OFFSETOF_MSG_NAMELEN");
    private static final int MSG_IOV = Platform.probe("OFFSETOF_MSG_IOV");
    private static final int MSG_IOVLEN = Platform.probe("OFFSETOF_MSG_IOVLEN");
    private static final int SIZEOF_MSG_IOVLEN = Platform.probe("SIZEOF_MSG_IOVLEN");
    private static final int MSG_CONTROL = Platform.probe("OFFSETOF_MSG_CONTROL");
    private static final int MSG_CONTROLLEN = Platform.probe("OFFSETOF_MSG_CONTROLLEN");
    private static final int SIZEOF_MSG_CONTROLLEN = Platform.probe("SIZEOF_MSG_CONTROLLEN");
    private static final int MSG_FLAGS = Platform.probe("OFFSETOF_MSG_FLAGS");
    private static final int SIZEOF_IOV_LEN = Platform.probe("SIZEOF_IOV_LEN");
    private static final int SOCKADDR_STORAGE = Platform.SIZEOF_SOCKADDR_STORAGE;

    private Sockets() {
    }

    /**
     * Creates a socket.
     *
     * @param domain {@link Platform#AF_INET}, {@link Platform#AF_INET6}, {@link Platform#AF_UNIX}
     * @param type {@link Platform#SOCK_STREAM}, optionally | {@link Platform#SOCK_NONBLOCK} |
     *     {@link Platform#SOCK_CLOEXEC}
     * @param protocol 0
     * @return the descriptor
     * @throws NativeIoException {@code socket() failed (...)}
     */
    public static int socket(int domain, int type, int protocol) throws NativeIoException {
        int fd = Native.C.socket(domain, type, protocol);
        if (fd < 0) {
            throw Errors.failure("socket()", Errors.last());
        }
        return fd;
    }

    /**
     * Creates a connected pair of sockets (nginx's channel). Not hot.
     *
     * @param domain {@link Platform#AF_UNIX}
     * @param type {@link Platform#SOCK_STREAM}, optionally with {@code SOCK_NONBLOCK}/{@code SOCK_CLOEXEC}
     * @return the two descriptors
     * @throws NativeIoException {@code socketpair() failed (...)}
     */
    public static int[] socketpair(int domain, int type) throws NativeIoException {
        int[] sv = new int[2];
        if (Native.C.socketpair(domain, type, 0, sv) != 0) {
            throw Errors.failure("socketpair()", Errors.last());
        }
        return sv;
    }

    /**
     * Sets an int socket option. Not hot (it allocates 4 bytes of scratch); see the five-argument form.
     *
     * @param fd the socket
     * @param level {@link Platform#SOL_SOCKET}, {@link Platform#IPPROTO_TCP}, {@link Platform#IPPROTO_IPV6}
     * @param name the option ({@link Platform#SO_REUSEADDR} ...)
     * @param value its value
     * @throws NativeIoException {@code setsockopt(SO_REUSEADDR) failed (...)}
     */
    public static void setsockopt(int fd, int level, int name, int value) throws NativeIoException {
        long scratch = NativeMemory.allocateTemporary(4);
        try {
            setsockopt(fd, level, name, value, scratch);
        } finally {
            NativeMemory.freeTemporary(scratch);
        }
    }

    /**
     * Sets an int socket option through the caller's scratch memory: for options set per connection
     * ({@code TCP_NODELAY}, {@code TCP_CORK}).
     *
     * @param fd the socket
     * @param level the level
     * @param name the option
     * @param value its value
     * @param scratch the address of 4 bytes of the caller's memory
     * @throws NativeIoException {@code setsockopt(TCP_NODELAY) failed (...)}
     */
    public static void setsockopt(int fd, int level, int name, int value, long scratch) throws NativeIoException {
        NativeMemory.putInt(scratch, value);
        if (Native.C.setsockopt(fd, level, name, scratch, 4) != 0) {
            int errno = Errors.last();
            throw Errors.failure("setsockopt(" + optionName(level, name) + ")", errno);
        }
    }

    /**
     * Sets {@code SO_LINGER}: with {@code on} and 0 seconds, close() sends a reset and drops unsent data, as
     * nginx's {@code reset_timedout_connection} wants. Not hot.
     *
     * @param fd the socket
     * @param on {@code l_onoff}
     * @param seconds {@code l_linger}
     * @throws NativeIoException {@code setsockopt(SO_LINGER) failed (...)}
     */
    public static void setLinger(int fd, boolean on, int seconds) throws NativeIoException {
        int size = Platform.probe("SIZEOF_LINGER");
        long linger = NativeMemory.allocateTemporary(size);
        try {
            NativeMemory.putInt(linger + Platform.probe("OFFSETOF_L_ONOFF"), on ? 1 : 0);
            NativeMemory.putInt(linger + Platform.probe("OFFSETOF_L_LINGER"), seconds);
            if (Native.C.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_LINGER, linger, size) != 0) {
                throw Errors.failure("setsockopt(SO_LINGER)", Errors.last());
            }
        } finally {
            NativeMemory.freeTemporary(linger);
        }
    }

    /**
     * Reads an int socket option ({@code SO_ERROR} after a non-blocking connect, {@code SO_RCVBUF} ...). Not hot.
     *
     * @param fd the socket
     * @param level the level
     * @param name the option
     * @return its value
     * @throws NativeIoException {@code getsockopt(SO_ERROR) failed (...)}
     */
    public static int getsockopt(int fd, int level, int name) throws NativeIoException {
        long scratch = NativeMemory.allocateTemporary(8);
        try {
            NativeMemory.putInt(scratch + 4, 4);
            if (Native.C.getsockopt(fd, level, name, scratch, scratch + 4) != 0) {
                int errno = Errors.last();
                throw Errors.failure("getsockopt(" + optionName(level, name) + ")", errno);
            }
            return NativeMemory.getInt(scratch);
        } finally {
            NativeMemory.freeTemporary(scratch);
        }
    }

    /**
     * Returns how many TCP segments a socket has sent ({@code tcpi_segs_out} of {@code TCP_INFO}, Linux 4.2 on),
     * for tests and diagnostics. Not hot.
     *
     * @param fd a TCP socket
     * @return the segments sent, SYN and pure ACKs included
     * @throws NativeIoException {@code getsockopt(TCP_INFO) failed (...)}
     */
    public static long segmentsOut(int fd) throws NativeIoException {
        int size = Platform.SIZEOF_TCP_INFO;
        long scratch = NativeMemory.allocateTemporary(size + 8L);
        try {
            NativeMemory.putInt(scratch + size, size);
            if (Native.C.getsockopt(fd, Platform.IPPROTO_TCP, Platform.TCP_INFO, scratch, scratch + size) != 0) {
                throw Errors.failure("getsockopt(TCP_INFO)", Errors.last());
            }
            return NativeMemory.getInt(scratch + Platform.OFFSETOF_TCP_INFO_SEGS_OUT) & 0xffffffffL;
        } finally {
            NativeMemory.freeTemporary(scratch);
        }
    }

    /**
     * Binds a socket to an address. Not hot.
     *
     * @param fd the socket
     * @param address the address
     * @throws NativeIoException {@code bind() to 127.0.0.1:8080 failed (98: Address already in use)}
     */
    public static void bind(int fd, SockAddr address) throws NativeIoException {
        long sa = NativeMemory.allocateTemporary(SOCKADDR_STORAGE);
        try {
            if (Native.C.bind(fd, sa, address.encode(sa)) != 0) {
                int errno = Errors.last();
                throw Errors.failure("bind() to " + address, errno);
            }
        } finally {
            NativeMemory.freeTemporary(sa);
        }
    }

    /**
     * Starts listening.
     *
     * @param fd the bound socket
     * @param backlog the accept queue's length (nginx's default: 511)
     * @throws NativeIoException {@code listen() to 127.0.0.1:8080, backlog 511 failed (...)}
     */
    public static void listen(int fd, int backlog) throws NativeIoException {
        if (Native.C.listen(fd, backlog) != 0) {
            int errno = Errors.last();
            throw Errors.failure("listen() to " + describe(fd) + ", backlog " + backlog, errno);
        }
    }

    /**
     * Accepts a connection. {@code EMFILE}, {@code ENFILE}, {@code ECONNABORTED} ... are thrown; the caller
     * inspects {@link NativeIoException#errno()} against {@link Errors} (nginx disables accept on EMFILE).
     *
     * @param fd the listening socket
     * @param sockaddr the address of the caller's buffer of {@link Platform#SIZEOF_SOCKADDR_STORAGE} bytes that
     *     receives the peer's address, or 0
     * @param socklen the address of the caller's {@code socklen_t} that receives the address's length (this call
     *     sets it to the buffer's size first), or 0
     * @param flags {@link Platform#SOCK_NONBLOCK} | {@link Platform#SOCK_CLOEXEC}
     * @return the new descriptor, or {@link Rc#AGAIN} when no connection is waiting
     * @throws NativeIoException {@code accept4() failed (24: Too many open files)}
     */
    public static int accept4(int fd, long sockaddr, long socklen, int flags) throws NativeIoException {
        for (;;) {
            if (socklen != 0) {
                NativeMemory.putInt(socklen, SOCKADDR_STORAGE);
            }
            int s = Native.C.accept4(fd, sockaddr, socklen, flags);
            if (s >= 0) {
                return s;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("accept4()", errno);
            }
        }
    }

    /**
     * Connects to an address. Not hot: see the raw form for upstream connections.
     *
     * @param fd the socket, usually non-blocking
     * @param address the peer's address
     * @return {@link Rc#OK} when connected, {@link Rc#AGAIN} when the connection is under way (wait for the
     *     socket to become writable, then read {@code SO_ERROR})
     * @throws NativeIoException {@code connect() to 127.0.0.1:80 failed (111: Connection refused)}; a full unix
     *     socket backlog is EAGAIN, thrown too (Linux's ECONNREFUSED for unix sockets, as nginx treats it)
     */
    public static int connect(int fd, SockAddr address) throws NativeIoException {
        long sa = NativeMemory.allocateTemporary(SOCKADDR_STORAGE);
        try {
            return connect(fd, sa, address.encode(sa));
        } finally {
            NativeMemory.freeTemporary(sa);
        }
    }

    /**
     * Connects to an address already encoded in the caller's memory ({@link SockAddr#encode(long)}).
     * {@code EINPROGRESS} and {@code EINTR} (the connection goes on in the background) are {@link Rc#AGAIN}.
     *
     * @param fd the socket
     * @param sockaddr the {@code struct sockaddr}'s address
     * @param socklen its length
     * @return {@link Rc#OK} or {@link Rc#AGAIN}
     * @throws NativeIoException {@code connect() to 127.0.0.1:80 failed (...)}
     */
    public static int connect(int fd, long sockaddr, int socklen) throws NativeIoException {
        if (Native.C.connect(fd, sockaddr, socklen) == 0) {
            return Rc.OK;
        }
        int errno = Errors.last();
        if (errno == Errors.EINPROGRESS || errno == EINTR) {
            return Rc.AGAIN;
        }
        throw Errors.failure("connect() to " + SockAddr.decode(sockaddr, socklen), errno);
    }

    /**
     * Returns a socket's local address. Not hot.
     *
     * @param fd the socket
     * @return the address
     * @throws NativeIoException {@code getsockname() failed (...)}
     */
    public static SockAddr getsockname(int fd) throws NativeIoException {
        return name(fd, false);
    }

    /**
     * Returns a connected socket's peer address. Not hot.
     *
     * @param fd the socket
     * @return the address
     * @throws NativeIoException {@code getpeername() failed (107: Transport endpoint is not connected)}
     */
    public static SockAddr getpeername(int fd) throws NativeIoException {
        return name(fd, true);
    }

    /**
     * Shuts down one or both directions.
     *
     * @param fd the socket
     * @param how {@link Platform#SHUT_RD}, {@link Platform#SHUT_WR}, {@link Platform#SHUT_RDWR}
     * @throws NativeIoException {@code shutdown() failed (...)}
     */
    public static void shutdown(int fd, int how) throws NativeIoException {
        if (Native.C.shutdown(fd, how) != 0) {
            throw Errors.failure("shutdown()", Errors.last());
        }
    }

    /**
     * Receives bytes.
     *
     * @param fd the socket
     * @param buf the buffer's address
     * @param len its length
     * @return bytes received, 0 when the peer has closed, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code recv() failed (104: Connection reset by peer)}
     */
    public static int recv(int fd, long buf, int len) throws NativeIoException {
        return recv(fd, buf, len, 0);
    }

    /**
     * Receives bytes with flags ({@link Platform#MSG_PEEK}: nginx's check whether a keep-alive peer closed).
     *
     * @param fd the socket
     * @param buf the buffer's address
     * @param len its length
     * @param flags the flags
     * @return bytes received, 0 when the peer has closed, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code recv() failed (...)}
     */
    public static int recv(int fd, long buf, int len, int flags) throws NativeIoException {
        LibJinxIo io = Native.IO;
        for (;;) {
            long n = io != null ? io.recv(fd, buf, len, flags) : Native.C.recv(fd, buf, len, flags);
            if (n >= 0) {
                return (int) n;
            }
            int errno = io != null ? (int) -n : Errors.last();
            if (errno != EINTR) {
                return Errors.again("recv()", errno);
            }
        }
    }

    /**
     * Sends bytes, with {@code MSG_NOSIGNAL}: a closed peer is {@code EPIPE}, never a SIGPIPE.
     *
     * @param fd the socket
     * @param buf the bytes' address
     * @param len their length
     * @return bytes sent (maybe fewer than {@code len}), or {@link Rc#AGAIN}
     * @throws NativeIoException {@code send() failed (32: Broken pipe)}
     */
    public static int send(int fd, long buf, int len) throws NativeIoException {
        LibJinxIo io = Native.IO;
        for (;;) {
            long n = io != null
                ? io.send(fd, buf, len, Platform.MSG_NOSIGNAL)
                : Native.C.send(fd, buf, len, Platform.MSG_NOSIGNAL);
            if (n >= 0) {
                return (int) n;
            }
            int errno = io != null ? (int) -n : Errors.last();
            if (errno != EINTR) {
                return Errors.again("send()", errno);
            }
        }
    }

    /**
     * The room {@link #recvfrom} and {@link #sendto} need for their {@code struct msghdr} and {@code struct iovec}:
     * the caller allocates it once (the calls are hot, and allocate nothing).
     */
    public static final int DATAGRAM_SCRATCH = MSGHDR + Platform.SIZEOF_IOVEC;

    /**
     * Receives one datagram and its sender's address with {@code recvmsg()}: the receive of a listening UDP socket,
     * nginx's {@code ngx_event_recvmsg()}. A datagram longer than {@code len} is cut to it.
     *
     * @param fd the socket
     * @param buf the buffer's address
     * @param len its length
     * @param sockaddr room for the address, {@link Platform#SIZEOF_SOCKADDR_STORAGE} bytes
     * @param socklen an {@code int} set to the address's length
     * @param scratch {@link #DATAGRAM_SCRATCH} bytes of the caller's
     * @return the datagram's length (0 for an empty one), or {@link Rc#AGAIN}
     * @throws NativeIoException {@code recvmsg() failed (...)}
     */
    public static int recvfrom(int fd, long buf, int len, long sockaddr, long socklen, long scratch)
        throws NativeIoException {
        for (;;) {
            long msg = message(scratch, buf, len, sockaddr, SOCKADDR_STORAGE);
            long n = Native.C.recvmsg(fd, msg, 0);
            if (n >= 0) {
                NativeMemory.putInt(socklen, NativeMemory.getInt(msg + MSG_NAMELEN));
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("recvmsg()", errno);
            }
        }
    }

    /**
     * Sends one datagram to an address with {@code sendmsg()} and {@code MSG_NOSIGNAL}: nginx's {@code ngx_udp_send()}
     * on a socket shared by the sessions of a listening UDP socket.
     *
     * @param fd the socket
     * @param buf the bytes' address
     * @param len their length
     * @param sockaddr the receiver's address
     * @param socklen its length
     * @param scratch {@link #DATAGRAM_SCRATCH} bytes of the caller's
     * @return bytes sent, or {@link Rc#AGAIN}
     * @throws NativeIoException {@code sendmsg() failed (...)}
     */
    public static int sendto(int fd, long buf, int len, long sockaddr, int socklen, long scratch)
        throws NativeIoException {
        long msg = message(scratch, buf, len, sockaddr, socklen);
        for (;;) {
            long n = Native.C.sendmsg(fd, msg, Platform.MSG_NOSIGNAL);
            if (n >= 0) {
                return (int) n;
            }
            int errno = Errors.last();
            if (errno != EINTR) {
                return Errors.again("sendmsg()", errno);
            }
        }
    }

    /** A {@code struct msghdr} with a name and one {@code struct iovec}, no control data. */
    private static long message(long scratch, long buf, int len, long sockaddr, int socklen) {
        long iov = scratch + MSGHDR;
        NativeMemory.putLong(iov + Platform.OFFSETOF_IOV_BASE, buf);
        NativeMemory.putUnsigned(iov + Platform.OFFSETOF_IOV_LEN, SIZEOF_IOV_LEN, len);
        NativeMemory.putLong(scratch + MSG_NAME, sockaddr);
        NativeMemory.putInt(scratch + MSG_NAMELEN, socklen);
        NativeMemory.putLong(scratch + MSG_IOV, iov);
        NativeMemory.putUnsigned(scratch + MSG_IOVLEN, SIZEOF_MSG_IOVLEN, 1);
        NativeMemory.putLong(scratch + MSG_CONTROL, 0);
        NativeMemory.putUnsigned(scratch + MSG_CONTROLLEN, SIZEOF_MSG_CONTROLLEN, 0);
        NativeMemory.putInt(scratch + MSG_FLAGS, 0);
        return scratch;
    }

    private static SockAddr name(int fd, boolean peer) throws NativeIoException {
        long sa = NativeMemory.allocateTemporary(SOCKADDR_STORAGE + 8);
        try {
            long len = sa + SOCKADDR_STORAGE;
            NativeMemory.putInt(len, SOCKADDR_STORAGE);
            int rc = peer ? Native.C.getpeername(fd, sa, len) : Native.C.getsockname(fd, sa, len);
            if (rc != 0) {
                throw Errors.failure(peer ? "getpeername()" : "getsockname()", Errors.last());
            }
            return SockAddr.decode(sa, NativeMemory.getInt(len));
        } finally {
            NativeMemory.freeTemporary(sa);
        }
    }

    /** The local address for an error message, or the descriptor when even that fails. */
    private static String describe(int fd) {
        try {
            return getsockname(fd).toString();
        } catch (NativeIoException | IllegalArgumentException e) {
            return "fd:" + fd;
        }
    }

    /** The option's C name for messages ({@code SO_REUSEADDR}), from jnr-constants by level. */
    private static String optionName(int level, int name) {
        if (level == Platform.SOL_SOCKET) {
            return Platform.name(SocketOption.class, name);
        }
        if (level == Platform.IPPROTO_TCP) {
            return Platform.name(TCP.class, name);
        }
        if (level == Platform.IPPROTO_IPV6) {
            return Platform.name(IPv6.class, name);
        }
        return level + ", " + name;
    }
}
