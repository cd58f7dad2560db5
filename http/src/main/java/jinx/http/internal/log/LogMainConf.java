package jinx.http.internal.log;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code log_format}s of an {@code http {}} block and the files its logs write: nginx's
 * {@code ngx_http_log_main_conf_t} and the log part of {@code cycle->open_files}.
 */
public final class LogMainConf {

    /** The predefined format's name. */
    static final String COMBINED = "combined";

    /** nginx's {@code NGX_HTTP_LOG_PATH}, relative to the prefix. */
    static final String DEFAULT_PATH = "logs/access.log";

    /** The formats by name, {@code combined} first (compiled in postconfiguration, when used). */
    final Map<String, LogFormat> formats = new LinkedHashMap<>();
    /** Some log uses {@code combined}. */
    boolean combinedUsed;
    /** The files, one per absolute path. */
    final Map<Path, LogFile> files = new LinkedHashMap<>();
    /** The prefix relative paths resolve against. */
    Path prefix = Path.of("").toAbsolutePath();

    private AccessLog defaultLog;

    /**
     * A conf with the {@code combined} format, not compiled yet.
     */
    public LogMainConf() {
        formats.put(COMBINED, new LogFormat(COMBINED));
    }

    /**
     * Returns the file of a path, the same for every log naming it.
     *
     * @param path the absolute path
     * @return the file
     */
    LogFile file(Path path) {
        return files.computeIfAbsent(path.normalize(), LogFile::new);
    }

    /**
     * Returns the log of a context with no {@code access_log}: {@code logs/access.log combined}.
     *
     * @return the log
     */
    AccessLog defaultLog() {
        if (defaultLog == null) {
            combinedUsed = true;
            defaultLog = new AccessLog(file(prefix.resolve(DEFAULT_PATH)), formats.get(COMBINED), null);
        }
        return defaultLog;
    }

    /**
     * Finds a format by name, ignoring case as nginx's {@code ngx_strcasecmp()} does for {@code access_log}.
     *
     * @param name the name
     * @return the format, or null
     */
    LogFormat format(String name) {
        for (LogFormat f : formats.values()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        return null;
    }

    /**
     * Returns the files.
     *
     * @return the files, in the order first named
     */
    Collection<LogFile> files() {
        return files.values();
    }
}
