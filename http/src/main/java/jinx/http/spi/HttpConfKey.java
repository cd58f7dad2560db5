package jinx.http.spi;

import java.util.Objects;

/**
 * A typed handle on one module's conf objects: its index among HTTP modules and the class of the conf. Made once
 * per configuration with {@link HttpConfig#confKey}, kept in a field of the module (the kernel makes a module
 * instance per cycle), and used on every request without a cast in the module's code:
 *
 * <pre>{@code
 * private HttpConfKey<HelloLocConf> loc;
 *
 * public void postconfiguration(HttpConfig cf) throws ConfException {
 *     loc = cf.confKey(this, HelloLocConf.class);
 *     cf.addPhaseHandler(Phase.CONTENT, this::handler);
 * }
 *
 * private int handler(HttpRequest r) {
 *     HelloLocConf conf = r.locConf(loc);
 *     ...
 * }
 * }</pre>
 *
 * The same key reads a main, server or location conf ({@code r.mainConf(key)}, {@code r.srvConf(key)},
 * {@code r.locConf(key)}); a module whose confs at those levels are of different classes makes a key for each.
 * Added in SPI 1.3.
 *
 * @param <T> the conf's class
 */
public final class HttpConfKey<T> {

    private final int ctxIndex;
    private final Class<T> type;

    private HttpConfKey(int ctxIndex, Class<T> type) {
        this.ctxIndex = ctxIndex;
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Returns a key for the confs at an index: {@link HttpConfig#confKey} finds the index of a module.
     *
     * @param ctxIndex the module's index among HTTP modules ({@link HttpConfig#ctxIndex})
     * @param type the conf's class
     * @param <T> the conf's class
     * @return the key
     */
    public static <T> HttpConfKey<T> of(int ctxIndex, Class<T> type) {
        if (ctxIndex < 0) {
            throw new IllegalArgumentException("no HTTP module index: " + ctxIndex);
        }
        return new HttpConfKey<>(ctxIndex, type);
    }

    /**
     * Returns the module's index among HTTP modules.
     *
     * @return the index
     */
    public int ctxIndex() {
        return ctxIndex;
    }

    /**
     * Returns the conf's class.
     *
     * @return the class
     */
    public Class<T> type() {
        return type;
    }

    /**
     * Casts a conf object to the key's class: for the {@code Object} parameters of
     * {@link HttpModule#mergeLocConf} and its kin.
     *
     * @param conf the conf object, or null
     * @return the same object, typed
     * @throws ClassCastException when it is of another class
     */
    public T cast(Object conf) {
        return type.cast(conf);
    }

    @Override
    public String toString() {
        return "HttpConfKey[" + ctxIndex + ", " + type.getName() + "]";
    }
}
