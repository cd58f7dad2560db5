package jinx.kernel.internal.core;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.module.ModuleJarLoader;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code core} module: the main-context directives of nginx's {@code ngx_core_commands} and
 * {@code load_module}, with nginx's defaults and checks.
 */
public final class MainCoreModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "core";

    private static final Set<Ctx> MAIN = Set.of(Ctx.MAIN);
    /** nginx's CPU_SETSIZE on Linux. */
    private static final int CPU_SETSIZE = 1024;
    /** {@code worker_warmup}'s default: off, so that a reload serves its configuration within a second or two. */
    static final long DEFAULT_WARMUP_MS = 0;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("daemon", MAIN, Arity.FLAG, CoreConf.class,
            Slots.flag((CoreConf c, boolean on) -> c.daemon = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Determines whether jinx should become a daemon."),
        Directive.of("master_process", MAIN, Arity.FLAG, CoreConf.class,
            Slots.flag((CoreConf c, boolean on) -> c.masterProcess = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Determines whether worker processes are started."),
        Directive.of("timer_resolution", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.msec((CoreConf c, long v) -> c.timerResolution = v))
            .syntax("interval").describe("Reduces timer resolution in worker processes, thus reducing the number of "
                + "clock reads."),
        Directive.of("pid", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.path((CoreConf c, Path p) -> c.pid = p))
            .syntax("file").defaults("logs/jinx.pid").describe("Defines a file that will store the process ID of the "
                + "main process."),
        Directive.of("worker_processes", MAIN, Arity.TAKE1, CoreConf.class, MainCoreModule::workerProcesses)
            
            .syntax("number | auto").defaults("1").describe("Defines the number of worker processes."),
        Directive.of("user", MAIN, Arity.TAKE12, CoreConf.class, MainCoreModule::user)
            .syntax("user [group]").defaults("nobody nogroup").describe("Defines user and group credentials used by "
                + "worker processes; when started as root without it, nobody and nogroup (or nobody where there is "
                + "no nogroup)."),
        Directive.of("worker_priority", MAIN, Arity.TAKE1, CoreConf.class, MainCoreModule::priority)
            
            .syntax("number").defaults("0").describe("Defines the scheduling priority for worker processes like it "
                + "is done by the nice command."),
        Directive.of("worker_cpu_affinity", MAIN, Arity.ONE_MORE, CoreConf.class, MainCoreModule::cpuAffinity)
            
            .syntax("cpumask ...", "auto [cpumask]").describe("Binds worker processes to the sets of CPUs."),
        Directive.of("worker_rlimit_nofile", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.number((CoreConf c, int v) -> c.rlimitNofile = v))
            .syntax("number").describe("Changes the limit on the maximum number of open files (RLIMIT_NOFILE) for "
                + "worker processes."),
        Directive.of("worker_rlimit_core", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.offset((CoreConf c, long v) -> c.rlimitCore = v))
            .syntax("size").describe("Changes the limit on the largest size of a core file (RLIMIT_CORE) for worker "
                + "processes."),
        Directive.of("worker_shutdown_timeout", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.msec((CoreConf c, long v) -> c.shutdownTimeout = v))
            .syntax("time").describe("Configures a timeout for a graceful shutdown of worker processes; when it "
                + "expires, the connections still open are closed."),
        Directive.of("worker_warmup", MAIN, Arity.TAKE1, CoreConf.class, MainCoreModule::warmUp)
            .syntax("off", "time").defaults("off").describe("Jinx: the longest time a worker process that a reload "
                + "started runs requests of its own, before it reports ready and the old workers stop, so that "
                + "its code is compiled before it serves; it ends sooner once the JIT compiler is idle. Run by "
                + "root, such a worker starts under SCHED_IDLE, on CPU time the old workers leave."),
        Directive.of("working_directory", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.str((CoreConf c, String v) -> c.workingDirectory = Path.of(v)))
            .syntax("directory").describe("Defines the current working directory for a worker process."),
        Directive.of("env", MAIN, Arity.TAKE1, CoreConf.class,
            Slots.strArray((CoreConf c, String v) -> c.env.add(v))).multi()
            .syntax("variable[=value]").defaults("TZ").describe("Preserves, changes or sets environment variables "
                + "for worker processes; all others but TZ are removed."),
        Directive.of("load_module", MAIN, Arity.TAKE1, CoreConf.class, MainCoreModule::loadModule).multi()
            .syntax("file").describe("Loads a dynamic module: a jar, or a directory of jars, whose modules join the "
                + "configuration."));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new CoreConf();
    }

    @Override
    public void initConf(Cycle cycle, Object conf) throws ConfException {
        CoreConf c = (CoreConf) conf;
        c.daemon = Conf.init(c.daemon, 1);
        c.masterProcess = Conf.init(c.masterProcess, 1);
        c.timerResolution = Conf.init(c.timerResolution, 0);
        c.shutdownTimeout = Conf.init(c.shutdownTimeout, 0);
        c.warmUp = Conf.init(c.warmUp, DEFAULT_WARMUP_MS);
        c.workerProcesses = Conf.init(c.workerProcesses, 1);
        if (c.pid == null) {
            c.pid = cycle.prefix().resolve("logs/jinx.pid");
        }
        if (!c.cpuAffinityAuto && c.cpuAffinity.size() > 1 && c.cpuAffinity.size() != c.workerProcesses) {
            cycle.log().warn("the number of \"worker_processes\" is not equal to the number of "
                + "\"worker_cpu_affinity\" masks, using last mask for remaining worker processes");
        }
        if (c.uid == Conf.UNSET && Syscalls.geteuid() == 0) {
            defaultUser(c);
        }
    }

    /** As nginx's compiled-in {@code NGX_USER} and {@code NGX_GROUP}: nobody, and nogroup where it exists. */
    private static void defaultUser(CoreConf c) throws ConfException {
        c.uid = Syscalls.getpwnam("nobody");
        if (c.uid == -1) {
            throw new ConfException("getpwnam(\"nobody\") failed");
        }
        c.user = "nobody";
        c.group = Syscalls.getgrnam("nogroup") != -1 ? "nogroup" : "nobody";
        c.gid = Syscalls.getgrnam(c.group);
        if (c.gid == -1) {
            throw new ConfException("getgrnam(\"" + c.group + "\") failed");
        }
    }

    private static void workerProcesses(ConfContext cf, CoreConf c) throws ConfException {
        String value = cf.arg(1);
        if (value.equals("auto")) {
            c.workerProcesses = Runtime.getRuntime().availableProcessors();
            c.workerProcessesAuto = true;
            return;
        }
        c.workerProcesses = ConfValues.parseNumber(value);
        if (c.workerProcesses == -1) {
            throw new ConfException("\"worker_processes\" directive invalid value");
        }
    }

    private static void user(ConfContext cf, CoreConf c) throws ConfException {
        if (Syscalls.geteuid() != 0) {
            cf.log(LogLevel.WARN, "the \"user\" directive makes sense only if the master process runs with "
                + "super-user privileges, ignored");
            return;
        }
        String user = cf.arg(1);
        String group = cf.args().size() == 2 ? user : cf.arg(2);
        int uid = Syscalls.getpwnam(user);
        if (uid == -1) {
            throw new ConfException("getpwnam(\"" + user + "\") failed");
        }
        int gid = Syscalls.getgrnam(group);
        if (gid == -1) {
            throw new ConfException("getgrnam(\"" + group + "\") failed");
        }
        c.user = user;
        c.group = group;
        c.uid = uid;
        c.gid = gid;
    }

    /** {@code worker_warmup off | time}: off is 0; a time of 0 is off too. */
    private static void warmUp(ConfContext cf, CoreConf c) throws ConfException {
        String value = cf.arg(1);
        if (value.equals("off")) {
            c.warmUp = 0;
            return;
        }
        long ms = ConfValues.parseTime(value, false);
        if (ms < 0) {
            throw new ConfException("\"worker_warmup\" directive invalid value");
        }
        c.warmUp = ms;
    }

    private static void priority(ConfContext cf, CoreConf c) throws ConfException {
        String value = cf.arg(1);
        boolean signed = !value.isEmpty() && (value.charAt(0) == '-' || value.charAt(0) == '+');
        int n = ConfValues.parseNumber(signed ? value.substring(1) : value);
        if (n == -1) {
            throw new ConfException("\"worker_priority\" directive invalid number");
        }
        c.priority = value.charAt(0) == '-' ? -n : n;
        c.prioritySet = true;
    }

    private static void cpuAffinity(ConfContext cf, CoreConf c) throws ConfException {
        List<String> args = cf.args();
        int first = 1;
        if (args.get(1).equals("auto")) {
            if (args.size() > 3) {
                throw new ConfException("invalid number of arguments in \"worker_cpu_affinity\" directive");
            }
            c.cpuAffinityAuto = true;
            BitSet all = new BitSet(CPU_SETSIZE);
            // nginx: the first min(ngx_ncpu, CPU_SETSIZE) CPUs
            all.set(0, Math.min(Runtime.getRuntime().availableProcessors(), CPU_SETSIZE));
            c.cpuAffinity.add(all);
            first = 2;
        }
        for (int n = first; n < args.size(); n++) {
            c.cpuAffinity.add(cpuMask(args.get(n)));
        }
    }

    /** A mask is written most significant CPU first: "0110" is CPUs 1 and 2; spaces are skipped, as in nginx. */
    private static BitSet cpuMask(String value) throws ConfException {
        if (value.length() > CPU_SETSIZE) {
            throw new ConfException("\"worker_cpu_affinity\" supports up to " + CPU_SETSIZE + " CPUs only");
        }
        BitSet mask = new BitSet();
        int cpu = 0;
        for (int p = value.length() - 1; p >= 0; p--) {
            char ch = value.charAt(p);
            if (ch == ' ') {
                continue;
            }
            if (ch == '1') {
                mask.set(cpu);
            } else if (ch != '0') {
                throw new ConfException("invalid character \"" + ch + "\" in \"worker_cpu_affinity\"");
            }
            cpu++;
        }
        return mask;
    }

    private static void loadModule(ConfContext cf, CoreConf c) throws ConfException {
        KernelCycle cycle = (KernelCycle) cf.cycle();
        if (cycle.modulesUsed()) {
            throw new ConfException("\"load_module\" directive is specified too late");
        }
        ModuleLayer parent = ModuleJarLoader.kernelLayer();
        if (parent == null) {
            throw new ConfException(ModuleJarLoader.NEEDS_MODULE_PATH);
        }
        Path path = cf.resolve(cf.arg(1));
        // a master building a cycle to serve loads the copy in the module cache, which its workers load too
        Path jar = cycle.fileSource().moduleJar(path);
        List<JinxModule> modules;
        try {
            modules = ModuleJarLoader.load(jar, parent, MainCoreModule.class.getClassLoader());
        } catch (ConfException e) {
            if (jar.equals(path)) {
                throw e;
            }
            // the cache is the kernel's business: errors name the jar as the configuration does
            throw new ConfException(e.text().replace(jar.toString(), path.toString()), e.getCause());
        }
        cycle.addModules(modules, path);
        cycle.loadedAt(path, cf.file(), cf.line());
    }
}
