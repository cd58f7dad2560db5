package jinx.kernel.internal.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.CycleOptions.Purpose;
import jinx.kernel.internal.cycle.InheritedSockets;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.ListeningSockets;
import jinx.kernel.internal.process.BinaryUpgrade;
import jinx.kernel.internal.process.Daemon;
import jinx.kernel.internal.process.MasterProcess;
import jinx.kernel.internal.process.SingleProcess;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.Signals;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.JinxModule;

/**
 * The {@code jinx} command: nginx's {@code main()} in {@code src/core/nginx.c}, up to the point where the
 * master would start serving.
 */
public final class Main {

    /** The default configuration file, relative to the prefix. */
    static final String DEFAULT_CONF = "conf/jinx.conf";

    private final PrintStream out;
    private final PrintStream err;
    private final Supplier<List<JinxModule>> staticModules;
    /** Whether this is the {@code jinx} command's process ({@link #main}), not an embedding: only it daemonizes. */
    private boolean command;

    /**
     * A command writing to {@code out} and {@code err}, with the given built-in modules.
     *
     * @param out standard output
     * @param err standard error
     * @param staticModules the built-in modules, fresh instances on every call
     */
    public Main(PrintStream out, PrintStream err, Supplier<List<JinxModule>> staticModules) {
        this.out = out;
        this.err = err;
        this.staticModules = staticModules;
    }

    /**
     * Runs {@code jinx} with the built-in modules found by {@link ServiceLoader}.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        ownSignals(args);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.ISO_8859_1);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.ISO_8859_1);
        Main main = new Main(out, err, Main::discover);
        main.command = true;
        System.exit(main.run(args));
    }

    /**
     * DESIGN 6a: a serving {@code jinx} owns its signals. Unless the server's signal set is blocked already (it
     * was started so, or this is the re-exec), blocks it on this thread, marks every inherited descriptor from 3
     * up close-on-exec (sparing the listening sockets named in {@code JINX}) and replaces this JVM by the same
     * command line with {@code -Xrs} and {@code _JAVA_SR_SIGNUM=39}: same pid, every thread of the new JVM
     * inherits the mask. Only {@link #main} calls this; embedded use ({@link #run}) never touches signals.
     */
    private static void ownSignals(String[] args) {
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            return;
        }
        if (cl.help || cl.version || cl.versionFull || cl.test || cl.modules || cl.directives || cl.signal != null) {
            return;
        }
        try (SigSet set = Signals.serverSet(); SigSet mask = Signals.threadMask()) {
            boolean blocked = true;
            for (int signo : set.signals()) {
                blocked &= mask.contains(signo);
            }
            if (blocked) {
                return;
            }
            List<String> argv = new ArrayList<>(Processes.commandLine());
            if (argv.isEmpty()) {
                return;
            }
            if (!argv.contains("-Xrs")) {
                argv.add(1, "-Xrs");
            }
            List<String> env = new ArrayList<>();
            String inherited = null;
            for (String e : Processes.environment()) {
                if (e.startsWith("JINX=")) {
                    inherited = e.substring(5);
                }
                if (!e.startsWith("_JAVA_SR_SIGNUM=")) {
                    env.add(e);
                }
            }
            env.add("_JAVA_SR_SIGNUM=39");
            Signals.block(set);
            Processes.closeRangeCloexec(3);
            if (inherited != null) {
                for (String fd : inherited.split("[;:]")) {
                    if (!fd.isEmpty()) {
                        try {
                            Processes.clearCloexec(Integer.parseInt(fd.trim()));
                        } catch (NumberFormatException | NativeIoException e) {
                            // nginx ignores an invalid JINX entry here; the cycle reports it
                        }
                    }
                }
            }
            try {
                // the resolved path, so the process keeps its name ("java", not "exe")
                Processes.execve(Path.of("/proc/self/exe").toRealPath().toString(), argv, env);
            } catch (IOException e) {
                Signals.unblock(set);
                throw e;
            }
        } catch (IOException e) {
            // execve failed: serve without owning signals, as before
            System.err.print("jinx: [alert] cannot re-execute with signals blocked: " + e.getMessage() + "\n");
        }
    }

    /**
     * Finds the built-in modules: every provider in the kernel's layer, or on the class path when the kernel is
     * not on the module path.
     *
     * @return fresh instances of the built-in modules
     */
    public static List<JinxModule> discover() {
        java.lang.Module kernel = JinxModule.class.getModule();
        ServiceLoader<JinxModule> loader = kernel.isNamed() && kernel.getLayer() != null
            ? ServiceLoader.load(kernel.getLayer(), JinxModule.class)
            : ServiceLoader.load(JinxModule.class, JinxModule.class.getClassLoader());
        List<JinxModule> modules = new ArrayList<>();
        loader.forEach(modules::add);
        return modules;
    }

    /**
     * Runs the command.
     *
     * @param args the command line
     * @return the exit code
     */
    public int run(String[] args) {
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            err.print("jinx: " + e.getMessage() + "\n");
            return 1;
        }
        if (cl.version) {
            Reports.version(err);
            if (cl.help) {
                Reports.help(err);
            }
        }
        Path prefix = prefix(cl);
        Path confFile = prefix.resolve(cl.conf != null ? cl.conf : DEFAULT_CONF);
        if (cl.versionFull) {
            Reports.configure(err, prefix, confFile);
            quietSummary(cl, prefix, confFile);
        }
        if (cl.version && !cl.test && !cl.modules && !cl.directives && cl.signal == null) {
            return 0;
        }
        ErrorLog early = ErrorLog.early(err, earlyLogFile(cl, prefix));
        try {
            return execute(cl, prefix, confFile, early);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            if (!cl.test && !reportOnly(cl) && cl.signal == null) {
                // a serving process's failure keeps its trace: it is a bug to report, not a configuration's
                throw e;
            }
            // -t never prints a stack trace, whatever the configuration (issue #36)
            early.emerg("unexpected error while testing the configuration (" + e + ")");
            if (cl.test) {
                err.print("jinx: configuration file " + confFile + " test failed\n");
            }
            return 1;
        } finally {
            early.close();
        }
    }

    private int execute(CommandLine cl, Path prefix, Path confFile, ErrorLog early) {
        Purpose purpose = Purpose.RUN;
        if (cl.signal != null) {
            purpose = Purpose.SIGNAL;
        } else if (cl.test || reportOnly(cl)) {
            purpose = Purpose.TEST;
        }
        boolean announce = cl.test && !cl.quiet;
        CycleOptions options = new CycleOptions(prefix, confFile, cl.params, cl.errorLog, purpose, staticModules,
            BuiltinOrder.NAMES, err, early,
            announce ? () -> err.print("jinx: the configuration file " + confFile + " syntax is ok\n") : null);
        if (purpose == Purpose.RUN && inherited() != null) {
            // nginx's ngx_add_inherited_sockets(), before the first cycle: a binary upgrade or a daemon's start
            ListeningSockets.inherit(InheritedSockets.take(inherited(), early));
        }
        KernelCycle cycle;
        try {
            cycle = CycleBuilder.build(options, null);
        } catch (ConfException e) {
            early.emerg(e.getMessage());
            if (cl.test) {
                err.print("jinx: configuration file " + confFile + " test failed\n");
            }
            return 1;
        }
        try {
            if (cl.test) {
                String failure = openPidFile(cycle);
                if (failure != null) {
                    early.emerg(failure);
                    err.print("jinx: configuration file " + confFile + " test failed\n");
                    return 1;
                }
            }
            return afterCycle(cl, cycle, confFile, options);
        } finally {
            if (cycle.log() != early) {
                cycle.log().close();
            }
        }
    }

    private int afterCycle(CommandLine cl, KernelCycle cycle, Path confFile, CycleOptions options) {
        if (cl.signal != null) {
            return Signaller.signal(cycle, cl.signal);
        }
        if (cl.test) {
            if (!cl.quiet) {
                err.print("jinx: configuration file " + confFile + " test is successful\n");
            }
            if (cl.dump) {
                Reports.dump(out, cycle);
            }
        }
        if (cl.modules) {
            Reports.modules(out, cycle);
        }
        if (cl.directives && !Reports.directives(out, cycle, cl.directivesOf)) {
            String name = cl.directivesOf;
            err.print(cycle.module(name) != null ? "jinx: module \"" + name + "\" has no directives\n"
                : "jinx: no module and no directive named \"" + name + "\"\n");
            return 1;
        }
        if (cl.test || reportOnly(cl)) {
            return 0;
        }
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        if (core.masterProcess == 1 && !MasterProcess.ownsSignals()) {
            err.print("jinx: [emerg] the master process runs only as the jinx command, not embedded: "
                + "run with \"master_process off;\" (or -g \"master_process off;\")\n");
            return 1;
        }
        boolean inherited = inherited() != null;
        // a daemon's or a new binary's stderr is the error log: the address is in the log already
        announceListening(cycle, !inherited);
        if (command) {
            if (core.daemon == 1 && !inherited) {
                // nginx's ngx_daemon() after ngx_init_cycle(): the detached process serves, this one returns
                return Daemon.detach(cycle, err);
            }
            // as nginx: no daemon again when the sockets are inherited, which counts as daemonized
            BinaryUpgrade.origin(Processes.getppid(), inherited);
        }
        if (core.masterProcess == 1) {
            return MasterProcess.run(cycle, options);
        }
        return SingleProcess.run(cycle, options);
    }

    /**
     * nginx's {@code ngx_create_pidfile()} under {@code -t}: the pid file is opened (created when missing, never
     * truncated nor written), so a {@code pid} in a missing or unwritable directory fails the test, not the start.
     *
     * @return nginx's error text, or null when the file could be opened
     */
    private static String openPidFile(KernelCycle cycle) {
        Path pid = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        if (pid == null) {
            return null;
        }
        try {
            FileChannel.open(pid, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
            return null;
        } catch (IOException e) {
            return "open() \"" + pid + "\" failed (" + IoErrors.reason(e) + ")";
        }
    }

    /** The value of {@code JINX} for the {@code jinx} command, null without it or when embedded. */
    private String inherited() {
        return command ? System.getenv(InheritedSockets.VARIABLE) : null;
    }

    /**
     * Says where the server listens, which nginx leaves to {@code ss -l}: a person who just typed {@code bin/jinx}
     * needs the address. The line goes to the error log at {@code notice}, and as {@code jinx: [notice] ...} to
     * stderr unless the log writes that level to stderr itself or {@code echo} is false. A port the kernel picked
     * ({@code :0}) is shown as bound.
     */
    private void announceListening(KernelCycle cycle, boolean echo) {
        boolean onStderr = !echo;
        for (ErrorLog.Target t : cycle.log().targets()) {
            onStderr |= t.file() == null && t.level().compareTo(LogLevel.NOTICE) >= 0;
        }
        for (Listening ls : cycle.listening()) {
            if (ls.worker > 0) {
                // a reuseport clone of a socket announced already
                continue;
            }
            String text = "listening on " + boundAddress(ls);
            cycle.log().notice(text);
            if (!onStderr) {
                err.print("jinx: [notice] " + text + "\n");
            }
        }
        err.flush();
    }

    private static String boundAddress(Listening ls) {
        if (ls.sockaddr().isUnix() || ls.sockaddr().port() != 0 || ls.fd() == -1) {
            return ls.addrText();
        }
        try {
            return Sockets.getsockname(ls.fd()).toString();
        } catch (NativeIoException e) {
            return ls.addrText();
        }
    }

    private static boolean reportOnly(CommandLine cl) {
        return cl.modules || cl.directives;
    }

    /** For {@code -V}: the configuration's modules, or the error that stopped it; nothing else on stderr. */
    private void quietSummary(CommandLine cl, Path prefix, Path confFile) {
        PrintStream silent = new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.ISO_8859_1);
        ErrorLog log = ErrorLog.early(silent, null);
        CycleOptions options = new CycleOptions(prefix, confFile, cl.params, cl.errorLog, Purpose.SIGNAL,
            staticModules, BuiltinOrder.NAMES, silent, log, null);
        try {
            Reports.moduleSummary(err, CycleBuilder.build(options, null), null);
        } catch (ConfException e) {
            Reports.moduleSummary(err, null, e);
        }
    }

    /** {@code -p}, else the distribution's root that {@code bin/jinx} passes, else the working directory. */
    private static Path prefix(CommandLine cl) {
        String prefix = cl.prefix != null ? cl.prefix : System.getProperty("jinx.prefix");
        Path path = prefix != null ? Path.of(prefix) : Path.of("");
        return path.toAbsolutePath().normalize();
    }

    private static Path earlyLogFile(CommandLine cl, Path prefix) {
        String name = cl.errorLog != null ? cl.errorLog : "logs/error.log";
        return name.equals("stderr") ? null : prefix.resolve(name);
    }
}
