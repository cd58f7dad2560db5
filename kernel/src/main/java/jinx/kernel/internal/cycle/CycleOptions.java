package jinx.kernel.internal.cycle;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import jinx.kernel.ErrorLog;
import jinx.kernel.spi.JinxModule;

/**
 * What a cycle is built from besides the old cycle: the command line's prefix, configuration file, {@code -g}
 * directives and {@code -e} error log, and where the built-in modules come from.
 *
 * @param prefix the absolute prefix ({@code -p})
 * @param confFile the absolute main configuration file ({@code -c})
 * @param params the {@code -g} directives, or null
 * @param errorLog the {@code -e} error log: null for the default {@code logs/error.log}, {@code "stderr"}, or
 *     a path relative to the prefix
 * @param purpose what the cycle is for
 * @param staticModules the built-in modules, fresh instances on every call
 * @param builtinOrder the fixed order of the built-in modules
 * @param stderr the stream standing for stderr
 * @param log the log in force while the first cycle is built (the early log)
 * @param parsed called once the configuration is parsed, before the rest of the checks (nginx prints
 *     "syntax is ok" there)
 * @param snapshot what a worker's cycle is built from ({@link Purpose#WORKER}), null for every other purpose;
 *     {@link ConfSnapshot#workerOptions} makes these options
 */
public record CycleOptions(Path prefix, Path confFile, String params, String errorLog, Purpose purpose,
                           Supplier<List<JinxModule>> staticModules, List<String> builtinOrder,
                           PrintStream stderr, ErrorLog log, Runnable parsed, ConfSnapshot snapshot) {

    /** What a cycle is built for. */
    public enum Purpose {
        /** To serve. */
        RUN,
        /**
         * To serve in memory (embedded use, the test kit's socketless mode): shared zones created, no listening
         * socket opened, no snapshot; connections are {@link jinx.kernel.MemoryConnection}s.
         */
        MEMORY,
        /** To test the configuration ({@code -t}, {@code -T}, {@code -m}, {@code -l}). */
        TEST,
        /** To find the pid file and signal the master ({@code -s}): stops after the core confs. */
        SIGNAL,
        /**
         * To serve in a worker, attached to what its master made ({@link CycleBuilder#attach}): the master's
         * snapshot parsed again, no {@code initModule}, the listening sockets inherited.
         */
        WORKER
    }

    /**
     * Checks the options.
     *
     * @param prefix the absolute prefix
     * @param confFile the absolute main configuration file
     * @param params the {@code -g} directives, or null
     * @param errorLog the {@code -e} error log, or null
     * @param purpose what the cycle is for
     * @param staticModules the built-in modules
     * @param builtinOrder the fixed order of the built-in modules
     * @param stderr the stream standing for stderr
     * @param log the early log
     * @param parsed called once the configuration is parsed
     * @param snapshot the master's snapshot, for {@link Purpose#WORKER} only
     */
    public CycleOptions {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(confFile, "confFile");
        Objects.requireNonNull(staticModules, "staticModules");
        Objects.requireNonNull(builtinOrder, "builtinOrder");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(purpose, "purpose");
        if ((purpose == Purpose.WORKER) != (snapshot != null)) {
            throw new IllegalArgumentException("a snapshot goes with purpose WORKER, and only with it");
        }
    }

    /**
     * Options for every purpose but {@link Purpose#WORKER}: no snapshot.
     *
     * @param prefix the absolute prefix
     * @param confFile the absolute main configuration file
     * @param params the {@code -g} directives, or null
     * @param errorLog the {@code -e} error log, or null
     * @param purpose what the cycle is for
     * @param staticModules the built-in modules
     * @param builtinOrder the fixed order of the built-in modules
     * @param stderr the stream standing for stderr
     * @param log the early log
     * @param parsed called once the configuration is parsed
     */
    public CycleOptions(Path prefix, Path confFile, String params, String errorLog, Purpose purpose,
                        Supplier<List<JinxModule>> staticModules, List<String> builtinOrder, PrintStream stderr,
                        ErrorLog log, Runnable parsed) {
        this(prefix, confFile, params, errorLog, purpose, staticModules, builtinOrder, stderr, log, parsed, null);
    }
}
