package jinx.kernel.internal.process;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.Signals;
import jinx.kernel.os.SpawnSpec;
import jinx.kernel.os.Syscalls;
import jinx.kernel.os.WaitStatus;

/**
 * {@code daemon on}: nginx's {@code ngx_daemon()} (src/os/unix/ngx_daemon.c), which forks after the configuration
 * was read and the sockets bound, the parent exiting 0 and the child calling {@code setsid()}. A JVM cannot fork,
 * so the {@code jinx} command starts itself again with {@code posix_spawnp}: the same binary and arguments, a new
 * session ({@code POSIX_SPAWN_SETSID}), the server's signals blocked (so it does not re-exec: its pid is final),
 * stdin and stdout on {@code /dev/null}, stderr on the error log (nginx's {@code ngx_log_redirect_stderr()}; left
 * as is when the log is stderr), and the listening sockets passed in {@code JINX} as for a binary upgrade: the
 * child takes them instead of binding again. The parent returns once the child has written its pid file, so the
 * shell gets its prompt back with the server serving, or an error when the child could not start.
 */
public final class Daemon {

    /** How long the parent waits for the child's pid file: a JVM start on a loaded machine, and then some. */
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);

    private Daemon() {
    }

    /**
     * Starts the detached process that serves {@code cycle}'s configuration and waits for its pid file.
     *
     * @param cycle the cycle this process built (sockets bound), which the child builds again
     * @param err where to say that the child failed
     * @return the exit code of this process: 0 once the child wrote its pid file, 1 otherwise
     */
    public static int detach(KernelCycle cycle, PrintStream err) {
        ErrorLog log = cycle.log();
        Path pidFile = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        List<String> argv;
        String program;
        try {
            argv = new ArrayList<>(Processes.commandLine());
            program = Path.of("/proc/self/exe").toRealPath().toString();
        } catch (IOException e) {
            log.emerg("daemon: cannot read this process's command line (" + e.getMessage() + ")");
            return 1;
        }
        argv.set(0, program);
        int devNull = -1;
        int logFd = -1;
        int child;
        try (SigSet mask = Signals.serverSet()) {
            devNull = jinx.kernel.os.Files.open("/dev/null", Platform.O_RDWR | Platform.O_CLOEXEC, 0);
            Path logFile = logFile(log);
            if (logFile != null) {
                logFd = jinx.kernel.os.Files.open(logFile.toString(), Platform.O_WRONLY | Platform.O_APPEND
                    | Platform.O_CREAT | Platform.O_CLOEXEC, 0644);
            }
            SpawnSpec spec = BinaryUpgrade.spec(program, argv, cycle.listening(), mask).withSetsid()
                .withDup2(devNull, 0).withDup2(devNull, 1);
            if (logFd != -1) {
                spec = spec.withDup2(logFd, 2);
            }
            child = Processes.spawn(spec);
        } catch (NativeIoException e) {
            log.emerg("daemon: " + e.getMessage());
            return 1;
        } catch (UnsupportedOperationException e) {
            log.emerg("\"daemon on\" needs " + e.getMessage() + ": use \"daemon off;\"");
            return 1;
        } finally {
            close(devNull);
            close(logFd);
        }
        return awaitPidFile(child, pidFile, err);
    }

    /** The first file the log writes to, or null when it writes to stderr only. */
    private static Path logFile(ErrorLog log) {
        for (ErrorLog.Target t : log.targets()) {
            if (t.file() != null) {
                return t.file();
            }
        }
        return null;
    }

    /** Waits until the pid file names the child, or the child exits, or the time is up. */
    private static int awaitPidFile(int child, Path pidFile, PrintStream err) {
        long deadline = System.nanoTime() + START_TIMEOUT_NS;
        String expected = child + "\n";
        for (;;) {
            if (expected.equals(read(pidFile))) {
                return 0;
            }
            try {
                WaitStatus ws = Processes.waitpid(child, Platform.WNOHANG);
                if (ws != null) {
                    err.print("jinx: [emerg] " + ws.describe("daemon process") + ", see the error log\n");
                    err.flush();
                    return 1;
                }
            } catch (NativeIoException e) {
                err.print("jinx: [alert] " + e.getMessage() + "\n");
                return 1;
            }
            if (System.nanoTime() > deadline) {
                err.print("jinx: [alert] daemon process " + child + " has not written \"" + pidFile + "\" in "
                    + TimeUnit.NANOSECONDS.toSeconds(START_TIMEOUT_NS) + "s\n");
                err.flush();
                return 1;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return null;
        }
    }

    private static void close(int fd) {
        if (fd != -1) {
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                // nothing left to do with it
            }
        }
    }
}
