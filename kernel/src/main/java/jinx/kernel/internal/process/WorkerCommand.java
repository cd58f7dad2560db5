package jinx.kernel.internal.process;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.os.JinxIoLibrary;
import jinx.kernel.os.Processes;

/**
 * How the master starts a worker JVM: its command line and its environment.
 *
 * <p>The command: this JVM's {@code java}, the {@code worker:} and common options of the server's
 * {@link JvmOptions} file, then what every worker needs whatever the file says (later options win in HotSpot):
 * {@code -Xrs} (DESIGN 6a: the JVM installs no handler for the signals the worker reads from its signalfd),
 * {@code -XX:+ExitOnOutOfMemoryError} (a worker whose heap is exhausted exits and is respawned, never lingers),
 * {@code -XX:-UsePerfData} (no {@code /tmp/hsperfdata} file per worker), {@code -XX:ActiveProcessorCount=1}
 * (one loop thread: the JVM sizes its GC and compiler threads and common pool for one processor, so N workers do
 * not each start threads for every CPU) and {@code -Djffi.boot.library.path} (jffi's native library, unpacked
 * once beside the kernel's jar at build time, is loaded from there instead of extracted into java.io.tmpdir by
 * every JVM); then the master's module path (or class path) and {@link WorkerMain}.
 *
 * <p>The environment: nginx's {@code ngx_set_environment()}, which leaves a worker only the variables the
 * {@code env} directive names ({@code NAME} keeps the master's value, {@code NAME=value} sets one) and {@code TZ};
 * plus what the JVM itself needs and an {@code env} list cannot be expected to name: {@code _JAVA_SR_SIGNUM=39}
 * (DESIGN 6a), {@code JAVA_HOME}, {@code LD_LIBRARY_PATH} (native libraries the JVM or a module loads) and the
 * locale variables (they fix {@code sun.jnu.encoding}, so a worker decodes file names as its master did).
 */
public final class WorkerCommand {

    /** The options every worker JVM gets after the file's. */
    static final List<String> REQUIRED = List.of("-Xrs", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData",
        "-XX:ActiveProcessorCount=1");

    /** The property naming the AppCDS archive the launcher made (bin/jinx); workers map the same one. */
    static final String CDS_PROPERTY = "jinx.cds";

    /** jffi's module name on the module path (its jar's {@code Automatic-Module-Name}). */
    static final String JFFI_MODULE = "org.jnrproject.jffi";

    /** The kernel's module name, which needs native access too on Java 22+ (its FFM memory access). */
    static final String KERNEL_MODULE = "jinx.kernel";

    /** The property naming the directory of jffi's native library. */
    static final String JFFI_PATH = JinxIoLibrary.LIBRARY_PATH;

    /** What the JVM needs from the master's environment, kept whatever {@code env} says. */
    static final List<String> JVM_ENV = List.of("JAVA_HOME", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "LC_CTYPE");

    /** The signal HotSpot uses to suspend threads, moved off SIGUSR2 (DESIGN 6a). */
    static final String SR_SIGNUM = "_JAVA_SR_SIGNUM=39";

    private static JvmOptions options;

    private WorkerCommand() {
    }

    /**
     * Returns the worker JVM's command line up to {@link WorkerMain}'s arguments, with the options of the file
     * this server's launcher read (read once, at the first call: a reload does not change the JVMs, as nginx's
     * reload does not change its binary).
     *
     * @return the command
     */
    public static List<String> javaCommand() {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String modulePath = System.getProperty("jdk.module.path");
        boolean named = WorkerMain.class.getModule().isNamed() && modulePath != null;
        String cds = System.getProperty(CDS_PROPERTY);
        return command(java, options().worker(), jffiPath(), cds == null || cds.isEmpty() ? null : Path.of(cds),
            named ? modulePath : null, System.getProperty("java.class.path"));
    }

    /**
     * Builds a worker's command line.
     *
     * @param java the {@code java} binary
     * @param fileOptions the options file's worker options
     * @param jffiPath jffi's native library directory, or null
     * @param modulePath the module path when the kernel runs on it, else null
     * @param classPath the class path, used when {@code modulePath} is null
     * @return the command
     */
    static List<String> command(String java, List<String> fileOptions, Path jffiPath, String modulePath,
                                String classPath) {
        return command(java, fileOptions, jffiPath, null, modulePath, classPath);
    }

    /**
     * Builds a worker's command line, with the launcher's class-data sharing archive.
     *
     * @param java the {@code java} binary
     * @param fileOptions the options file's worker options
     * @param jffiPath jffi's native library directory, or null
     * @param cds the AppCDS archive the master runs with ({@value #CDS_PROPERTY}), or null
     * @param modulePath the module path when the kernel runs on it, else null
     * @param classPath the class path, used when {@code modulePath} is null
     * @return the command
     */
    static List<String> command(String java, List<String> fileOptions, Path jffiPath, Path cds, String modulePath,
                                String classPath) {
        List<String> argv = new ArrayList<>();
        argv.add(java);
        argv.addAll(fileOptions);
        argv.addAll(REQUIRED);
        if (cds != null) {
            // the archive holds the classes of this module path: a worker maps them instead of loading them
            // (ready sooner, less private memory); an archive that no longer matches the jars is ignored quietly
            argv.add("-XX:SharedArchiveFile=" + cds);
            argv.add("-Xlog:cds=off");
            argv.add("-Xlog:cds+dynamic=off");
        }
        if (jffiPath != null) {
            argv.add("-D" + JFFI_PATH + "=" + jffiPath);
        }
        argv.addAll(newerJvmOptions(Runtime.version().feature(), modulePath != null
            && ModuleLayer.boot().findModule(JFFI_MODULE).isPresent()));
        if (modulePath != null) {
            argv.addAll(List.of("-p", modulePath, "--add-modules", "ALL-MODULE-PATH", "-m",
                WorkerMain.class.getModule().getName() + "/" + WorkerMain.class.getName()));
        } else {
            argv.addAll(List.of("-cp", classPath, WorkerMain.class.getName()));
        }
        return argv;
    }

    /**
     * The options that keep a newer JVM from warning at every worker's start (issue #36), only where the JVM
     * knows them: native access (Java 22+ warns) for jffi, which calls {@code System.load}, and for the kernel,
     * whose memory access goes through the FFM API there ({@code MemorySegment.reinterpret}; the modules' names on
     * the module path, {@code ALL-UNNAMED} on the class path), and {@code sun.misc.Unsafe}'s memory access, which
     * jffi still uses (JEP 471: Java 23+ knows the option, 24+ warns; the kernel itself uses Unsafe on 17 to 21
     * only). bin/jinx gives the master the same, and the tests every child JVM they start.
     *
     * @param feature the JVM's feature version
     * @param named whether jffi and the kernel are the named modules {@value #JFFI_MODULE} and
     *     {@code jinx.kernel} (the module path)
     * @return the options, empty on Java 17 to 21
     */
    public static List<String> newerJvmOptions(int feature, boolean named) {
        List<String> options = new ArrayList<>();
        if (feature >= 22) {
            options.add("--enable-native-access=" + (named ? JFFI_MODULE + "," + KERNEL_MODULE : "ALL-UNNAMED"));
        }
        if (feature >= 23) {
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        return options;
    }

    private static synchronized JvmOptions options() {
        if (options == null) {
            options = JvmOptions.NONE;
            Path file = JvmOptions.locate(System.getProperty(JvmOptions.FILE_PROPERTY), System.getenv());
            if (file != null) {
                try {
                    options = JvmOptions.read(file);
                } catch (IOException e) {
                    // the launcher read it a moment ago; the workers start without its options rather than not
                    System.err.print("jinx: [alert] " + e.getMessage() + ", the worker processes start without "
                        + "its options\n");
                }
            }
        }
        return options;
    }

    /**
     * Returns the directory of jffi's native library: this JVM's own {@value #JFFI_PATH} (the launcher sets it),
     * else {@code native/} beside the kernel's jar or classes, where the build unpacks it; null when neither has
     * it.
     *
     * @return the directory, or null
     */
    static Path jffiPath() {
        String own = System.getProperty(JFFI_PATH);
        if (own != null && !own.isEmpty()) {
            return Path.of(own);
        }
        CodeSource source = WorkerCommand.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return null;
        }
        try {
            Path dir = Path.of(source.getLocation().toURI()).getParent().resolve("native");
            return Files.isRegularFile(dir.resolve(System.mapLibraryName("jffi-1.2"))) ? dir : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Returns a worker's environment for this cycle's {@code env} directives, from this process's environment.
     *
     * @param env the {@code env} directives' values, {@code NAME} or {@code NAME=value}
     * @return the variables, {@code NAME=value}
     */
    public static List<String> environment(List<String> env) {
        return environment(env, Processes.environment());
    }

    /**
     * Returns a worker's environment: nginx's {@code ngx_set_environment()} over {@code master}, plus what the
     * JVM needs.
     *
     * @param env the {@code env} directives' values, {@code NAME} or {@code NAME=value}
     * @param master the master's environment, {@code NAME=value}
     * @return the variables, {@code NAME=value}, each name once
     */
    static List<String> environment(List<String> env, List<String> master) {
        Map<String, String> from = new LinkedHashMap<>();
        for (String e : master) {
            int eq = e.indexOf('=');
            if (eq > 0) {
                from.putIfAbsent(e.substring(0, eq), e);
            }
        }
        Map<String, String> to = new LinkedHashMap<>();
        for (String name : JVM_ENV) {
            keep(to, from, name);
        }
        boolean tz = false;
        for (String v : env) {
            int eq = v.indexOf('=');
            String name = eq == -1 ? v : v.substring(0, eq);
            tz |= name.equals("TZ");
            if (eq == -1) {
                keep(to, from, name);
            } else {
                to.put(name, v);
            }
        }
        if (!tz) {
            // nginx keeps TZ even when no env directive names it
            keep(to, from, "TZ");
        }
        // the JVM's own signal set-up is never the configuration's to change
        to.put("_JAVA_SR_SIGNUM", SR_SIGNUM);
        return new ArrayList<>(to.values());
    }

    private static void keep(Map<String, String> to, Map<String, String> from, String name) {
        String e = from.get(name);
        if (e != null) {
            to.put(name, e);
        }
    }
}
