package jinx.kernel.os;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import jnr.constants.Constant;
import jnr.constants.platform.AddressFamily;
import jnr.constants.platform.Fcntl;
import jnr.constants.platform.IPProto;
import jnr.constants.platform.IPv6;
import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.PRIO;
import jnr.constants.platform.RLIMIT;
import jnr.constants.platform.Shutdown;
import jnr.constants.platform.Signal;
import jnr.constants.platform.Sock;
import jnr.constants.platform.SocketControlMessage;
import jnr.constants.platform.SocketLevel;
import jnr.constants.platform.SocketMessage;
import jnr.constants.platform.SocketOption;
import jnr.constants.platform.TCP;
import jnr.constants.platform.WaitFlags;

/**
 * The platform's constants, struct sizes and field offsets, under their C names. Nothing here is typed in:
 * values jnr-constants has come from jnr-constants; the rest from {@code platform.properties}, which the build
 * writes by compiling and running {@code src/main/c/platform.c} against this machine's headers.
 * {@link #get(String)} reads any probe value by name, for a value added to the probe without a constant here.
 * Struct layouts follow the probe: {@code struct epoll_event} is 12 bytes with data at 4 on x86_64, 16 with data
 * at 8 on aarch64.
 */
public final class Platform {

    private static final Properties PROBE = load();

    // from jnr-constants

    /** {@code AF_UNIX}. */
    public static final int AF_UNIX = jnr(AddressFamily.AF_UNIX);
    /** {@code AF_INET}. */
    public static final int AF_INET = jnr(AddressFamily.AF_INET);
    /** {@code AF_INET6}. */
    public static final int AF_INET6 = jnr(AddressFamily.AF_INET6);
    /** {@code SOCK_STREAM}. */
    public static final int SOCK_STREAM = jnr(Sock.SOCK_STREAM);
    /** {@code SOCK_DGRAM}. */
    public static final int SOCK_DGRAM = jnr(Sock.SOCK_DGRAM);
    /** {@code SOCK_NONBLOCK}: a type flag for {@code socket()} and a flag of {@code accept4()}. */
    public static final int SOCK_NONBLOCK = jnr(Sock.SOCK_NONBLOCK);
    /** {@code SOCK_CLOEXEC}. */
    public static final int SOCK_CLOEXEC = jnr(Sock.SOCK_CLOEXEC);
    /** {@code SOL_SOCKET}. */
    public static final int SOL_SOCKET = jnr(SocketLevel.SOL_SOCKET);
    /** {@code SO_REUSEADDR}. */
    public static final int SO_REUSEADDR = jnr(SocketOption.SO_REUSEADDR);
    /** {@code SO_REUSEPORT}. */
    public static final int SO_REUSEPORT = jnr(SocketOption.SO_REUSEPORT);
    /** {@code SO_KEEPALIVE}. */
    public static final int SO_KEEPALIVE = jnr(SocketOption.SO_KEEPALIVE);
    /** {@code SO_RCVBUF}. */
    public static final int SO_RCVBUF = jnr(SocketOption.SO_RCVBUF);
    /** {@code SO_SNDBUF}. */
    public static final int SO_SNDBUF = jnr(SocketOption.SO_SNDBUF);
    /** {@code SO_LINGER}. */
    public static final int SO_LINGER = jnr(SocketOption.SO_LINGER);
    /** {@code SO_TYPE}: {@link #SOCK_STREAM} or {@link #SOCK_DGRAM}. */
    public static final int SO_TYPE = jnr(SocketOption.SO_TYPE);
    /** {@code SO_ERROR}. */
    public static final int SO_ERROR = jnr(SocketOption.SO_ERROR);
    /** {@code IPPROTO_IP}. */
    public static final int IPPROTO_IP = jnr(IPProto.IPPROTO_IP);
    /** {@code IPPROTO_TCP}. */
    public static final int IPPROTO_TCP = jnr(IPProto.IPPROTO_TCP);
    /** {@code IPPROTO_IPV6}. */
    public static final int IPPROTO_IPV6 = jnr(IPProto.IPPROTO_IPV6);
    /** {@code TCP_NODELAY}. */
    public static final int TCP_NODELAY = jnr(TCP.TCP_NODELAY);
    /** {@code TCP_CORK} (nginx's {@code tcp_nopush} on Linux). */
    public static final int TCP_CORK = jnr(TCP.TCP_CORK);
    /** {@code TCP_DEFER_ACCEPT} ({@code listen ... deferred}). */
    public static final int TCP_DEFER_ACCEPT = jnr(TCP.TCP_DEFER_ACCEPT);
    /** {@code TCP_KEEPIDLE}. */
    public static final int TCP_KEEPIDLE = jnr(TCP.TCP_KEEPIDLE);
    /** {@code TCP_KEEPINTVL}. */
    public static final int TCP_KEEPINTVL = jnr(TCP.TCP_KEEPINTVL);
    /** {@code TCP_KEEPCNT}. */
    public static final int TCP_KEEPCNT = jnr(TCP.TCP_KEEPCNT);
    /** {@code IPV6_V6ONLY}. */
    public static final int IPV6_V6ONLY = jnr(IPv6.IPV6_V6ONLY);
    /** {@code MSG_MORE}: more data follows; TCP holds a partial segment for it. */
    public static final int MSG_MORE = probe("MSG_MORE");

    /** {@code MSG_NOSIGNAL}: every send carries it, so a closed peer is EPIPE, never SIGPIPE. */
    public static final int MSG_NOSIGNAL = jnr(SocketMessage.MSG_NOSIGNAL);
    /** {@code MSG_PEEK}. */
    public static final int MSG_PEEK = jnr(SocketMessage.MSG_PEEK);
    /** {@code SCM_RIGHTS}. */
    public static final int SCM_RIGHTS = jnr(SocketControlMessage.SCM_RIGHTS);
    /** {@code SHUT_RD}. */
    public static final int SHUT_RD = jnr(Shutdown.SHUT_RD);
    /** {@code SHUT_WR}. */
    public static final int SHUT_WR = jnr(Shutdown.SHUT_WR);
    /** {@code SHUT_RDWR}. */
    public static final int SHUT_RDWR = jnr(Shutdown.SHUT_RDWR);
    /** {@code O_RDONLY}. */
    public static final int O_RDONLY = jnr(OpenFlags.O_RDONLY);
    /** {@code O_WRONLY}. */
    public static final int O_WRONLY = jnr(OpenFlags.O_WRONLY);
    /** {@code O_RDWR}. */
    public static final int O_RDWR = jnr(OpenFlags.O_RDWR);
    /** {@code O_CREAT}. */
    public static final int O_CREAT = jnr(OpenFlags.O_CREAT);
    /** {@code O_TRUNC}. */
    public static final int O_TRUNC = jnr(OpenFlags.O_TRUNC);
    /** {@code O_APPEND}. */
    public static final int O_APPEND = jnr(OpenFlags.O_APPEND);
    /** {@code O_NONBLOCK}. */
    public static final int O_NONBLOCK = jnr(OpenFlags.O_NONBLOCK);
    /** {@code O_CLOEXEC}. */
    public static final int O_CLOEXEC = jnr(OpenFlags.O_CLOEXEC);
    /** {@code F_GETFD}. */
    public static final int F_GETFD = jnr(Fcntl.F_GETFD);
    /** {@code F_SETFD}. */
    public static final int F_SETFD = jnr(Fcntl.F_SETFD);
    /** {@code F_DUPFD}. */
    public static final int F_DUPFD = jnr(Fcntl.F_DUPFD);
    /** {@code F_GETFL}. */
    public static final int F_GETFL = jnr(Fcntl.F_GETFL);
    /** {@code F_SETFL}. */
    public static final int F_SETFL = jnr(Fcntl.F_SETFL);
    /** {@code RLIMIT_NOFILE} ({@code worker_rlimit_nofile}). */
    public static final int RLIMIT_NOFILE = jnr(RLIMIT.RLIMIT_NOFILE);
    /** {@code RLIMIT_CORE} ({@code worker_rlimit_core}). */
    public static final int RLIMIT_CORE = jnr(RLIMIT.RLIMIT_CORE);
    /** {@code WNOHANG}, for {@code waitpid()}. */
    public static final int WNOHANG = jnr(WaitFlags.WNOHANG);
    /** {@code SCHED_OTHER}: the normal time-sharing policy. */
    public static final int SCHED_OTHER = probe("SCHED_OTHER");
    /** {@code SCHED_IDLE}: runs only when no other thread wants the CPU (a reload's worker warming up). */
    public static final int SCHED_IDLE = probe("SCHED_IDLE");
    /** {@code RLIMIT_NICE}: how far a process may lower its own nice value, as {@code 20 - nice}. */
    public static final int RLIMIT_NICE = probe("RLIMIT_NICE");

    /** {@code PRIO_PROCESS}, for {@code setpriority()} ({@code worker_priority}). */
    public static final int PRIO_PROCESS = jnr(PRIO.PRIO_PROCESS);

    // from jnr-constants: signals

    /** {@code SIGHUP}: reload. */
    public static final int SIGHUP = jnr(Signal.SIGHUP);
    /** {@code SIGINT}: fast stop. */
    public static final int SIGINT = jnr(Signal.SIGINT);
    /** {@code SIGQUIT}: graceful stop. */
    public static final int SIGQUIT = jnr(Signal.SIGQUIT);
    /** {@code SIGKILL}. */
    public static final int SIGKILL = jnr(Signal.SIGKILL);
    /** {@code SIGSTOP}: tests stop a worker with it. */
    public static final int SIGSTOP = jnr(Signal.SIGSTOP);
    /** {@code SIGUSR1}: reopen logs. */
    public static final int SIGUSR1 = jnr(Signal.SIGUSR1);
    /** {@code SIGSEGV}. */
    public static final int SIGSEGV = jnr(Signal.SIGSEGV);
    /** {@code SIGUSR2}: binary upgrade (HotSpot's suspend signal unless {@code _JAVA_SR_SIGNUM} moves it). */
    public static final int SIGUSR2 = jnr(Signal.SIGUSR2);
    /** {@code SIGPIPE}. */
    public static final int SIGPIPE = jnr(Signal.SIGPIPE);
    /** {@code SIGALRM}. */
    public static final int SIGALRM = jnr(Signal.SIGALRM);
    /** {@code SIGTERM}: fast stop. */
    public static final int SIGTERM = jnr(Signal.SIGTERM);
    /** {@code SIGCHLD}: reap. */
    public static final int SIGCHLD = jnr(Signal.SIGCHLD);
    /** {@code SIGWINCH}: stop the workers gracefully. */
    public static final int SIGWINCH = jnr(Signal.SIGWINCH);
    /** {@code SIGIO}. */
    public static final int SIGIO = jnr(Signal.SIGIO);

    // from the probe: epoll(7)

    /** {@code EPOLLIN}. */
    public static final int EPOLLIN = probe("EPOLLIN");
    /** {@code EPOLLPRI}. */
    public static final int EPOLLPRI = probe("EPOLLPRI");
    /** {@code EPOLLOUT}. */
    public static final int EPOLLOUT = probe("EPOLLOUT");
    /** {@code EPOLLRDHUP}. */
    public static final int EPOLLRDHUP = probe("EPOLLRDHUP");
    /** {@code EPOLLERR}. */
    public static final int EPOLLERR = probe("EPOLLERR");
    /** {@code EPOLLHUP}. */
    public static final int EPOLLHUP = probe("EPOLLHUP");
    /** {@code EPOLLET} (bit 31: negative as a Java int). */
    public static final int EPOLLET = probe("EPOLLET");
    /** {@code EPOLLONESHOT}. */
    public static final int EPOLLONESHOT = probe("EPOLLONESHOT");
    /** {@code EPOLLEXCLUSIVE}. */
    public static final int EPOLLEXCLUSIVE = probe("EPOLLEXCLUSIVE");
    /** {@code EPOLL_CTL_ADD}. */
    public static final int EPOLL_CTL_ADD = probe("EPOLL_CTL_ADD");
    /** {@code EPOLL_CTL_DEL}. */
    public static final int EPOLL_CTL_DEL = probe("EPOLL_CTL_DEL");
    /** {@code EPOLL_CTL_MOD}. */
    public static final int EPOLL_CTL_MOD = probe("EPOLL_CTL_MOD");
    /** {@code EPOLL_CLOEXEC}, for {@code epoll_create1()}. */
    public static final int EPOLL_CLOEXEC = probe("EPOLL_CLOEXEC");
    /** {@code sizeof(struct epoll_event)}: 12 on x86_64 (packed), 16 on aarch64. */
    public static final int SIZEOF_EPOLL_EVENT = probe("SIZEOF_EPOLL_EVENT");
    /** {@code offsetof(struct epoll_event, events)}: the {@code uint32_t} event mask. */
    public static final int OFFSETOF_EPOLL_EVENT_EVENTS = probe("OFFSETOF_EPOLL_EVENT_EVENTS");
    /** {@code offsetof(struct epoll_event, data)}: the 64-bit user data; 4 on x86_64, 8 on aarch64. */
    public static final int OFFSETOF_EPOLL_EVENT_DATA = probe("OFFSETOF_EPOLL_EVENT_DATA");

    // from the probe: poll(2)

    /** {@code POLLIN}. */
    public static final int POLLIN = probe("POLLIN");
    /** {@code POLLPRI}. */
    public static final int POLLPRI = probe("POLLPRI");
    /** {@code POLLOUT}. */
    public static final int POLLOUT = probe("POLLOUT");
    /** {@code POLLERR}. */
    public static final int POLLERR = probe("POLLERR");
    /** {@code POLLHUP}. */
    public static final int POLLHUP = probe("POLLHUP");
    /** {@code POLLNVAL}. */
    public static final int POLLNVAL = probe("POLLNVAL");
    /** {@code POLLRDHUP}. */
    public static final int POLLRDHUP = probe("POLLRDHUP");
    /** {@code sizeof(struct pollfd)}: 8. */
    public static final int SIZEOF_POLLFD = probe("SIZEOF_POLLFD");
    /** {@code offsetof(struct pollfd, fd)}: an int. */
    public static final int OFFSETOF_POLLFD_FD = probe("OFFSETOF_POLLFD_FD");
    /** {@code offsetof(struct pollfd, events)}: a short. */
    public static final int OFFSETOF_POLLFD_EVENTS = probe("OFFSETOF_POLLFD_EVENTS");
    /** {@code offsetof(struct pollfd, revents)}: a short. */
    public static final int OFFSETOF_POLLFD_REVENTS = probe("OFFSETOF_POLLFD_REVENTS");

    // from the probe: descriptors, files, buffers

    /** {@code EFD_NONBLOCK}. */
    public static final int EFD_NONBLOCK = probe("EFD_NONBLOCK");
    /** {@code EFD_CLOEXEC}. */
    public static final int EFD_CLOEXEC = probe("EFD_CLOEXEC");
    /** {@code FD_CLOEXEC}. */
    public static final int FD_CLOEXEC = probe("FD_CLOEXEC");
    /** {@code MSG_CMSG_CLOEXEC}: descriptors received with {@code recvmsg()} are close-on-exec. */
    public static final int MSG_CMSG_CLOEXEC = probe("MSG_CMSG_CLOEXEC");
    /** {@code S_IFMT}. */
    public static final int S_IFMT = probe("S_IFMT");
    /** {@code S_IFDIR}. */
    public static final int S_IFDIR = probe("S_IFDIR");
    /** {@code S_IFREG}. */
    public static final int S_IFREG = probe("S_IFREG");
    /** {@code sizeof(struct stat)}: the scratch a hot {@code fstat} needs. */
    public static final int SIZEOF_STAT = probe("SIZEOF_STAT");
    /** {@code sizeof(struct sockaddr_storage)}: room for any socket address. */
    public static final int SIZEOF_SOCKADDR_STORAGE = probe("SIZEOF_SOCKADDR_STORAGE");
    /** {@code sizeof(socklen_t)}. */
    public static final int SIZEOF_SOCKLEN_T = probe("SIZEOF_SOCKLEN_T");
    /** {@code sizeof(off_t)}: the scratch {@code sendfile} advances. */
    public static final int SIZEOF_OFF_T = probe("SIZEOF_OFF_T");
    /** {@code TCP_INFO}, the socket option. */
    public static final int TCP_INFO = probe("TCP_INFO");
    /** {@code sizeof(struct tcp_info)}, the kernel's. */
    public static final int SIZEOF_TCP_INFO = probe("SIZEOF_TCP_INFO");
    /** {@code offsetof(struct tcp_info, tcpi_segs_out)}: a {@code __u32}. */
    public static final int OFFSETOF_TCP_INFO_SEGS_OUT = probe("OFFSETOF_TCP_INFO_SEGS_OUT");
    /** {@code sizeof(struct iovec)}. */
    public static final int SIZEOF_IOVEC = probe("SIZEOF_IOVEC");
    /** {@code offsetof(struct iovec, iov_base)}. */
    public static final int OFFSETOF_IOV_BASE = probe("OFFSETOF_IOV_BASE");
    /** {@code offsetof(struct iovec, iov_len)}: a {@code size_t}. */
    public static final int OFFSETOF_IOV_LEN = probe("OFFSETOF_IOV_LEN");
    /** {@code MFD_CLOEXEC}, for {@code memfd_create()}. */
    public static final int MFD_CLOEXEC = probe("MFD_CLOEXEC");
    /** {@code MFD_ALLOW_SEALING}, for {@code memfd_create()}. */
    public static final int MFD_ALLOW_SEALING = probe("MFD_ALLOW_SEALING");
    /** {@code sizeof(void *)}: the entries of {@code argv} and {@code envp} arrays. */
    public static final int SIZEOF_POINTER = probe("SIZEOF_POINTER");
    /** {@code sizeof(cpu_set_t)}: the mask {@code sched_setaffinity()} takes (1024 CPUs). */
    public static final int SIZEOF_CPU_SET_T = probe("SIZEOF_CPU_SET_T");
    /** {@code PR_SET_PDEATHSIG}, for {@code prctl()}. */
    public static final int PR_SET_PDEATHSIG = probe("PR_SET_PDEATHSIG");

    // from the probe: signal masks, signalfd(2)

    /** {@code SIG_BLOCK}. */
    public static final int SIG_BLOCK = probe("SIG_BLOCK");
    /** {@code SIG_UNBLOCK}. */
    public static final int SIG_UNBLOCK = probe("SIG_UNBLOCK");
    /** {@code SIG_SETMASK}. */
    public static final int SIG_SETMASK = probe("SIG_SETMASK");
    /** {@code NSIG}: signal numbers are 1 to {@code NSIG - 1}. */
    public static final int NSIG = probe("NSIG");
    /** {@code sizeof(sigset_t)}: 128 bytes with glibc. */
    public static final int SIZEOF_SIGSET_T = probe("SIZEOF_SIGSET_T");
    /** {@code CLOCK_MONOTONIC}, for {@code timerfd_create()}. */
    public static final int CLOCK_MONOTONIC = probe("CLOCK_MONOTONIC");
    /** {@code TFD_CLOEXEC}. */
    public static final int TFD_CLOEXEC = probe("TFD_CLOEXEC");
    /** {@code TFD_NONBLOCK}. */
    public static final int TFD_NONBLOCK = probe("TFD_NONBLOCK");
    /** {@code sizeof(struct itimerspec)}. */
    public static final int SIZEOF_ITIMERSPEC = probe("SIZEOF_ITIMERSPEC");
    /** {@code offsetof(struct itimerspec, it_value.tv_sec)}. */
    public static final int OFFSETOF_IT_VALUE_SEC = probe("OFFSETOF_IT_VALUE_SEC");
    /** {@code sizeof(time_t)} of {@code it_value.tv_sec}. */
    public static final int SIZEOF_IT_VALUE_SEC = probe("SIZEOF_IT_VALUE_SEC");
    /** {@code offsetof(struct itimerspec, it_value.tv_nsec)}. */
    public static final int OFFSETOF_IT_VALUE_NSEC = probe("OFFSETOF_IT_VALUE_NSEC");
    /** {@code sizeof(long)} of {@code it_value.tv_nsec}. */
    public static final int SIZEOF_IT_VALUE_NSEC = probe("SIZEOF_IT_VALUE_NSEC");
    /** {@code SFD_NONBLOCK}. */
    public static final int SFD_NONBLOCK = probe("SFD_NONBLOCK");
    /** {@code SFD_CLOEXEC}. */
    public static final int SFD_CLOEXEC = probe("SFD_CLOEXEC");
    /** {@code SI_USER}: {@code ssi_code} of a signal sent with {@code kill()}. */
    public static final int SI_USER = probe("SI_USER");
    /** {@code SI_TKILL}: {@code ssi_code} of a signal sent with {@code tgkill()}. */
    public static final int SI_TKILL = probe("SI_TKILL");
    /** {@code CLD_EXITED}: {@code ssi_code} of a SIGCHLD for a child that exited. */
    public static final int CLD_EXITED = probe("CLD_EXITED");
    /** {@code CLD_KILLED}: {@code ssi_code} of a SIGCHLD for a child killed by a signal. */
    public static final int CLD_KILLED = probe("CLD_KILLED");
    /** {@code sizeof(struct signalfd_siginfo)}: 128. */
    public static final int SIZEOF_SIGNALFD_SIGINFO = probe("SIZEOF_SIGNALFD_SIGINFO");
    /** {@code offsetof(struct signalfd_siginfo, ssi_signo)}: 0, a {@code uint32_t}. */
    public static final int OFFSETOF_SSI_SIGNO = probe("OFFSETOF_SSI_SIGNO");
    /** {@code offsetof(struct signalfd_siginfo, ssi_code)}: 8, an {@code int32_t}. */
    public static final int OFFSETOF_SSI_CODE = probe("OFFSETOF_SSI_CODE");
    /** {@code offsetof(struct signalfd_siginfo, ssi_pid)}: 12, a {@code uint32_t}: the sender. */
    public static final int OFFSETOF_SSI_PID = probe("OFFSETOF_SSI_PID");
    /** {@code offsetof(struct signalfd_siginfo, ssi_uid)}: 16, a {@code uint32_t}: the sender's real uid. */
    public static final int OFFSETOF_SSI_UID = probe("OFFSETOF_SSI_UID");
    /** {@code offsetof(struct signalfd_siginfo, ssi_status)}: 40, an {@code int32_t}: a SIGCHLD's exit status. */
    public static final int OFFSETOF_SSI_STATUS = probe("OFFSETOF_SSI_STATUS");

    // from the probe: posix_spawn(3)

    /** {@code sizeof(posix_spawnattr_t)}. */
    public static final int SIZEOF_POSIX_SPAWNATTR_T = probe("SIZEOF_POSIX_SPAWNATTR_T");
    /** {@code sizeof(posix_spawn_file_actions_t)}. */
    public static final int SIZEOF_POSIX_SPAWN_FILE_ACTIONS_T = probe("SIZEOF_POSIX_SPAWN_FILE_ACTIONS_T");
    /** {@code POSIX_SPAWN_SETPGROUP}. */
    public static final int POSIX_SPAWN_SETPGROUP = probe("POSIX_SPAWN_SETPGROUP");
    /** {@code POSIX_SPAWN_SETSIGMASK}. */
    public static final int POSIX_SPAWN_SETSIGMASK = probe("POSIX_SPAWN_SETSIGMASK");
    /** {@code POSIX_SPAWN_SETSIGDEF}. */
    public static final int POSIX_SPAWN_SETSIGDEF = probe("POSIX_SPAWN_SETSIGDEF");
    /** {@code POSIX_SPAWN_SETSID} (glibc 2.26), or 0 when the headers lack it. */
    public static final int POSIX_SPAWN_SETSID = optional("POSIX_SPAWN_SETSID");
    /** {@code IP_TRANSPARENT} ({@code proxy_bind ... transparent}), or 0 when the headers lack it. */
    public static final int IP_TRANSPARENT = optional("IP_TRANSPARENT");
    /** {@code IP_BIND_ADDRESS_NO_PORT} (Linux 4.2), or 0 when the headers lack it. */
    public static final int IP_BIND_ADDRESS_NO_PORT = optional("IP_BIND_ADDRESS_NO_PORT");
    /** {@code CLOSE_RANGE_CLOEXEC} (glibc 2.34 headers, Linux 5.11), or 0 when the headers lack it. */
    public static final int CLOSE_RANGE_CLOEXEC = optional("CLOSE_RANGE_CLOEXEC");

    /** {@code RLIM_INFINITY} (all ones: -1 as a Java long). */
    public static final long RLIM_INFINITY = probeLong("RLIM_INFINITY");

    private Platform() {
    }

    /**
     * Returns a value the probe printed, by its name in {@code src/main/c/platform.c}.
     *
     * @param name the name ({@code "EPOLLIN"}, {@code "OFFSETOF_STAT_SIZE"})
     * @return its value
     * @throws IllegalArgumentException when the probe does not print it
     */
    public static long get(String name) {
        String value = PROBE.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " is not in platform.properties (src/main/c/platform.c)");
        }
        return Long.parseLong(value.trim());
    }

    /**
     * Returns whether the probe printed a value.
     *
     * @param name the name
     * @return whether {@link #get(String)} knows it
     */
    public static boolean has(String name) {
        return PROBE.containsKey(name);
    }

    /**
     * Returns the C name of a jnr-constants value, the first defined one in declaration order (jnr's own
     * {@code valueOf(long)} picks aliases such as {@code RLIMIT_OFILE}); for error messages.
     *
     * @param type the constants' enum ({@code SocketOption.class})
     * @param value the value
     * @return the name, or the number when no constant has it
     */
    static <E extends Enum<E> & Constant> String name(Class<E> type, int value) {
        for (E c : type.getEnumConstants()) {
            if (c.defined() && c.intValue() == value) {
                return c.name();
            }
        }
        return Integer.toString(value);
    }

    static int probe(String name) {
        return (int) get(name);
    }

    private static int optional(String name) {
        return has(name) ? probe(name) : 0;
    }

    private static long probeLong(String name) {
        return get(name);
    }

    private static int jnr(Constant c) {
        if (!c.defined()) {
            throw new IllegalStateException(c.name() + " is not defined on this platform (jnr-constants)");
        }
        return c.intValue();
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Platform.class.getResourceAsStream("platform.properties")) {
            if (in == null) {
                throw new IllegalStateException("jinx/kernel/os/platform.properties is missing: the build writes it"
                                                + " by running src/main/c/platform.c (mvn generate-resources)");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
