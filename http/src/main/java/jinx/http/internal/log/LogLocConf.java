package jinx.http.internal.log;

import java.util.List;

/**
 * The {@code access_log}s of a context: nginx's {@code ngx_http_log_loc_conf_t}.
 */
public final class LogLocConf {

    /** The logs, in the order of their directives; null until set or merged. */
    List<AccessLog> logs;
    /** {@code access_log off}. */
    boolean off;

    /**
     * An unset conf.
     */
    public LogLocConf() {
    }

    /**
     * Tells whether nothing is logged here.
     *
     * @return true for {@code access_log off}
     */
    public boolean isOff() {
        return off;
    }

    /**
     * Returns the number of logs written here.
     *
     * @return the count, 0 when off or unset
     */
    public int count() {
        return off || logs == null ? 0 : logs.size();
    }
}
