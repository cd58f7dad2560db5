package jinx.kernel.spi;

/**
 * Unset markers and merge helpers for conf objects, nginx's {@code NGX_CONF_UNSET} and
 * {@code ngx_conf_merge_*_value}. A conf object starts with every field unset; directives set some; merging
 * fills the rest from the enclosing context or the default. After merging a conf object is not changed again.
 *
 * <p>nginx's macros and their counterparts here: {@code ngx_conf_merge_value}, {@code _uint_value},
 * {@code _msec_value} and {@code _sec_value} are {@link #merge(int, int, int)} or {@link #merge(long, long, long)}
 * on a field starting at {@link #UNSET} or {@link #UNSET_LONG}; {@code _size_value} and {@code _off_value} are
 * {@link #merge(long, long, long)}; {@code _ptr_value} and {@code _str_value} are {@link #merge(Object, Object,
 * Object)} on a field starting null; {@code _bitmask_value} is {@link #mergeBitmask} on a field starting at 0
 * (what {@link Slots#bitmask} sets). In a module's {@code mergeLocConf}:
 *
 * <pre>{@code
 * conf.repeat = Conf.merge(conf.repeat, prev.repeat, 1);
 * conf.text = Conf.merge(conf.text, prev.text, "Hello, world");
 * }</pre>
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

    /**
     * Returns the child's bits if any is set, else the parent's if any, else the default: nginx's
     * {@code ngx_conf_merge_bitmask_value}, for a field that starts at 0 and that {@link Slots#bitmask} sets.
     * Added in SPI 1.3.
     *
     * @param child the inner context's bits
     * @param parent the outer context's bits
     * @param dflt the default bits
     * @return the merged bits
     */
    public static int mergeBitmask(int child, int parent, int dflt) {
        if (child != 0) {
            return child;
        }
        return parent != 0 ? parent : dflt;
    }
}
