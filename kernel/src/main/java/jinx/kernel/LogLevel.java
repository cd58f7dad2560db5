package jinx.kernel;

/**
 * The error log's levels, most severe first, with nginx's names.
 */
public enum LogLevel {
    /** The server cannot go on. */
    EMERG,
    /** Action must be taken at once. */
    ALERT,
    /** A critical condition. */
    CRIT,
    /** An error. */
    ERROR,
    /** A warning. */
    WARN,
    /** Normal but significant. */
    NOTICE,
    /** Information. */
    INFO,
    /** Debugging. */
    DEBUG;

    /**
     * Returns the level's name as nginx writes it ({@code "emerg"}).
     *
     * @return the name
     */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Returns the level named {@code name} ({@code "warn"}), or null.
     *
     * @param name the name
     * @return the level, or null when there is none of that name
     */
    public static LogLevel byLabel(String name) {
        for (LogLevel level : values()) {
            if (level.label().equals(name)) {
                return level;
            }
        }
        return null;
    }
}
