package jinx.kernel.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The facade over starting, replacing and reaping processes (nginx's {@code ngx_process.c}), with
 * {@link Syscalls}' rules: {@code posix_spawnp} with attributes and file actions, {@code execve},
 * {@code waitpid}, and marking descriptors close-on-exec before an exec. None of it is hot: every call allocates
 * its native scratch and frees it before returning.
 *
 * <p>Children are started with {@code posix_spawnp}, never {@code fork}: a JVM cannot fork safely. They are reaped
 * with {@link #reap()}; never mix that with {@code ProcessBuilder} children in the same JVM, whose reaper waits on
 * their pids itself (DESIGN section 6a).
 */
public final class Processes {

    private static final boolean ADDCLOSEFROM = Platform.has("HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCLOSEFROM_NP")
                                                && Platform.get("HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCLOSEFROM_NP") == 1
                                                && Native.has("posix_spawn_file_actions_addclosefrom_np");
    private static final boolean CLOSE_RANGE = Platform.CLOSE_RANGE_CLOEXEC != 0 && Native.has("close_range");

    private Processes() {
    }

    /**
     * Returns this process's id.
     *
     * @return {@code getpid()}
     */
    public static int getpid() {
        return Native.C.getpid();
    }

    /**
     * Returns the parent's id: 1 (or a subreaper) once the parent has died.
     *
     * @return {@code getppid()}
     */
    public static int getppid() {
        return Native.C.getppid();
    }

    /**
     * Starts a program: {@code posix_spawnp} with the spec's attributes (mask, default signals, session, process
     * group) and file actions (dup2s, then closing from {@code closeFrom}).
     *
     * @param spec what to start
     * @return the child's pid
     * @throws NativeIoException {@code posix_spawnp() "java" failed (2: No such file or directory)}: the error of
     *     the child's exec comes back here too
     */
    public static int spawn(SpawnSpec spec) throws NativeIoException {
        return spawn(spec, ADDCLOSEFROM);
    }

    /**
     * {@link #spawn(SpawnSpec)}, choosing how {@code closeFrom} is done (tests run both).
     *
     * @param spec what to start
     * @param useAddclosefrom whether to use {@code posix_spawn_file_actions_addclosefrom_np} (which must exist)
     *     rather than a close-on-exec sweep of this process's descriptors
     * @return the child's pid
     * @throws NativeIoException {@code posix_spawnp() "java" failed (...)}
     */
    static int spawn(SpawnSpec spec, boolean useAddclosefrom) throws NativeIoException {
        boolean closefromNp = spec.closeFrom() >= 0 && useAddclosefrom;
        if (spec.closeFrom() >= 0 && !closefromNp) {
            sweepCloexec(spec.closeFrom(), -1);
        }
        byte[] program = CStrings.bytes(spec.program());
        long attr = NativeMemory.allocateTemporary(Platform.SIZEOF_POSIX_SPAWNATTR_T);
        long actions = NativeMemory.allocateTemporary(Platform.SIZEOF_POSIX_SPAWN_FILE_ACTIONS_T);
        long pid = NativeMemory.allocateTemporary(Integer.BYTES);
        long argv = 0;
        long envp = 0;
        boolean attrReady = false;
        boolean actionsReady = false;
        try {
            argv = CStrings.array(spec.argv());
            envp = spec.env() == null ? 0 : CStrings.array(spec.env());
            check("posix_spawnattr_init()", Native.C.posix_spawnattr_init(attr));
            attrReady = true;
            attributes(spec, attr);
            check("posix_spawn_file_actions_init()", Native.C.posix_spawn_file_actions_init(actions));
            actionsReady = true;
            fileActions(spec, actions, closefromNp);
            int rc = Native.C.posix_spawnp(pid, program, actions, attr, argv, envp != 0 ? envp : Native.environ());
            if (rc != 0) {
                throw Errors.failure("posix_spawnp() \"" + spec.program() + "\"", rc);
            }
            return NativeMemory.getInt(pid);
        } finally {
            if (actionsReady) {
                Native.C.posix_spawn_file_actions_destroy(actions);
            }
            if (attrReady) {
                Native.C.posix_spawnattr_destroy(attr);
            }
            free(argv, envp, pid, actions, attr);
        }
    }

    /**
     * Replaces this process's program, keeping its pid, signal mask and the descriptors that are not
     * close-on-exec (DESIGN section 6a: the launcher re-execs itself with {@code -Xrs}). In a JVM every other
     * thread vanishes and no shutdown hook runs. Returns only by throwing.
     *
     * @param path the program, a path (no {@code PATH} search)
     * @param argv the arguments, {@code argv[0]} included
     * @param env {@code NAME=value} strings, or null for this process's own
     * @throws NativeIoException {@code execve() "/usr/bin/java" failed (2: No such file or directory)}
     */
    public static void execve(String path, List<String> argv, List<String> env) throws NativeIoException {
        byte[] p = CStrings.bytes(path);
        long a = CStrings.array(argv);
        long e = env == null ? 0 : CStrings.array(env);
        try {
            Native.C.execve(p, a, e != 0 ? e : Native.environ());
            throw Errors.failure("execve() \"" + path + "\"", Errors.last());
        } finally {
            free(a, e);
        }
    }

    /**
     * Waits for one child: {@code waitpid(pid, &status, options)}.
     *
     * @param pid the child, -1 for any, {@code -pgid} for any of a process group
     * @param options 0 to wait, or {@link Platform#WNOHANG}
     * @return the child's status, or null when {@code WNOHANG} found none that changed
     * @throws NativeIoException {@code waitpid() failed (10: No child processes)}
     */
    public static WaitStatus waitpid(int pid, int options) throws NativeIoException {
        long status = NativeMemory.allocateTemporary(Integer.BYTES);
        try {
            for (;;) {
                int rc = Native.C.waitpid(pid, status, options);
                if (rc > 0) {
                    return new WaitStatus(rc, NativeMemory.getInt(status));
                }
                if (rc == 0) {
                    return null;
                }
                int errno = Errors.last();
                if (errno != Errors.EINTR) {
                    throw Errors.failure("waitpid()", errno);
                }
            }
        } finally {
            NativeMemory.freeTemporary(status);
        }
    }

    /**
     * Reaps every finished child: {@code waitpid(-1, &status, WNOHANG)} until it returns 0 or fails with
     * {@code ECHILD} (nginx's {@code ngx_process_get_status()}; one SIGCHLD can stand for several children).
     *
     * @return the children reaped, maybe none
     * @throws NativeIoException {@code waitpid() failed (...)} for an error other than {@code ECHILD}
     */
    public static List<WaitStatus> reap() throws NativeIoException {
        return reap(-1);
    }

    /**
     * Reaps the finished children {@code pid} selects, as {@link #reap()}.
     *
     * @param pid -1 for any child, {@code -pgid} for those of a process group, or one child
     * @return the children reaped, maybe none
     * @throws NativeIoException {@code waitpid() failed (...)} for an error other than {@code ECHILD}
     */
    public static List<WaitStatus> reap(int pid) throws NativeIoException {
        List<WaitStatus> reaped = new ArrayList<>(2);
        long status = NativeMemory.allocateTemporary(Integer.BYTES);
        try {
            for (;;) {
                int rc = Native.C.waitpid(pid, status, Platform.WNOHANG);
                if (rc > 0) {
                    reaped.add(new WaitStatus(rc, NativeMemory.getInt(status)));
                    continue;
                }
                if (rc == 0) {
                    return reaped;
                }
                int errno = Errors.last();
                if (errno == Errors.ECHILD) {
                    return reaped;
                }
                if (errno != Errors.EINTR) {
                    throw Errors.failure("waitpid()", errno);
                }
            }
        } finally {
            NativeMemory.freeTemporary(status);
        }
    }

    /**
     * Marks every descriptor from {@code first} up close-on-exec, before an {@code execve}:
     * {@code close_range(first, ~0U, CLOSE_RANGE_CLOEXEC)}, or where libc (glibc before 2.34) or the kernel
     * (before 5.11) lacks it, {@code fcntl(FD_CLOEXEC)} on each descriptor {@code /proc/self/fd} lists. Spare a
     * descriptor afterwards with {@link #clearCloexec(int)}.
     *
     * @param first the lowest descriptor, at least 0
     * @throws NativeIoException {@code close_range() failed (...)}, {@code fcntl(FD_CLOEXEC) failed (...)}
     */
    public static void closeRangeCloexec(int first) throws NativeIoException {
        closeRangeCloexec(first, -1);
    }

    /**
     * Marks descriptors {@code first} to {@code last} close-on-exec, as {@link #closeRangeCloexec(int)}.
     *
     * @param first the lowest descriptor
     * @param last the highest, or -1 for no limit ({@code ~0U})
     * @throws NativeIoException {@code close_range() failed (...)}
     */
    public static void closeRangeCloexec(int first, int last) throws NativeIoException {
        if (first < 0 || last != -1 && last < first) {
            throw new IllegalArgumentException("descriptors " + first + " to " + last);
        }
        if (CLOSE_RANGE) {
            if (Native.Optional.C.close_range(first, last, Platform.CLOSE_RANGE_CLOEXEC) == 0) {
                return;
            }
            int errno = Errors.last();
            if (errno != Errors.ENOSYS && errno != Errors.EINVAL) {
                throw Errors.failure("close_range()", errno);
            }
        }
        sweepCloexec(first, last);
    }

    /**
     * Clears a descriptor's close-on-exec flag, so an {@code execve} keeps it (a listening socket named in
     * {@code JINX}).
     *
     * @param fd the descriptor
     * @throws NativeIoException {@code fcntl(F_SETFD) failed (...)}
     */
    public static void clearCloexec(int fd) throws NativeIoException {
        Syscalls.clearCloexec(fd);
    }

    /**
     * Returns this process's environment as libc holds it ({@code environ}), one char per byte: passed back to
     * {@link #spawn} or {@link #execve}, every byte is unchanged (which {@code System.getenv()}, decoded at start,
     * does not promise).
     *
     * @return {@code NAME=value} strings
     */
    public static List<String> environment() {
        return CStrings.read(Native.environ());
    }

    /**
     * Returns this process's command line ({@code /proc/self/cmdline}), one char per byte: {@code argv[0]} first.
     *
     * @return the arguments
     * @throws IOException when {@code /proc} cannot be read
     */
    public static List<String> commandLine() throws IOException {
        byte[] b = java.nio.file.Files.readAllBytes(Path.of("/proc/self/cmdline"));
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                args.add(new String(b, start, i - start, StandardCharsets.ISO_8859_1));
                start = i + 1;
            }
        }
        return args;
    }

    /**
     * Returns whether libc can close descriptors in a spawned child itself
     * ({@code posix_spawn_file_actions_addclosefrom_np}, glibc 2.34), rather than through a close-on-exec sweep.
     *
     * @return whether it can
     */
    static boolean hasAddclosefrom() {
        return ADDCLOSEFROM;
    }

    /**
     * Returns whether {@code close_range} is in libc (it may still fail on an old kernel).
     *
     * @return whether it is
     */
    static boolean hasCloseRange() {
        return CLOSE_RANGE;
    }

    /**
     * Marks this process's open descriptors in a range close-on-exec, one {@code fcntl} each, as
     * {@code /proc/self/fd} lists them; one closed meanwhile is skipped.
     *
     * @param first the lowest descriptor
     * @param last the highest, or -1 for no limit
     * @throws NativeIoException {@code fcntl(FD_CLOEXEC) failed (...)} for an error other than {@code EBADF}
     */
    static void sweepCloexec(int first, int last) throws NativeIoException {
        int[] fds;
        try (Stream<Path> list = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
            fds = list.mapToInt(p -> Integer.parseInt(p.getFileName().toString())).toArray();
        } catch (IOException e) {
            throw new NativeIoException("opendir() \"/proc/self/fd\"", 0, String.valueOf(e.getMessage()));
        }
        Arrays.sort(fds);
        for (int fd : fds) {
            if (fd < first || last != -1 && fd > last) {
                continue;
            }
            try {
                Syscalls.setCloexec(fd);
            } catch (NativeIoException e) {
                if (e.errno() != Errors.EBADF) {
                    throw e;
                }
            }
        }
    }

    private static void attributes(SpawnSpec spec, long attr) throws NativeIoException {
        int flags = 0;
        if (spec.sigmask() != null) {
            check("posix_spawnattr_setsigmask()", Native.C.posix_spawnattr_setsigmask(attr, spec.sigmask().address()));
            flags |= Platform.POSIX_SPAWN_SETSIGMASK;
        }
        if (spec.sigdefault() != null) {
            check("posix_spawnattr_setsigdefault()",
                  Native.C.posix_spawnattr_setsigdefault(attr, spec.sigdefault().address()));
            flags |= Platform.POSIX_SPAWN_SETSIGDEF;
        }
        if (spec.pgroup() >= 0) {
            check("posix_spawnattr_setpgroup()", Native.C.posix_spawnattr_setpgroup(attr, spec.pgroup()));
            flags |= Platform.POSIX_SPAWN_SETPGROUP;
        }
        if (spec.setsid()) {
            flags |= Platform.POSIX_SPAWN_SETSID;
        }
        check("posix_spawnattr_setflags()", Native.C.posix_spawnattr_setflags(attr, (short) flags));
    }

    /*
     * File actions run in order in the child. When a dup2's source is an earlier dup2's target, placing them
     * one by one would overwrite it: then every source is first copied above all the numbers involved, placed
     * from there, and the copies closed. Closing then starts above the highest target; numbers between closeFrom
     * and it that are not targets are closed one by one (glibc ignores EBADF for a close action).
     */
    private static void fileActions(SpawnSpec spec, long actions, boolean closefromNp) throws NativeIoException {
        List<SpawnSpec.Dup2> dups = spec.dup2s();
        int maxTarget = -1;
        int maxFd = -1;
        for (SpawnSpec.Dup2 d : dups) {
            maxTarget = Math.max(maxTarget, d.target());
            maxFd = Math.max(maxFd, Math.max(d.fd(), d.target()));
        }
        if (clobbers(dups)) {
            int base = maxFd + 1;
            for (int i = 0; i < dups.size(); i++) {
                adddup2(actions, dups.get(i).fd(), base + i);
            }
            for (int i = 0; i < dups.size(); i++) {
                adddup2(actions, base + i, dups.get(i).target());
            }
            for (int i = 0; i < dups.size(); i++) {
                addclose(actions, base + i);
            }
        } else {
            for (SpawnSpec.Dup2 d : dups) {
                adddup2(actions, d.fd(), d.target());
            }
        }
        if (spec.closeFrom() < 0) {
            return;
        }
        int from = Math.max(spec.closeFrom(), maxTarget + 1);
        for (int fd = spec.closeFrom(); fd < from; fd++) {
            if (!isTarget(dups, fd)) {
                addclose(actions, fd);
            }
        }
        if (closefromNp) {
            check("posix_spawn_file_actions_addclosefrom_np()",
                  Native.Optional.C.posix_spawn_file_actions_addclosefrom_np(actions, from));
        }
    }

    private static boolean clobbers(List<SpawnSpec.Dup2> dups) {
        for (int j = 1; j < dups.size(); j++) {
            for (int i = 0; i < j; i++) {
                SpawnSpec.Dup2 earlier = dups.get(i);
                if (earlier.fd() != earlier.target() && dups.get(j).fd() == earlier.target()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isTarget(List<SpawnSpec.Dup2> dups, int fd) {
        for (SpawnSpec.Dup2 d : dups) {
            if (d.target() == fd) {
                return true;
            }
        }
        return false;
    }

    private static void adddup2(long actions, int fd, int target) throws NativeIoException {
        check("posix_spawn_file_actions_adddup2(" + fd + ", " + target + ")",
              Native.C.posix_spawn_file_actions_adddup2(actions, fd, target));
    }

    private static void addclose(long actions, int fd) throws NativeIoException {
        check("posix_spawn_file_actions_addclose(" + fd + ")", Native.C.posix_spawn_file_actions_addclose(actions, fd));
    }

    /** posix_spawn calls return the error number instead of setting errno. */
    private static void check(String call, int rc) throws NativeIoException {
        if (rc != 0) {
            throw Errors.failure(call, rc);
        }
    }

    private static void free(long... addresses) {
        for (long a : addresses) {
            if (a != 0) {
                NativeMemory.freeTemporary(a);
            }
        }
    }
}
