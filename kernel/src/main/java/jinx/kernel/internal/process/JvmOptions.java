package jinx.kernel.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jinx.kernel.internal.IoErrors;

/**
 * The JVM options of a Jinx server, from one file that {@code bin/jinx} reads for the master JVM and the master
 * reads for its workers: {@code bin/jvm.options} beside the launcher, or the file the environment variable
 * {@value #FILE_ENV} names instead. The launcher passes the file it read to the master as the system property
 * {@value #FILE_PROPERTY} (empty: none), so both read the same one.
 *
 * <p>The format: one option per line, the whole line (trimmed) being one argument, so a value may hold spaces;
 * blank lines and lines starting with {@code #} are skipped. {@code master: OPTION} applies to the master JVM
 * only, {@code worker: OPTION} to the worker JVMs only, any other line to both. The launcher parses the same
 * way (bin/jinx).
 *
 * @param master the master JVM's options, in the file's order
 * @param worker the worker JVMs' options, in the file's order
 */
public record JvmOptions(List<String> master, List<String> worker) {

    /** The system property naming the file the launcher read; empty when it read none. */
    public static final String FILE_PROPERTY = "jinx.jvm.options";

    /** The environment variable naming a file that replaces {@code bin/jvm.options}. */
    public static final String FILE_ENV = "JINX_JVM_OPTIONS_FILE";

    /** No options. */
    public static final JvmOptions NONE = new JvmOptions(List.of(), List.of());

    private static final String MASTER = "master:";
    private static final String WORKER = "worker:";

    /**
     * Copies the lists.
     *
     * @param master the master's options
     * @param worker the workers' options
     */
    public JvmOptions {
        master = List.copyOf(master);
        worker = List.copyOf(worker);
    }

    /**
     * Parses the lines of an options file.
     *
     * @param lines the lines
     * @return the options
     */
    public static JvmOptions parse(List<String> lines) {
        List<String> master = new ArrayList<>();
        List<String> worker = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith(MASTER)) {
                addStripped(master, line.substring(MASTER.length()));
            } else if (line.startsWith(WORKER)) {
                addStripped(worker, line.substring(WORKER.length()));
            } else {
                master.add(line);
                worker.add(line);
            }
        }
        return new JvmOptions(master, worker);
    }

    private static void addStripped(List<String> to, String option) {
        String o = option.strip();
        if (!o.isEmpty()) {
            to.add(o);
        }
    }

    /**
     * Reads an options file.
     *
     * @param file the file
     * @return the options
     * @throws IOException {@code open() "file" failed (reason)}
     */
    public static JvmOptions read(Path file) throws IOException {
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IOException("open() \"" + file + "\" failed (" + IoErrors.reason(e) + ")", e);
        }
    }

    /**
     * Returns the file this server's options come from: {@value #FILE_PROPERTY} when the launcher set it, else
     * {@value #FILE_ENV}, else none (a JVM started otherwise, such as a test's).
     *
     * @param property the property's value, or null
     * @param env the environment
     * @return the file, or null
     */
    public static Path locate(String property, Map<String, String> env) {
        if (property != null) {
            return property.isEmpty() ? null : Path.of(property);
        }
        String file = env.get(FILE_ENV);
        return file == null || file.isEmpty() ? null : Path.of(file);
    }
}
