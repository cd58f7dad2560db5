package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.InheritedSockets;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.Signals;
import jinx.kernel.os.SpawnSpec;
import jinx.kernel.os.WaitStatus;

/**
 * USR2, the binary upgrade: nginx's {@code ngx_exec_new_binary()} (src/core/nginx.c) and its part of the master
 * cycle and of {@code ngx_reap_children()} (src/os/unix/ngx_process_cycle.c). The pid file is renamed to
 * {@code <pid>.oldbin}, and a new master is started detached with {@code posix_spawnp}: this JVM's binary (an
 * absolute path) and arguments, the server's signals blocked, this environment with {@code JINX=<fds>;} naming the
 * listening sockets, which are the only descriptors it inherits besides stdio. The new master takes them
 * ({@link InheritedSockets}) and writes its own pid file. When it exits, {@code .oldbin} is renamed back.
 *
 * <p>As nginx, one upgrade at a time: a master ignores USR2 while its new binary runs, and while its parent is
 * still the process it had at start ({@code getppid() == ngx_parent}): a new binary whose old master still runs,
 * or a master in the foreground ({@code daemon off}), whose pid file a second upgrade would clobber.
 */
public final class BinaryUpgrade {

    /** nginx's {@code NGX_OLDPID_EXT}. */
    public static final String OLDPID_EXT = ".oldbin";

    /** The name a new master has in the log, as nginx's. */
    static final String NAME = "new binary process";

    /** nginx's {@code ngx_parent}: this process's parent when it started serving, -1 before. */
    private static volatile int parent = -1;
    /** nginx's {@code ngx_daemonized}: detached by {@code daemon on}, or started by USR2. */
    private static volatile boolean daemonized;

    /** nginx's {@code ngx_new_binary}: the new master's pid, or -1. */
    private int newBinary = -1;
    /** Whether the last USR2 is acted upon ({@link #action()}). */
    private boolean accepted;

    /**
     * Records where this serving process comes from, once, before it serves (nginx sets {@code ngx_parent} in
     * {@code main()} and {@code ngx_daemonized} after {@code ngx_daemon()}).
     *
     * @param parentPid the parent now
     * @param detached whether it runs detached: a {@code daemon on} process or a new binary
     */
    public static void origin(int parentPid, boolean detached) {
        parent = parentPid;
        daemonized = detached;
    }

    /**
     * Returns nginx's {@code ngx_daemonized}: WINCH is acted upon only then (in the foreground a terminal sends it
     * on every resize).
     *
     * @return whether this process runs detached
     */
    public static boolean daemonized() {
        return daemonized;
    }

    /**
     * Returns the {@code .oldbin} file of a pid file.
     *
     * @param pid the pid file
     * @return {@code <pid>.oldbin}
     */
    public static Path oldPid(Path pid) {
        return pid.resolveSibling(pid.getFileName() + OLDPID_EXT);
    }

    /**
     * Returns whether a new binary started by this master runs.
     *
     * @return nginx's {@code ngx_new_binary > 0}
     */
    public boolean running() {
        return newBinary > 0;
    }

    /**
     * Decides what a USR2 does now and returns the words for the {@code signal 12 (SIGUSR2) received} line:
     * {@code ", changing binary"}, or {@code ", ignoring"} (nginx's {@code ngx_signal_handler()}).
     *
     * @return the action
     */
    public String action() {
        accepted = !(Processes.getppid() == parent || running());
        return accepted ? ", changing binary" : ", ignoring";
    }

    /**
     * Acts on the USR2 {@link #action()} judged: starts the new binary, or says why not.
     *
     * @param cycle the cycle in force
     * @return the new master's pid, or -1
     */
    public int signalled(KernelCycle cycle) {
        ErrorLog log = cycle.log();
        if (!accepted) {
            log.log(LogLevel.CRIT, "the changing binary signal is ignored: you should shutdown or terminate "
                + "before either old or new binary's process");
            return -1;
        }
        accepted = false;
        log.notice("changing binary");
        newBinary = start(cycle);
        return newBinary;
    }

    /**
     * nginx's {@code ngx_exec_new_binary()}: renames the pid file to {@code .oldbin} and starts the new master.
     *
     * @param cycle the cycle in force, whose listening sockets the new master inherits
     * @return the new master's pid, or -1 (logged, the pid file renamed back)
     */
    int start(KernelCycle cycle) {
        ErrorLog log = cycle.log();
        Path pid = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        Path oldpid = oldPid(pid);
        List<String> argv;
        String program;
        try {
            argv = new ArrayList<>(Processes.commandLine());
            // the binary this JVM runs, by its absolute path: a relative argv[0] may mean another one later
            program = Path.of("/proc/self/exe").toRealPath().toString();
        } catch (IOException e) {
            log.alert("cannot read this process's command line (" + IoErrors.reason(e) + ")");
            return -1;
        }
        argv.set(0, program);
        try {
            Files.move(pid, oldpid, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.alert("rename() " + pid + " to " + oldpid + " failed before executing new binary process \""
                + program + "\" (" + IoErrors.reason(e) + ")");
            return -1;
        }
        try (SigSet mask = Signals.serverSet()) {
            int child = Processes.spawn(spec(program, argv, cycle.listening(), mask));
            log.notice("start " + NAME + " " + child);
            return child;
        } catch (NativeIoException e) {
            log.alert("execve() failed while executing " + NAME + " \"" + program + "\" (" + reason(e) + ")");
        }
        try {
            Files.move(oldpid, pid, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.alert("rename() " + oldpid + " back to " + pid + " failed after an attempt to execute new binary "
                + "process \"" + program + "\" (" + IoErrors.reason(e) + ")");
        }
        return -1;
    }

    /**
     * What the new master is started with: {@code argv}, this environment with {@code JINX} naming the listening
     * sockets, which are placed at their own numbers (which clears their close-on-exec flag in the child only),
     * every other descriptor but stdio closed, the signals blocked, its own process group left as is.
     *
     * @param program the absolute path of the binary
     * @param argv the arguments, argv[0] included
     * @param listening the sockets to pass
     * @param mask the signals blocked in the child
     * @return the spec
     */
    static SpawnSpec spec(String program, List<String> argv, List<Listening> listening, SigSet mask) {
        List<String> env = new ArrayList<>();
        for (String e : Processes.environment()) {
            if (!e.startsWith(InheritedSockets.VARIABLE + "=")) {
                env.add(e);
            }
        }
        env.add(InheritedSockets.VARIABLE + "=" + variable(listening));
        SpawnSpec spec = new SpawnSpec(program, argv, env, List.of(), -1, mask, null, false, -1);
        for (Listening ls : listening) {
            if (ls.fd() != -1) {
                spec = spec.withDup2(ls.fd(), ls.fd());
            }
        }
        return spec.withCloseFrom(3);
    }

    /**
     * Returns the value of {@code JINX} for these sockets, as nginx's {@code "%ud;"} each.
     *
     * @param listening the sockets; closed ones are left out
     * @return {@code 5;6;}
     */
    static String variable(List<Listening> listening) {
        StringBuilder value = new StringBuilder();
        for (Listening ls : listening) {
            if (ls.fd() != -1) {
                value.append(ls.fd()).append(';');
            }
        }
        return value.toString();
    }

    /**
     * Takes a reaped child if it is the new binary: renames {@code .oldbin} back to the pid file
     * (the old master is in charge again) and forgets it.
     *
     * @param ws the child's status
     * @param cycle the cycle in force
     * @return whether the child was the new binary
     */
    public boolean reaped(WaitStatus ws, KernelCycle cycle) {
        if (ws.pid() != newBinary) {
            return false;
        }
        // its end is logged by the process table, where the master recorded it as a detached child
        ErrorLog log = cycle.log();
        newBinary = -1;
        Path pid = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        Path oldpid = oldPid(pid);
        try {
            Files.move(oldpid, pid, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.alert("rename() " + oldpid + " back to " + pid + " failed after the new binary process \""
                + argv0() + "\" exited (" + IoErrors.reason(e) + ")");
        }
        return true;
    }

    /**
     * Returns the pid file the master removes when it exits: {@code .oldbin} while a new binary runs (the pid file
     * is the new master's), as nginx's {@code ngx_delete_pidfile()}.
     *
     * @param pid the pid file
     * @return the file to remove
     */
    public Path pidFileAtExit(Path pid) {
        return running() ? oldPid(pid) : pid;
    }

    private static String argv0() {
        try {
            return Path.of("/proc/self/exe").toRealPath().toString();
        } catch (IOException e) {
            return "java";
        }
    }

    /** {@code 2: No such file or directory}, from {@code call failed (2: No such file or directory)}. */
    private static String reason(NativeIoException e) {
        String m = e.getMessage();
        int at = m.indexOf(" failed (");
        return at == -1 ? m : m.substring(at + " failed (".length(), m.length() - 1);
    }
}
