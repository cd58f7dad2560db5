/**
 * The OS layer, nginx's {@code src/os/unix}: jnr-ffi bindings ({@link jinx.kernel.os.LibC}, and
 * {@link jinx.kernel.os.LibCOptional} for calls newer glibc has), the facades that alone call them
 * ({@link jinx.kernel.os.Syscalls} for descriptor I/O, {@link jinx.kernel.os.Sockets},
 * {@link jinx.kernel.os.Channels} for descriptor passing, {@link jinx.kernel.os.Files} with {@code memfd_create},
 * {@link jinx.kernel.os.Signals} for signal masks and signalfd ({@code ngx_process.c}, DESIGN section 6a),
 * {@link jinx.kernel.os.Processes} for {@code posix_spawnp}, {@code execve} and {@code waitpid}
 * ({@code ngx_process.c}, {@code ngx_process_cycle.c}), {@link jinx.kernel.os.ProcessSetup} for what a worker does
 * to itself ({@code ngx_worker_process_init()}, {@code ngx_setaffinity.c}, {@code ngx_daemon.c})), the platform's
 * constants and layouts ({@link jinx.kernel.os.Platform}), native memory ({@link jinx.kernel.os.NativeMemory}) and
 * socket addresses ({@link jinx.kernel.os.SockAddr}).
 *
 * <p>Not API: the package is exported only because jnr-ffi generates the binding implementations outside the
 * kernel module. Modules outside the kernel never see it (DESIGN section 1).
 *
 * <h2>Rules of the facades</h2>
 * {@code EINTR} is retried; {@code EAGAIN}/{@code EWOULDBLOCK} comes back as {@code Rc.AGAIN} from the calls
 * that can block (accept4, recv, send, readv, writev, sendfile, read, write, sendmsg, recvmsg, eventfd reads; and
 * {@code EINPROGRESS} from connect); every other failure throws {@link jinx.kernel.os.NativeIoException}
 * worded as nginx words it, {@code call failed (errno: strerror)}, with errno names in
 * {@link jinx.kernel.os.Errors}. On the hot path the facades take native addresses the caller owns and allocate
 * nothing, neither heap objects nor native memory; the calls documented "not hot" (socket setup, the channel)
 * allocate scratch and free it before returning. Native memory is freed explicitly, never by a Cleaner.
 *
 * <h2>Constants and layouts</h2>
 * Nothing is typed in. Constants jnr-constants has come from it (socket options, open flags, signal numbers,
 * {@code WNOHANG}, {@code PRIO_PROCESS}); the rest (epoll and poll flags, eventfd, memfd and signalfd flags,
 * {@code SIG_BLOCK}, {@code POSIX_SPAWN_*}, struct sizes and field offsets, including {@code sigset_t},
 * {@code struct signalfd_siginfo}, {@code posix_spawnattr_t} and {@code posix_spawn_file_actions_t}) from
 * {@code platform.properties}, which the build writes by compiling and running {@code src/main/c/platform.c} with
 * gcc against this machine's headers. Layouts differ by architecture:
 * {@code struct epoll_event} is 12 bytes and packed on x86_64 ({@code data} at offset 4, glibc's
 * {@code __EPOLL_PACKED}), 16 bytes on aarch64 ({@code data} at 8); the probe reads it, so
 * {@code Platform.SIZEOF_EPOLL_EVENT} and {@code Platform.OFFSETOF_EPOLL_EVENT_DATA} are right on either.
 * {@code struct pollfd} is 8 bytes. Jinx targets 64-bit Linux with glibc: pointers and {@code size_t} fields are
 * written as 8-byte values. The one layout typed in is the Linux wait status ({@link jinx.kernel.os.WaitStatus}),
 * kernel ABI, checked against glibc's {@code W*} macros on samples the probe prints.
 */
package jinx.kernel.os;
