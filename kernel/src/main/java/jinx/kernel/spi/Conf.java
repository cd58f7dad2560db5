package jinx.kernel.spi;

/**
 * Unset markers and merge helpers for conf objects, nginx's {@code NGX_CONF_UNSET} and
 * {@code ngx_conf_merge_*_value}. A conf object starts with every field unset; directives set some; merging
 * fills the rest from the enclosing context or the default. After merging a conf object is not changed again.
 */
public final class Conf {

    /** An unset {@code int} field (numbers, flags as 0/1, enums as ordinals). */
    public static final int UNSET = -1;

    /** An unset {@code long} field (sizes, offsets, times). */
    public static final long UNSET_LONG = -1L;

    private Conf() {
    }

    /**
     * Returns the child's value if set, else the parent's if set, else the default.
     *
     * @param child the inner context's value
     * @param parent the outer context's value
     * @param dflt the default
     * @return the merged value
     */
    public static int merge(int child, int parent, int dflt) {
        if (child != UNSET) {
            return child;
        }
        return parent != UNSET ? parent : dflt;
    }

    /**
     * Returns the child's value if set, else the parent's if set, else the default.
     *
     * @param child the inner context's value
     * @param parent the outer context's value
     * @param dflt the default
     * @return the merged value
     */
    public static long merge(long child, long parent, long dflt) {
        if (child != UNSET_LONG) {
            return child;
        }
        return parent != UNSET_LONG ? parent : dflt;
    }

    /**
     * Returns the child's value if not null, else the parent's if not null, else the default.
     *
     * @param child the inner context's value
     * @param parent the outer context's value
     * @param dflt the default
     * @param <T> the value's type
     * @return the merged value
     */
    public static <T> T merge(T child, T parent, T dflt) {
        if (child != null) {
            return child;
        }
        return parent != null ? parent : dflt;
    }

    /**
     * Returns the value if set, else the default: nginx's {@code ngx_conf_init_value}, for main confs.
     *
     * @param value the value
     * @param dflt the default
     * @return the value or the default
     */
    public static int init(int value, int dflt) {
        return value != UNSET ? value : dflt;
    }

    /**
     * Returns the value if set, else the default: nginx's {@code ngx_conf_init_msec_value} and kin.
     *
     * @param value the value
     * @param dflt the default
     * @return the value or the default
     */
    public static long init(long value, long dflt) {
        return value != UNSET_LONG ? value : dflt;
    }
}
